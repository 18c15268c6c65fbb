-- Vectors of version texts from a model-backed embedder, keyed by the model's
-- name. A cache of what the model said (not rebuilt from the log); an erasure
-- deletes the erased items' vectors.
CREATE TABLE model_vectors (
	version_id TEXT NOT NULL,
	model      TEXT NOT NULL,
	memory_ref TEXT NOT NULL,
	layer      TEXT NOT NULL,
	vector     BLOB NOT NULL,
	PRIMARY KEY (version_id, model)
);
CREATE INDEX model_vectors_ref ON model_vectors (memory_ref, layer, model);
