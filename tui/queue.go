package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// queue is the review queue: deferred writes, SYNC_BLOCK first, then by risk
// and age. The list is a window of rows paged from SQLite around the cursor;
// the detail pane shows everything a curator decides on for the row under the
// cursor. enter claims the review (a lease with a fencing token); a, r, e
// decide; space marks and A approves the marked ones.
type queue struct {
	ctx  *Context
	w, h int

	filter review.QueueFilter
	// list is the loaded window of the filtered queue (its cursor's pos is
	// a row number in the whole of it); on narrow terminals the detail
	// zooms to the whole body.
	list   *list[review.QueueRow]
	reqOff int
	sync   review.SyncSummary

	open    review.Opened // the review this person opened (claimed, or held by someone else)
	openReq int64

	picking bool // choosing a reject code
	pick    int
	pickFor review.QueueRow

	renewGen int64         // the generation of the renew tick that keeps q.open alive
	renewing bool          // a renewal is running
	leaseLen time.Duration // how long the open claim's lease was when taken
}

type queueMsg struct {
	id   int64
	page review.QueuePage
	err  error
}

type openedMsg struct {
	id  int64
	o   review.Opened
	err error
}

func newQueue(c *Context) *queue {
	l := newList(c, "the queue", func(r review.QueueRow) string { return r.ID },
		"words in key, ref, agent or text · layer= tier= agent= reason= age= breached")
	return &queue{ctx: c, list: l}
}

func (q *queue) Title() string { return "Queue" }
func (q *queue) Init() tea.Cmd { return q.load(0) }

func (q *queue) Mode() Mode {
	switch {
	case q.list.filtering:
		return ModeInput
	case q.picking:
		return ModePick
	}
	return ModeNormal
}

func (q *queue) lay() split { return layout(q.w, q.h, 0.68, q.list.total) }

func (q *queue) SetSize(w, h int) {
	q.w, q.h = w, h
	q.list.resize(q.lay().listH - 1)
}

// pageSize is how many rows a read fetches: a few screens' worth.
func (q *queue) pageSize() int { return max(200, 3*q.h) }

func (q *queue) load(offset int) tea.Cmd {
	id := q.list.ask()
	q.reqOff = offset
	svc, ctx, f, n := q.ctx.Svc, q.ctx.Ctx, q.filter, q.pageSize()
	return func() tea.Msg {
		p, err := svc.Queue().Page(ctx, f, offset, n)
		return queueMsg{id, p, err}
	}
}

// row returns row number i if it is loaded.
func (q *queue) row(i int) (review.QueueRow, bool) { return q.list.row(i) }

func (q *queue) selected() (review.QueueRow, bool) { return q.list.selected() }

// around loads the window around the cursor when it nears an edge of what is
// loaded; the key press itself never waits for the database.
func (q *queue) around() tea.Cmd {
	if q.list.req != 0 {
		return nil
	}
	h := max(q.list.cur.height, 1)
	end := q.list.offset + len(q.list.rows)
	if (q.list.cur.pos < q.list.offset+h && q.list.offset > 0) || (q.list.cur.pos >= end-h && end < q.list.total) {
		return q.load(max(q.list.cur.pos-q.pageSize()/2, 0))
	}
	return nil
}

func (q *queue) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case queueMsg:
		if !q.list.answered(msg.id, msg.err) || msg.err != nil {
			return nil
		}
		// The cursor stays on the review the person was looking at when it
		// is still in the window: rows above it may have come or gone.
		q.list.set(msg.page.Rows, msg.page.Offset, msg.page.Total)
		q.sync = msg.page.Sync
		q.SetSize(q.w, q.h) // the stacked list's height follows its rows
		q.list.keepMarks(review.QueueRow.Open)
		return q.around()
	case attentionMsg:
		if q.list.grew(msg) {
			return q.load(q.list.offset)
		}
		return nil
	case openedMsg:
		if msg.id != q.openReq {
			return nil
		}
		q.openReq = 0
		if msg.err != nil {
			return status(msg.err)
		}
		q.open = msg.o
		if !msg.o.Mine {
			r := msg.o.Review
			return statusf(true, "%s is reviewing this until %s; you can read it, not decide it", r.ClaimHolder, clock(r.ClaimExpires))
		}
		q.leaseLen = msg.o.Review.ClaimExpires.Sub(q.ctx.Now())
		return tea.Batch(q.load(q.list.offset), q.startRenew(), statusf(false, "claimed %s: %s, renewed while it stays open (fencing token %d)", review.SanitizeLine(msg.o.Review.MemoryRef+" › "+rowKey(q.openRow())), leaseLeft(q.ctx.Now(), msg.o.Review.ClaimExpires), msg.o.Review.ClaimToken))
	case renewTickMsg:
		return q.renewTick(msg)
	case renewedMsg:
		return q.renewed(msg)
	case doneMsg:
		if !q.list.mine(msg) {
			return nil
		}
		for _, id := range msg.ids {
			if q.open.Review.ID == id {
				q.open = review.Opened{}
				q.list.zoom = false
				q.renewGen++
			}
		}
		return q.list.done(msg, q.load(q.list.offset))
	case tea.KeyMsg:
		switch {
		case q.list.filtering:
			return q.filterKey(msg, act)
		case q.picking:
			return q.pickKey(act)
		}
		return q.key(act)
	}
	return nil
}

