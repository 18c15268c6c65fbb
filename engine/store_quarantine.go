package engine

import (
	"context"
	"time"
)

// QuarantineReader reads quarantined versions and what decides a quarantine
// (spec §12.11.5, engine/quarantine.go).
type QuarantineReader interface {
	// Quarantined lists quarantined versions matching q, newest first.
	Quarantined(ctx context.Context, q QuarantineQuery) ([]QuarantineEntry, error)
	// AgentOutcomes counts agent's write outcomes recorded at or after
	// since, and those a contradiction decided (CONTRADICTION,
	// SEMANTIC_CONFLICT, STRUCTURAL_CONFLICT).
	AgentOutcomes(ctx context.Context, agent string, since time.Time) (total, contradictions int, err error)
	// ActiveWrittenBy returns the ACTIVE versions agent created at or after
	// since, in log order.
	ActiveWrittenBy(ctx context.Context, agent string, since time.Time) ([]Version, error)
}
