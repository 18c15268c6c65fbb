package writes

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
)

// A writer waiting for its SYNC_BLOCK review: the review fails closed at its
// deadline (reviews.Service.FailClosed, spec §12.6.5), and the write is then
// REJECTED with APPROVAL_TIMEOUT.

// SyncPoll is how often a writer waiting on a SYNC_BLOCK review looks at the
// store for the decision; a curator in another process decides it.
const SyncPoll = 200 * time.Millisecond

// WriteAndWait is Write for a door that keeps the SYNC_BLOCK promise: a write
// deferred to a SYNC_BLOCK review waits for the decision until the review's
// deadline (WaitReview) and returns the final outcome, COMMITTED when
// approved, REJECTED when rejected or timed out (fail-closed). Any other
// outcome returns at once. A waiter that gives up (its context ends) leaves
// the review in the store, to resolve the same way.
func (s *Service) WriteAndWait(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	res, err := s.Write(ctx, req)
	if err != nil {
		return res, err
	}
	return s.AwaitSync(ctx, res)
}

// AwaitSync waits for the decision on res when it is a DEFERRED SYNC_BLOCK
// write, and returns the final outcome with what the first result said of
// the write (its key, alerts, validation score).
func (s *Service) AwaitSync(ctx context.Context, res memgov.WriteResult) (memgov.WriteResult, error) {
	if res.Status != memgov.StatusDeferred || res.Tier != memgov.TierSync || res.ReviewID == "" {
		return res, nil
	}
	final, err := s.WaitReview(ctx, res.ReviewID, SyncPoll)
	if err != nil {
		return res, fmt.Errorf("waiting for review %s: %w", res.ReviewID, err)
	}
	final.Key, final.Alerts, final.NeedsVerification = res.Key, res.Alerts, res.NeedsVerification
	if final.ValidationScore == nil {
		final.ValidationScore = res.ValidationScore
	}
	return final, nil
}

// WaitReview blocks until a review is decided or its deadline passes; at the
// deadline it fails closed: the write is rejected with APPROVAL_TIMEOUT
// (spec §12.6.5). poll is how often it looks; on a store that notifies
// (memgov.Notifier) it reads the review again at each decision notified, and
// polls at the longer of poll and SyncPollNotified.
func (s *Service) WaitReview(ctx context.Context, id string, poll time.Duration) (memgov.WriteResult, error) {
	// Listen before the first read, so that no decision falls between a
	// read and the wait (syncwait.go).
	wakes, stop := s.reviewWakes(ctx)
	defer stop()
	for {
		r, err := s.reviews.Review(ctx, id)
		if err != nil {
			return memgov.WriteResult{}, err
		}
		res := memgov.WriteResult{ItemID: r.ItemID, VersionID: r.VersionID, ReviewID: r.ID, Tier: r.Tier, RiskScore: f64(r.Risk)}
		switch r.Status {
		case memgov.ReviewApproved:
			res.Status = memgov.StatusCommitted
			res.Detail = "approved by " + r.DecidedBy
			return res, nil
		case memgov.ReviewRejected:
			res.Status, res.Reason, res.Gate = memgov.StatusRejected, ReasonReviewRejected, gate.NameApproval
			if r.DecisionCode == memgov.ReasonApprovalTimeout {
				res.Reason = memgov.ReasonApprovalTimeout
			}
			res.Detail = "rejected by " + r.DecidedBy + ": " + r.DecisionCode
			if r.Note != "" {
				res.Detail += " — " + r.Note
			}
			return res, nil
		}
		if !s.now().Before(r.DueAt) {
			if err := s.reviews.FailClosed(ctx, r.ID); err != nil {
				return memgov.WriteResult{}, err
			}
			continue
		}
		wait := poll
		if wakes != nil {
			wait = max(poll, SyncPollNotified)
		}
		if left := r.DueAt.Sub(s.now()); left < wait {
			wait = left
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return memgov.WriteResult{}, ctx.Err()
		case _, ok := <-wakes:
			timer.Stop()
			if !ok {
				wakes = nil // no more notifications: poll
				continue
			}
			s.waits.notified.Add(1)
		case <-timer.C:
			s.waits.polled.Add(1)
		}
	}
}