func status(err error) tea.Cmd { return func() tea.Msg { return errStatus(err) } }

func statusf(isErr bool, format string, a ...any) tea.Cmd {
	text := fmt.Sprintf(format, a...)
	return func() tea.Msg { return statusMsg{text: text, err: isErr} }
}

func (q *queue) key(act Action) tea.Cmd {
	if q.list.zoom {
		if act != ActBack && q.list.zoomKey(act, q.h) {
			return nil
		}
	} else if q.list.move(act) {
		return q.around()
	}
	switch act {
	case ActEnter:
		return q.openSelected()
	case ActBack:
		return q.back()
	case ActRefresh:
		return q.load(q.list.offset)
	case ActSort:
		q.filter.Sort = q.filter.Sort.Next()
		q.list.top()
		q.list.rows, q.list.offset = nil, 0 // the new order starts at its top
		// The status says so once the page in that order is read.
		return tea.Sequence(q.load(0), statusf(false, "queue sorted by %s", sortWhat(q.filter.Sort)))
	case ActFilter:
		return q.list.openFilter(q.filter.String())
	case ActMark:
		q.list.mark()
		return q.around()
	case ActApprove, ActReject, ActEscalate, ActApproveMarked:
		return q.decide(act)
	}
	return nil
}

func (q *queue) back() tea.Cmd {
	if q.list.zoom {
		q.list.zoom = false
		return nil
	}
	if !q.filter.IsZero() && q.open.Review.ID == "" {
		q.filter = review.QueueFilter{Sort: q.filter.Sort}
		q.list.top()
		return tea.Batch(q.load(0), statusf(false, "filter cleared"))
	}
	return q.release()
}

// release gives back the claim the person holds, if any (leaving an item,
// opening another, quitting).
func (q *queue) release() tea.Cmd {
	o := q.open
	q.open = review.Opened{}
	q.renewGen++
	if !o.Mine {
		return nil
	}
	svc, ctx := q.ctx.Svc, q.ctx.Ctx
	name := review.SanitizeLine(o.Review.MemoryRef + " › " + rowKey(q.rowByID(o.Review.ID)))
	return func() tea.Msg {
		if _, err := svc.Queue().Release(ctx, o.Review.ID); err != nil {
			return errStatus(err)
		}
		return statusMsg{text: "released your claim on " + name}
	}
}

// rowByID is the loaded row of a review (zero when not loaded).
func (q *queue) rowByID(id string) review.QueueRow {
	for _, r := range q.list.rows {
		if r.ID == id {
			return r
		}
	}
	return review.QueueRow{Review: memgov.Review{ID: id}}
}

func (q *queue) openRow() review.QueueRow { return q.rowByID(q.open.Review.ID) }

// openSelected claims the review under the cursor (and zooms the detail on
// narrow terminals).
func (q *queue) openSelected() tea.Cmd {
	r, ok := q.selected()
	if !ok {
		return nil
	}
	if q.w < wideMin {
		q.list.openZoom()
	}
	if err := q.ctx.Svc.Queue().CanDecide(); err != nil {
		return nil // reading is all they may do; the detail says so
	}
	var cmds []tea.Cmd
	if prev := q.open; prev.Mine && prev.Review.ID != r.ID {
		svc, ctx := q.ctx.Svc, q.ctx.Ctx
		q.renewGen++
		cmds = append(cmds, func() tea.Msg { svc.Queue().Release(ctx, prev.Review.ID); return nil })
	}
	id := q.ctx.nextID()
	q.openReq = id
	svc, ctx := q.ctx.Svc, q.ctx.Ctx
	cmds = append(cmds, func() tea.Msg {
		o, err := svc.Queue().Open(ctx, r.ID)
		return openedMsg{id, o, err}
	})
	return tea.Batch(cmds...)
}

// token is the fencing token to decide id with: the person's claim, if they
// hold one.
func (q *queue) token(id string) int64 {
	if q.open.Mine && q.open.Review.ID == id {
		return q.open.Review.ClaimToken
	}
	return 0
}

