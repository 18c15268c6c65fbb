-- What the judge derives from a version's text (its fingerprint, the subject,
-- predicate and object read from it, its hashed-vector embedding and SimHash
-- bands) is a cache, not evidence. The engine computes it and stores it here
-- with the version of the judge that computed it; the log never determines
-- it, so a replay does not compare it and a rebuild keeps it, and `memgov
-- admin reindex` recomputes the rows of another judge version. version_index
-- keeps what the log alone determines.
CREATE TABLE version_features (
    version_id  TEXT PRIMARY KEY,
    memory_ref  TEXT NOT NULL,
    layer       TEXT NOT NULL,
    judge       TEXT NOT NULL,  -- '' : computed before judge versions were recorded
    fingerprint BLOB NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    predicate   TEXT NOT NULL DEFAULT '',
    object      TEXT NOT NULL DEFAULT '',
    embedding   BLOB,
    bands       BLOB            -- the version's version_bands rows, 4 bytes each (big-endian), to replace them by key
) STRICT;

-- The values a database already holds were computed by an unrecorded judge:
-- fingerprints and subjects keep serving candidate lookups until a reindex
-- replaces them. Erased versions (no content hash) keep none. The old bands
-- go: their rows cannot be told apart by version without a scan, and a
-- reindex writes them again.
INSERT INTO version_features (version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding)
SELECT version_id, memory_ref, layer, '', fingerprint, subject, predicate, object, embedding
FROM version_index WHERE content_hash <> '';
DELETE FROM version_bands;

CREATE INDEX version_features_fp ON version_features(memory_ref, fingerprint);
CREATE INDEX version_features_subject ON version_features(memory_ref, subject);
CREATE INDEX version_features_judge ON version_features(judge);

DROP INDEX version_index_fp;
DROP INDEX version_index_subject;
ALTER TABLE version_index DROP COLUMN fingerprint;
ALTER TABLE version_index DROP COLUMN subject;
ALTER TABLE version_index DROP COLUMN predicate;
ALTER TABLE version_index DROP COLUMN object;
ALTER TABLE version_index DROP COLUMN embedding;
