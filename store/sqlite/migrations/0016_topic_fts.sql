-- The full-text index of version texts that finds a write's same-topic
-- neighbours for the contradiction gate (BM25 within a memoryRef and layer).
-- It is derived: indexVersion keeps it from the log, Rebuild refills it and an
-- erasure deletes the erased versions' rows and merges the index so their
-- terms leave the file.
CREATE VIRTUAL TABLE version_fts USING fts5(
	text,
	version_id UNINDEXED,
	memory_ref UNINDEXED,
	layer UNINDEXED,
	tokenize = 'porter unicode61 remove_diacritics 2'
);

INSERT INTO version_fts (text, version_id, memory_ref, layer)
SELECT json_extract(v.content, '$.text'), vi.version_id, vi.memory_ref, vi.layer
FROM version_index vi JOIN versions v ON v.id = vi.version_id
WHERE vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL') AND vi.content_hash <> ''
AND json_valid(v.content) AND json_type(v.content, '$.text') = 'text';
