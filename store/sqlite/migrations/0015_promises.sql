-- What an idempotency token covered (memoryRef, key, content, agent, layer):
-- a replay of the token with another write is refused, not answered.
ALTER TABLE idempotency ADD COLUMN scope TEXT NOT NULL DEFAULT '';

-- The provenance class of each version (user_stated, tool_verified,
-- agent_inferred, recalled), from its write's log entry.
ALTER TABLE versions ADD COLUMN source TEXT NOT NULL DEFAULT '';

-- Reads not yet folded into access_days and retrieval_items (store/sqlite
-- reads.go): one row per read, its entries packed as JSON. Telemetry, not
-- derived from the log.
CREATE TABLE read_pending (
    seq          INTEGER PRIMARY KEY,
    retrieval_id TEXT NOT NULL,
    at           INTEGER NOT NULL,
    items        BLOB NOT NULL
) STRICT;

-- Quarantined versions (12.11.5), kept from the log: withheld from reads,
-- kept for investigation, released or retracted by a curator.
CREATE TABLE quarantine (
    version_id  TEXT PRIMARY KEY,
    item_id     TEXT NOT NULL,
    memory_ref  TEXT NOT NULL,
    tenant      TEXT NOT NULL,
    key         TEXT NOT NULL,
    agent       TEXT NOT NULL,
    cause       TEXT NOT NULL,
    status      TEXT NOT NULL,              -- QUARANTINED, RELEASED, RETRACTED
    at          INTEGER NOT NULL,
    lsn         INTEGER NOT NULL,
    decided_by  TEXT NOT NULL DEFAULT '',
    decided_at  INTEGER,
    note        TEXT NOT NULL DEFAULT '',
    released_as TEXT NOT NULL DEFAULT ''    -- the version a release created
) STRICT;
CREATE INDEX quarantine_open ON quarantine(tenant, status, at);
