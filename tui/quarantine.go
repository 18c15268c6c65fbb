package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// quarantine is the Quarantine screen: the writes of agents that crossed the
// policy's burst or contradiction threshold, withheld from every read and
// kept for a curator, newest first, with the selected one's text, cause and
// decision. y releases (the content becomes readable again, as a new
// version), X retracts for good; each asks for a typed reason first.
type quarantine struct {
	ctx  *Context
	w, h int

	list *list[review.QuarantineView] // what the words keep; enter zooms on the whole text
	all  []review.QuarantineView      // what the service listed

	status string // "" open ones, or all, released, retracted
	agent  string
	words  []string
}

type quarantineMsg struct {
	id   int64
	rows []review.QuarantineView
	err  error
}

func newQuarantine(c *Context) *quarantine {
	return &quarantine{ctx: c, list: newList(c, "the quarantine", func(v review.QuarantineView) string { return v.VersionID },
		"words in agent, ref, key, text or cause · status=all|released|retracted agent=NAME")}
}

func (q *quarantine) Title() string { return "Quarantine" }
func (q *quarantine) Init() tea.Cmd { return q.load() }

func (q *quarantine) Mode() Mode { return q.list.mode() }

// lay stacks the table over the detail.
func (q *quarantine) lay() split { return q.list.stacked(q.w, q.h) }

func (q *quarantine) SetSize(w, h int) {
	q.w, q.h = w, h
	q.list.resize(q.lay().listH - 1)
}

func (q *quarantine) svc() *review.Quarantine { return q.ctx.Svc.Quarantine() }

func (q *quarantine) load() tea.Cmd {
	id := q.list.ask()
	svc, ctx, status, agent := q.svc(), q.ctx.Ctx, q.status, q.agent
	return func() tea.Msg {
		rs, err := svc.List(ctx, status, agent)
		return quarantineMsg{id, rs, err}
	}
}

func (q *quarantine) selected() (review.QuarantineView, bool) { return q.list.selected() }

func (q *quarantine) filtered() bool { return q.status != "" || q.agent != "" || len(q.words) > 0 }

// keep lists the writes the filter's words keep.
func (q *quarantine) keep() {
	var rows []review.QuarantineView
	for _, r := range q.all {
		if matchWords(q.words, r.Agent, r.MemoryRef, r.Key, r.Text, r.Cause, r.Status) {
			rows = append(rows, r)
		}
	}
	q.list.setAll(rows)
}

func (q *quarantine) Update(msg tea.Msg, act Action) tea.Cmd {
	l := q.list
	if cmd, ok := l.heard(msg, q.load); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case quarantineMsg:
		if !l.answered(msg.id, msg.err) {
			return nil
		}
		if msg.err == nil {
			q.all = msg.rows
			q.keep()
			l.keepMarks(func(v review.QuarantineView) bool { return v.Status == memgov.QuarantineOpen })
		}
		q.SetSize(q.w, q.h)
		return nil
	case tea.KeyMsg:
		if l.filtering {
			return q.filterKey(msg, act)
		}
		if l.zoom {
			switch act {
			case ActEnter:
				l.zoom = false
			case ActApply, ActRetract:
				return q.decide(act)
			default:
				l.zoomKey(act, q.h)
			}
			return nil
		}
		if l.move(act) {
			return nil
		}
		switch act {
		case ActEnter:
			l.openZoom()
		case ActFilter:
			return l.openFilter(q.query())
		case ActRefresh:
			return q.load()
		case ActBack:
			if q.filtered() {
				q.status, q.agent, q.words = "", "", nil // the cursor stays on its write
				return tea.Batch(q.load(), statusf(false, "filter cleared"))
			}
		case ActMark:
			if e, ok := q.selected(); ok {
				if err := q.svc().CanDecide(e.QuarantineEntry); err != nil {
					return statusf(true, "cannot mark: %s", err.Error())
				}
				l.mark()
			}
		case ActApply, ActRetract:
			return q.decide(act)
		}
	}
	return nil
}

// query is the filter as typed.
func (q *quarantine) query() string {
	var ts []string
	if q.status != "" {
		ts = append(ts, "status="+q.status)
	}
	if q.agent != "" {
		ts = append(ts, "agent="+q.agent)
	}
	return strings.Join(append(ts, q.words...), " ")
}

