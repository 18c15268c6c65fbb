-- The write path's same-topic lookup scores one memoryRef's texts, not the
-- whole store's. version_fts gains an indexed scope column holding one token
-- per memoryRef and layer ('zz' and the hex of memory_ref, a space and the
-- layer; fts.go's scopeToken), which the query ANDs with its words, so a
-- write's topic query neither scores nor reads the rows of other refs and
-- layers. bm25 weighs the text column alone. The table is derived from the
-- log like before: its rows are copied with their rowids.
CREATE VIRTUAL TABLE version_fts_scoped USING fts5(
	text,
	version_id UNINDEXED,
	memory_ref UNINDEXED,
	layer UNINDEXED,
	scope,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO version_fts_scoped (rowid, text, version_id, memory_ref, layer, scope)
SELECT rowid, text, version_id, memory_ref, layer, 'zz' || lower(hex(memory_ref || ' ' || layer)) FROM version_fts;
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
