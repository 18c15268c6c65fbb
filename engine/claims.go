package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/oplog"
)

// ClaimReview gives a curator a lease on a review, with a fencing token that
// grows with every claim: a decision carrying an older token is refused. A
// claim held by someone else that has not expired is a conflict naming them.
// Renewing one's own claim extends it with a new token.
func (e *Engine) ClaimReview(ctx context.Context, reviewID, reviewer string) (Review, error) {
	var out Review
	if _, err := e.expireOverdue(ctx); err != nil {
		return Review{}, err
	}
	err := e.store.Update(ctx, func(tx Tx) error {
		r, err := e.curatorReview(ctx, tx, ActReviewClaim, reviewID, reviewer)
		if err != nil {
			return err
		}
		now := e.Now()
		if r.ClaimHolder != "" && r.ClaimHolder != reviewer && now.Before(r.ClaimExpires) {
			return fmt.Errorf("%w: %s is reviewing this until %s", ErrConflict, r.ClaimHolder, r.ClaimExpires.Format(time.Kitchen))
		}
		ttl := time.Duration(e.policy.Review.LeaseTTL)
		if ttl <= 0 {
			ttl = 5 * time.Minute
		}
		c := oplog.ClaimData{ReviewID: r.ID, Holder: reviewer, Token: r.ClaimToken + 1, Expires: now.Add(ttl).Format(TimeFormat)}
		if err := e.appendClaim(ctx, tx, OpClaim, r, reviewer, "claimed for review", c); err != nil {
			return err
		}
		out, err = tx.Review(ctx, r.ID)
		return err
	})
	return out, err
}

// ReleaseReview gives a claim back before it expires.
func (e *Engine) ReleaseReview(ctx context.Context, reviewID, reviewer string) error {
	return e.store.Update(ctx, func(tx Tx) error {
		r, err := tx.Review(ctx, reviewID)
		if err != nil {
			return err
		}
		if _, err := e.permitTx(ctx, tx, reviewer, ActReviewRelease, reviewTarget(r)); err != nil {
			return err
		}
		if r.ClaimHolder != reviewer || !e.Now().Before(r.ClaimExpires) {
			return nil
		}
		return e.appendClaim(ctx, tx, OpRelease, r, reviewer, "claim released", oplog.ClaimData{ReviewID: r.ID, Token: r.ClaimToken})
	})
}

// EscalateReview marks a review for a more senior decision.
func (e *Engine) EscalateReview(ctx context.Context, reviewID, reviewer, note string) (Review, error) {
	var out Review
	err := e.store.Update(ctx, func(tx Tx) error {
		r, err := e.curatorReview(ctx, tx, ActReviewEscalate, reviewID, reviewer)
		if err != nil {
			return err
		}
		if r.Status == ReviewEscalated {
			return fmt.Errorf("%w: review %s is already escalated", ErrConflict, r.ID)
		}
		reason := "escalated by " + reviewer
		if note != "" {
			reason += ": " + note
		}
		if err := e.appendClaim(ctx, tx, OpEscalate, r, reviewer, reason, oplog.ClaimData{ReviewID: r.ID, Note: note}); err != nil {
			return err
		}
		out, err = tx.Review(ctx, r.ID)
		return err
	})
	return out, err
}

// SweepResult counts what a sweep did.
type SweepResult struct {
	Escalated int `json:"escalated"` // async reviews past their SLA
	TimedOut  int `json:"timed_out"` // sync reviews past their deadline, rejected fail-closed
}

// SweepReviews escalates async reviews past their SLA (raising a
// review.escalated event) and rejects sync reviews past their deadline with
// APPROVAL_TIMEOUT (fail-closed, spec §12.6.5). Every change is a log entry by memgov.
func (e *Engine) SweepReviews(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	n, err := e.expireOverdue(ctx)
	if err != nil {
		return res, err
	}
	res.TimedOut = n
	due, _, err := e.Reviews(ctx, ReviewQuery{Statuses: []string{ReviewPending, ReviewEscalated}, Breached: true})
	if err != nil {
		return res, err
	}
	for _, r := range due {
		switch {
		case r.Tier == TierSync:
			continue // expireOverdue failed it closed
		case r.Status == ReviewPending:
			err := e.store.Update(ctx, func(tx Tx) error {
				cur, err := tx.Review(ctx, r.ID)
				if err != nil || cur.Status != ReviewPending {
					return err
				}
				return e.appendClaim(ctx, tx, OpEscalate, cur, "memgov", "past its review SLA", oplog.ClaimData{ReviewID: cur.ID, Note: "SLA_BREACHED"})
			})
			if err != nil {
				return res, err
			}
			res.Escalated++
		}
	}
	return res, nil
}

// curatorReview loads an open review and checks that reviewer may perform a
// on it (the authority table: curators of its tenant who did not write it).
func (e *Engine) curatorReview(ctx context.Context, tx ReadTx, a Action, reviewID, reviewer string) (Review, error) {
	if _, err := tx.Principal(ctx, reviewer); err != nil {
		return Review{}, requirePrincipal(ctx, tx, reviewer)
	}
	r, err := tx.Review(ctx, reviewID)
	if err != nil {
		return Review{}, err
	}
	if _, err := e.permitTx(ctx, tx, reviewer, a, reviewTarget(r)); err != nil {
		return Review{}, err
	}
	if !r.Open() {
		return Review{}, fmt.Errorf("%w: review %s was already %s by %s", ErrConflict, r.ID, r.Status, r.DecidedBy)
	}
	return r, nil
}

func (e *Engine) appendClaim(ctx context.Context, tx Tx, op Op, r Review, actor, reason string, c oplog.ClaimData) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	entry := &LogEntry{Time: e.Now(), Op: op, MemoryRef: r.MemoryRef, ItemID: r.ItemID, VersionID: r.VersionID, Actor: actor}
	if err := entry.Seal(Payload{Reason: reason, Data: data}); err != nil {
		return err
	}
	return tx.Append(ctx, entry)
}

// reviewTarget is what a review decides about: memory of its ref and layer,
// written by its agent.
func reviewTarget(r Review) Target { return ReviewTarget(r) }

// ReviewTarget is the Target of an action on review r.
func ReviewTarget(r Review) Target {
	ref := r.MemoryRef
	if ref == "" {
		ref = r.Tenant + "/" + r.Agent
	}
	return Target{Ref: ref, Layer: r.Layer, Writer: r.Agent}
}