func (q *quarantine) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	l := q.list
	typed, ok, cmd := l.filterKey(msg, act)
	if !ok {
		return cmd
	}
	terms, words := splitQuery(typed)
	status, agent := "", ""
	for _, t := range strings.Fields(terms) {
		k, v, _ := strings.Cut(t, "=")
		switch strings.ToLower(k) {
		case "status":
			switch v = strings.ToLower(v); v {
			case "quarantined", "open":
				v = ""
			case "all", "released", "retracted":
			default:
				return statusf(true, "status is one of quarantined, released, retracted, all")
			}
			status = v
		case "agent":
			agent = v
		default:
			return statusf(true, "unknown filter %q: use status= agent= or free words", review.SanitizeLine(k))
		}
	}
	l.closeFilter()
	q.status, q.agent, q.words, l.loaded = status, agent, words, false
	l.setAll(nil)
	l.top()
	return q.load()
}

// decide asks to release or retract the selected write, or says why the
// person may not.
func (q *quarantine) decide(act Action) tea.Cmd {
	if len(q.list.marked) > 0 {
		return q.decideMarked(act)
	}
	e, ok := q.selected()
	if !ok {
		return nil
	}
	verb := "release"
	if act == ActRetract {
		verb = "retract"
	}
	if err := q.svc().CanDecide(e.QuarantineEntry); err != nil {
		return statusf(true, "cannot %s: %s", verb, err.Error())
	}
	if q.list.busy {
		return statusf(true, "a decision is still being recorded")
	}
	svc, ctx := q.svc(), q.ctx.Ctx
	name := review.SanitizeLine(e.MemoryRef + " › " + e.Key)
	what := fmt.Sprintf("%s, written by %s, quarantined %s: %s", name, review.SanitizeLine(e.Agent), stamp(e.At), review.SanitizeLine(e.Cause))
	if act == ActApply {
		return askConfirm(confirmMsg{
			title: "Release " + name, required: true,
			lines: []string{what, "“" + firstWords(e.Text, 12) + "”",
				"Every read sees this content again, as a new ACTIVE version. The log records the release with your reason."},
			onYes: func(reason string) tea.Cmd {
				return q.list.decide(func() doneMsg {
					v, err := svc.Release(ctx, e.VersionID, reason)
					if err != nil {
						return doneMsg{err: fmt.Errorf("release %s: %w", name, err)}
					}
					return doneMsg{text: "released " + name + " as version " + shortID(v.ID)}
				})
			},
		})
	}
	return askConfirm(confirmMsg{
		title: "Retract " + name, danger: true, required: true,
		lines: []string{what, "“" + firstWords(e.Text, 12) + "”",
			"Retracted for good: no read will ever see this version; it stays in the log for investigation. The log records the retraction with your reason."},
		onYes: func(reason string) tea.Cmd {
			return q.list.decide(func() doneMsg {
				if err := svc.Retract(ctx, e.VersionID, reason); err != nil {
					return doneMsg{err: fmt.Errorf("retract %s: %w", name, err)}
				}
				return doneMsg{text: "retracted " + name}
			})
		},
	})
}

// decideMarked asks to release or retract every marked write with one
// reason: a runaway writer's burst is decided at once. Each write is its
// own decision and log entry; a refusal does not stop the others.
func (q *quarantine) decideMarked(act Action) tea.Cmd {
	if q.list.busy {
		return statusf(true, "a decision is still being recorded")
	}
	rows := q.list.markedRows()
	verb, done := "Release", "released"
	if act == ActRetract {
		verb, done = "Retract", "retracted"
	}
	what := plural(len(rows), "marked write", "marked writes")
	// One line a write, the first four: the question fits 80x24.
	var lines []string
	for _, e := range rows {
		if len(lines) == 4 {
			lines = append(lines, fmt.Sprintf("… and %d more", len(rows)-4))
			break
		}
		lines = append(lines, review.SanitizeLine(e.MemoryRef+" › "+e.Key))
	}
	lines = append(lines, "One reason for all; each is its own log entry, and a refusal does not stop the others.")
	if act == ActApply {
		lines = append(lines, "Every read sees their content again, as new ACTIVE versions.")
	} else {
		lines = append(lines, "Retracted for good: no read will ever see them.")
	}
	svc, ctx := q.svc(), q.ctx.Ctx
	return askConfirm(confirmMsg{
		title: verb + " " + what, danger: act == ActRetract, required: true, lines: lines,
		onYes: func(reason string) tea.Cmd {
			return q.list.decide(func() doneMsg {
				var ids []string
				var failed []string
				for _, e := range rows {
					var err error
					if act == ActApply {
						_, err = svc.Release(ctx, e.VersionID, reason)
					} else {
						err = svc.Retract(ctx, e.VersionID, reason)
					}
					if err != nil {
						failed = append(failed, review.SanitizeLine(e.Key)+": "+err.Error())
						continue
					}
					ids = append(ids, e.VersionID)
				}
				text := fmt.Sprintf("%s %d of %s", done, len(ids), what)
				if len(failed) > 0 {
					text += "; " + failed[0]
				}
				return doneMsg{text: text, ids: ids, warn: len(failed) > 0}
			})
		},
	})
}

