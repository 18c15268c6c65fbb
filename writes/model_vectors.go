package writes

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/similar"
)

// modelTopK caps the nearest model neighbours added to the topic candidates.
const modelTopK = 10

// embedText embeds a write's text with the configured embedder. An error
// is the model's: the write then goes to a person (MODEL_UNAVAILABLE).
func (s *Service) embedText(ctx context.Context, text string) (similar.Vector, []byte, error) {
	vs, err := s.embedder.Embed(ctx, []string{text})
	if err != nil {
		return similar.Vector{}, nil, fmt.Errorf("embedder %s: %w", s.embedder.Model(), err)
	}
	if len(vs) != 1 {
		return similar.Vector{}, nil, fmt.Errorf("embedder %s returned %d vectors for one text", s.embedder.Model(), len(vs))
	}
	raw, err := vs[0].MarshalBinary()
	if err != nil {
		return similar.Vector{}, nil, fmt.Errorf("embedder %s: %w", s.embedder.Model(), err)
	}
	return vs[0], raw, nil
}

// modelNeighbours compares a write's model vector with the stored vectors of
// the same model in its memoryRef and layer: the cosine to each version, and
// the nearest versions at or above the topic similarity, most similar first.
// Versions embedded by another model (a model change) have no vector of this
// one until `memgov admin reembed`.
func (s *Service) modelNeighbours(ctx context.Context, tx memgov.ReadTx, ref string, layer memgov.Layer, vec similar.Vector) (map[string]float64, []string, error) {
	stored, err := tx.ModelVectors(ctx, ref, layer, s.embedder.Model())
	if err != nil {
		return nil, nil, fmt.Errorf("read model vectors: %w", err)
	}
	cos := make(map[string]float64, len(stored))
	var near []string
	for _, mv := range stored {
		v, err := similar.UnmarshalVector(mv.Vector)
		if err != nil {
			return nil, nil, fmt.Errorf("model vector of %s: %w", mv.VersionID, err)
		}
		c := similar.Cosine(vec, v)
		cos[mv.VersionID] = c
		if c >= s.policy.Contradiction.TopicSimilarity {
			near = append(near, mv.VersionID)
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return cos[near[i]] > cos[near[j]] })
	if len(near) > modelTopK {
		near = near[:modelTopK]
	}
	return cos, near, nil
}

// ReembedReport is what Reembed did.
type ReembedReport struct {
	Model    string `json:"model"`
	Embedded int    `json:"embedded"`
	// Stored counts the vectors per model after the run: a model other than
	// Model is one the policy no longer configures.
	Stored map[string]int `json:"stored"`
}

// ErrNoEmbedder is Reembed's error when no embedder is configured.
var ErrNoEmbedder = errors.New("no embedder is configured (models.embedder in the policy file)")

// Reembed embeds, batch by batch, every live durable version that has no
// vector of the configured embedder's model: after a model change, or for
// versions written before an embedder was configured. A failing model stops
// it with an error; what was embedded stays.
func (s *Service) Reembed(ctx context.Context, batch int, progress func(done int)) (ReembedReport, error) {
	if s.embedder == nil {
		return ReembedReport{}, ErrNoEmbedder
	}
	if batch <= 0 {
		batch = 32
	}
	rep := ReembedReport{Model: s.embedder.Model()}
	for {
		var todo []memgov.VectorTodo
		if err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
			todo, rep.Stored, err = tx.VectorTodo(ctx, rep.Model, batch)
			return err
		}); err != nil {
			return rep, err
		}
		if len(todo) == 0 {
			return rep, nil
		}
		texts := make([]string, len(todo))
		for i, t := range todo {
			texts[i] = t.Text
		}
		vs, err := s.embedder.Embed(ctx, texts)
		if err != nil {
			return rep, fmt.Errorf("embed with %s: %w", rep.Model, err)
		}
		if len(vs) != len(todo) {
			return rep, fmt.Errorf("embedder %s returned %d vectors for %d texts", rep.Model, len(vs), len(todo))
		}
		if err := s.store.Update(ctx, func(tx memgov.Tx) error {
			for i, t := range todo {
				raw, err := vs[i].MarshalBinary()
				if err != nil {
					return err
				}
				if err := tx.PutModelVector(ctx, memgov.ModelVector{VersionID: t.VersionID, MemoryRef: t.MemoryRef, Layer: t.Layer, Model: rep.Model, Vector: raw}); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return rep, err
		}
		rep.Embedded += len(todo)
		if progress != nil {
			progress(rep.Embedded)
		}
	}
}
