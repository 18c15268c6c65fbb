package review

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
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

// scan serves a page the engine's index does not: a free-text filter or an
// order other than risk. It reads every open review the filter's other
// terms select, matches the text against key, memoryRef, agent and content,
// orders them and returns the page at offset.
func (q *Queue) scan(ctx context.Context, f QueueFilter, offset, limit int) (QueuePage, error) {
	rq := q.query(f)
	p := QueuePage{Offset: offset, Now: rq.Now}
	all, err := q.scanned(ctx, f, rq)
	if err != nil {
		return p, err
	}
	p.Total = len(all)
	offset = max(min(offset, len(all)), 0)
	p.Offset = offset
	p.Rows = append([]QueueRow(nil), all[offset:min(offset+max(limit, 1), len(all))]...)
	if err := q.contents(ctx, p.Rows); err != nil {
		return p, err
	}
	p.Sync, err = q.sync(ctx)
	return p, err
}

// scanCache keeps the last scan's rows: paging through a filtered or sorted
// queue reads the queue once per change of the log, not once per page.
type scanCache struct {
	mu      sync.Mutex
	key     QueueFilter
	logSize int64
	tenant  string
	rows    []QueueRow
	// texts holds the key and text of each review's write, read once: a
	// staged version's content never changes, so a search after the log
	// grew reads only the reviews that are new.
	texts map[string][2]string
}

// scanned returns every open review the filter selects, in its order,
// from the cache when the log has not grown since it was read.
func (q *Queue) scanned(ctx context.Context, f QueueFilter, rq engine.ReviewQuery) ([]QueueRow, error) {
	size, err := q.s.eng.LogSize(ctx)
	if err != nil {
		return nil, err
	}
	c := &q.s.scan
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows != nil && c.key == f && c.logSize == size && c.tenant == rq.Tenant && !f.Breached && f.MinAge == 0 {
		return c.rows, nil
	}
	// One read of the whole selection: paging it with OFFSET would read
	// the queue's head again for every page.
	rq.Offset, rq.Limit = 0, math.MaxInt32
	rs, _, err := q.s.eng.Reviews(ctx, rq)
	if err != nil {
		return nil, err
	}
	all, err := queueRows(rs)
	if err != nil {
		return nil, err
	}
	if words := strings.Fields(strings.ToLower(f.Text)); len(words) > 0 {
		if err := q.texts(ctx, all, c); err != nil {
			return nil, err
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
	c.key, c.logSize, c.tenant, c.rows = f, size, rq.Tenant, all
	return all, nil
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

// texts fills the key and text of every row's write: from the cache, or
// read (in one read transaction) and kept for the next search.
func (q *Queue) texts(ctx context.Context, rows []QueueRow, c *scanCache) error {
	if c.texts == nil {
		c.texts = map[string][2]string{}
	}
	var ids []string
	for i := range rows {
		if kt, ok := c.texts[rows[i].ID]; ok {
			rows[i].Key, rows[i].Text = kt[0], kt[1]
			continue
		}
		ids = append(ids, rows[i].VersionID)
	}
	if len(ids) == 0 {
		return nil
	}
	vs, err := q.s.eng.Versions(ctx, ids)
	if err != nil {
		return err
	}
	for i := range rows {
		if _, ok := c.texts[rows[i].ID]; ok {
			continue
		}
		v := vs[rows[i].VersionID]
		rows[i].Key, rows[i].Text = v.Key, v.Text()
		c.texts[rows[i].ID] = [2]string{v.Key, rows[i].Text}
	}
	return nil
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
// person who decides on a claim must hold it still (spec §12.8.3); token 0 is a
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
	refs := make([]string, len(rs))
	for i := range rs {
		refs[i] = rs[i].MemoryRef
	}
	counts, err := s.eng.VisibleCounts(ctx, refs)
	for i := range rs {
		rs[i].Active = counts[rs[i].MemoryRef]
	}
	return rs, err
}
