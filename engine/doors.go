package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
)

// This file holds the rules the doors of `memgov serve` and `memgov mcp` need
// beyond the engine's other calls, so that no rule lives only in a door: an
// authenticated principal acts only as itself, sees the fate of only its own
// deferred writes (or those of a tenant it governs), and verifies only memory
// of its tenant.

// ActingAs refuses a request whose body names an agent other than the
// authenticated principal p (memgov.ErrForbidden). An empty name is p.
func ActingAs(p memgov.Principal, named string) error {
	if named = strings.TrimSpace(named); named != "" && named != p.ID {
		return fmt.Errorf("%w: authenticated as %s; a request may not act as %s", memgov.ErrForbidden, p.ID, safeID(named))
	}
	return nil
}

// WriteStatus returns the fate of a deferred write by its review id, as the
// write's result: DEFERRED while the review is open, COMMITTED once approved,
// REJECTED once refused or timed out. Only the writing agent and reviewers
// governing the review's tenant see it; to anyone else it does not exist
// (ErrNotFound), so review ids cannot be probed across tenants.
func (e *Engine) WriteStatus(ctx context.Context, principalID, reviewID string) (memgov.WriteResult, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return memgov.WriteResult{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, safeID(principalID))
	}
	r, err := e.reviews.Review(ctx, reviewID)
	if err != nil {
		return memgov.WriteResult{}, err
	}
	if r.Agent != p.ID && !(authz.Human(p) && authz.Governs(p, r.Tenant)) {
		return memgov.WriteResult{}, fmt.Errorf("%w: review %s", memgov.ErrNotFound, safeID(reviewID))
	}
	res := memgov.WriteResult{ItemID: r.ItemID, VersionID: r.VersionID, ReviewID: r.ID, Tier: r.Tier, RiskScore: f64(r.Risk)}
	switch r.Status {
	case memgov.ReviewApproved:
		res.Status, res.Detail = memgov.StatusCommitted, "approved by "+r.DecidedBy
	case memgov.ReviewRejected:
		res.Status, res.Reason, res.Gate = memgov.StatusRejected, ReasonReviewRejected, gate.NameApproval
		if r.DecisionCode == memgov.ReasonApprovalTimeout {
			res.Reason = memgov.ReasonApprovalTimeout
		}
		res.Detail = "rejected by " + r.DecidedBy + ": " + r.DecisionCode
	default:
		res.Status, res.Reason, res.Gate = memgov.StatusDeferred, r.Reason, gate.NameApproval
		res.Detail = "waiting for review (" + r.Status + ") until " + r.DueAt.Format(oplog.TimeFormat)
	}
	return res, nil
}

// VerifyMemoryAs is VerifyMemory for a principal: the memoryRef must be of a
// tenant it governs, and it is the actor of any drift episode opened.
func (e *Engine) VerifyMemoryAs(ctx context.Context, principalID string, r memgov.VerifyRequest) (memgov.VerifyResult, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return memgov.VerifyResult{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, safeID(principalID))
	}
	if !authz.Governs(p, tenantOf(r.MemoryRef)) {
		return memgov.VerifyResult{}, fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, p.ID, p.Tenant)
	}
	r.Actor = p.ID
	return e.baselines.VerifyMemory(ctx, r)
}
