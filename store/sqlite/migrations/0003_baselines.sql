-- Baselines, drift and memory checkpoints (agent-manifest 3.2.6, 3.2.6.1, 3.2.6.2).
-- Every table here except mem_dirty and mem_state_cache is derived from the log.

-- 3.2.6 memory_baseline records, one per BASELINE_APPROVE entry. The current
-- baseline of a memoryRef is its row with the highest lsn.
CREATE TABLE baselines (
    baseline_id            TEXT PRIMARY KEY,
    memory_ref             TEXT NOT NULL,
    snapshot_hash          TEXT,                  -- NULL only for memory_type none
    memory_type            TEXT NOT NULL,
    store                  TEXT NOT NULL,
    approved_at            INTEGER NOT NULL,      -- unix ms
    bound_at               INTEGER NOT NULL,      -- unix ms
    ttl_seconds            INTEGER,               -- NULL for none (omitted)
    drift_policy           TEXT NOT NULL,
    shared_memory_owner    TEXT NOT NULL DEFAULT '',
    check_interval_seconds INTEGER,
    compliance_level       INTEGER NOT NULL,
    approved_by            TEXT NOT NULL,
    delta_budget           INTEGER NOT NULL,
    log_position           INTEGER NOT NULL,      -- LSN of the state the hash was taken at
    base_tree_size         INTEGER NOT NULL,      -- memory op log size bound by this baseline
    base_frontier          BLOB NOT NULL,         -- merkle.Frontier at base_tree_size
    base_seq               INTEGER NOT NULL,      -- checkpoint seq bound by this baseline
    lsn                    INTEGER NOT NULL       -- the BASELINE_APPROVE entry
) STRICT;
CREATE INDEX baselines_by_ref ON baselines(memory_ref, lsn);

-- The per-memoryRef operation log of 3.2.6.2: one PUT/DEL leaf per change of the
-- memory map, in sequence order.
CREATE TABLE mem_ops (
    memory_ref TEXT NOT NULL,
    idx        INTEGER NOT NULL,                  -- 0-based leaf index
    key        TEXT NOT NULL,
    op         TEXT NOT NULL,                     -- PUT or DEL
    value      BLOB,                              -- canonical JSON for PUT
    expires_at INTEGER,                           -- unix ms of the PUT's version, not part of the leaf
    leaf       BLOB NOT NULL,
    lsn        INTEGER NOT NULL,
    PRIMARY KEY (memory_ref, idx)
) STRICT, WITHOUT ROWID;
CREATE INDEX mem_ops_by_key ON mem_ops(memory_ref, key, idx);

-- The head of each memory op log: its size, frontier and the last verdict of a
-- checkpoint advance.
CREATE TABLE mem_heads (
    memory_ref   TEXT PRIMARY KEY,
    tree_size    INTEGER NOT NULL,
    frontier     BLOB NOT NULL,
    root         BLOB NOT NULL,
    last_verdict TEXT NOT NULL DEFAULT '',
    last_detail  TEXT NOT NULL DEFAULT ''
) STRICT;

-- 3.2.6.2 checkpoints: {memory_root, tree_size, seq, approved_at, ttl_seconds}.
CREATE TABLE mem_checkpoints (
    memory_ref  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    root        BLOB NOT NULL,
    tree_size   INTEGER NOT NULL,
    approved_at INTEGER NOT NULL,
    ttl_seconds INTEGER NOT NULL,
    baseline_id TEXT NOT NULL,
    proof       TEXT NOT NULL DEFAULT '[]',       -- consistency proof from the baseline checkpoint
    lsn         INTEGER NOT NULL,
    PRIMARY KEY (memory_ref, seq)
) STRICT;

-- MEMORY_DRIFT_DETECTED episodes, one per DRIFT_DETECTED entry, closed by DRIFT_ACK.
CREATE TABLE drift_events (
    id            TEXT PRIMARY KEY,
    memory_ref    TEXT NOT NULL,
    baseline_id   TEXT NOT NULL,
    policy        TEXT NOT NULL,
    cause         TEXT NOT NULL,
    approved_hash TEXT NOT NULL DEFAULT '',
    current_hash  TEXT NOT NULL DEFAULT '',
    detail        TEXT NOT NULL DEFAULT '',
    detected_at   INTEGER NOT NULL,
    lsn           INTEGER NOT NULL,
    acked_at      INTEGER,
    acked_by      TEXT NOT NULL DEFAULT '',
    resolution    TEXT NOT NULL DEFAULT '',
    note          TEXT NOT NULL DEFAULT '',
    ack_lsn       INTEGER
) STRICT;
CREATE INDEX drift_open ON drift_events(memory_ref) WHERE acked_at IS NULL;

-- Session boundaries (memory_type session is exempt from drift inside one).
CREATE TABLE mem_sessions (
    session_id  TEXT PRIMARY KEY,
    memory_ref  TEXT NOT NULL,
    started_at  INTEGER NOT NULL,
    started_by  TEXT NOT NULL,
    start_lsn   INTEGER NOT NULL,
    ended_at    INTEGER,
    end_lsn     INTEGER
) STRICT;
CREATE INDEX mem_sessions_open ON mem_sessions(memory_ref) WHERE ended_at IS NULL;

-- Not derived: rows of items and versions changed since memgov last applied a log
-- entry that touched them. Triggers fire for every client, so an edit made behind
-- memgov's back leaves a row here; memgov's own apply removes the rows it changed.
CREATE TABLE mem_dirty (
    id         TEXT PRIMARY KEY,
    memory_ref TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX mem_dirty_by_ref ON mem_dirty(memory_ref);

CREATE TRIGGER mem_dirty_versions_ins AFTER INSERT ON versions
BEGIN INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (NEW.id, NEW.memory_ref); END;
CREATE TRIGGER mem_dirty_versions_upd AFTER UPDATE ON versions
BEGIN
    INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (NEW.id, NEW.memory_ref);
    INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (OLD.id, OLD.memory_ref);
END;
CREATE TRIGGER mem_dirty_versions_del AFTER DELETE ON versions
BEGIN INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (OLD.id, OLD.memory_ref); END;
CREATE TRIGGER mem_dirty_items_ins AFTER INSERT ON items
BEGIN INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (NEW.id, NEW.memory_ref); END;
CREATE TRIGGER mem_dirty_items_upd AFTER UPDATE ON items
BEGIN
    INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (NEW.id, NEW.memory_ref);
    INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (OLD.id, OLD.memory_ref);
END;
CREATE TRIGGER mem_dirty_items_del AFTER DELETE ON items
BEGIN INSERT OR IGNORE INTO mem_dirty (id, memory_ref) VALUES (OLD.id, OLD.memory_ref); END;

-- Not derived: the last computed snapshot_hash of a memoryRef, valid while the op
-- log has the same size, no row is dirty and no included item has expired.
CREATE TABLE mem_state_cache (
    memory_ref  TEXT PRIMARY KEY,
    alg         TEXT NOT NULL,
    tree_size   INTEGER NOT NULL,
    hash        TEXT NOT NULL,
    next_expiry INTEGER,                           -- unix ms; NULL: nothing expires
    items       INTEGER NOT NULL,
    bytes       INTEGER NOT NULL
) STRICT;
