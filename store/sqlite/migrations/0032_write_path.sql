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
