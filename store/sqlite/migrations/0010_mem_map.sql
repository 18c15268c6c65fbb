-- The current memory map of every memoryRef (agent-manifest 3.2.6.1): one row per
-- key whose ACTIVE version memgov applied, holding that version's canonical
-- content fragment. It is the left fold of mem_ops, maintained by the same
-- observer, so the snapshot hash and the governed map are one sequential range
-- scan in key order. Derived from the log. Edits made behind memgov's back land
-- in versions (and mem_dirty), never here: verification compares the two.
CREATE TABLE mem_map (
    memory_ref TEXT NOT NULL,
    key        TEXT NOT NULL,
    fragment   BLOB NOT NULL,                     -- canonical JSON of the ACTIVE version's content
    expires_at INTEGER,                           -- unix ms of that version's expiry
    PRIMARY KEY (memory_ref, key)
) STRICT, WITHOUT ROWID;

INSERT INTO mem_map (memory_ref, key, fragment, expires_at)
SELECT o.memory_ref, o.key, o.value, o.expires_at FROM mem_ops o
WHERE o.op = 'PUT' AND o.value IS NOT NULL
  AND o.idx = (SELECT MAX(i.idx) FROM mem_ops i WHERE i.memory_ref = o.memory_ref AND i.key = o.key);
