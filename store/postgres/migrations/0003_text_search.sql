-- The full-text index of version texts that finds a write's same-topic
-- neighbours for the contradiction gate (ranked by ts_rank within a memoryRef
-- and layer). Derived: indexText keeps it from the log, Rebuild refills it and
-- an erasure deletes the erased versions' rows.
CREATE TABLE version_fts (
    version_id TEXT COLLATE "C" PRIMARY KEY,
    memory_ref TEXT COLLATE "C" NOT NULL,
    layer      TEXT COLLATE "C" NOT NULL,
    text       TEXT NOT NULL,
    tsv        tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED
);
CREATE INDEX version_fts_tsv ON version_fts USING GIN (tsv);
CREATE INDEX version_fts_ref ON version_fts (memory_ref, layer);

-- The text a curator filters the review queue by: the write's key,
-- memoryRef, agent, reason, the detail's reasons, findings and superseded
-- key, and the write's text, one row per review keyed by its created_lsn.
-- Triggers keep it in the transaction that writes the reviews or rewrites
-- their versions (an erasure).
CREATE TABLE review_text (
    lsn       BIGINT PRIMARY KEY,
    review_id TEXT COLLATE "C" NOT NULL,
    body      TEXT NOT NULL
);

CREATE FUNCTION memgov_json_lines(d jsonb, field text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(d -> field) = 'array'
        THEN COALESCE((SELECT string_agg(value, chr(10)) FROM jsonb_array_elements_text(d -> field)), '')
        ELSE '' END
$$;

CREATE FUNCTION memgov_review_body(r reviews) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
    d jsonb := memgov_jsonb(r.detail);
    k text := '';
    c bytea;
BEGIN
    SELECT v.key, v.content INTO k, c FROM versions v WHERE v.id = r.version_id;
    RETURN COALESCE(k, '') || chr(10) || r.memory_ref || chr(10) || r.agent || chr(10) || r.reason || chr(10) ||
        CASE WHEN d IS NOT NULL AND jsonb_typeof(d) = 'object' THEN
            COALESCE(d ->> 'supersedes', '') || chr(10) || memgov_json_lines(d, 'reasons') || chr(10) || memgov_json_lines(d, 'findings')
        ELSE '' END || chr(10) || memgov_content_text(c);
END $$;

CREATE FUNCTION memgov_review_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM review_text WHERE lsn = OLD.created_lsn;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO review_text (lsn, review_id, body) VALUES (NEW.created_lsn, NEW.id, memgov_review_body(NEW))
        ON CONFLICT (lsn) DO UPDATE SET review_id = excluded.review_id, body = excluded.body;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER review_text_ins AFTER INSERT OR DELETE ON reviews
    FOR EACH ROW EXECUTE FUNCTION memgov_review_text();
CREATE TRIGGER review_text_upd AFTER UPDATE OF memory_ref, agent, reason, detail, version_id, created_lsn ON reviews
    FOR EACH ROW EXECUTE FUNCTION memgov_review_text();

CREATE FUNCTION memgov_review_text_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE review_text t SET body = memgov_review_body(r) FROM reviews r
    WHERE r.version_id = NEW.id AND t.lsn = r.created_lsn;
    RETURN NULL;
END $$;
CREATE TRIGGER review_text_version AFTER UPDATE OF key, content ON versions
    FOR EACH ROW EXECUTE FUNCTION memgov_review_text_version();
