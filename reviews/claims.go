package reviews

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// Claim gives a curator a lease on a review, with a fencing token that
// grows with every claim: a decision carrying an older token is refused. A
// claim held by someone else that has not expired is a conflict naming them.
// Renewing one's own claim extends it with a new token.
func (s *Service) Claim(ctx context.Context, reviewID, reviewer string) (memgov.Review, error) {
	var out memgov.Review
	if _, err := s.expireOverdue(ctx); err != nil {
		return memgov.Review{}, err
	}
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		r, err := s.curatorReview(ctx, tx, authz.ActReviewClaim, reviewID, reviewer)
		if err != nil {
			return err
		}
		now := s.now()
		if r.ClaimHolder != "" && r.ClaimHolder != reviewer && now.Before(r.ClaimExpires) {
			return fmt.Errorf("%w: %s is reviewing this until %s", memgov.ErrConflict, r.ClaimHolder, r.ClaimExpires.Format(time.Kitchen))
		}
		ttl := time.Duration(s.policy.Review.LeaseTTL)
		if ttl <= 0 {
			ttl = 5 * time.Minute
		}
		c := oplog.ClaimData{ReviewID: r.ID, Holder: reviewer, Token: r.ClaimToken + 1, Expires: now.Add(ttl).Format(oplog.TimeFormat)}
		if err := s.appendClaim(ctx, tx, oplog.Claim, r, reviewer, "claimed for review", c); err != nil {
			return err
		}
		out, err = tx.Review(ctx, r.ID)
		return err
	})
	return out, err
}

// Release gives a claim back before it expires.
func (s *Service) Release(ctx context.Context, reviewID, reviewer string) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error {
		r, err := tx.Review(ctx, reviewID)
		if err != nil {
			return err
		}
		if _, err := s.authz.PermitID(ctx, tx, reviewer, authz.ActReviewRelease, Target(r)); err != nil {
			return err
		}
		if r.ClaimHolder != reviewer || !s.now().Before(r.ClaimExpires) {
			return nil
		}
		return s.appendClaim(ctx, tx, oplog.Release, r, reviewer, "claim released", oplog.ClaimData{ReviewID: r.ID, Token: r.ClaimToken})
	})
}

// Escalate marks a review for a more senior decision.
func (s *Service) Escalate(ctx context.Context, reviewID, reviewer, note string) (memgov.Review, error) {
	var out memgov.Review
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		r, err := s.curatorReview(ctx, tx, authz.ActReviewEscalate, reviewID, reviewer)
		if err != nil {
			return err
		}
		if r.Status == memgov.ReviewEscalated {
			return fmt.Errorf("%w: review %s is already escalated", memgov.ErrConflict, r.ID)
		}
		reason := "escalated by " + reviewer
		if note != "" {
			reason += ": " + note
		}
		if err := s.appendClaim(ctx, tx, oplog.Escalate, r, reviewer, reason, oplog.ClaimData{ReviewID: r.ID, Note: note}); err != nil {
			return err
		}
		out, err = tx.Review(ctx, r.ID)
		return err
	})
	return out, err
}

// Sweep escalates async reviews past their SLA (raising a
// review.escalated event) and rejects sync reviews past their deadline with
// APPROVAL_TIMEOUT (fail-closed, spec §12.6.5). Every change is a log entry by memgov.
func (s *Service) Sweep(ctx context.Context) (memgov.SweepResult, error) {
	var res memgov.SweepResult
	n, err := s.expireOverdue(ctx)
	if err != nil {
		return res, err
	}
	res.TimedOut = n
	due, _, err := s.List(ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewPending, memgov.ReviewEscalated}, Breached: true})
	if err != nil {
		return res, err
	}
	for _, r := range due {
		switch {
		case r.Tier == memgov.TierSync:
			continue // expireOverdue failed it closed
		case r.Status == memgov.ReviewPending:
			err := s.store.Update(ctx, func(tx memgov.Tx) error {
				cur, err := tx.Review(ctx, r.ID)
				if err != nil || cur.Status != memgov.ReviewPending {
					return err
				}
				return s.appendClaim(ctx, tx, oplog.Escalate, cur, "memgov", "past its review SLA", oplog.ClaimData{ReviewID: cur.ID, Note: "SLA_BREACHED"})
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
func (s *Service) curatorReview(ctx context.Context, tx memgov.ReadTx, a authz.Action, reviewID, reviewer string) (memgov.Review, error) {
	if _, err := tx.Principal(ctx, reviewer); err != nil {
		return memgov.Review{}, authz.Require(ctx, tx, reviewer)
	}
	r, err := tx.Review(ctx, reviewID)
	if err != nil {
		return memgov.Review{}, err
	}
	if _, err := s.authz.PermitID(ctx, tx, reviewer, a, Target(r)); err != nil {
		return memgov.Review{}, err
	}
	if !r.Open() {
		return memgov.Review{}, fmt.Errorf("%w: review %s was already %s by %s", memgov.ErrConflict, r.ID, r.Status, r.DecidedBy)
	}
	return r, nil
}

func (s *Service) appendClaim(ctx context.Context, tx memgov.Tx, op oplog.Op, r memgov.Review, actor, reason string, c oplog.ClaimData) error {
	entry := &oplog.Entry{Time: s.now(), Op: op, MemoryRef: r.MemoryRef, ItemID: r.ItemID, VersionID: r.VersionID, Actor: actor}
	return oplog.AppendData(ctx, tx, entry, reason, c)
}

// Target is what an action on review r is about: memory of its ref and
// layer, written by its agent.
func Target(r memgov.Review) authz.Target {
	ref := r.MemoryRef
	if ref == "" {
		ref = r.Tenant + "/" + r.Agent
	}
	return authz.Target{Ref: ref, Layer: r.Layer, Writer: r.Agent}
}