func (q *queue) decide(act Action) tea.Cmd {
	verb := map[Action]string{ActApprove: "approve", ActReject: "reject", ActEscalate: "escalate", ActApproveMarked: "approve marked reviews"}[act]
	if err := q.ctx.Svc.Queue().CanDecide(); err != nil {
		return statusf(true, "cannot %s: %s", verb, err.Error())
	}
	if q.list.busy {
		return statusf(true, "a decision is still being recorded")
	}
	svc, ctx := q.ctx.Svc, q.ctx.Ctx
	if act == ActApproveMarked {
		return q.approveMarked()
	}
	r, ok := q.selected()
	if !ok {
		return nil
	}
	if holder := q.heldBy(r); holder != "" {
		return statusf(true, "cannot %s: %s holds the claim on this review", verb, holder)
	}
	name := review.SanitizeLine(r.MemoryRef + " › " + rowKey(r))
	lines := []string{name, fmt.Sprintf("%s · %s · risk %.2f · %s", r.Layer, tierName(r.Tier), r.Risk, reasonLabel(r)), "“" + review.SanitizeLine(r.Text) + "”"}
	if s := r.Detail.Supersedes; s != "" && s != r.Key {
		lines = append(lines, "It supersedes "+review.SanitizeLine(s)+".")
	}
	id, tok := r.ID, q.token(r.ID)
	switch act {
	case ActApprove:
		return askConfirm(confirmMsg{
			title: "Approve " + review.SanitizeLine(rowKey(r)), lines: append(lines, "It becomes memory agents read."),
			label: "note",
			onYes: func(note string) tea.Cmd {
				return q.list.decide(func() doneMsg {
					rv, err := svc.Queue().Approve(ctx, id, tok, note)
					if err != nil {
						return doneMsg{err: err}
					}
					text := fmt.Sprintf("approved %s: it is memory now", review.SanitizeLine(rv.MemoryRef+" › "+rowKey(r)))
					if s := r.Detail.Supersedes; s != "" && s != r.Key {
						text += "; " + review.SanitizeLine(s) + " is superseded"
					}
					return doneMsg{text: text, ids: []string{id}}
				})
			},
		})
	case ActEscalate:
		if r.Status == memgov.ReviewEscalated {
			return statusf(true, "already escalated")
		}
		return askConfirm(confirmMsg{
			title: "Escalate " + review.SanitizeLine(rowKey(r)), lines: append(lines, "It stays in the queue, marked for a more senior decision."),
			reason: "needs a senior decision", label: "note",
			onYes: func(note string) tea.Cmd {
				return q.list.decide(func() doneMsg {
					_, err := svc.Queue().Escalate(ctx, id, note)
					if err != nil {
						return doneMsg{err: err}
					}
					return doneMsg{text: "escalated " + name}
				})
			},
		})
	case ActReject:
		q.picking, q.pick, q.pickFor = true, defaultCode(r), r
		return nil
	}
	return nil
}

// heldBy names whoever else holds a live claim on r.
func (q *queue) heldBy(r review.QueueRow) string {
	me := q.ctx.Svc.Actor().ID
	if q.open.Review.ID == r.ID && !q.open.Mine {
		if q.ctx.Now().Before(q.open.Review.ClaimExpires) {
			return q.open.Review.ClaimHolder
		}
		return ""
	}
	if r.ClaimHolder != "" && r.ClaimHolder != me && q.ctx.Now().Before(r.ClaimExpires) {
		return r.ClaimHolder
	}
	return ""
}

// rejectCodes are the codes a rejection carries, in the picker's order.
var rejectCodes = review.RejectCodes()

// defaultCode preselects the reject code the review's reason suggests.
func defaultCode(r review.QueueRow) int {
	want := "OTHER"
	switch {
	case has(r.Detail.Reasons, "CONTRADICTION"), has(r.Detail.Reasons, "SEMANTIC_CONFLICT"):
		want = "CONTRADICTION"
	case has(r.Detail.Reasons, "NEAR_DUPLICATE"), has(r.Detail.Reasons, "DUPLICATE"):
		want = "DUPLICATE"
	case has(r.Detail.Reasons, "LOW_FACTUAL_SCORE"):
		want = "FACTUAL_ERROR"
	case has(r.Detail.Reasons, "CONTENT_POLICY"), has(r.Detail.Reasons, "PROMPT_INJECTION"):
		want = "POLICY_VIOLATION"
	}
	for i, c := range rejectCodes {
		if c == want {
			return i
		}
	}
	return 0
}

func has(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (q *queue) pickKey(act Action) tea.Cmd {
	switch act {
	case ActUp:
		q.pick = (q.pick + len(rejectCodes) - 1) % len(rejectCodes)
	case ActDown:
		q.pick = (q.pick + 1) % len(rejectCodes)
	case ActBack:
		q.picking = false
		return statusf(false, "cancelled: reject")
	case ActSubmit:
		q.picking = false
		r, code := q.pickFor, rejectCodes[q.pick]
		svc, ctx, id, tok := q.ctx.Svc, q.ctx.Ctx, r.ID, q.token(r.ID)
		name := review.SanitizeLine(r.MemoryRef + " › " + rowKey(r))
		return askConfirm(confirmMsg{
			title:  fmt.Sprintf("Reject %s as %s", review.SanitizeLine(rowKey(r)), code),
			lines:  []string{name, "“" + review.SanitizeLine(r.Text) + "”", "It will never be readable memory; the agent is told the code and your note."},
			danger: true, required: true, label: "note",
			onYes: func(note string) tea.Cmd {
				return q.list.decide(func() doneMsg {
					_, err := svc.Queue().Reject(ctx, id, tok, code, note)
					if err != nil {
						return doneMsg{err: err}
					}
					return doneMsg{text: fmt.Sprintf("rejected %s as %s", name, code), ids: []string{id}}
				})
			},
		})
	}
	return nil
}

func (q *queue) approveMarked() tea.Cmd {
	if len(q.list.marked) == 0 {
		return statusf(true, "nothing marked: space marks the review under the cursor")
	}
	ids := make([]string, 0, len(q.list.marked))
	tokens := map[string]int64{}
	var lines []string
	for _, r := range q.list.markedRows() {
		ids = append(ids, r.ID)
		tokens[r.ID] = q.token(r.ID)
		if len(lines) < 6 {
			lines = append(lines, fmt.Sprintf("%.2f %s › %s", r.Risk, review.SanitizeLine(r.MemoryRef), review.SanitizeLine(rowKey(r))))
		}
	}
	if len(ids) > len(lines) {
		lines = append(lines, fmt.Sprintf("… and %d more", len(ids)-len(lines)))
	}
	lines = append(lines, "Each is its own decision and log entry; a refusal does not stop the others.")
	svc, ctx := q.ctx.Svc, q.ctx.Ctx
	return askConfirm(confirmMsg{
		title: fmt.Sprintf("Approve %s", plural(len(ids), "marked review", "marked reviews")), lines: lines,
		label: "note",
		onYes: func(note string) tea.Cmd {
			return q.list.decide(func() doneMsg {
				res, err := svc.Queue().ApproveMarked(ctx, ids, tokens, note)
				if err != nil {
					return doneMsg{err: err}
				}
				text := fmt.Sprintf("approved %d of %s", len(res.Approved), plural(len(ids), "marked review", "marked reviews"))
				for _, e := range res.Failed {
					text += "; " + e.Error()
					break
				}
				done := append([]string(nil), res.Approved...)
				return doneMsg{text: text, ids: done, warn: len(res.Failed) > 0}
			})
		},
	})
}

func (q *queue) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	typed, ok, cmd := q.list.filterKey(msg, act)
	if !ok {
		return cmd
	}
	f, err := review.ParseQueueFilter(typed)
	if err != nil {
		return status(err)
	}
	q.list.closeFilter()
	f.Sort = q.filter.Sort
	q.filter = f
	q.list.top()
	q.list.rows, q.list.offset = nil, 0
	return q.load(0)
}

