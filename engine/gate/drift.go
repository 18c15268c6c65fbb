package gate

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
)

// DriftStatus is what a memoryRef's drift policy says about writing to it
// now (spec §3.2.6.1).
type DriftStatus struct {
	// Deny: the memoryRef drifted from its approved baseline under
	// deny-on-drift (or its baseline expired or ran out of delta budget).
	Deny bool
	// Alerts are the drift alerts the writer is told about.
	Alerts []string
}

// DriftReader judges a memoryRef against its approved baseline. Judging reads
// the baseline, open drift episodes and the memory's Merkle head, and re-hashes
// the memory when rows were changed outside memgov; the engine implements it
// over a store transaction.
type DriftReader interface {
	DriftStatus(ctx context.Context, memoryRef string) (DriftStatus, error)
}

// DriftInput is what the drift step needs.
type DriftInput struct {
	MemoryRef string
	Reader    DriftReader
}

// DriftResult is what the drift step finds.
type DriftResult struct {
	Result
	Alerts []string
}

// Drift applies the memoryRef's drift policy.
type Drift struct{}

// Name returns NameDrift.
func (Drift) Name() string { return NameDrift }

// Evaluate denies writes to memory that drifted under deny-on-drift and
// passes on the alerts of alert-on-drift.
func (Drift) Evaluate(ctx context.Context, in DriftInput) (DriftResult, error) {
	st, err := in.Reader.DriftStatus(ctx, in.MemoryRef)
	if err != nil {
		return DriftResult{}, fmt.Errorf("check baseline: %w", err)
	}
	out := DriftResult{Result: accept(), Alerts: st.Alerts}
	if st.Deny {
		out.Result = deny(ReasonDriftDenied, "memory of %s drifted from its approved baseline under deny-on-drift; an operator must acknowledge the drift", in.MemoryRef).then(memgov.NextAcknowledgeDrift)
	}
	return out, nil
}
