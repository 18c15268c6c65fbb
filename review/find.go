package review

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov"
)

// QueueSort is an order of the review queue.
type QueueSort int

// Queue orders.
const (
	SortRisk QueueSort = iota // SYNC_BLOCK first, then risk, then age (the engine's order)
	SortAge                   // oldest first
	SortSLA                   // nearest deadline or SLA first
)

var sortNames = [...]string{"risk", "age", "SLA"}

func (s QueueSort) String() string {
	if int(s) < len(sortNames) {
		return sortNames[s]
	}
	return "risk"
}

// Next is the order after s, round the three.
func (s QueueSort) Next() QueueSort { return (s + 1) % QueueSort(len(sortNames)) }

// order is the engine's name of the order.
func (s QueueSort) order() string {
	switch s {
	case SortAge:
		return memgov.ReviewOrderAge
	case SortSLA:
		return memgov.ReviewOrderSLA
	}
	return memgov.ReviewOrderRisk
}

// queueRows decodes the detail of each review.
func queueRows(rs []memgov.Review) ([]QueueRow, error) {
	out := make([]QueueRow, len(rs))
	for i, r := range rs {
		out[i].Review = r
		if len(r.Detail) > 0 {
			if err := json.Unmarshal(r.Detail, &out[i].Detail); err != nil {
				return out, fmt.Errorf("review %s: detail: %w", r.ID, err)
			}
		}
	}
	return out, nil
}

// fresh refuses a decision carrying a fencing token that no longer holds: a
// claim that lapsed, was released, or was taken by someone else since. A
// person who decides on a claim must hold it still (spec §12.8.3); token 0 is a
// decision without a claim, which the engine judges on its own.
func (q *Queue) fresh(ctx context.Context, id string, token int64) error {
	if token == 0 {
		return nil
	}
	r, err := q.s.eng.Reviews().Review(ctx, id)
	if err != nil || !r.Open() {
		return err // a closed review: the engine says by whom
	}
	me := q.s.actor.ID
	switch {
	case r.ClaimToken != token || r.ClaimHolder != me:
		holder := r.ClaimHolder
		if holder == "" {
			holder = "nobody"
		}
		return fmt.Errorf("%w: stale claim: fencing token %d is no longer yours (the review's token is %d, held by %s); reopen the review to claim it again",
			memgov.ErrConflict, token, r.ClaimToken, holder)
	case !q.s.eng.Now().Before(r.ClaimExpires):
		return fmt.Errorf("%w: stale claim: your lease (fencing token %d) expired at %s UTC; reopen the review to claim it again",
			memgov.ErrConflict, token, r.ClaimExpires.UTC().Format(time.TimeOnly))
	}
	return nil
}

// Renew extends the actor's live claim on a review while they read it: a new
// lease with a new fencing token (a CLAIM log entry). A claim that lapsed or
// that someone else took is not renewed; the error says so.
func (q *Queue) Renew(ctx context.Context, id string, token int64) (memgov.Review, error) {
	if err := q.CanDecide(); err != nil {
		return memgov.Review{}, err
	}
	if token == 0 {
		return memgov.Review{}, fmt.Errorf("%w: no claim to renew", memgov.ErrInvalid)
	}
	if err := q.fresh(ctx, id, token); err != nil {
		return memgov.Review{}, err
	}
	return q.s.eng.Reviews().Claim(ctx, id, q.s.actor.ID)
}

// RefsVisible is Refs with Active counting what a read returns now: the
// items whose head is ACTIVE and not past its TTL, the count `memgov list`
// prints (Refs counts every item with a head, expired or not).
func (s *Service) RefsVisible(ctx context.Context) ([]memgov.RefSummary, error) {
	rs, err := s.Refs(ctx)
	if err != nil {
		return nil, err
	}
	refs := make([]string, len(rs))
	for i := range rs {
		refs[i] = rs[i].MemoryRef
	}
	counts, err := s.eng.Host().VisibleCounts(ctx, memgov.Owner, refs)
	for i := range rs {
		rs[i].Active = counts[rs[i].MemoryRef]
	}
	return rs, err
}