func (q *queue) Bindings() []key.Binding {
	k := q.ctx.Keys
	if q.picking {
		enter := k.Enter
		enter.SetHelp("enter", "choose code")
		return []key.Binding{k.Up, k.Down, enter, k.Cancel}
	}
	if q.list.filtering {
		return q.list.filterBindings(k)
	}
	enter := k.Enter
	enter.SetHelp("enter", "open")
	if q.ctx.Svc.Queue().CanDecide() != nil {
		return []key.Binding{enter, k.Filter, k.Sort}
	}
	sortKey := k.Sort
	sortKey.SetHelp("s", "sort")
	bs := []key.Binding{k.Approve, k.Reject, k.Escalate, k.Mark, k.ApproveMarked, enter, k.Filter, sortKey}
	switch {
	case q.list.zoom:
		bs = append([]key.Binding{k.Approve, k.Reject, k.Escalate}, q.list.zoomBindings(k)...)
	case q.w < wideMin:
		bs = []key.Binding{k.Approve, k.Reject, k.Mark, k.ApproveMarked, k.Filter} // e, s and enter: in ? help
	}
	return bs
}

// Crumb: what needs attention first (SYNC_BLOCK deadlines), the filter, the
// order, and how many wait.
func (q *queue) Crumb() string {
	st := q.ctx.Styles
	now := q.ctx.Now()
	var left string
	if q.sync.N > 0 {
		due := q.sync.NextDue.Sub(now)
		txt := fmt.Sprintf("▲ %d SYNC_BLOCK due in %s", q.sync.N, mmss(due))
		if due <= 0 {
			txt = fmt.Sprintf("▲ %d SYNC_BLOCK overdue %s", q.sync.N, mmss(-due))
		}
		left = st.Attention.Render(txt) + "   "
	} else {
		left = st.Crumb.Render("Review queue") + "   "
	}
	if q.list.filtering {
		return left + st.Bold.Render("filter: ") + q.list.input.View()
	}
	f := "any"
	if !q.filter.IsZero() {
		f = review.SanitizeLine(q.filter.String())
	}
	mid := st.Muted.Render("filter: ") + f + st.Muted.Render("  sort: ") + q.filter.Sort.String()
	right := fmt.Sprintf("%d pending", q.list.total)
	if !q.filter.IsZero() {
		right = plural(q.list.total, "match", "matches")
	}
	if n := len(q.list.marked); n > 0 {
		right = fmt.Sprintf("%d marked · ", n) + right
	}
	if q.list.req != 0 && (q.filter.Text != "" || q.filter.Sort != review.SortRisk) {
		right = "searching… · " + right // a scan of the whole queue runs off the key path
	}
	return crumbLine(left, mid, st.Bold.Render(right), q.w-1)
}

func (q *queue) View() string {
	s := q.lay()
	st := q.ctx.Styles
	if q.list.zoom {
		out := q.list.page(q.detail(q.w), q.w, q.h)
		if q.picking {
			out = strings.Join(overlay(strings.Split(out, "\n"), q.picker(), q.w), "\n")
		}
		return out
	}
	out := s.join(st, q.table(s.listW), q.detail(s.detW))
	if q.picking {
		out = strings.Join(overlay(strings.Split(out, "\n"), q.picker(), q.w), "\n")
	}
	return out
}

func (q *queue) picker() string {
	st := q.ctx.Styles
	b := []string{st.ModalTitle.Render("Reject as…"), ""}
	for i, c := range rejectCodes {
		if i == q.pick {
			b = append(b, "▸ "+st.Selected.Render(fmt.Sprintf("%-18s", c)))
		} else {
			b = append(b, "  "+fmt.Sprintf("%-18s", c))
		}
	}
	b = append(b, "", st.Muted.Render("↑/↓ choose · enter · esc"))
	for i := range b {
		b[i] = fit(b[i], 24)
	}
	return st.Modal.Render(strings.Join(b, "\n"))
}

