package memgov

import (
	"context"
	"encoding/json"
	"time"
)

// CommitmentReader reads commitments: reminders and triggers that memory
// items create and the log arms and fires.
type CommitmentReader interface {
	// Commitments returns ref's commitments in the order they were created.
	Commitments(ctx context.Context, ref string) ([]Commitment, error)
	// Commitment returns the commitment with id; an unknown id is
	// ErrNotFound.
	Commitment(ctx context.Context, id string) (Commitment, error)
}

// Commitment kinds.
const (
	CommitTime      = "time"
	CommitPredicate = "predicate"
)

// Commitment is an inferred standing commitment.
type Commitment struct {
	ID              string          `json:"id"`
	MemoryRef       string          `json:"memory_ref"`
	Tenant          string          `json:"tenant"`
	SourceItemID    string          `json:"source_item_id"`
	SourceVersionID string          `json:"source_version_id"`
	Kind            string          `json:"kind"`
	DueAt           *time.Time      `json:"due_at,omitempty"`
	Predicate       json.RawMessage `json:"predicate,omitempty"`
	Armed           bool            `json:"armed"`
	FiredCount      int             `json:"fired_count"`
	LastFiredAt     *time.Time      `json:"last_fired_at,omitempty"`
	LastFiredLSN    int64           `json:"last_fired_lsn,omitempty"`
	CreatedBy       string          `json:"created_by"`
	CreatedAt       time.Time       `json:"created_at"`
}

// TickResult reports one tick.
type TickResult struct {
	MemoryRef string   `json:"memory_ref"`
	Inferred  []string `json:"inferred"`
	Fired     []string `json:"fired"`
	Rearmed   []string `json:"rearmed"`
}
