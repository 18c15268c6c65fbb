-- memgov's schema on PostgreSQL: the same tables as the SQLite store (store/sqlite
-- migrations 0001 to 0031), in PostgreSQL's types. Integers are BIGINT (unix
-- milliseconds, LSNs, 0/1 flags), blobs BYTEA, and every text column sorts
-- by bytes (COLLATE "C") as SQLite does, so that maps, keys and hashes come
-- out in the same order on both stores.

CREATE TABLE log (
    lsn             BIGINT PRIMARY KEY,
    ts              BIGINT NOT NULL,
    op              TEXT COLLATE "C"    NOT NULL,
    memory_ref      TEXT COLLATE "C"    NOT NULL DEFAULT '',
    item_id         TEXT COLLATE "C"    NOT NULL DEFAULT '',
    version_id      TEXT COLLATE "C"    NOT NULL DEFAULT '',
    prev_version_id TEXT COLLATE "C"    NOT NULL DEFAULT '',
    actor           TEXT COLLATE "C"    NOT NULL,
    payload_hash    TEXT COLLATE "C"    NOT NULL,
    leaf            BYTEA    NOT NULL,
    chain           BYTEA    NOT NULL
);
CREATE TABLE log_payload (
    lsn  BIGINT PRIMARY KEY REFERENCES log(lsn),
    body BYTEA NOT NULL
);
CREATE TABLE erased_payload (
    lsn       BIGINT PRIMARY KEY REFERENCES log(lsn),
    erased_by BIGINT NOT NULL REFERENCES log(lsn)
);
CREATE TABLE principals (
    id          TEXT COLLATE "C" PRIMARY KEY,
    role        TEXT COLLATE "C" NOT NULL,
    tenant      TEXT COLLATE "C" NOT NULL,
    attributes  TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    created_at  BIGINT NOT NULL,
    created_lsn BIGINT NOT NULL
, suspended BIGINT NOT NULL DEFAULT 0);
CREATE TABLE items (
    id              TEXT COLLATE "C" PRIMARY KEY,
    memory_ref      TEXT COLLATE "C" NOT NULL,
    key             TEXT COLLATE "C" NOT NULL,
    layer           TEXT COLLATE "C" NOT NULL,
    head_version_id TEXT COLLATE "C" NOT NULL DEFAULT '',
    pinned          BIGINT NOT NULL DEFAULT 0,
    classification  TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    created_lsn     BIGINT NOT NULL,
    UNIQUE (memory_ref, key)
);
CREATE TABLE versions (
    id               TEXT COLLATE "C" PRIMARY KEY,
    item_id          TEXT COLLATE "C" NOT NULL REFERENCES items(id),
    memory_ref       TEXT COLLATE "C" NOT NULL,
    key              TEXT COLLATE "C" NOT NULL,
    layer            TEXT COLLATE "C" NOT NULL,
    seq              BIGINT NOT NULL,
    prev_id          TEXT COLLATE "C" NOT NULL DEFAULT '',
    merged_from      TEXT COLLATE "C" NOT NULL DEFAULT '',
    state            TEXT COLLATE "C" NOT NULL,
    content          BYTEA,
    content_hash     TEXT COLLATE "C" NOT NULL,
    tags             TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    confidence       DOUBLE PRECISION NOT NULL DEFAULT 0,
    validation_score DOUBLE PRECISION NOT NULL DEFAULT 0,
    classification   TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_by       TEXT COLLATE "C" NOT NULL,
    created_at       BIGINT NOT NULL,
    created_lsn      BIGINT NOT NULL,
    active_from      BIGINT,
    active_to        BIGINT,
    expires_at       BIGINT,
    reason           TEXT COLLATE "C" NOT NULL DEFAULT '', source TEXT COLLATE "C" NOT NULL DEFAULT '',
    UNIQUE (item_id, seq)
);
CREATE TABLE audit_checkpoints (
    seq         BIGINT PRIMARY KEY,
    root        BYTEA NOT NULL,
    tree_size   BIGINT NOT NULL,
    observed_at BIGINT NOT NULL,
    ttl_seconds BIGINT NOT NULL,
    signature   TEXT COLLATE "C" NOT NULL,
    lsn         BIGINT NOT NULL
);
CREATE TABLE log_head (
    id    BIGINT PRIMARY KEY CHECK (id = 1),
    size  BIGINT NOT NULL,
    chain BYTEA NOT NULL,
    mac   BYTEA NOT NULL
);
CREATE TABLE baselines (
    baseline_id            TEXT COLLATE "C" PRIMARY KEY,
    memory_ref             TEXT COLLATE "C" NOT NULL,
    snapshot_hash          TEXT COLLATE "C",
    memory_type            TEXT COLLATE "C" NOT NULL,
    store                  TEXT COLLATE "C" NOT NULL,
    approved_at            BIGINT NOT NULL,
    bound_at               BIGINT NOT NULL,
    ttl_seconds            BIGINT,
    drift_policy           TEXT COLLATE "C" NOT NULL,
    shared_memory_owner    TEXT COLLATE "C" NOT NULL DEFAULT '',
    check_interval_seconds BIGINT,
    compliance_level       BIGINT NOT NULL,
    approved_by            TEXT COLLATE "C" NOT NULL,
    delta_budget           BIGINT NOT NULL,
    log_position           BIGINT NOT NULL,
    base_tree_size         BIGINT NOT NULL,
    base_frontier          BYTEA NOT NULL,
    base_seq               BIGINT NOT NULL,
    lsn                    BIGINT NOT NULL
);
CREATE TABLE mem_ops (
    memory_ref TEXT COLLATE "C" NOT NULL,
    idx        BIGINT NOT NULL,
    key        TEXT COLLATE "C" NOT NULL,
    op         TEXT COLLATE "C" NOT NULL,
    value      BYTEA,
    expires_at BIGINT,
    leaf       BYTEA NOT NULL,
    lsn        BIGINT NOT NULL,
    PRIMARY KEY (memory_ref, idx)
);
CREATE TABLE mem_heads (
    memory_ref   TEXT COLLATE "C" PRIMARY KEY,
    tree_size    BIGINT NOT NULL,
    frontier     BYTEA NOT NULL,
    root         BYTEA NOT NULL,
    last_verdict TEXT COLLATE "C" NOT NULL DEFAULT '',
    last_detail  TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE TABLE mem_checkpoints (
    memory_ref  TEXT COLLATE "C" NOT NULL,
    seq         BIGINT NOT NULL,
    root        BYTEA NOT NULL,
    tree_size   BIGINT NOT NULL,
    approved_at BIGINT NOT NULL,
    ttl_seconds BIGINT NOT NULL,
    baseline_id TEXT COLLATE "C" NOT NULL,
    proof       TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    lsn         BIGINT NOT NULL,
    PRIMARY KEY (memory_ref, seq)
);
CREATE TABLE drift_events (
    id            TEXT COLLATE "C" PRIMARY KEY,
    memory_ref    TEXT COLLATE "C" NOT NULL,
    baseline_id   TEXT COLLATE "C" NOT NULL,
    policy        TEXT COLLATE "C" NOT NULL,
    cause         TEXT COLLATE "C" NOT NULL,
    approved_hash TEXT COLLATE "C" NOT NULL DEFAULT '',
    current_hash  TEXT COLLATE "C" NOT NULL DEFAULT '',
    detail        TEXT COLLATE "C" NOT NULL DEFAULT '',
    detected_at   BIGINT NOT NULL,
    lsn           BIGINT NOT NULL,
    acked_at      BIGINT,
    acked_by      TEXT COLLATE "C" NOT NULL DEFAULT '',
    resolution    TEXT COLLATE "C" NOT NULL DEFAULT '',
    note          TEXT COLLATE "C" NOT NULL DEFAULT '',
    ack_lsn       BIGINT
);
CREATE TABLE mem_sessions (
    session_id  TEXT COLLATE "C" PRIMARY KEY,
    memory_ref  TEXT COLLATE "C" NOT NULL,
    started_at  BIGINT NOT NULL,
    started_by  TEXT COLLATE "C" NOT NULL,
    start_lsn   BIGINT NOT NULL,
    ended_at    BIGINT,
    end_lsn     BIGINT
);
CREATE TABLE mem_dirty (
    id         TEXT COLLATE "C" PRIMARY KEY,
    memory_ref TEXT COLLATE "C" NOT NULL
);
CREATE TABLE mem_state_cache (
    memory_ref  TEXT COLLATE "C" PRIMARY KEY,
    alg         TEXT COLLATE "C" NOT NULL,
    tree_size   BIGINT NOT NULL,
    hash        TEXT COLLATE "C" NOT NULL,
    next_expiry BIGINT,
    items       BIGINT NOT NULL,
    bytes       BIGINT NOT NULL
);
CREATE TABLE version_index (
    version_id   TEXT COLLATE "C" PRIMARY KEY,
    item_id      TEXT COLLATE "C" NOT NULL,
    memory_ref   TEXT COLLATE "C" NOT NULL,
    layer        TEXT COLLATE "C" NOT NULL,
    key          TEXT COLLATE "C" NOT NULL,
    content_hash TEXT COLLATE "C" NOT NULL);
CREATE TABLE version_bands (
    memory_ref TEXT COLLATE "C" NOT NULL,
    band       BIGINT NOT NULL,
    version_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (memory_ref, band, version_id)
);
CREATE TABLE version_evidence (
    version_id     TEXT COLLATE "C" NOT NULL,
    item_id        TEXT COLLATE "C" NOT NULL,
    source_item_id TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (version_id, source_item_id)
);
CREATE TABLE reviews (
    id            TEXT COLLATE "C" PRIMARY KEY,
    version_id    TEXT COLLATE "C" NOT NULL,
    item_id       TEXT COLLATE "C" NOT NULL,
    memory_ref    TEXT COLLATE "C" NOT NULL,
    tenant        TEXT COLLATE "C" NOT NULL,
    layer         TEXT COLLATE "C" NOT NULL,
    agent         TEXT COLLATE "C" NOT NULL,
    tier          TEXT COLLATE "C" NOT NULL,
    risk          DOUBLE PRECISION NOT NULL,
    reason        TEXT COLLATE "C" NOT NULL,
    detail        TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    status        TEXT COLLATE "C" NOT NULL,
    created_at    BIGINT NOT NULL,
    due_at        BIGINT NOT NULL,
    decided_by    TEXT COLLATE "C" NOT NULL DEFAULT '',
    decided_at    BIGINT,
    decision_code TEXT COLLATE "C" NOT NULL DEFAULT '',
    note          TEXT COLLATE "C" NOT NULL DEFAULT '',
    claim_holder  TEXT COLLATE "C" NOT NULL DEFAULT '',
    claim_token   BIGINT NOT NULL DEFAULT 0,
    claim_expires BIGINT NOT NULL DEFAULT 0,
    created_lsn   BIGINT NOT NULL
);
CREATE TABLE idempotency (
    token      TEXT COLLATE "C" PRIMARY KEY,
    status     TEXT COLLATE "C" NOT NULL,
    item_id    TEXT COLLATE "C" NOT NULL,
    version_id TEXT COLLATE "C" NOT NULL,
    review_id  TEXT COLLATE "C" NOT NULL DEFAULT '',
    key        TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
, scope TEXT COLLATE "C" NOT NULL DEFAULT '');
CREATE TABLE events (
    id         BIGINT PRIMARY KEY,       -- max(id)+1 under the append lock, as a replay numbers them
    lsn        BIGINT NOT NULL,
    at         BIGINT NOT NULL,
    type       TEXT COLLATE "C" NOT NULL,
    memory_ref TEXT COLLATE "C" NOT NULL DEFAULT '',
    data       TEXT COLLATE "C" NOT NULL DEFAULT '{}'
);
CREATE TABLE write_outcomes (
    id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    at         BIGINT NOT NULL,
    agent      TEXT COLLATE "C" NOT NULL,
    layer      TEXT COLLATE "C" NOT NULL,
    memory_ref TEXT COLLATE "C" NOT NULL,
    session_id TEXT COLLATE "C" NOT NULL DEFAULT '',
    status     TEXT COLLATE "C" NOT NULL,
    reason     TEXT COLLATE "C" NOT NULL DEFAULT '',
    gate       TEXT COLLATE "C" NOT NULL DEFAULT '',
    latency_us BIGINT NOT NULL,
    stages     TEXT COLLATE "C" NOT NULL DEFAULT '{}'
);
CREATE TABLE commitments (
    id                TEXT COLLATE "C" PRIMARY KEY,
    memory_ref        TEXT COLLATE "C" NOT NULL,
    tenant            TEXT COLLATE "C" NOT NULL,
    source_item_id    TEXT COLLATE "C" NOT NULL,
    source_version_id TEXT COLLATE "C" NOT NULL,
    kind              TEXT COLLATE "C" NOT NULL,
    due_at            BIGINT,
    predicate         TEXT COLLATE "C" NOT NULL DEFAULT '',
    armed             BIGINT NOT NULL DEFAULT 1,
    fired_count       BIGINT NOT NULL DEFAULT 0,
    last_fired_at     BIGINT,
    last_fired_lsn    BIGINT,
    created_by        TEXT COLLATE "C" NOT NULL,
    created_at        BIGINT NOT NULL,
    created_lsn       BIGINT NOT NULL
);
CREATE TABLE proposals (
    id              TEXT COLLATE "C" PRIMARY KEY,
    kind            TEXT COLLATE "C" NOT NULL,
    state           TEXT COLLATE "C" NOT NULL,
    title           TEXT COLLATE "C" NOT NULL DEFAULT '',
    tenant          TEXT COLLATE "C" NOT NULL,
    workspace       TEXT COLLATE "C" NOT NULL DEFAULT '',
    principal       TEXT COLLATE "C" NOT NULL,
    duplicate_of    TEXT COLLATE "C" NOT NULL DEFAULT '',
    source_run_ids  TEXT COLLATE "C" NOT NULL DEFAULT '[]',
    revision        BIGINT NOT NULL,
    artifact        BYTEA NOT NULL,
    artifact_hash   TEXT COLLATE "C" NOT NULL,
    rationale       TEXT COLLATE "C" NOT NULL DEFAULT '',
    installed_hash  TEXT COLLATE "C" NOT NULL DEFAULT '',
    decided_by      TEXT COLLATE "C" NOT NULL DEFAULT '',
    gate            TEXT COLLATE "C" NOT NULL DEFAULT '',
    note            TEXT COLLATE "C" NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    created_lsn     BIGINT NOT NULL
);
CREATE TABLE proposal_revisions (
    proposal_id   TEXT COLLATE "C" NOT NULL,
    revision      BIGINT NOT NULL,
    artifact      BYTEA NOT NULL,
    artifact_hash TEXT COLLATE "C" NOT NULL,
    rationale     TEXT COLLATE "C" NOT NULL DEFAULT '',
    "by" TEXT COLLATE "C" NOT NULL,
    at            BIGINT NOT NULL,
    lsn           BIGINT NOT NULL,
    PRIMARY KEY (proposal_id, revision)
);
CREATE TABLE annotations (
    lsn     BIGINT PRIMARY KEY,
    item_id TEXT COLLATE "C" NOT NULL,
    actor   TEXT COLLATE "C" NOT NULL,
    kind    TEXT COLLATE "C" NOT NULL,
    note    TEXT COLLATE "C" NOT NULL DEFAULT '',
    at      BIGINT NOT NULL
);
CREATE TABLE leases (
    resource   TEXT COLLATE "C" PRIMARY KEY,
    holder     TEXT COLLATE "C" NOT NULL,
    token      BIGINT NOT NULL,
    granted_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    released   BIGINT NOT NULL DEFAULT 0,
    lsn        BIGINT NOT NULL
);
CREATE TABLE erasures (
    lsn          BIGINT PRIMARY KEY,
    kind         TEXT COLLATE "C" NOT NULL,
    request_id   TEXT COLLATE "C" NOT NULL,
    subject_hash TEXT COLLATE "C" NOT NULL DEFAULT '',
    requested_at BIGINT NOT NULL,
    completed_at BIGINT NOT NULL,
    actor        TEXT COLLATE "C" NOT NULL,
    items        BIGINT NOT NULL,
    payloads     BIGINT NOT NULL,
    by_layer     TEXT COLLATE "C" NOT NULL DEFAULT '{}'
, left_places TEXT COLLATE "C" NOT NULL DEFAULT '[]');
CREATE TABLE purged_items (
    item_id TEXT COLLATE "C" PRIMARY KEY,
    lsn     BIGINT NOT NULL,
    kind    TEXT COLLATE "C" NOT NULL
);
CREATE TABLE workspaces (
    ref        TEXT COLLATE "C" PRIMARY KEY,
    base_ref   TEXT COLLATE "C" NOT NULL,
    owner      TEXT COLLATE "C" NOT NULL,
    base_lsn   BIGINT NOT NULL,
    status     TEXT COLLATE "C" NOT NULL,
    request    TEXT COLLATE "C" NOT NULL DEFAULT '{}',
    decided_by TEXT COLLATE "C" NOT NULL DEFAULT '',
    lsn        BIGINT NOT NULL
, id TEXT COLLATE "C" NOT NULL DEFAULT '', name TEXT COLLATE "C" NOT NULL DEFAULT '', created_at BIGINT NOT NULL DEFAULT 0);
CREATE TABLE erased_skeleton (
    lsn  BIGINT PRIMARY KEY,
    body BYTEA NOT NULL
);
CREATE TABLE erased_leaves (
    memory_ref TEXT COLLATE "C" NOT NULL,
    idx        BIGINT NOT NULL,
    leaf       BYTEA NOT NULL,
    PRIMARY KEY (memory_ref, idx)
);
CREATE TABLE access_days (
    item_id TEXT COLLATE "C" NOT NULL,
    day     BIGINT NOT NULL,
    n       BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (item_id, day)
);
CREATE TABLE retrievals (
    id          TEXT COLLATE "C" PRIMARY KEY,
    at          BIGINT NOT NULL,
    principal   TEXT COLLATE "C" NOT NULL,
    memory_ref  TEXT COLLATE "C" NOT NULL,
    n           BIGINT NOT NULL,
    feedback_at BIGINT
);
CREATE TABLE retrieval_items (
    retrieval_id TEXT COLLATE "C" NOT NULL,
    item_id      TEXT COLLATE "C" NOT NULL,
    staleness_ms BIGINT NOT NULL,
    used         BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (retrieval_id, item_id)
);
CREATE TABLE gc_cursor (
    layer    TEXT COLLATE "C" PRIMARY KEY,
    after_id TEXT COLLATE "C" NOT NULL
);
CREATE TABLE lease_stats (
    day     BIGINT PRIMARY KEY,
    granted BIGINT NOT NULL DEFAULT 0,
    denied  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE revalidations (
    version_id TEXT COLLATE "C" PRIMARY KEY,
    at         BIGINT NOT NULL,
    pass       BIGINT NOT NULL,
    score      DOUBLE PRECISION NOT NULL
);
CREATE TABLE workspace_removed (
    ref TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    lsn BIGINT NOT NULL,
    PRIMARY KEY (ref, key)
);
CREATE TABLE workspace_reviews (
    review_id TEXT COLLATE "C" PRIMARY KEY,
    ref       TEXT COLLATE "C" NOT NULL,
    key       TEXT COLLATE "C" NOT NULL,
    kind      TEXT COLLATE "C" NOT NULL
);
CREATE TABLE mem_map (
    memory_ref TEXT COLLATE "C" NOT NULL,
    key        TEXT COLLATE "C" NOT NULL,
    fragment   BYTEA NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (memory_ref, key)
);
CREATE TABLE tokens (
    id         TEXT COLLATE "C" PRIMARY KEY,
    principal  TEXT COLLATE "C" NOT NULL,
    hash       TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    created_by TEXT COLLATE "C" NOT NULL,
    expires_at BIGINT,
    revoked_at BIGINT,
    revoked_by TEXT COLLATE "C",
    lsn        BIGINT NOT NULL
);
CREATE TABLE ssh_keys (
    fingerprint TEXT COLLATE "C" PRIMARY KEY,
    principal   TEXT COLLATE "C" NOT NULL,
    public_key  TEXT COLLATE "C" NOT NULL,
    added_at    BIGINT NOT NULL,
    added_by    TEXT COLLATE "C" NOT NULL,
    lsn         BIGINT NOT NULL
);
CREATE TABLE key_meta (
    name  TEXT COLLATE "C" PRIMARY KEY,
    value TEXT COLLATE "C" NOT NULL
);
CREATE TABLE read_pending (
    seq          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    retrieval_id TEXT COLLATE "C" NOT NULL,
    at           BIGINT NOT NULL,
    items        BYTEA NOT NULL
);
CREATE TABLE quarantine (
    version_id  TEXT COLLATE "C" PRIMARY KEY,
    item_id     TEXT COLLATE "C" NOT NULL,
    memory_ref  TEXT COLLATE "C" NOT NULL,
    tenant      TEXT COLLATE "C" NOT NULL,
    key         TEXT COLLATE "C" NOT NULL,
    agent       TEXT COLLATE "C" NOT NULL,
    cause       TEXT COLLATE "C" NOT NULL,
    status      TEXT COLLATE "C" NOT NULL,
    at          BIGINT NOT NULL,
    lsn         BIGINT NOT NULL,
    decided_by  TEXT COLLATE "C" NOT NULL DEFAULT '',
    decided_at  BIGINT,
    note        TEXT COLLATE "C" NOT NULL DEFAULT '',
    released_as TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE TABLE model_vectors (
	version_id TEXT COLLATE "C" NOT NULL,
	model      TEXT COLLATE "C" NOT NULL,
	memory_ref TEXT COLLATE "C" NOT NULL,
	layer      TEXT COLLATE "C" NOT NULL,
	vector     BYTEA NOT NULL,
	PRIMARY KEY (version_id, model)
);
CREATE TABLE verify_state (
    id     BIGINT PRIMARY KEY CHECK (id = 1),
    size   BIGINT NOT NULL,
    chain  BYTEA NOT NULL,
    digest BYTEA NOT NULL,
    mac    BYTEA NOT NULL
, snapshot BYTEA, snapshot_mac BYTEA);
CREATE TABLE version_features (
    version_id  TEXT COLLATE "C" PRIMARY KEY,
    memory_ref  TEXT COLLATE "C" NOT NULL,
    layer       TEXT COLLATE "C" NOT NULL,
    judge       TEXT COLLATE "C" NOT NULL,
    fingerprint BYTEA NOT NULL,
    subject     TEXT COLLATE "C" NOT NULL DEFAULT '',
    predicate   TEXT COLLATE "C" NOT NULL DEFAULT '',
    object      TEXT COLLATE "C" NOT NULL DEFAULT '',
    embedding   BYTEA,
    bands       BYTEA
);
CREATE TABLE dead_letters (
    id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    event_id    BIGINT NOT NULL,
    event_type  TEXT COLLATE "C" NOT NULL,
    url         TEXT COLLATE "C" NOT NULL,
    attempts    BIGINT NOT NULL,
    error       TEXT COLLATE "C" NOT NULL,
    body        BYTEA NOT NULL,
    at          BIGINT NOT NULL
);
CREATE TABLE task_outcomes (
    id            TEXT COLLATE "C" PRIMARY KEY,
    at            BIGINT NOT NULL,
    retrieval_id  TEXT COLLATE "C" NOT NULL DEFAULT '',
    principal     TEXT COLLATE "C" NOT NULL,
    success       BIGINT NOT NULL,
    memory_caused BIGINT NOT NULL DEFAULT 0,
    note          TEXT COLLATE "C" NOT NULL DEFAULT ''
);

CREATE INDEX log_by_ref ON log(memory_ref, lsn) WHERE memory_ref <> '';
CREATE INDEX log_by_item ON log(item_id, lsn) WHERE item_id <> '';
CREATE INDEX log_by_ts ON log(ts);
CREATE INDEX versions_active ON versions(memory_ref, key) WHERE state = 'ACTIVE';
CREATE INDEX versions_history ON versions(memory_ref, active_from) WHERE active_from IS NOT NULL;
CREATE INDEX baselines_by_ref ON baselines(memory_ref, lsn);
CREATE INDEX mem_ops_by_key ON mem_ops(memory_ref, key, idx);
CREATE INDEX drift_open ON drift_events(memory_ref) WHERE acked_at IS NULL;
CREATE INDEX mem_sessions_open ON mem_sessions(memory_ref) WHERE ended_at IS NULL;
CREATE INDEX mem_dirty_by_ref ON mem_dirty(memory_ref);
CREATE INDEX version_index_hash ON version_index(memory_ref, content_hash);
CREATE INDEX version_evidence_source ON version_evidence(source_item_id);
CREATE INDEX reviews_version ON reviews(version_id);
CREATE INDEX events_type ON events(type, id);
CREATE INDEX write_outcomes_rate ON write_outcomes(agent, layer, at);
CREATE INDEX write_outcomes_session ON write_outcomes(agent, session_id, status) WHERE session_id <> '';
CREATE INDEX log_by_actor ON log(actor, ts);
CREATE INDEX write_outcomes_agent ON write_outcomes(agent, at);
CREATE INDEX reviews_agent ON reviews(agent, status);
CREATE INDEX commitments_by_ref ON commitments(memory_ref, id);
CREATE INDEX proposals_by_tenant ON proposals(tenant, state, created_at);
CREATE INDEX proposals_by_hash ON proposals(tenant, kind, artifact_hash);
CREATE INDEX events_by_ref ON events(memory_ref, id);
CREATE INDEX annotations_item ON annotations(item_id);
CREATE INDEX workspaces_id ON workspaces(id);
CREATE INDEX workspace_reviews_ref ON workspace_reviews(ref);
CREATE INDEX reviews_queue ON reviews(tier DESC, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');
CREATE INDEX tokens_principal ON tokens(principal);
CREATE INDEX ssh_keys_principal ON ssh_keys(principal);
CREATE INDEX quarantine_open ON quarantine(tenant, status, at);
CREATE INDEX model_vectors_ref ON model_vectors (memory_ref, layer, model);
CREATE INDEX versions_expiring ON versions(memory_ref, expires_at) WHERE state = 'ACTIVE' AND expires_at IS NOT NULL;
CREATE INDEX version_features_fp ON version_features(memory_ref, fingerprint);
CREATE INDEX version_features_subject ON version_features(memory_ref, subject);
CREATE INDEX version_features_judge ON version_features(judge);
CREATE INDEX task_outcomes_at ON task_outcomes(at);
CREATE INDEX reviews_lsn ON reviews(created_lsn);
CREATE INDEX reviews_age ON reviews(created_at, tier DESC, risk DESC, id) WHERE status IN ('PENDING', 'ESCALATED');
CREATE INDEX reviews_sla ON reviews(due_at, tier DESC, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');
CREATE INDEX reviews_tier_due ON reviews(tier, due_at, risk DESC, created_at, id) WHERE status IN ('PENDING', 'ESCALATED');
