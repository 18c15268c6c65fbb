-- The host memory contract (issue 6): inferred commitments and reviewable
-- learning proposals. Every table here is derived from the log (rebuilt by
-- replay); the events outbox of 0004 carries their content-free events.

-- Inferred standing commitments, one per COMMITMENT entry (id is a hash of the
-- source version, so inferring again finds the same commitment).
CREATE TABLE commitments (
    id                TEXT PRIMARY KEY,
    memory_ref        TEXT NOT NULL,
    tenant            TEXT NOT NULL,
    source_item_id    TEXT NOT NULL,
    source_version_id TEXT NOT NULL,
    kind              TEXT NOT NULL,             -- time | predicate
    due_at            INTEGER,                   -- unix ms, time commitments
    predicate         TEXT NOT NULL DEFAULT '',  -- canonical JSON, predicate commitments
    armed             INTEGER NOT NULL DEFAULT 1,
    fired_count       INTEGER NOT NULL DEFAULT 0,
    last_fired_at     INTEGER,
    last_fired_lsn    INTEGER,
    created_by        TEXT NOT NULL,
    created_at        INTEGER NOT NULL,
    created_lsn       INTEGER NOT NULL
) STRICT;
CREATE INDEX commitments_by_ref ON commitments(memory_ref, id);

-- Proposals (reviewable learning): the current state of each.
CREATE TABLE proposals (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL,
    state           TEXT NOT NULL,           -- draft, revised, applied, rejected, archived
    title           TEXT NOT NULL DEFAULT '',
    tenant          TEXT NOT NULL,
    workspace       TEXT NOT NULL DEFAULT '',
    principal       TEXT NOT NULL,
    duplicate_of    TEXT NOT NULL DEFAULT '',
    source_run_ids  TEXT NOT NULL DEFAULT '[]',
    revision        INTEGER NOT NULL,
    artifact        BLOB NOT NULL,           -- canonical JSON of the last persisted artifact
    artifact_hash   TEXT NOT NULL,
    rationale       TEXT NOT NULL DEFAULT '',
    installed_hash  TEXT NOT NULL DEFAULT '',
    decided_by      TEXT NOT NULL DEFAULT '',
    gate            TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    created_lsn     INTEGER NOT NULL
) STRICT;
CREATE INDEX proposals_by_tenant ON proposals(tenant, state, created_at);
CREATE INDEX proposals_by_hash ON proposals(tenant, kind, artifact_hash);

-- Every revision of every proposal (revision 1 is the creation).
CREATE TABLE proposal_revisions (
    proposal_id   TEXT NOT NULL,
    revision      INTEGER NOT NULL,
    artifact      BLOB NOT NULL,
    artifact_hash TEXT NOT NULL,
    rationale     TEXT NOT NULL DEFAULT '',
    by            TEXT NOT NULL,
    at            INTEGER NOT NULL,
    lsn           INTEGER NOT NULL,
    PRIMARY KEY (proposal_id, revision)
) STRICT, WITHOUT ROWID;

CREATE INDEX events_by_ref ON events(memory_ref, id);
