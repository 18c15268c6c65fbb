-- The fingerprint of the log key this database was created with:
-- hex(HMAC-SHA256(key, "memgov key fingerprint")). Open refuses a key whose
-- fingerprint differs before it writes anything, so a wrong or replaced key
-- cannot extend (and break) the chain. It is not derived from the log and is
-- never rebuilt.
CREATE TABLE key_meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- The places an erasure could not reach (memoryRefs and keys that contain the
-- subject's identifiers): a JSON array; non-empty marks the erasure INCOMPLETE.
ALTER TABLE erasures ADD COLUMN left_places TEXT NOT NULL DEFAULT '[]';
