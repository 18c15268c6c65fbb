package review

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/reviews"
	"github.com/memgov/memgov/writes"
)

// Queue is the review queue of deferred writes, as one person sees it: the
// reviews of the tenants they govern (every tenant for installation-wide
// principals and for people memgov does not know, who only read).
type Queue struct{ s *Service }

// QueueFilter narrows the queue. Zero values match everything.
type QueueFilter struct {
	Layer    memgov.Layer
	Tier     string
	Agent    string
	Reason   string
	MinAge   time.Duration
	Breached bool // only reviews past their SLA or deadline
	// Text is free text: every word must occur (ignoring case) in the key,
	// the memoryRef, the agent, the reason, the detail's reasons, findings
	// and superseded key, or the content of the write.
	Text string
	// Sort orders the queue: by risk (the default: SYNC_BLOCK first, then
	// risk and age), by age (oldest first) or by SLA (the nearest due first).
	Sort QueueSort
}

// IsZero reports whether the filter matches every open review (whatever
// its order).
func (f QueueFilter) IsZero() bool { f.Sort = SortRisk; return f == QueueFilter{} }

// String is the filter as the filter bar reads and writes it:
// "layer=semantic tier=SYNC_BLOCK agent=support-bot reason=CONTRADICTION age=1h breached".
func (f QueueFilter) String() string {
	var parts []string
	if f.Layer != "" {
		parts = append(parts, "layer="+strings.ToLower(string(f.Layer)))
	}
	if f.Tier != "" {
		parts = append(parts, "tier="+f.Tier)
	}
	if f.Agent != "" {
		parts = append(parts, "agent="+f.Agent)
	}
	if f.Reason != "" {
		parts = append(parts, "reason="+f.Reason)
	}
	if f.MinAge > 0 {
		parts = append(parts, "age="+strings.TrimSuffix(strings.TrimSuffix(f.MinAge.String(), "0s"), "0m"))
	}
	if f.Breached {
		parts = append(parts, "breached")
	}
	if f.Text != "" {
		parts = append(parts, f.Text)
	}
	return strings.Join(parts, " ")
}

// ParseQueueFilter reads the filter bar: space-separated layer=, tier=
// (sync, async or the tier's name), agent=, reason=, age= (a Go duration or
// "2d") and the word breached; any other word is free text matched against
// the key, the memoryRef, the agent, the reason, the detail and the content.
func ParseQueueFilter(s string) (f QueueFilter, err error) {
	var text []string
	defer func() { f.Text = strings.Join(text, " ") }()
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		k = strings.ToLower(k)
		if !ok {
			if k == "breached" {
				f.Breached = true
				continue
			}
			text = append(text, w)
			continue
		}
		switch k {
		case "layer":
			l, err := memgov.ParseLayer(v)
			if err != nil {
				return f, fmt.Errorf("%w: layer %q: working, episodic, semantic or procedural", memgov.ErrInvalid, v)
			}
			f.Layer = l
		case "tier":
			switch strings.ToUpper(v) {
			case "SYNC", memgov.TierSync:
				f.Tier = memgov.TierSync
			case "ASYNC", writes.TierAsync:
				f.Tier = writes.TierAsync
			default:
				return f, fmt.Errorf("%w: tier %q: sync or async", memgov.ErrInvalid, v)
			}
		case "agent":
			f.Agent = v
		case "reason":
			f.Reason = strings.ToUpper(v)
		case "age":
			d, err := parseAge(v)
			if err != nil {
				return f, fmt.Errorf("%w: age %q: a duration such as 30m, 2h or 1d", memgov.ErrInvalid, v)
			}
			f.MinAge = d
		case "breached", "sla":
			f.Breached = v == "" || v == "true" || v == "yes" || v == "1"
		default:
			return f, fmt.Errorf("%w: %q: use layer=, tier=, agent=, reason=, age= or breached", memgov.ErrInvalid, k)
		}
	}
	return f, nil
}

