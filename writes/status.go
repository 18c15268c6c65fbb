package writes

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
)

// WriteStatus returns the fate of a deferred write by its review id, as the
// write's result: DEFERRED while the review is open, COMMITTED once approved,
// REJECTED once refused or timed out. Only the writing agent and reviewers
// governing the review's tenant see it; to anyone else it does not exist
// (ErrNotFound), so review ids cannot be probed across tenants.
func (s *Service) WriteStatus(ctx context.Context, principalID, reviewID string) (memgov.WriteResult, error) {
	var p memgov.Principal
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, principalID)
		return err
	})
	if err != nil {
		return memgov.WriteResult{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, safeID(principalID))
	}
	r, err := s.reviews.Review(ctx, reviewID)
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
