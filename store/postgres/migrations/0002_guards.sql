-- The log is append-only and its payloads leave only by an erasure (the ERASE
-- entry records the payload in erased_payload first, then deletes it).
CREATE FUNCTION memgov_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0];
END $$;
CREATE TRIGGER log_append_only_update BEFORE UPDATE ON log
    FOR EACH ROW EXECUTE FUNCTION memgov_refuse('memgov: the log is append-only; rows cannot be updated');
CREATE TRIGGER log_append_only_delete BEFORE DELETE ON log
    FOR EACH ROW EXECUTE FUNCTION memgov_refuse('memgov: the log is append-only; rows cannot be deleted');
CREATE TRIGGER log_payload_no_update BEFORE UPDATE ON log_payload
    FOR EACH ROW EXECUTE FUNCTION memgov_refuse('memgov: log payloads are immutable');

CREATE FUNCTION memgov_payload_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM erased_payload WHERE lsn = OLD.lsn) THEN
        RAISE EXCEPTION 'memgov: log payloads are removed only by an erasure';
    END IF;
    RETURN OLD;
END $$;
CREATE TRIGGER log_payload_no_delete BEFORE DELETE ON log_payload
    FOR EACH ROW EXECUTE FUNCTION memgov_payload_delete();

-- Not derived: rows of items and versions changed since memgov last applied a
-- log entry that touched them. The triggers fire for every client, so an edit
-- made behind memgov's back leaves a row in mem_dirty.
CREATE FUNCTION memgov_mark_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO mem_dirty (id, memory_ref) VALUES (NEW.id, NEW.memory_ref) ON CONFLICT DO NOTHING;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO mem_dirty (id, memory_ref) VALUES (OLD.id, OLD.memory_ref) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER mem_dirty_versions AFTER INSERT OR UPDATE OR DELETE ON versions
    FOR EACH ROW EXECUTE FUNCTION memgov_mark_dirty();
CREATE TRIGGER mem_dirty_items AFTER INSERT OR UPDATE OR DELETE ON items
    FOR EACH ROW EXECUTE FUNCTION memgov_mark_dirty();

-- JSON that may not be JSON: NULL instead of an error.
CREATE FUNCTION memgov_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN t::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;

-- A version's text: the "text" string of its content, or ''.
CREATE FUNCTION memgov_content_text(c bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    j jsonb;
BEGIN
    IF c IS NULL THEN
        RETURN '';
    END IF;
    j := memgov_jsonb(convert_from(c, 'UTF8'));
    IF j IS NULL OR jsonb_typeof(j) <> 'object' OR jsonb_typeof(j -> 'text') IS DISTINCT FROM 'string' THEN
        RETURN '';
    END IF;
    RETURN j ->> 'text';
EXCEPTION WHEN others THEN
    RETURN '';
END $$;
