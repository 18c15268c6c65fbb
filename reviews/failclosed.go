package engine

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
func (e *Engine) pastDeadline(r memgov.Review, now time.Time) bool {
	return r.Open() && r.Tier == memgov.TierSync && !r.DueAt.IsZero() && !now.Before(r.DueAt)
}

// appendTimeout appends the fail-closed rejection of r.
func (e *Engine) appendTimeout(ctx context.Context, tx memgov.Tx, r memgov.Review) error {
	entry := &oplog.Entry{Time: e.Now(), Op: oplog.Reject, MemoryRef: r.MemoryRef, ItemID: r.ItemID, VersionID: r.VersionID, Actor: "memgov"}
	return oplog.AppendData(ctx, tx, entry, "approval timeout; fail-closed (deadline "+r.DueAt.UTC().Format(time.RFC3339)+")", oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: r.ID, Code: memgov.ReasonApprovalTimeout}})
}

// timeout rejects an open SYNC_BLOCK review whose deadline passed
// (fail-closed). A review decided meanwhile is left as it is.
func (e *Engine) timeout(ctx context.Context, id string) error {
	return e.store.Update(ctx, func(tx memgov.Tx) error {
		r, err := tx.Review(ctx, id)
		if err != nil || !r.Open() {
			return err
		}
		return e.appendTimeout(ctx, tx, r)
	})
}

// expireOverdue rejects every open SYNC_BLOCK review past its deadline; it
// runs before reviews are listed or read, so nobody sees one as open. It
// reads first and writes only when there is something to expire.
func (e *Engine) expireOverdue(ctx context.Context) (int, error) {
	now := e.Now()
	q := memgov.ReviewQuery{Statuses: []string{memgov.ReviewPending, memgov.ReviewEscalated}, Tier: memgov.TierSync, Breached: true, Now: now, Limit: 1}
	var due []memgov.Review
	if err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		due, _, err = tx.Reviews(ctx, q)
		return err
	}); err != nil || len(due) == 0 {
		return 0, err
	}
	n := 0
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		q.Limit = 0
		rs, _, err := tx.Reviews(ctx, q)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if !e.pastDeadline(r, now) {
				continue
			}
			if err := e.appendTimeout(ctx, tx, r); err != nil {
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
func (e *Engine) expireReview(ctx context.Context, tx memgov.Tx, r memgov.Review) (bool, error) {
	if !e.pastDeadline(r, e.Now()) {
		return false, nil
	}
	return true, e.appendTimeout(ctx, tx, r)
}

// timeoutError explains a refused decision on an expired review.
func timeoutError(r memgov.Review) error {
	return fmt.Errorf("%w: review %s passed its deadline at %s and was rejected with APPROVAL_TIMEOUT (fail-closed); the write was not committed and must be submitted again",
		ErrApprovalTimeout, r.ID, r.DueAt.UTC().Format(time.RFC3339))
}

// SyncPoll is how often a writer waiting on a SYNC_BLOCK review looks at the
// store for the decision; a curator in another process decides it.
const SyncPoll = 200 * time.Millisecond

// WriteAndWait is Write for a door that keeps the SYNC_BLOCK promise: a write
// deferred to a SYNC_BLOCK review waits for the decision until the review's
// deadline (WaitReview) and returns the final outcome, COMMITTED when
// approved, REJECTED when rejected or timed out (fail-closed). Any other
// outcome returns at once. A waiter that gives up (its context ends) leaves
// the review in the store, to resolve the same way.
func (e *Engine) WriteAndWait(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	res, err := e.Write(ctx, req)
	if err != nil {
		return res, err
	}
	return e.AwaitSync(ctx, res)
}

// AwaitSync waits for the decision on res when it is a DEFERRED SYNC_BLOCK
// write, and returns the final outcome with what the first result said of
// the write (its key, alerts, validation score).
func (e *Engine) AwaitSync(ctx context.Context, res memgov.WriteResult) (memgov.WriteResult, error) {
	if res.Status != memgov.StatusDeferred || res.Tier != memgov.TierSync || res.ReviewID == "" {
		return res, nil
	}
	final, err := e.WaitReview(ctx, res.ReviewID, SyncPoll)
	if err != nil {
		return res, fmt.Errorf("waiting for review %s: %w", res.ReviewID, err)
	}
	final.Key, final.Alerts, final.NeedsVerification = res.Key, res.Alerts, res.NeedsVerification
	if final.ValidationScore == nil {
		final.ValidationScore = res.ValidationScore
	}
	return final, nil
}