// queueColumns sizes the queue's columns to what the visible rows hold:
// the key and the agent as wide as their longest visible value (within a
// share of the width), the first words of the text taking the rest. The
// column the queue is sorted by carries ▼.
func (q *queue) queueColumns(w int) []column {
	keyW, refW, whyW, ageW := 3, 5, 6, 3
	now := q.ctx.Now()
	to := min(q.list.cur.offset+q.list.cur.height, q.list.total)
	for i := q.list.cur.offset; i < to; i++ {
		r, ok := q.row(i)
		if !ok {
			continue
		}
		keyW = max(keyW, ansi.StringWidth(review.SanitizeLine(listKey(r))))
		refW = max(refW, ansi.StringWidth(review.SanitizeLine(refShort(r))))
		whyW = max(whyW, ansi.StringWidth(reasonLabel(r)))
		ageW = max(ageW, ansi.StringWidth(q.ageCell(r, now)))
	}
	// AGE holds "esc in 14s" whole.
	whyW, ageW = min(whyW, 14), min(ageW, 10)
	room := w - 2 - 5 - whyW - ageW - 2*4 // marker, RISK, REASON, AGE, gaps
	risk, age := "RISK", "AGE"
	switch q.filter.Sort {
	case review.SortRisk:
		risk = "RISK▼"
	case review.SortAge:
		age = "AGE▼"
	case review.SortSLA:
		age = "DUE▼"
	}
	ageW = max(ageW, ansi.StringWidth(age))
	keyW = min(keyW, max(room*2/5, 8))
	cols := []column{{title: risk, width: 5}, {title: "KEY", width: keyW}, {title: "WHAT THE AGENT WANTS REMEMBERED", flex: true}}
	if room-keyW-2 >= 48 { // the agent only when the text keeps its room
		cols = append(cols, column{title: "AGENT", width: min(refW, 18)})
	}
	return append(cols, column{title: "REASON", width: whyW}, column{title: age, width: ageW})
}

// ageCell is the last column: how long the review has waited, or, sorted
// by SLA, how long is left until its SLA or deadline.
func (q *queue) ageCell(r review.QueueRow, now time.Time) string {
	st := q.ctx.Styles
	if q.filter.Sort == review.SortSLA && r.Tier != memgov.TierSync && r.Status != memgov.ReviewEscalated {
		if left := r.DueAt.Sub(now); left > 0 {
			return mmss(left)
		}
	}
	return dueCell(st, r, now)
}

func (q *queue) table(w int) []string {
	st := q.ctx.Styles
	if n := q.list.notice(!q.filter.IsZero(),
		[]string{"", "  " + st.Good.Render("The queue is empty: nothing waits for a decision."), "",
			"  " + st.Muted.Render("New deferred writes appear here as agents make them.")},
		[]string{"", "  No open review matches " + review.SanitizeLine(q.filter.String()) + ".", "  " + st.Muted.Render("/ changes the filter; esc clears it.")}); n != nil {
		return n
	}
	now := q.ctx.Now()
	cols := q.queueColumns(w)
	return q.list.table(cols, w, func(i int) []string {
		r, ok := q.row(i)
		if !ok {
			return []string{st.Muted.Render("…")}
		}
		mark := " "
		if q.list.isMarked(r) {
			mark = "●"
		}
		risk := fmt.Sprintf("%.2f", r.Risk)
		switch {
		case r.Risk >= 0.7:
			risk = st.Bad.Render(risk)
		case r.Risk >= 0.5:
			risk = st.Warn.Render(risk)
		}
		cells := []string{mark + risk, middle(review.SanitizeLine(listKey(r)), cols[1].width), review.SanitizeLine(r.Text)}
		if len(cols) == 6 {
			cells = append(cells, review.SanitizeLine(refShort(r)))
		}
		return append(cells, reasonLabel(r), q.ageCell(r, now))
	})
}

// listKey is how the list names a write: its key, or, for a write under a
// generated key that supersedes another, ↻ and the key it replaces (the
// detail and every message give both).
func listKey(r review.QueueRow) string {
	if s := r.Detail.Supersedes; s != "" && s != r.Key && generated(r.Key) {
		return "↻" + s
	}
	return rowKey(r)
}

// generated reports whether a key is one memgov made up (a UUID).
func generated(k string) bool { return len(k) == 36 && uuidRE.MatchString(k) }

// refShort names the writing agent for a row: the memoryRef without its
// tenant ("billing-agent"), with the instance when another instance of the
// ref's agent wrote it ("policy-agent ‹-2›"). The detail names the tenant.
func refShort(r review.QueueRow) string {
	own := r.MemoryRef[strings.LastIndex(r.MemoryRef, "/")+1:]
	switch {
	case r.Agent == "" || r.Agent == own:
		return own
	case strings.HasPrefix(r.Agent, own):
		return own + " ‹" + strings.TrimPrefix(r.Agent, own) + "›"
	}
	return own + " ‹" + r.Agent + "›"
}

func tierName(t string) string {
	if t == memgov.TierSync {
		return "SYNC_BLOCK"
	}
	return "async review"
}

