package sqlstore

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// applyClaim keeps the claim and escalation columns of a review in step with
// the log.
func applyClaim(ctx context.Context, q querier, e *oplog.Entry) error {
	c, err := oplog.DecodeData[oplog.ClaimData](e)
	if err != nil {
		return err
	}
	switch e.Op {
	case oplog.Claim:
		exp, err := time.Parse(time.RFC3339Nano, c.Expires)
		if err != nil {
			return wrapApply(e, err)
		}
		res, err := q.ExecContext(ctx, `UPDATE reviews SET claim_holder = ?, claim_token = ?, claim_expires = ? WHERE id = ?`, c.Holder, c.Token, ms(exp), c.ReviewID)
		return wrapApply(e, mustOne(res, err))
	case oplog.Release:
		res, err := q.ExecContext(ctx, `UPDATE reviews SET claim_holder = '', claim_expires = 0 WHERE id = ?`, c.ReviewID)
		return wrapApply(e, mustOne(res, err))
	default:
		res, err := q.ExecContext(ctx, `UPDATE reviews SET status = 'ESCALATED' WHERE id = ? AND status = 'PENDING'`, c.ReviewID)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventReviewEscalated, map[string]any{"reviewId": c.ReviewID, "memoryRef": e.MemoryRef, "by": e.Actor, "code": c.Note})
	}
}