// firstWords is the first n words of untrusted text, sanitised, with an
// ellipsis when there is more.
func firstWords(s string, n int) string {
	ws := strings.Fields(review.SanitizeLine(s))
	if len(ws) > n {
		return strings.Join(ws[:n], " ") + " …"
	}
	return strings.Join(ws, " ")
}

func (q *quarantine) Bindings() []key.Binding {
	k := q.ctx.Keys
	if q.list.filtering {
		return q.list.filterBindings(k)
	}
	var bs []key.Binding
	if e, ok := q.selected(); ok && q.svc().CanDecide(e.QuarantineEntry) == nil {
		rel := k.Apply
		rel.SetHelp("y", "release") // the marked ones, when there are: the crumb counts them
		bs = append(bs, rel, k.Retract)
	}
	if q.list.zoom {
		return append(bs, q.list.zoomBindings(k)...)
	}
	if len(bs) > 0 {
		bs = append(bs, k.Mark)
	}
	enter := k.Enter
	enter.SetHelp("enter", "text")
	return append(bs, enter, k.Filter)
}

// Crumb: how many writes wait, the filter, how many are listed.
func (q *quarantine) Crumb() string {
	st := q.ctx.Styles
	open := 0
	for _, r := range q.list.rows {
		if r.Status == memgov.QuarantineOpen {
			open++
		}
	}
	left := st.Crumb.Render("Quarantine") + "   "
	if open > 0 {
		left = st.Attention.Render(plural(open, "quarantined write waits", "quarantined writes wait")+" for a curator") + "   "
	}
	if q.list.filtering {
		return left + st.Bold.Render("filter: ") + q.list.input.View()
	}
	f := "quarantined"
	if q.filtered() {
		f = review.SanitizeLine(q.query())
	}
	mid := st.Muted.Render("filter: ") + f
	right := fmt.Sprintf("%d listed", q.list.total)
	if n := len(q.list.marked); n > 0 {
		right = fmt.Sprintf("%d marked · ", n) + right
	}
	right = st.Bold.Render(right)
	return crumbLine(left, mid, right, q.w-1)
}

var quarantineCols = []column{
	{title: "AGENT", width: 14}, {title: "MEMORY REF", width: 22}, {title: "KEY", width: 16},
	{title: "TEXT", flex: true}, {title: "WHY", width: 11}, {title: "WHEN", width: 5},
}

var quarantineColsNarrow = []column{
	{title: "AGENT", width: 14}, {title: "KEY", width: 14}, {title: "TEXT", flex: true},
	{title: "WHY", width: 11}, {title: "WHEN", width: 4},
}

func (q *quarantine) View() string {
	if q.list.zoom {
		return q.list.page(q.textPage(), q.w, q.h)
	}
	s := q.lay()
	return s.join(q.ctx.Styles, q.table(s.listW), q.detail(s.detW, s.detH))
}

func (q *quarantine) table(w int) []string {
	st := q.ctx.Styles
	if n := q.list.notice(q.filtered(),
		[]string{"", "  " + st.Good.Render("Nothing is quarantined."), "",
			"  " + st.Muted.Render("An agent whose write burst or contradiction rate crosses the policy's threshold has its recent writes held here (status=all shows decided ones).")},
		[]string{"", "  " + st.Muted.Render("Nothing in the quarantine matches the filter (/ to change it, esc clears it).")}); n != nil {
		return n
	}
	now := q.ctx.Now()
	wide := w >= wideMin
	cols := quarantineCols
	if !wide {
		cols = quarantineColsNarrow
	}
	return q.list.table(cols, w, func(i int) []string {
		r := q.list.rows[i]
		text := firstWords(r.Text, 16)
		if r.Status != memgov.QuarantineOpen {
			text = quarantineStatus(st, r.Status) + " " + text
		}
		agent := review.SanitizeLine(r.Agent)
		if q.list.isMarked(r) {
			agent = "● " + agent
		}
		if wide {
			return []string{agent, review.SanitizeLine(r.MemoryRef), keyCell(review.SanitizeLine(r.Key), cols[2].width), text, causeShort(r.Cause), ago(now, r.At)}
		}
		return []string{agent, keyCell(review.SanitizeLine(r.Key), cols[1].width), text, causeShort(r.Cause), ago(now, r.At)}
	})
}

