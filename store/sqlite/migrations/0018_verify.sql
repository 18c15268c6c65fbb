-- A log payload leaves only by an erasure: the ERASE entry records the payload
-- in erased_payload first, then deletes it. Any other DELETE is refused, as is
-- every UPDATE (0001), so a payload cannot be swapped by DELETE plus INSERT.
CREATE TRIGGER log_payload_no_delete BEFORE DELETE ON log_payload
WHEN NOT EXISTS (SELECT 1 FROM erased_payload WHERE lsn = OLD.lsn)
BEGIN SELECT RAISE(ABORT, 'memgov: log payloads are removed only by an erasure'); END;

-- Not derived: the last replay that matched every served table (spec §3.2.7.1
-- continuity of what readers see). size and chain name the log it replayed,
-- digest the served tables' rows, and mac binds the three under the log key,
-- so `memgov audit verify` skips the replay while neither has changed.
CREATE TABLE verify_state (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    size   INTEGER NOT NULL,
    chain  BLOB NOT NULL,
    digest BLOB NOT NULL,
    mac    BLOB NOT NULL
) STRICT;

-- The ACTIVE versions that carry a TTL, by expiry: the expiry sweep (spec
-- §3.2.6.2, removal is an appended DEL) finds the due ones without a scan.
CREATE INDEX versions_expiring ON versions(memory_ref, expires_at) WHERE state = 'ACTIVE' AND expires_at IS NOT NULL;
