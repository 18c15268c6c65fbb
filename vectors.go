package memgov

import (
	"context"
)

// ModelVector is a version's text embedded by a model-backed embedder,
// stored with the model's name: vectors of another model are never compared
// with the configured one's, so a model change is detected and `memgov admin
// reembed` embeds the versions again.
type ModelVector struct {
	VersionID string
	MemoryRef string
	Layer     Layer
	Model     string
	Vector    []byte // similar.Vector, binary
}

// VectorTodo is a live durable version without a vector of a model.
type VectorTodo struct {
	VersionID string
	MemoryRef string
	Layer     Layer
	Text      string
}

// VectorReader reads the model vectors.
type VectorReader interface {
	// ModelVectors returns the vectors of model for the ACTIVE or DRAFT
	// versions of memoryRef in layer.
	ModelVectors(ctx context.Context, memoryRef string, layer Layer, model string) ([]ModelVector, error)
	// VectorTodo returns up to limit ACTIVE or DRAFT durable versions with
	// text and no vector of model, and counts the stored vectors per model.
	VectorTodo(ctx context.Context, model string, limit int) ([]VectorTodo, map[string]int, error)
}

// VectorWriter stores model vectors. They are a cache of what a model said,
// not log entries: a rebuild keeps them, an erasure deletes those of the
// erased items.
type VectorWriter interface {
	PutModelVector(ctx context.Context, v ModelVector) error
}