// causeShort names the threshold crossed, for the table; the detail has
// the whole cause.
func causeShort(cause string) string {
	switch {
	case strings.HasPrefix(cause, "write burst"):
		return "write burst"
	case strings.HasPrefix(cause, "contradiction"):
		return "contradicts"
	}
	return review.SanitizeLine(cause)
}

func quarantineStatus(st Styles, s string) string {
	switch s {
	case memgov.QuarantineOpen:
		return st.Attention.Render(s)
	case memgov.QuarantineReleased:
		return st.Good.Render(s)
	}
	return st.Bad.Render(s)
}

// facts: what a curator decides on.
func (q *quarantine) facts(e review.QuarantineView, w int) []string {
	st := q.ctx.Styles
	now := q.ctx.Now()
	var out []string
	add := func(ls ...string) {
		for _, l := range ls {
			out = append(out, fit(l, w))
		}
	}
	add(st.Bold.Render(review.SanitizeLine(e.MemoryRef+" › "+e.Key)) + "  " + quarantineStatus(st, e.Status))
	add(field(st, "agent", review.SanitizeLine(e.Agent)+st.Muted.Render(" · tenant "+review.SanitizeLine(e.Tenant))))
	for i, l := range wrapMax(review.SanitizeLine(e.Cause), max(w-11, 10), 2) {
		if i == 0 {
			add(field(st, "why", l))
		} else {
			add(strings.Repeat(" ", 11) + l)
		}
	}
	add(field(st, "when", stamp(e.At)+st.Muted.Render(" · "+agoLong(now, e.At)+" · LSN "+fmt.Sprint(e.LSN))))
	add(field(st, "version", shortID(e.VersionID)+st.Muted.Render(" of item "+shortID(e.ItemID))))
	if e.DecidedBy != "" {
		d := strings.ToLower(e.Status) + " by " + review.SanitizeLine(e.DecidedBy)
		if e.DecidedAt != nil {
			d += " at " + stamp(*e.DecidedAt)
		}
		add(field(st, "decided", d))
		if e.Note != "" {
			add(field(st, "reason", "“"+review.SanitizeLine(e.Note)+"”"))
		}
		if e.ReleasedAs != "" {
			add(field(st, "now", "version "+shortID(e.ReleasedAs)))
		}
	}
	return out
}

// decision is the keys the person may use on e, or why not.
func (q *quarantine) decision(e review.QuarantineView, w int) []string {
	st := q.ctx.Styles
	err := q.svc().CanDecide(e.QuarantineEntry)
	switch {
	case err == nil:
		return []string{st.Bold.Render("y") + " release   " + st.Bad.Render("X retract") + st.Muted.Render("   (each asks for a reason)")}
	case e.Status != memgov.QuarantineOpen:
		return []string{st.Muted.Render("decided: nothing to do")}
	}
	var out []string
	for _, l := range wrap("cannot decide: "+err.Error(), w) {
		out = append(out, st.ReadOnly.Render(l))
	}
	return out
}

// detail: the facts, then the text, then what the person may do.
func (q *quarantine) detail(w, h int) []string {
	e, ok := q.selected()
	if !ok {
		return nil
	}
	st := q.ctx.Styles
	facts := q.facts(e, w)
	dec := q.decision(e, w)
	room := h - len(facts) - len(dec) - 3
	if room < 2 && q.svc().CanDecide(e.QuarantineEntry) == nil {
		// Short of room (80x24), the text goes before the line of keys:
		// the footer names them too.
		dec, room = nil, h-len(facts)-2
	}
	room = max(room, 1)
	out := append(facts, "", st.ColHeader.Render("TEXT"))
	var text []string
	for _, l := range strings.Split(review.Sanitize(e.Text), "\n") {
		text = append(text, wrap(l, w)...)
	}
	for i, l := range text {
		if i == room-1 && len(text) > room {
			out = append(out, st.Muted.Render(fmt.Sprintf("… %d more lines (enter shows all)", len(text)-i)))
			break
		}
		out = append(out, l)
	}
	if len(dec) == 0 {
		return out
	}
	return append(append(out, ""), dec...)
}

// textPage is the zoomed view: the facts, then the whole text.
func (q *quarantine) textPage() []string {
	e, ok := q.selected()
	if !ok {
		return nil
	}
	st := q.ctx.Styles
	out := append(q.facts(e, q.w), "", st.ColHeader.Render("TEXT"))
	for _, l := range strings.Split(review.Sanitize(e.Text), "\n") {
		out = append(out, wrap(l, q.w)...)
	}
	return append(append(out, ""), q.decision(e, q.w)...)
}

// Click selects the row under the mouse.
func (q *quarantine) Click(x, y int) tea.Cmd {
	q.list.click(q.lay(), x, y)
	return nil
}
