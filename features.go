package memgov

import (
	"context"
	"encoding/json"
)

// VersionFeatures are the judge-derived values of one version that the dedup
// and contradiction gates look candidates up by: its fingerprint, the
// subject, predicate and object read from it, its hashed-vector embedding and
// the SimHash bands of that embedding. They are a cache, not evidence: the
// engine computes them (an Indexer) and stores them beside the version with
// the Judge version that computed them; `memgov audit verify` never compares
// them with a replay, and `memgov admin reindex` recomputes them when the
// judge changes.
type VersionFeatures struct {
	VersionID   string
	MemoryRef   string
	Layer       Layer
	Judge       string // the Indexer's Version
	Fingerprint []byte
	Subject     string
	Predicate   string
	Object      string
	Embedding   []byte   // similar.Vector, binary
	Bands       []uint32 // band number << 16 | band value
	// Sketch is what the judge compares the text by before reading it in
	// full (judge.Sketch): stamped with the judge version, opaque to the
	// store.
	Sketch []byte
}

// FeatureTodo is an indexed version whose features are missing or were
// computed by another judge version, with the content to compute them from.
type FeatureTodo struct {
	VersionID string
	MemoryRef string
	Layer     Layer
	Content   json.RawMessage
}

// IndexStatus counts the indexed versions by the judge version of their
// features: Current were computed by the running judge, Stale by another,
// and Missing have none. Erased versions have no features and are not
// counted.
type IndexStatus struct {
	Judge   string           `json:"judge_version"`
	Current int64            `json:"current"`
	Stale   int64            `json:"stale"`
	Missing int64            `json:"missing"`
	ByJudge map[string]int64 `json:"by_judge,omitempty"`
}

// Fresh reports whether every indexed version has features of the running
// judge.
func (s IndexStatus) Fresh() bool { return s.Stale == 0 && s.Missing == 0 }

// FeatureReader reads the judge-derived cache.
type FeatureReader interface {
	// IndexStatus counts the indexed, not erased versions by whether their
	// features were computed by judge, by another judge version, or not at
	// all.
	IndexStatus(ctx context.Context, judge string) (IndexStatus, error)
	// FeatureTodo returns up to limit indexed, not erased versions with
	// content whose features are missing or not of judge, with version ids
	// greater than after, in version id order.
	FeatureTodo(ctx context.Context, judge, after string, limit int) ([]FeatureTodo, error)
}

// FeatureWriter stores the judge-derived cache. It is written outside the
// log: a rebuild keeps it, an erasure deletes the erased items' rows.
type FeatureWriter interface {
	// PutFeatures replaces the features and bands of an indexed version. A
	// version that is not indexed, or whose item was erased, is ErrNotFound
	// and nothing is stored.
	PutFeatures(ctx context.Context, f VersionFeatures) error
}
