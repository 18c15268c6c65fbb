package reviews

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// SYNC_BLOCK reviews fail closed (spec §12.6.5): once a review's deadline passes,
// the first thing that touches it (a decision, a claim, a listing, a sweep, a
// waiting writer) rejects it with APPROVAL_TIMEOUT, in a log entry by memgov.
// No path can approve it afterwards.

// ErrApprovalTimeout is the error of a decision on a SYNC_BLOCK review whose
// deadline passed: the review was rejected with APPROVAL_TIMEOUT instead.
var ErrApprovalTimeout = errors.New("approval timeout")

// pastDeadline reports a SYNC_BLOCK review still open at or after its
// deadline.
func (s *Service) pastDeadline(r memgov.Review, now time.Time) bool {
	return r.Open() && r.Tier == memgov.TierSync && !r.DueAt.IsZero() && !now.Before(r.DueAt)
}

// appendTimeout appends the fail-closed rejection of r.
func (s *Service) appendTimeout(ctx context.Context, tx memgov.Tx, r memgov.Review) error {
	entry := &oplog.Entry{Time: s.now(), Op: oplog.Reject, MemoryRef: r.MemoryRef, ItemID: r.ItemID, VersionID: r.VersionID, Actor: "memgov"}
	return oplog.AppendData(ctx, tx, entry, "approval timeout; fail-closed (deadline "+r.DueAt.UTC().Format(time.RFC3339)+")", oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: r.ID, Code: memgov.ReasonApprovalTimeout}})
}

// FailClosed rejects the open review id with APPROVAL_TIMEOUT once its
// deadline has come: what a writer waiting for its decision does at the
// deadline (fail-closed). A review decided meanwhile, or whose deadline is
// still ahead, is left as it is.
func (s *Service) FailClosed(ctx context.Context, id string) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error {
		r, err := tx.Review(ctx, id)
		if err != nil || !r.Open() || s.now().Before(r.DueAt) {
			return err
		}
		return s.appendTimeout(ctx, tx, r)
	})
}

// expireOverdue rejects every open SYNC_BLOCK review past its deadline; it
// runs before reviews are listed or read, so nobody sees one as open. It
// reads first and writes only when there is something to expire.
func (s *Service) expireOverdue(ctx context.Context) (int, error) {
	now := s.now()
	q := memgov.ReviewQuery{Statuses: []string{memgov.ReviewPending, memgov.ReviewEscalated}, Tier: memgov.TierSync, Breached: true, Now: now, Limit: 1}
	var due []memgov.Review
	if err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		due, _, err = tx.Reviews(ctx, q)
		return err
	}); err != nil || len(due) == 0 {
		return 0, err
	}
	n := 0
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		q.Limit = 0
		rs, _, err := tx.Reviews(ctx, q)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if !s.pastDeadline(r, now) {
				continue
			}
			if err := s.appendTimeout(ctx, tx, r); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// expireReview fails r closed when its deadline passed, and reports whether
// it did; the caller's transaction commits the rejection.
func (s *Service) expireReview(ctx context.Context, tx memgov.Tx, r memgov.Review) (bool, error) {
	if !s.pastDeadline(r, s.now()) {
		return false, nil
	}
	return true, s.appendTimeout(ctx, tx, r)
}

// timeoutError explains a refused decision on an expired review.
func timeoutError(r memgov.Review) error {
	return fmt.Errorf("%w: review %s passed its deadline at %s and was rejected with APPROVAL_TIMEOUT (fail-closed); the write was not committed and must be submitted again",
		ErrApprovalTimeout, r.ID, r.DueAt.UTC().Format(time.RFC3339))
}