// reasonLabel says in a few words why the write waits, with the number that
// made it wait.
func reasonLabel(r review.QueueRow) string {
	d := r.Detail
	sim := func(rel ...string) float64 {
		best := 0.0
		for _, x := range d.Related {
			if has(rel, x.Relation) {
				best = max(best, x.Similarity)
			}
		}
		return best
	}
	switch r.Reason {
	case "CONTRADICTION":
		return "contradiction"
	case "SEMANTIC_CONFLICT":
		return "conflict"
	case "NEAR_DUPLICATE", "DUPLICATE":
		if s := sim("NEAR_DUPLICATE", "DUPLICATES"); s > 0 {
			return fmt.Sprintf("near-dup %.2f", s)
		}
		return "near-duplicate"
	case "LOW_FACTUAL_SCORE":
		if d.Factual != nil {
			return fmt.Sprintf("V_fact %.2f", d.Factual.Score)
		}
		return "low evidence"
	case "APPROVAL_REQUIRED_BY_ROLE":
		return "role approval"
	case "HIGH_RISK":
		return fmt.Sprintf("high risk %.2f", r.Risk)
	}
	return strings.ToLower(strings.ReplaceAll(r.Reason, "_", " "))
}

// rowKey is the key of the item the write creates: the key that becomes
// memory when it is approved (a write that supersedes another key names
// that one in Detail.Supersedes).
func rowKey(r review.QueueRow) string {
	switch {
	case r.Key != "":
		return r.Key
	case r.Detail.Supersedes != "":
		return r.Detail.Supersedes
	case r.ItemID != "":
		return shortID(r.ItemID)
	}
	return shortID(r.ID)
}

func sortWhat(s review.QueueSort) string {
	switch s {
	case review.SortAge:
		return "age (oldest first)"
	case review.SortSLA:
		return "SLA (nearest deadline first)"
	}
	return "risk (SYNC_BLOCK first)"
}

// renewTickMsg asks whether the open claim needs renewing; gen drops ticks
// of a claim no longer open.
type renewTickMsg struct{ gen int64 }

type renewedMsg struct {
	gen int64
	r   memgov.Review
	err error
}

// renewEvery is how often the open claim is checked. Whether it is renewed
// is decided on the injected clock: past half its lease.
const renewEvery = 500 * time.Millisecond

func (q *queue) startRenew() tea.Cmd {
	q.renewGen++
	return q.nextRenew()
}

func (q *queue) nextRenew() tea.Cmd {
	gen := q.renewGen
	return tea.Tick(renewEvery, func(time.Time) tea.Msg { return renewTickMsg{gen} })
}

func (q *queue) renewTick(msg renewTickMsg) tea.Cmd {
	if msg.gen != q.renewGen || !q.open.Mine {
		return nil
	}
	r := q.open.Review
	if q.renewing || q.ctx.Now().Before(r.ClaimExpires.Add(-q.leaseLen/2)) {
		return q.nextRenew()
	}
	q.renewing = true
	svc, ctx, gen := q.ctx.Svc, q.ctx.Ctx, q.renewGen
	return tea.Batch(q.nextRenew(), func() tea.Msg {
		rv, err := svc.Queue().Renew(ctx, r.ID, r.ClaimToken)
		return renewedMsg{gen, rv, err}
	})
}

func (q *queue) renewed(msg renewedMsg) tea.Cmd {
	q.renewing = false
	if msg.gen != q.renewGen || !q.open.Mine {
		return nil
	}
	if msg.err != nil {
		q.renewGen++ // stop: the claim is gone; a decision on it is refused
		return statusf(true, "your claim lapsed: %s", msg.err.Error())
	}
	q.open.Review = msg.r
	q.leaseLen = msg.r.ClaimExpires.Sub(q.ctx.Now())
	return nil
}

// dueCell: a SYNC_BLOCK's deadline counting down (mm:ss), an async review's
// age, "SLA!" past its SLA, "esc" when escalated.
func dueCell(st Styles, r review.QueueRow, now time.Time) string {
	left := r.DueAt.Sub(now)
	switch {
	case r.Tier == memgov.TierSync && left > 0:
		return st.Attention.Render("▲" + mmss(left))
	case r.Tier == memgov.TierSync:
		return st.Bad.Render("▲late")
	case r.Status == memgov.ReviewEscalated:
		return st.Warn.Render("esc " + ago(now, r.CreatedAt))
	case left <= 0:
		return st.Bad.Render("SLA! " + ago(now, r.CreatedAt))
	}
	return ago(now, r.CreatedAt)
}

