package engine

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/canon"
)

// Audit returns the audit service: the log's root and proofs, signed
// checkpoints, export, verification, rebuilds and the compliance report.
func (e *Engine) Audit() *audit.Service { return e.audit }

// auditCaches gives the audit the engine's caches to check.
type auditCaches struct{ e *Engine }

func (c auditCaches) StateHash(ctx context.Context, tx memgov.ReadTx, ref string, now time.Time, alg canon.Algorithm) (string, error) {
	st, err := c.e.stateHash(ctx, tx, ref, now, alg, nil, false)
	return st.Hash, err
}

func (c auditCaches) IndexStatus(ctx context.Context) (memgov.IndexStatus, error) {
	return c.e.IndexStatus(ctx)
}
