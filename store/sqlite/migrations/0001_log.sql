-- The append-only log: the source of truth. Every other table is derived from it.
CREATE TABLE log (
    lsn             INTEGER PRIMARY KEY,
    ts              INTEGER NOT NULL,             -- unix milliseconds, never decreasing
    op              TEXT    NOT NULL,
    memory_ref      TEXT    NOT NULL DEFAULT '',
    item_id         TEXT    NOT NULL DEFAULT '',
    version_id      TEXT    NOT NULL DEFAULT '',
    prev_version_id TEXT    NOT NULL DEFAULT '',
    actor           TEXT    NOT NULL,
    payload_hash    TEXT    NOT NULL,
    leaf            BLOB    NOT NULL,             -- agent-manifest 3.2.7.1 entry leaf
    chain           BLOB    NOT NULL              -- HMAC-SHA256(key, previous chain || leaf)
) STRICT;
CREATE INDEX log_by_ref ON log(memory_ref, lsn) WHERE memory_ref <> '';
CREATE INDEX log_by_item ON log(item_id, lsn) WHERE item_id <> '';
CREATE INDEX log_by_ts ON log(ts);

CREATE TRIGGER log_append_only_update BEFORE UPDATE ON log
BEGIN SELECT RAISE(ABORT, 'memgov: the log is append-only; rows cannot be updated'); END;
CREATE TRIGGER log_append_only_delete BEFORE DELETE ON log
BEGIN SELECT RAISE(ABORT, 'memgov: the log is append-only; rows cannot be deleted'); END;

-- Log payloads (content, reasons), kept apart so erasure can remove them while
-- the log's hashes still verify.
CREATE TABLE log_payload (
    lsn  INTEGER PRIMARY KEY REFERENCES log(lsn),
    body BLOB NOT NULL
) STRICT;
CREATE TRIGGER log_payload_no_update BEFORE UPDATE ON log_payload
BEGIN SELECT RAISE(ABORT, 'memgov: log payloads are immutable'); END;

-- Payloads removed by an erasure, and the erasure entry that removed them.
CREATE TABLE erased_payload (
    lsn       INTEGER PRIMARY KEY REFERENCES log(lsn),
    erased_by INTEGER NOT NULL REFERENCES log(lsn)
) STRICT;

-- Derived tables (rebuilt from the log by `memgov admin rebuild`).
CREATE TABLE principals (
    id          TEXT PRIMARY KEY,
    role        TEXT NOT NULL,
    tenant      TEXT NOT NULL,
    attributes  TEXT NOT NULL DEFAULT '{}',
    created_at  INTEGER NOT NULL,
    created_lsn INTEGER NOT NULL
) STRICT;

CREATE TABLE items (
    id              TEXT PRIMARY KEY,
    memory_ref      TEXT NOT NULL,
    key             TEXT NOT NULL,
    layer           TEXT NOT NULL,
    head_version_id TEXT NOT NULL DEFAULT '',
    pinned          INTEGER NOT NULL DEFAULT 0,
    classification  TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    created_lsn     INTEGER NOT NULL,
    UNIQUE (memory_ref, key)
) STRICT;

CREATE TABLE versions (
    id               TEXT PRIMARY KEY,
    item_id          TEXT NOT NULL REFERENCES items(id),
    memory_ref       TEXT NOT NULL,
    key              TEXT NOT NULL,
    layer            TEXT NOT NULL,
    seq              INTEGER NOT NULL,
    prev_id          TEXT NOT NULL DEFAULT '',
    merged_from      TEXT NOT NULL DEFAULT '',
    state            TEXT NOT NULL,
    content          BLOB,                         -- NULL once erased
    content_hash     TEXT NOT NULL,
    tags             TEXT NOT NULL DEFAULT '[]',
    confidence       REAL NOT NULL DEFAULT 0,
    validation_score REAL NOT NULL DEFAULT 0,
    classification   TEXT NOT NULL DEFAULT '',
    created_by       TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    created_lsn      INTEGER NOT NULL,
    active_from      INTEGER,                      -- LSN at which it became ACTIVE
    active_to        INTEGER,                      -- LSN at which it stopped being ACTIVE
    expires_at       INTEGER,                      -- unix milliseconds
    reason           TEXT NOT NULL DEFAULT '',
    UNIQUE (item_id, seq)
) STRICT;
CREATE INDEX versions_active ON versions(memory_ref, key) WHERE state = 'ACTIVE';
CREATE INDEX versions_history ON versions(memory_ref, active_from) WHERE active_from IS NOT NULL;

CREATE TABLE audit_checkpoints (
    seq         INTEGER PRIMARY KEY,
    root        BLOB NOT NULL,
    tree_size   INTEGER NOT NULL,
    observed_at INTEGER NOT NULL,
    ttl_seconds INTEGER NOT NULL,
    signature   TEXT NOT NULL,
    lsn         INTEGER NOT NULL
) STRICT;
