package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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

	rows   []review.QuarantineView
	all    []review.QuarantineView // what the service listed; rows is what the words keep
	cur    cursor
	req    int64
	loaded bool
	err    error
	seen   int64 // the log size the list was read at

	status string // "" open ones, or all, released, retracted
	agent  string
	words  []string

	zoom      bool // enter: the whole text takes the body
	scroll    int
	filtering bool
	input     textinput.Model
	busy      bool
}

type quarantineMsg struct {
	id   int64
	rows []review.QuarantineView
	err  error
}

type quarantineDoneMsg struct {
	text string
	err  error
}

func newQuarantine(c *Context) *quarantine {
	return &quarantine{ctx: c, input: newFilterInput("words in agent, ref, key, text or cause · status=all|released|retracted agent=NAME")}
}

func (q *quarantine) Title() string { return "Quarantine" }
func (q *quarantine) Init() tea.Cmd { return q.load() }

func (q *quarantine) Mode() Mode {
	if q.filtering {
		return ModeInput
	}
	return ModeNormal
}

// lay stacks the table over the detail, as Proposals does: the table needs
// the width for the text, the detail the lines.
func (q *quarantine) lay() split {
	lh := min(max(len(q.rows)+1, 3), max(q.h*2/5, 3))
	return split{listW: q.w, listH: lh, detW: q.w, detH: max(q.h-lh-1, 0)}
}

func (q *quarantine) SetSize(w, h int) {
	q.w, q.h = w, h
	q.cur.height = max(q.lay().listH-1, 1)
	q.cur.clamp(len(q.rows))
}

func (q *quarantine) svc() *review.Quarantine { return q.ctx.Svc.Quarantine() }

func (q *quarantine) load() tea.Cmd {
	id := q.ctx.nextID()
	q.req = id
	svc, ctx, status, agent := q.svc(), q.ctx.Ctx, q.status, q.agent
	return func() tea.Msg {
		rs, err := svc.List(ctx, status, agent)
		return quarantineMsg{id, rs, err}
	}
}

func (q *quarantine) selected() (review.QuarantineView, bool) {
	if q.cur.pos < len(q.rows) {
		return q.rows[q.cur.pos], true
	}
	return review.QuarantineView{}, false
}

func (q *quarantine) filtered() bool { return q.status != "" || q.agent != "" || len(q.words) > 0 }

