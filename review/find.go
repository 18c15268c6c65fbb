package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov/engine"
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

// scanBatch is how many reviews one read of a scan takes.
const scanBatch = 2000

// scan serves a page the engine's index does not: a free-text filter or an
// order other than risk. It reads every open review the filter's other
// terms select, matches the text against key, memoryRef, agent and content,
// orders them and returns the page at offset.
func (q *Queue) scan(ctx context.Context, f QueueFilter, offset, limit int) (QueuePage, error) {
	rq := q.query(f)
	p := QueuePage{Offset: offset, Now: rq.Now}
	var all []QueueRow
	for off := 0; ; off += scanBatch {
		rq.Offset, rq.Limit = off, scanBatch
		rs, total, err := q.s.eng.Reviews(ctx, rq)
		if err != nil {
			return p, err
		}
		rows, err := queueRows(rs)
		if err != nil {
			return p, err
		}
		all = append(all, rows...)
		if len(rs) < scanBatch || off+len(rs) >= total {
			break
		}
	}
	if words := strings.Fields(strings.ToLower(f.Text)); len(words) > 0 {
		if err := q.texts(ctx, all); err != nil {
			return p, err
		}
		kept := all[:0]
		for _, r := range all {
			if r.matches(words) {
				kept = append(kept, r)
			}
		}
		all = kept
	}
	switch f.Sort {
	case SortAge:
		sort.SliceStable(all, func(i, j int) bool { return all[i].CreatedAt.Before(all[j].CreatedAt) })
	case SortSLA:
		sort.SliceStable(all, func(i, j int) bool { return all[i].DueAt.Before(all[j].DueAt) })
	}
	p.Total = len(all)
	offset = max(min(offset, len(all)), 0)
	p.Offset = offset
	p.Rows = append([]QueueRow(nil), all[offset:min(offset+max(limit, 1), len(all))]...)
	if err := q.contents(ctx, p.Rows); err != nil {
		return p, err
	}
	var err error
	p.Sync, err = q.sync(ctx)
	return p, err
}

// matches reports whether every word occurs in the row's key, memoryRef,
// agent or text (words already lower-case).
func (r QueueRow) matches(words []string) bool {
	hay := strings.ToLower(strings.Join([]string{r.Key, r.Detail.Supersedes, r.MemoryRef, r.Agent, r.Text}, "\x00"))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// texts reads the key and text of every row's write, in one read transaction.
func (q *Queue) texts(ctx context.Context, rows []QueueRow) error {
	return q.s.eng.Store().View(ctx, func(tx engine.ReadTx) error {
		for i := range rows {
			v, err := tx.Version(ctx, rows[i].VersionID)
			if err != nil && !errors.Is(err, engine.ErrNotFound) {
				return err
			}
			rows[i].Key, rows[i].Text = v.Key, v.Text()
		}
		return nil
	})
}

// queueRows decodes the detail of each review.
func queueRows(rs []engine.Review) ([]QueueRow, error) {
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
// person who decides on a claim must hold it still (12.8.3); token 0 is a
// decision without a claim, which the engine judges on its own.
func (q *Queue) fresh(ctx context.Context, id string, token int64) error {
	if token == 0 {
		return nil
	}
	r, err := q.s.eng.Review(ctx, id)
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
			engine.ErrConflict, token, r.ClaimToken, holder)
	case !q.s.eng.Now().Before(r.ClaimExpires):
		return fmt.Errorf("%w: stale claim: your lease (fencing token %d) expired at %s UTC; reopen the review to claim it again",
			engine.ErrConflict, token, r.ClaimExpires.UTC().Format(time.TimeOnly))
	}
	return nil
}

// Renew extends the actor's live claim on a review while they read it: a new
// lease with a new fencing token (a CLAIM log entry). A claim that lapsed or
// that someone else took is not renewed; the error says so.
func (q *Queue) Renew(ctx context.Context, id string, token int64) (engine.Review, error) {
	if err := q.CanDecide(); err != nil {
		return engine.Review{}, err
	}
	if token == 0 {
		return engine.Review{}, fmt.Errorf("%w: no claim to renew", engine.ErrInvalid)
	}
	if err := q.fresh(ctx, id, token); err != nil {
		return engine.Review{}, err
	}
	return q.s.eng.ClaimReview(ctx, id, q.s.actor.ID)
}

// RefsVisible is Refs with Active counting what a read returns now: the
// items whose head is ACTIVE and not past its TTL, the count `memgov list`
// prints (Refs counts every item with a head, expired or not).
func (s *Service) RefsVisible(ctx context.Context) ([]engine.RefSummary, error) {
	rs, err := s.Refs(ctx)
	if err != nil {
		return nil, err
	}
	now := s.eng.Now()
	err = s.eng.Store().View(ctx, func(tx engine.ReadTx) error {
		for i := range rs {
			vs, err := tx.Active(ctx, engine.ActiveQuery{MemoryRef: rs[i].MemoryRef, Now: now})
			if err != nil {
				return err
			}
			rs[i].Active = len(vs)
		}
		return nil
	})
	return rs, err
}