func parseAge(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		var days int
		if _, err := fmt.Sscan(n, &days); err != nil || days < 0 {
			return 0, errors.New("bad days")
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}

// QueueRow is one review of a page, with what the detail pane shows.
type QueueRow struct {
	memgov.Review
	Detail writes.ReviewDetail
	// Text is the content the agent wants remembered; Replaces is the ACTIVE
	// version of the key it would supersede, if any.
	Key      string
	Text     string
	Replaces *memgov.Version
}

// Erased is the state shown for a related version that is no longer
// stored (a subject's erasure removed it).
const Erased memgov.State = "ERASED"

// Deadline is when the review must be decided: the SYNC_BLOCK deadline or the
// async SLA.
func (r QueueRow) Deadline() time.Time { return r.DueAt }

// SyncSummary is what the header warns about: SYNC_BLOCK writes hold an
// agent until a person decides or the deadline fails them closed.
type SyncSummary struct {
	N       int
	NextDue time.Time // the earliest deadline; zero when N is 0
}

// QueuePage is one page of the queue.
type QueuePage struct {
	Rows   []QueueRow
	Total  int // open reviews matching the filter
	Offset int
	Sync   SyncSummary // across the whole queue, whatever the filter
	Now    time.Time
}

// Queue returns the review queue.
func (s *Service) Queue() *Queue { return &Queue{s} }

func (q *Queue) query(f QueueFilter) memgov.ReviewQuery {
	rq := memgov.ReviewQuery{Layer: f.Layer, Tier: f.Tier, Agent: f.Agent, Reason: f.Reason, MinAge: f.MinAge,
		Breached: f.Breached, Text: f.Text, Order: f.Sort.order(), Now: q.s.eng.Now()}
	rq.Tenant = authz.ConsoleTenant(q.s.actor)
	return rq
}

// Pending counts the open reviews the actor sees.
func (q *Queue) Pending(ctx context.Context) (int, error) {
	rq := q.query(QueueFilter{})
	rq.Limit = 1
	_, n, err := q.s.eng.Reviews().List(ctx, rq)
	return n, err
}

// Page reads limit open reviews from offset in the filter's order (SYNC_BLOCK
// first, then by risk and age, unless it sorts by age or SLA), with the
// content of each write and of the version it replaces. The store serves the
// free-text filter and every order from its indexes.
func (q *Queue) Page(ctx context.Context, f QueueFilter, offset, limit int) (QueuePage, error) {
	rq := q.query(f)
	rq.Offset, rq.Limit = max(offset, 0), max(limit, 1)
	rs, total, err := q.s.eng.Reviews().List(ctx, rq)
	if err != nil {
		return QueuePage{}, err
	}
	p := QueuePage{Total: total, Offset: rq.Offset, Now: rq.Now}
	if p.Rows, err = queueRows(rs); err != nil {
		return p, err
	}
	if err := q.contents(ctx, p.Rows); err != nil {
		return p, err
	}
	p.Sync, err = q.sync(ctx)
	return p, err
}

// contents reads the draft version of every row, and the ACTIVE version of
// the key it would replace. The state of each related item (a contradicted
// or near-duplicate version) is set to what it is now: the detail recorded
// it when the write was held, and a version ACTIVE then may since have been
// superseded, retracted or erased.
func (q *Queue) contents(ctx context.Context, rows []QueueRow) error {
	// One read for the page: every row's draft and every related version.
	ids := make([]string, 0, len(rows))
	for i := range rows {
		ids = append(ids, rows[i].VersionID)
		for _, x := range rows[i].Detail.Related {
			if x.VersionID != "" {
				ids = append(ids, x.VersionID)
			}
		}
	}
	vs, err := q.s.eng.Host().Versions(ctx, memgov.Owner, ids)
	if err != nil {
		return err
	}
	for i := range rows {
		for j, x := range rows[i].Detail.Related {
			if x.VersionID == "" {
				continue
			}
			if v, ok := vs[x.VersionID]; ok {
				rows[i].Detail.Related[j].State = v.State
			} else {
				rows[i].Detail.Related[j].State = Erased
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		v := vs[r.VersionID]
		r.Key, r.Text = v.Key, v.Text()
		if r.Detail.Supersedes == "" {
			continue
		}
		it, err := q.s.eng.Host().ItemByKey(ctx, memgov.Owner, r.MemoryRef, r.Detail.Supersedes)
		if err != nil || it.Head == "" || it.Head == r.VersionID {
			continue
		}
		if h, err := q.s.eng.Host().Version(ctx, memgov.Owner, it.Head); err == nil && h.State == memgov.Active {
			r.Replaces = &h
		}
	}
	return nil
}

// sync counts the open SYNC_BLOCK reviews and finds the earliest deadline.
func (q *Queue) sync(ctx context.Context) (SyncSummary, error) {
	rq := q.query(QueueFilter{Tier: memgov.TierSync, Sort: SortSLA})
	rq.Limit = 1
	rs, n, err := q.s.eng.Reviews().List(ctx, rq)
	if err != nil {
		return SyncSummary{}, err
	}
	s := SyncSummary{N: n}
	if len(rs) > 0 {
		s.NextDue = rs[0].DueAt
	}
	return s, nil
}

// CanDecide returns nil when the actor may work reviews (curators only: the
// engine's rule), and otherwise a ForbiddenError saying why not.
func (q *Queue) CanDecide() error {
	if err := q.s.CanAct(); err != nil {
		return err
	}
	a := q.s.actor
	return q.s.offer(authz.ActReviewDecide, fmt.Sprintf("read-only here: only curators decide reviews; %s is %s %s", a.ID, article(string(a.Role)), a.Role))
}

// Opened is a review opened for a decision: claimed by the actor, or held by
// someone else (Holder names them; the actor may read, not decide).
type Opened struct {
	Review memgov.Review
	Mine   bool   // the actor holds the claim; decide with Review.ClaimToken
	Holder string // who else holds it, when not Mine
}

// Claim takes a lease on a review for the actor, with a fencing token to
// decide with. A live claim someone else holds is a conflict naming them.
func (q *Queue) Claim(ctx context.Context, id string) (memgov.Review, error) {
	if err := q.CanDecide(); err != nil {
		return memgov.Review{}, err
	}
	return q.s.eng.Reviews().Claim(ctx, id, q.s.actor.ID)
}

// Open claims the review for the actor: a lease with a fencing token. When
// someone else holds a live claim the review is returned with their name and
// no error, so the screen can say who is on it.
func (q *Queue) Open(ctx context.Context, id string) (Opened, error) {
	r, err := q.Claim(ctx, id)
	if err == nil {
		return Opened{Review: r, Mine: true}, nil
	}
	if !errors.Is(err, memgov.ErrConflict) {
		return Opened{}, err
	}
	cur, gerr := q.s.eng.Reviews().Review(ctx, id)
	if gerr != nil {
		return Opened{}, err
	}
	if !cur.Open() || cur.ClaimHolder == "" || cur.ClaimHolder == q.s.actor.ID {
		return Opened{}, err
	}
	return Opened{Review: cur, Holder: cur.ClaimHolder}, nil
}

// Release gives the actor's claim back, leaving the review undecided. It
// reports whether there was a live claim of theirs to give back; releasing
// when there is none changes nothing and logs nothing.
func (q *Queue) Release(ctx context.Context, id string) (bool, error) {
	if err := q.CanDecide(); err != nil {
		return false, err
	}
	r, err := q.s.eng.Reviews().Review(ctx, id)
	if err != nil {
		return false, err
	}
	if err := q.s.eng.Permit(ctx, q.s.actor.ID, authz.ActReviewRelease, reviews.Target(r)); err != nil {
		return false, err
	}
	if r.ClaimHolder != q.s.actor.ID || !q.s.eng.Now().Before(r.ClaimExpires) {
		return false, nil
	}
	return true, q.s.eng.Reviews().Release(ctx, id, q.s.actor.ID)
}

// Approve approves a review: the write becomes readable memory. token is the
// fencing token of the actor's claim, 0 when they did not claim it.
func (q *Queue) Approve(ctx context.Context, id string, token int64, note string) (memgov.Review, error) {
	if err := q.CanDecide(); err != nil {
		return memgov.Review{}, err
	}
	if err := q.fresh(ctx, id, token); err != nil {
		return memgov.Review{}, err
	}
	return q.s.eng.Reviews().Decide(ctx, memgov.Decision{ReviewID: id, Reviewer: q.s.actor.ID, Approve: true, Note: note, Token: token})
}

// Reject rejects a review with a reason code (reviews.RejectCodes) and a note.
func (q *Queue) Reject(ctx context.Context, id string, token int64, code, note string) (memgov.Review, error) {
	if err := q.CanDecide(); err != nil {
		return memgov.Review{}, err
	}
	if !validCode(code) {
		return memgov.Review{}, fmt.Errorf("%w: reason code %q: one of %s", memgov.ErrInvalid, code, strings.Join(reviews.RejectCodes, ", "))
	}
	if strings.TrimSpace(note) == "" {
		return memgov.Review{}, fmt.Errorf("%w: a rejection needs a note for the agent and the audit log", memgov.ErrInvalid)
	}
	if err := q.fresh(ctx, id, token); err != nil {
		return memgov.Review{}, err
	}
	return q.s.eng.Reviews().Decide(ctx, memgov.Decision{ReviewID: id, Reviewer: q.s.actor.ID, Code: code, Note: note, Token: token})
}

func validCode(c string) bool {
	for _, k := range reviews.RejectCodes {
		if k == c {
			return true
		}
	}
	return false
}

// Escalate marks a review for a more senior decision.
func (q *Queue) Escalate(ctx context.Context, id, note string) (memgov.Review, error) {
	if err := q.CanDecide(); err != nil {
		return memgov.Review{}, err
	}
	return q.s.eng.Reviews().Escalate(ctx, id, q.s.actor.ID, note)
}

// BulkResult reports a bulk approval: what was approved and, review by
// review, what was refused and why.
type BulkResult struct {
	Approved []string
	Failed   map[string]error
}

// ApproveMarked approves several reviews, each its own decision and log
// entry; tokens holds the actor's fencing tokens of those they claimed. One
// refusal (a claim someone else holds, a review already decided) does not
// stop the others.
func (q *Queue) ApproveMarked(ctx context.Context, ids []string, tokens map[string]int64, note string) (BulkResult, error) {
	res := BulkResult{Failed: map[string]error{}}
	if err := q.CanDecide(); err != nil {
		return res, err
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	for _, id := range sorted {
		if _, err := q.Approve(ctx, id, tokens[id], note); err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Failed[id] = err
			continue
		}
		res.Approved = append(res.Approved, id)
	}
	return res, nil
}

// Sweep runs the SLA sweep: async reviews past their SLA escalate, sync
// reviews past their deadline are rejected fail-closed (APPROVAL_TIMEOUT).
// The TUI calls it as it polls, so deadlines pass while it is open.
func (q *Queue) Sweep(ctx context.Context) (memgov.SweepResult, error) {
	return q.s.eng.Reviews().Sweep(ctx)
}