// mmss writes a short duration as 04:12, a long one as 3h12m.
func mmss(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	if d >= time.Hour {
		return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("%02d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

func clock(t time.Time) string { return t.UTC().Format("15:04:05") }

func leaseLeft(now, until time.Time) string {
	if !now.Before(until) {
		return "lease expired"
	}
	d := until.Sub(now).Round(time.Second)
	return fmt.Sprintf("lease %d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// ruleLines names the rules that held the write which the lines above do
// not: a content-policy rule, a contradiction rule, a dedup rule whose
// words no "differs" line quotes. Each with the words that fired it, in at
// most maxLines lines.
func ruleLines(st Styles, findings []string, related []memgov.RelatedItem, w, maxLines int) []string {
	onRelated := map[string][]string{}
	for _, x := range related {
		if x.Rule != "" {
			onRelated[x.Rule] = append(onRelated[x.Rule], x.RuleWords...)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range findings {
		if strings.Contains(f, " that differs: ") {
			continue // its delta and its rule are shown
		}
		for _, n := range review.FindingRules(f) {
			words, shownBeside := n.Words, false
			if rw, ok := onRelated[n.Name]; ok {
				shownBeside = true
				if words == "" && len(rw) > 0 {
					words = quoteWords(rw)
				}
			}
			if seen[n.Name] || shownBeside && words == "" {
				continue
			}
			seen[n.Name] = true
			s := n.Name
			if words != "" {
				s += ": " + words
			}
			for i, l := range wrapMax(review.SanitizeLine(s), w-5, maxLines) {
				lbl := "     "
				if i == 0 {
					lbl = st.Label.Render("rule ")
				}
				out = append(out, lbl+l)
			}
		}
	}
	return out
}

// detail is everything a curator decides on, for the row under the cursor.
func (q *queue) detail(w int) []string {
	st := q.ctx.Styles
	r, ok := q.selected()
	if !ok {
		if q.list.loaded && q.list.total > 0 {
			return []string{st.Muted.Render("reading…")}
		}
		return nil
	}
	now := q.ctx.Now()
	d := r.Detail
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	// addw wraps a line rather than cutting what matters off its end.
	addw := func(s string) { out = append(out, wrap(s, w)...) }
	addw(st.Bold.Render(review.SanitizeLine(r.MemoryRef)) + st.Muted.Render(fmt.Sprintf(" · %s · by %s", r.Layer, review.SanitizeLine(r.Agent))))
	due := "SLA " + mmss(r.DueAt.Sub(now))
	if r.Tier == memgov.TierSync {
		due = st.Attention.Render("deadline " + mmss(r.DueAt.Sub(now)))
		if !r.DueAt.After(now) {
			due = st.Bad.Render("deadline passed: fails closed")
		}
	} else if !r.DueAt.After(now) {
		due = st.Bad.Render("past SLA")
	}
	head := st.Label.Render("key ") + review.SanitizeLine(rowKey(r)) + "  " + due
	if r.Status == memgov.ReviewEscalated {
		head += "  " + st.Warn.Render("ESCALATED")
	}
	addw(head)
	if s := r.Detail.Supersedes; s != "" && s != r.Key {
		addw(st.Label.Render("supersedes ") + review.SanitizeLine(s))
	}
	addw(q.claimLine(r, now) + st.Muted.Render("  review "+shortID(r.ID)))
	add("")
	for _, l := range wrapMax(review.SanitizeLine(r.Text), w-2, 5) {
		add(" " + st.Row.Render(l))
	}
	add(riskLines(st, r, w)...)
	if r.Replaces != nil {
		add(st.Label.Render(fmt.Sprintf("replaces ACTIVE v%d of %s:", r.Replaces.Seq, review.SanitizeLine(r.Replaces.Key))))
		for _, l := range wrapMax("“"+review.SanitizeLine(r.Replaces.Text())+"”", w-3, 3) {
			add("  " + st.DiffDel.Render(l))
		}
	}
	// Contradicting and duplicate items, beside the new one.
	for i, x := range d.Related {
		if i == 3 {
			add(st.Muted.Render(fmt.Sprintf(" … %d more related", len(d.Related)-3)))
			break
		}
		rel := x.Relation
		rs := st.Warn
		if rel == "CONTRADICTS" {
			rs = st.Bad
		}
		addw(rs.Render(rel) + " " + review.SanitizeLine(x.Key))
		facts := fmt.Sprintf("similarity %.2f · confidence %.2f · %s", x.Similarity, x.Confidence, x.State)
		if x.Rule != "" {
			// The judge rule that related them; the words that fired it
			// are in the finding below.
			facts += " · rule " + x.Rule
		}
		addw("  " + review.SanitizeLine(facts))
		for _, l := range wrapMax("“"+review.SanitizeLine(x.Text)+"”", w-3, 2) {
			add("  " + st.Muted.Render("│") + l)
		}
	}
	add("")
	if len(d.Reasons) > 0 {
		for i, l := range wrap(review.SanitizeLine(strings.Join(d.Reasons, " · ")), w-5) {
			lbl := "     "
			if i == 0 {
				lbl = st.Label.Render("why  ")
			}
			add(lbl + l)
		}
	}
	// How the write differs from the near-duplicate it was held beside
	// ("to berlin" / "from berlin"): the reason code alone does not say.
	// Other findings restate what the reasons and the related items show.
	shown := 0
	for _, f := range d.Findings {
		_, delta, ok := strings.Cut(f, " that differs: ")
		if !ok || shown == 2 {
			continue
		}
		// The rule is named beside the related item; the words that
		// fired it are the ones the delta quotes.
		delta, _, _ = strings.Cut(delta, " [rule ")
		shown++
		for _, l := range wrapMax("differs: "+review.SanitizeLine(delta), w-5, 3) {
			add("     " + st.Muted.Render(l))
		}
	}
	ruleAt := len(out)
	add(ruleLines(st, d.Findings, d.Related, w, 4)...)
	ruleEnd := len(out)
	add("")
	ev := st.Label.Render("EVIDENCE")
	if f := d.Factual; f != nil {
		mark := st.Good.Render("✓")
		if !f.Pass {
			mark = st.Bad.Render("✗")
		}
		ev += fmt.Sprintf("  V_fact %.2f vs threshold %.2f ", f.Score, f.Threshold) + mark
	}
	addw(ev)
	if len(d.Evidence) == 0 {
		add(st.Bad.Render(" none cited"))
	}
	for _, e := range d.Evidence {
		src := e.SourceURI
		if src == "" && e.SourceItemID != "" {
			src = "item " + shortID(e.SourceItemID)
		}
		if src == "" {
			src = "(the agent itself)"
		}
		auth := "auth ?"
		if e.Authority != nil {
			auth = fmt.Sprintf("auth %.2f", *e.Authority)
		}
		add(fit(" "+fmt.Sprintf("%-15s ", e.SourceType)+auth, w))
		for _, l := range wrap(review.SanitizeLine(src), max(w-3, 8)) {
			add("   " + l)
		}
	}
	add("")
	if p := d.Provenance; p != nil {
		addw(st.Label.Render("PROVENANCE") + fmt.Sprintf("  agent conf %.2f → adjusted %.2f", p.AgentConfidence, p.AdjustedConfidence))
		sig := st.Bad.Render("unsigned ✗")
		if p.Signature != "" {
			sig = st.Good.Render("signed ✓")
		}
		var ids []string
		if p.SourceTaskID != "" {
			ids = append(ids, "run "+review.SanitizeLine(p.SourceTaskID))
		}
		if p.SourceSessionID != "" {
			ids = append(ids, "session "+review.SanitizeLine(p.SourceSessionID))
		}
		ids = append(ids, fmt.Sprintf("validation %.2f", d.ValidationScore))
		addw(" " + sig + "  " + strings.Join(ids, "  "))
	} else {
		addw(st.Label.Render("validation ") + fmt.Sprintf("%.2f", d.ValidationScore))
	}
	// Beside the queue, a detail too long for its pane gives its rules two
	// lines and the blank line after them, so that the evidence's source
	// stays in view; opened, the review shows them whole.
	if ruleEnd > ruleAt && !q.list.zoom && len(out) > q.lay().detH {
		short := ruleLines(st, d.Findings, d.Related, w, 2)
		out = append(append(append([]string(nil), out[:ruleAt]...), short...), out[ruleEnd+1:]...)
	}
	return out
}

// claimLine says who holds the review and how long their lease lasts.
func (q *queue) claimLine(r review.QueueRow, now time.Time) string {
	st := q.ctx.Styles
	if err := q.ctx.Svc.Queue().CanDecide(); err != nil {
		return st.ReadOnly.Render(err.Error())
	}
	holder, until := r.ClaimHolder, r.ClaimExpires
	if q.open.Review.ID == r.ID {
		holder, until = q.open.Review.ClaimHolder, q.open.Review.ClaimExpires
	}
	switch {
	case holder == "" || !now.Before(until):
		if holder == q.ctx.Svc.Actor().ID {
			return st.Warn.Render("your lease expired · enter claims it again")
		}
		return st.Muted.Render("unclaimed · enter claims it for you")
	case holder == q.ctx.Svc.Actor().ID:
		return st.Good.Render("claimed by you · " + leaseLeft(now, until))
	}
	return st.Warn.Render(fmt.Sprintf("claimed by %s · %s · you can read, not decide", review.SanitizeLine(holder), leaseLeft(now, until)))
}

var factorShort = map[string]string{"contradiction": "contra", "confidence": "conf", "blast_radius": "blast"}

// riskLines writes R(w) factor by factor:
// RISK 0.82 = layer 0.25×1.00 + contra 0.20×0.00 + ...
func riskLines(st Styles, r review.QueueRow, w int) []string {
	fs := r.Detail.Risk
	head := fmt.Sprintf("RISK %.2f = ", r.Risk)
	if len(fs) == 0 {
		return []string{fit(st.Bold.Render(fmt.Sprintf("RISK %.2f", r.Risk))+" "+st.Muted.Render(review.SanitizeLine(r.Detail.RiskFormula)), w)}
	}
	var lines []string
	line := st.Bold.Render(head)
	used := len(head)
	indent := strings.Repeat(" ", len(head)-2)
	for i, f := range fs {
		name := f.Name
		if s, ok := factorShort[name]; ok {
			name = s
		}
		term := fmt.Sprintf("%s %.2f×%.2f", name, f.Weight, f.Value)
		if f.Contribution >= 0.1 {
			term = st.Bold.Render(term)
		}
		tw := ansi.StringWidth(term)
		sep := ""
		if i > 0 {
			sep = " + "
		}
		if i > 0 && used+len(sep)+tw > w {
			lines = append(lines, line)
			line, used, sep = indent+"+ ", len(indent)+2, ""
		}
		line += sep + term
		used += len(sep) + tw
	}
	return append(lines, line)
}

// wrapMax wraps s to w cells and keeps at most n lines, marking a cut.
func wrapMax(s string, w, n int) []string {
	ls := wrap(s, max(w, 8))
	if len(ls) > n {
		ls = ls[:n]
		// One ellipsis: the line is cut to leave it room, not cut with one.
		ls[n-1] = strings.TrimRight(ansi.Truncate(strings.TrimRight(ls[n-1], " "), max(w-1, 1), ""), " ") + "…"
	}
	return ls
}

// Click selects the row under the mouse.
func (q *queue) Click(x, y int) tea.Cmd {
	if !q.list.click(q.lay(), x, y) {
		return nil
	}
	return q.around()
}
