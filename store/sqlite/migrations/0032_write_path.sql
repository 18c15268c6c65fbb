-- The write path's same-topic lookup scores one memoryRef and layer's texts,
-- not the whole store's. Each memoryRef and layer (a scope) gets a number in
-- fts_scopes, and its rows of version_fts the rowids of its own range (the
-- scope's number << 40, plus one for each row), so a query bounded to that
-- rowid range neither scores nor reads the rows of other scopes: before, it
-- ranked every row holding its words and read each one's memory_ref and
-- layer to filter them. The columns and the ranking (BM25) are unchanged.
-- fts_scopes only names the ranges: any numbering serves, so a replay does
-- not compare it.
CREATE TABLE fts_scopes (
    id         INTEGER PRIMARY KEY,
    memory_ref TEXT NOT NULL,
    layer      TEXT NOT NULL,
    UNIQUE (memory_ref, layer)
) STRICT;
INSERT INTO fts_scopes (memory_ref, layer) SELECT DISTINCT memory_ref, layer FROM version_fts ORDER BY memory_ref, layer;
CREATE VIRTUAL TABLE version_fts_scoped USING fts5(
	text,
	version_id UNINDEXED,
	memory_ref UNINDEXED,
	layer UNINDEXED,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO version_fts_scoped (rowid, text, version_id, memory_ref, layer)
SELECT (s.id << 40) + row_number() OVER (PARTITION BY s.id ORDER BY f.rowid), f.text, f.version_id, f.memory_ref, f.layer
FROM version_fts f JOIN fts_scopes s ON s.memory_ref = f.memory_ref AND s.layer = f.layer;
DROP TABLE version_fts;
ALTER TABLE version_fts_scoped RENAME TO version_fts;

-- The SimHash bands of a version are one packed column of its
-- version_features row (bands), which the store reads into an in-memory
-- index (bands.go): version_bands, sixteen rows a version, goes. Each row
-- gets a seq, never reused (AUTOINCREMENT), by which the in-memory index
-- catches up with rows written since it last looked, by this process or
-- another; replacing a version's features gives its row a new seq.
CREATE TABLE version_features_seq (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id  TEXT NOT NULL UNIQUE,
    memory_ref  TEXT NOT NULL,
    layer       TEXT NOT NULL,
    judge       TEXT NOT NULL,  -- '' : computed before judge versions were recorded
    fingerprint BLOB NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    predicate   TEXT NOT NULL DEFAULT '',
    object      TEXT NOT NULL DEFAULT '',
    embedding   BLOB,
    bands       BLOB            -- the SimHash bands, 4 bytes each (big-endian band number << 16 | value)
) STRICT;
INSERT INTO version_features_seq (version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding, bands)
SELECT version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding, bands FROM version_features ORDER BY rowid;
DROP TABLE version_features;
ALTER TABLE version_features_seq RENAME TO version_features;
CREATE INDEX version_features_fp ON version_features(memory_ref, fingerprint);
CREATE INDEX version_features_subject ON version_features(memory_ref, subject);
CREATE INDEX version_features_judge ON version_features(judge);
DROP TABLE version_bands;