func (q *quarantine) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case quarantineMsg:
		if msg.id != q.req {
			return nil
		}
		q.req, q.loaded, q.err = 0, true, msg.err
		if msg.err == nil {
			sel, _ := q.selected()
			q.all = msg.rows
			q.rows = q.rows[:0:0]
			for _, r := range q.all {
				if matchWords(q.words, r.Agent, r.MemoryRef, r.Key, r.Text, r.Cause, r.Status) {
					q.rows = append(q.rows, r)
				}
			}
			for i, r := range q.rows {
				if r.VersionID == sel.VersionID {
					q.cur.pos = i
				}
			}
		}
		q.SetSize(q.w, q.h)
		return nil
	case attentionMsg:
		if msg.err == nil && msg.att.LogSize != q.seen && q.loaded && q.req == 0 {
			q.seen = msg.att.LogSize
			return q.load()
		}
		return nil
	case quarantineDoneMsg:
		q.busy = false
		if msg.err != nil {
			return tea.Batch(q.load(), status(msg.err))
		}
		return tea.Batch(q.load(), refreshCounts, statusf(false, "%s", msg.text))
	case tea.KeyMsg:
		if q.filtering {
			return q.filterKey(msg, act)
		}
		if q.zoom {
			switch act {
			case ActDown:
				q.scroll++
			case ActUp:
				q.scroll = max(q.scroll-1, 0)
			case ActPageDown:
				q.scroll += max(q.h-2, 1)
			case ActPageUp:
				q.scroll = max(q.scroll-max(q.h-2, 1), 0)
			case ActTop:
				q.scroll = 0
			case ActBack, ActEnter:
				q.zoom = false
			case ActApply, ActRetract:
				return q.decide(act)
			}
			return nil
		}
		if q.cur.act(act, len(q.rows)) {
			return nil
		}
		switch act {
		case ActEnter:
			if len(q.rows) > 0 {
				q.zoom, q.scroll = true, 0
			}
		case ActFilter:
			q.filtering = true
			q.input.SetValue(q.query())
			q.input.CursorEnd()
			return q.input.Focus()
		case ActRefresh:
			return q.load()
		case ActBack:
			if q.filtered() {
				q.status, q.agent, q.words = "", "", nil
				q.cur = cursor{height: q.cur.height}
				return tea.Batch(q.load(), statusf(false, "filter cleared"))
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
	switch act {
	case ActBack:
		q.filtering = false
		q.input.Blur()
		return nil
	case ActSubmit:
		terms, words := splitQuery(q.input.Value())
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
		q.filtering = false
		q.input.Blur()
		q.status, q.agent, q.words, q.rows, q.loaded = status, agent, words, nil, false
		q.cur = cursor{height: q.cur.height}
		return q.load()
	}
	var cmd tea.Cmd
	q.input, cmd = q.input.Update(msg)
	return cmd
}

// decide asks to release or retract the selected write, or says why the
// person may not.
func (q *quarantine) decide(act Action) tea.Cmd {
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
	if q.busy {
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
				q.busy = true
				return func() tea.Msg {
					v, err := svc.Release(ctx, e.VersionID, reason)
					if err != nil {
						return quarantineDoneMsg{err: fmt.Errorf("release %s: %w", name, err)}
					}
					return quarantineDoneMsg{text: "released " + name + " as version " + shortID(v.ID)}
				}
			},
		})
	}
	return askConfirm(confirmMsg{
		title: "Retract " + name, danger: true, required: true,
		lines: []string{what, "“" + firstWords(e.Text, 12) + "”",
			"Retracted for good: no read will ever see this version; it stays in the log for investigation. The log records the retraction with your reason."},
		onYes: func(reason string) tea.Cmd {
			q.busy = true
			return func() tea.Msg {
				if err := svc.Retract(ctx, e.VersionID, reason); err != nil {
					return quarantineDoneMsg{err: fmt.Errorf("retract %s: %w", name, err)}
				}
				return quarantineDoneMsg{text: "retracted " + name}
			}
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
	if q.filtering {
		enter := k.Enter
		enter.SetHelp("enter", "apply filter")
		return []key.Binding{enter, k.Cancel}
	}
	var bs []key.Binding
	if e, ok := q.selected(); ok && q.svc().CanDecide(e.QuarantineEntry) == nil {
		rel := k.Apply
		rel.SetHelp("y", "release")
		bs = append(bs, rel, k.Retract)
	}
	if q.zoom {
		sc := key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll"))
		return append(bs, sc, k.Back)
	}
	enter := k.Enter
	enter.SetHelp("enter", "text")
	return append(bs, enter, k.Filter)
}

// Crumb: how many writes wait, the filter, how many are listed.
func (q *quarantine) Crumb() string {
	st := q.ctx.Styles
	open := 0
	for _, r := range q.rows {
		if r.Status == memgov.QuarantineOpen {
			open++
		}
	}
	left := st.Crumb.Render("Quarantine") + "   "
	if open > 0 {
		left = st.Attention.Render(plural(open, "quarantined write waits", "quarantined writes wait")+" for a curator") + "   "
	}
	if q.filtering {
		return left + st.Bold.Render("filter: ") + q.input.View()
	}
	f := "quarantined"
	if q.filtered() {
		f = review.SanitizeLine(q.query())
	}
	mid := st.Muted.Render("filter: ") + f
	right := st.Bold.Render(fmt.Sprintf("%d listed", len(q.rows)))
	w := q.w - 1
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(mid) - ansi.StringWidth(right)
	if gap < 1 {
		return fit(left+mid, max(w-ansi.StringWidth(right)-1, 0)) + " " + right
	}
	return left + mid + strings.Repeat(" ", gap) + right
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
	if q.zoom {
		lines := q.textPage()
		q.scroll = max(min(q.scroll, len(lines)-q.h), 0)
		return strings.Join(pane(lines[q.scroll:], q.w, q.h), "\n")
	}
	s := q.lay()
	return s.join(q.ctx.Styles, q.list(s.listW), q.detail(s.detW, s.detH))
}

func (q *quarantine) list(w int) []string {
	st := q.ctx.Styles
	switch {
	case q.err != nil:
		return []string{st.Bad.Render("cannot read the quarantine: " + review.SanitizeLine(q.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !q.loaded:
		return []string{st.Muted.Render("reading the quarantine…")}
	case len(q.rows) == 0 && q.filtered():
		return []string{"", "  " + st.Muted.Render("Nothing in the quarantine matches the filter (/ to change it, esc clears it).")}
	case len(q.rows) == 0:
		return []string{"", "  " + st.Good.Render("Nothing is quarantined."), "",
			"  " + st.Muted.Render("An agent whose write burst or contradiction rate crosses the policy's threshold has its recent writes held here (status=all shows decided ones).")}
	}
	now := q.ctx.Now()
	wide := w >= wideMin
	cols := quarantineCols
	if !wide {
		cols = quarantineColsNarrow
	}
	return renderTable(st, cols, w, q.cur, len(q.rows), func(i int) []string {
		r := q.rows[i]
		text := firstWords(r.Text, 16)
		if r.Status != memgov.QuarantineOpen {
			text = quarantineStatus(st, r.Status) + " " + text
		}
		if wide {
			return []string{review.SanitizeLine(r.Agent), review.SanitizeLine(r.MemoryRef), keyCell(review.SanitizeLine(r.Key), cols[2].width), text, causeShort(r.Cause), ago(now, r.At)}
		}
		return []string{review.SanitizeLine(r.Agent), keyCell(review.SanitizeLine(r.Key), cols[1].width), text, causeShort(r.Cause), ago(now, r.At)}
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
	room := max(h-len(facts)-len(dec)-3, 1)
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
	if q.zoom {
		return nil
	}
	clickRow(&q.cur, len(q.rows), q.lay(), x, y)
	return nil
}
