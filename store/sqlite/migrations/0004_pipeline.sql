-- Indexes of the governed write path. Derived from the log (rebuilt by replay).

-- Dedup and contradiction index of every version that was staged or committed.
CREATE TABLE version_index (
    version_id   TEXT PRIMARY KEY,
    item_id      TEXT NOT NULL,
    memory_ref   TEXT NOT NULL,
    layer        TEXT NOT NULL,
    key          TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    fingerprint  BLOB NOT NULL,
    subject      TEXT NOT NULL DEFAULT '',
    predicate    TEXT NOT NULL DEFAULT '',
    object       TEXT NOT NULL DEFAULT '',
    embedding    BLOB
) STRICT;
CREATE INDEX version_index_hash ON version_index(memory_ref, content_hash);
CREATE INDEX version_index_fp ON version_index(memory_ref, fingerprint);
CREATE INDEX version_index_subject ON version_index(memory_ref, subject) WHERE subject <> '';

-- SimHash bands (band number << 16 | band value) for near-duplicate candidates.
CREATE TABLE version_bands (
    memory_ref TEXT NOT NULL,
    band       INTEGER NOT NULL,
    version_id TEXT NOT NULL,
    PRIMARY KEY (memory_ref, band, version_id)
) STRICT, WITHOUT ROWID;

-- MEMORY_ITEM evidence: which items a version cites (provenance cycles, erasure closure).
CREATE TABLE version_evidence (
    version_id     TEXT NOT NULL,
    item_id        TEXT NOT NULL,
    source_item_id TEXT NOT NULL,
    PRIMARY KEY (version_id, source_item_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX version_evidence_source ON version_evidence(source_item_id);

-- The human-in-the-loop review queue.
CREATE TABLE reviews (
    id            TEXT PRIMARY KEY,
    version_id    TEXT NOT NULL,
    item_id       TEXT NOT NULL,
    memory_ref    TEXT NOT NULL,
    tenant        TEXT NOT NULL,
    layer         TEXT NOT NULL,
    agent         TEXT NOT NULL,
    tier          TEXT NOT NULL,
    risk          REAL NOT NULL,
    reason        TEXT NOT NULL,
    detail        TEXT NOT NULL DEFAULT '{}',
    status        TEXT NOT NULL,               -- PENDING, ESCALATED, APPROVED, REJECTED
    created_at    INTEGER NOT NULL,
    due_at        INTEGER NOT NULL,            -- SLA (async) or deadline (sync)
    decided_by    TEXT NOT NULL DEFAULT '',
    decided_at    INTEGER,
    decision_code TEXT NOT NULL DEFAULT '',
    note          TEXT NOT NULL DEFAULT '',
    claim_holder  TEXT NOT NULL DEFAULT '',
    claim_token   INTEGER NOT NULL DEFAULT 0,
    claim_expires INTEGER NOT NULL DEFAULT 0,
    created_lsn   INTEGER NOT NULL
) STRICT;
CREATE INDEX reviews_open ON reviews(status, tier, risk DESC, created_at) WHERE status IN ('PENDING', 'ESCALATED');
CREATE INDEX reviews_version ON reviews(version_id);

-- The 24-hour idempotency registry (12.1.7).
CREATE TABLE idempotency (
    token      TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    item_id    TEXT NOT NULL,
    version_id TEXT NOT NULL,
    review_id  TEXT NOT NULL DEFAULT '',
    key        TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

-- The event outbox (memory.written, review.*, agent.suspended, ...). Content-free.
CREATE TABLE events (
    id         INTEGER PRIMARY KEY,
    lsn        INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    type       TEXT NOT NULL,
    memory_ref TEXT NOT NULL DEFAULT '',
    data       TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX events_type ON events(type, id);

ALTER TABLE principals ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0;

-- Every write outcome with its gate, reason and per-stage latency (metrics).
-- Operational telemetry, not memory: it is not part of the log.
CREATE TABLE write_outcomes (
    id         INTEGER PRIMARY KEY,
    at         INTEGER NOT NULL,
    agent      TEXT NOT NULL,
    layer      TEXT NOT NULL,
    memory_ref TEXT NOT NULL,
    session_id TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    gate       TEXT NOT NULL DEFAULT '',
    latency_us INTEGER NOT NULL,
    stages     TEXT NOT NULL DEFAULT '{}'
) STRICT;
CREATE INDEX write_outcomes_rate ON write_outcomes(agent, layer, at);
CREATE INDEX write_outcomes_session ON write_outcomes(agent, session_id, status) WHERE session_id <> '';
CREATE INDEX log_by_actor ON log(actor, ts);
