-- The write path's same-topic lookup scores one memoryRef and layer's texts,
-- not the whole store's. Each text's tsvector also holds its scope's lexeme
-- (memgov_fts_scope: "scope " and a digest of the layer and memoryRef; the
-- space keeps it from any lexeme a text's words make), so the GIN index
-- answers a query ANDed with the scope's lexeme from the rows of that scope
-- alone, instead of every row holding the query's words being read to filter
-- them by memory_ref and layer. The ranking (ts_rank of the query's words)
-- is unchanged.
CREATE FUNCTION memgov_fts_scope(layer text, memory_ref text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'scope ' || md5(layer || ':' || memory_ref) $$;
ALTER TABLE version_fts DROP COLUMN tsv;
ALTER TABLE version_fts ADD COLUMN tsv tsvector GENERATED ALWAYS AS
    (to_tsvector('english', text) || array_to_tsvector(ARRAY[memgov_fts_scope(layer, memory_ref)])) STORED;
CREATE INDEX version_fts_tsv ON version_fts USING GIN (tsv);

-- The SimHash bands of a version are one packed column of its
-- version_features row (bands), which the store reads into an in-memory
-- index (store/internal/sqlstore/bands.go): version_bands, sixteen rows a
-- version, goes. Each row gets a seq, never reused, by which the in-memory
-- index of every memgov process on the database catches up with the rows
-- written since it last looked; replacing a version's features gives its row
-- a new seq. The sequence caches one value (CACHE 1) and every write
-- transaction holds the append lock until it commits, so seqs are assigned
-- in commit order across processes.
ALTER TABLE version_features ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY (CACHE 1);
CREATE UNIQUE INDEX version_features_seq ON version_features (seq);
DROP TABLE version_bands;
