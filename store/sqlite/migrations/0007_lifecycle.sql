-- Lifecycle, access control and compliance (issue 7; seed 001 12.7, 12.8, 12.10, 12.12).

-- Derived from the log (rebuilt by replay).

-- ANNOTATE entries: curation notes and verifier annotations (12.7.4 Mode 3, 12.8.2).
CREATE TABLE annotations (
    lsn     INTEGER PRIMARY KEY,
    item_id TEXT NOT NULL,
    actor   TEXT NOT NULL,
    kind    TEXT NOT NULL,
    note    TEXT NOT NULL DEFAULT '',
    at      INTEGER NOT NULL
) STRICT;
CREATE INDEX annotations_item ON annotations(item_id);

-- Lease-based write locks with fencing tokens (12.8.3). A row outlives its
-- release so that the next grant's token is strictly greater.
CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,            -- memoryRef '#' key
    holder     TEXT NOT NULL,
    token      INTEGER NOT NULL,
    granted_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    released   INTEGER NOT NULL DEFAULT 0,
    lsn        INTEGER NOT NULL
) STRICT;

-- ERASE entries: subject erasures, GC hard deletes and retention hard deletes.
CREATE TABLE erasures (
    lsn          INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,             -- subject, gc_hard_delete, retention
    request_id   TEXT NOT NULL,
    subject_hash TEXT NOT NULL DEFAULT '',  -- salted SHA-256, never the subject
    requested_at INTEGER NOT NULL,
    completed_at INTEGER NOT NULL,
    actor        TEXT NOT NULL,
    items        INTEGER NOT NULL,
    payloads     INTEGER NOT NULL,
    by_layer     TEXT NOT NULL DEFAULT '{}'
) STRICT;

-- Items whose content an ERASE entry removed.
CREATE TABLE purged_items (
    item_id TEXT PRIMARY KEY,
    lsn     INTEGER NOT NULL,
    kind    TEXT NOT NULL
) STRICT;

-- Workspaces (12.8.4) and their merge requests.
CREATE TABLE workspaces (
    ref        TEXT PRIMARY KEY,
    base_ref   TEXT NOT NULL,
    owner      TEXT NOT NULL,
    base_lsn   INTEGER NOT NULL,
    status     TEXT NOT NULL,               -- OPEN, SUBMITTED, MERGED, REJECTED
    request    TEXT NOT NULL DEFAULT '{}',  -- the merge request: changes and conflicts
    decided_by TEXT NOT NULL DEFAULT '',
    lsn        INTEGER NOT NULL
) STRICT;

-- Not derived: residue of erased payloads (no content) that replay needs.

-- The content-free skeleton of each erased payload, applied in its place
-- when `memgov admin rebuild` replays the entry.
CREATE TABLE erased_skeleton (
    lsn  INTEGER PRIMARY KEY,
    body BLOB NOT NULL
) STRICT;

-- The memory op log leaves of erased values: hashes stay, as in the log.
CREATE TABLE erased_leaves (
    memory_ref TEXT NOT NULL,
    idx        INTEGER NOT NULL,
    leaf       BLOB NOT NULL,
    PRIMARY KEY (memory_ref, idx)
) STRICT, WITHOUT ROWID;

-- Not derived: telemetry. Reads are not log entries (a read changes no memory);
-- they are counted here, one small write per read call.
CREATE TABLE access_days (
    item_id TEXT NOT NULL,
    day     INTEGER NOT NULL,               -- unix day
    n       INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    PRIMARY KEY (item_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE retrievals (
    id          TEXT PRIMARY KEY,
    at          INTEGER NOT NULL,
    principal   TEXT NOT NULL,
    memory_ref  TEXT NOT NULL,
    n           INTEGER NOT NULL,
    feedback_at INTEGER
) STRICT;
CREATE TABLE retrieval_items (
    retrieval_id TEXT NOT NULL,
    item_id      TEXT NOT NULL,
    staleness_ms INTEGER NOT NULL,
    used         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (retrieval_id, item_id)
) STRICT, WITHOUT ROWID;

-- The resumable GC cursor per layer (12.7.4 Mode 2).
CREATE TABLE gc_cursor (
    layer    TEXT PRIMARY KEY,
    after_id TEXT NOT NULL
) STRICT;

-- Lease grants and denials (lock contention rate, 12.12.6).
CREATE TABLE lease_stats (
    day     INTEGER PRIMARY KEY,
    granted INTEGER NOT NULL DEFAULT 0,
    denied  INTEGER NOT NULL DEFAULT 0
) STRICT;

-- The re-validation sweep (hallucination leakage, 12.12.5).
CREATE TABLE revalidations (
    version_id TEXT PRIMARY KEY,
    at         INTEGER NOT NULL,
    pass       INTEGER NOT NULL,
    score      REAL NOT NULL
) STRICT;
