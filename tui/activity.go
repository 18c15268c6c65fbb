package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
)

// activity is the Activity screen: the audit log, newest first, growing as
// entries are written. The root's poll reports the log size; only entries
// past the newest one shown are fetched. Older entries are paged in as the
// cursor moves down.
type activity struct {
	ctx  *Context
	w, h int

	rows     []review.LogEvent // newest first
	cur      cursor
	loaded   bool
	err      error
	tailReq  int64
	olderReq int64
	rootReq  int64
	newest   int64
	bottom   bool // the oldest entry (LSN 1) is loaded

	root    engine.AuditRoot
	rootErr error
}

type tailMsg struct {
	id     int64
	after  int64
	events []review.LogEvent
	err    error
}

type olderMsg struct {
	id     int64
	events []review.LogEvent
	err    error
}

type rootMsg struct {
	id   int64
	root engine.AuditRoot
	err  error
}

// tailLimit bounds one fetch of new entries; past it the screen starts over
// from the newest page instead of leaving a gap.
const tailLimit = 500

func newActivity(c *Context) *activity { return &activity{ctx: c} }

func (a *activity) Title() string { return "Activity" }
func (a *activity) Mode() Mode    { return ModeNormal }

func (a *activity) Init() tea.Cmd { return tea.Batch(a.loadTail(0), a.loadRoot()) }

func (a *activity) SetSize(w, h int) {
	a.w, a.h = w, h
	a.resize()
}

// resize fits the cursor to the list's height, which at narrow sizes depends
// on how many rows there are.
func (a *activity) resize() {
	a.cur.height = max(a.lay().listH-1, 1)
	a.cur.clamp(len(a.rows))
}

func (a *activity) lay() split { return layout(a.w, a.h, 0.66, len(a.rows)) }

func (a *activity) pageSize() int { return max(100, 3*a.h) }

func (a *activity) loadTail(after int64) tea.Cmd {
	id := a.ctx.nextID()
	a.tailReq = id
	limit := tailLimit
	if after == 0 {
		limit = a.pageSize()
	}
	svc, ctx := a.ctx.Svc, a.ctx.Ctx
	return func() tea.Msg {
		es, err := svc.LogTail(ctx, after, limit)
		return tailMsg{id, after, es, err}
	}
}

func (a *activity) loadOlder() tea.Cmd {
	if a.bottom || a.olderReq != 0 || len(a.rows) == 0 {
		return nil
	}
	if a.cur.pos < len(a.rows)-2*max(a.cur.height, 1) {
		return nil
	}
	id := a.ctx.nextID()
	a.olderReq = id
	before, limit := a.rows[len(a.rows)-1].LSN, a.pageSize()
	svc, ctx := a.ctx.Svc, a.ctx.Ctx
	return func() tea.Msg {
		es, err := svc.LogBefore(ctx, before, limit)
		return olderMsg{id, es, err}
	}
}

func (a *activity) loadRoot() tea.Cmd {
	id := a.ctx.nextID()
	a.rootReq = id
	svc, ctx := a.ctx.Svc, a.ctx.Ctx
	return func() tea.Msg {
		r, err := svc.AuditRoot(ctx)
		return rootMsg{id, r, err}
	}
}

func (a *activity) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case attentionMsg:
		if msg.err == nil && a.loaded && a.tailReq == 0 && msg.att.LogSize > a.newest {
			return a.loadTail(a.newest)
		}
	case tailMsg:
		if msg.id != a.tailReq {
			return nil
		}
		a.tailReq, a.loaded, a.err = 0, true, msg.err
		if msg.err != nil {
			return nil
		}
		a.addNewest(msg)
		return tea.Batch(a.loadRoot(), a.loadOlder())
	case olderMsg:
		if msg.id != a.olderReq {
			return nil
		}
		a.olderReq = 0
		if msg.err != nil {
			a.err = msg.err
			return nil
		}
		a.rows = append(a.rows, msg.events...)
		a.bottom = len(a.rows) == 0 || a.rows[len(a.rows)-1].LSN <= 1
		a.resize()
		return a.loadOlder()
	case rootMsg:
		if msg.id != a.rootReq {
			return nil
		}
		a.rootReq = 0
		a.root, a.rootErr = msg.root, msg.err
	case tea.KeyMsg:
		if a.cur.act(act, len(a.rows)) {
			return a.loadOlder()
		}
		if act == ActRefresh {
			a.rows, a.newest, a.bottom, a.cur.pos, a.cur.offset = nil, 0, false, 0, 0
			return tea.Batch(a.loadTail(0), a.loadRoot())
		}
	}
	return nil
}

// addNewest puts newly fetched entries on top. When the person is reading
// further down, the rows they look at stay where they are.
func (a *activity) addNewest(msg tailMsg) {
	es := msg.events
	if len(es) == 0 {
		return
	}
	gap := msg.after > 0 && es[len(es)-1].LSN > msg.after+1
	if msg.after == 0 || gap {
		a.rows, a.cur.pos, a.cur.offset = es, 0, 0
		a.bottom = es[len(es)-1].LSN <= 1
	} else {
		a.rows = append(append(make([]review.LogEvent, 0, len(es)+len(a.rows)), es...), a.rows...)
		if a.cur.pos > 0 {
			a.cur.pos += len(es)
			a.cur.offset += len(es)
		}
	}
	a.newest = a.rows[0].LSN
	a.resize()
}

func (a *activity) Bindings() []key.Binding {
	k := a.ctx.Keys
	return []key.Binding{k.Down, k.Top, k.Refresh}
}

func (a *activity) Crumb() string {
	st := a.ctx.Styles
	s := st.Crumb.Render("Audit log") + st.Muted.Render(fmt.Sprintf("  %d entries", a.newest))
	switch {
	case a.rootErr != nil:
		s += "  " + st.Bad.Render("audit root: "+clean(a.rootErr.Error()))
	case a.root.Root != "":
		s += st.Muted.Render(fmt.Sprintf(" · audit root %s over %d", shortID(a.root.Root), a.root.TreeSize))
	}
	if a.cur.pos == 0 {
		s += st.Muted.Render(" · following new entries")
	} else {
		s += st.Muted.Render(" · g: back to newest")
	}
	return s
}

func (a *activity) View() string {
	s := a.lay()
	return s.join(a.ctx.Styles, a.list(s.listW, s.wide), a.detail(s.detW))
}

func (a *activity) list(w int, wide bool) []string {
	st := a.ctx.Styles
	switch {
	case a.err != nil:
		return []string{"", "  " + st.Bad.Render(clean(a.err.Error())), "  " + st.Muted.Render("ctrl+r to retry")}
	case !a.loaded:
		return []string{"", "  " + st.Muted.Render("loading…")}
	case len(a.rows) == 0:
		return []string{"", "  " + st.Muted.Render("The log is empty.")}
	}
	cols := []column{{title: "LSN", width: 7}, {title: "AGE", width: 6}, {title: "OP", width: 10}, {title: "ACTOR", width: 14}, {title: "WHAT", flex: true}}
	if !wide {
		cols = []column{{title: "LSN", width: 6}, {title: "AGE", width: 5}, {title: "OP", width: 10}, {title: "ACTOR", width: 12}, {title: "WHAT", flex: true}}
	}
	now := a.ctx.Now()
	return renderTable(st, cols, w, a.cur, len(a.rows), func(i int) []string {
		e := a.rows[i]
		return []string{fmt.Sprintf("%*d", cols[0].width, e.LSN), ago(now, e.Time), string(e.Op), clean(e.Actor), clean(what(e))}
	})
}

// what summarises an entry in a few words.
func what(e review.LogEvent) string {
	var parts []string
	if e.MemoryRef != "" {
		parts = append(parts, e.MemoryRef)
	}
	if e.Key != "" {
		parts = append(parts, e.Key)
	}
	switch {
	case e.Op == engine.OpPrincipal:
		parts = append(parts, "principal "+e.ItemID)
	case e.Reason != "":
		parts = append(parts, "“"+shortIDs(e.Reason)+"”")
	case e.Text != "":
		parts = append(parts, "“"+e.Text+"”")
	}
	if e.Erased {
		parts = append(parts, "(payload erased)")
	}
	return strings.Join(parts, " ")
}

func (a *activity) detail(w int) []string {
	if len(a.rows) == 0 {
		return nil
	}
	st := a.ctx.Styles
	e := a.rows[a.cur.pos]
	now := a.ctx.Now()
	lines := []string{
		st.Bold.Render(fmt.Sprintf("LSN %d  %s", e.LSN, e.Op)),
		st.Muted.Render(fmt.Sprintf("%s UTC (%s)", e.Time.UTC().Format("2006-01-02 15:04:05"), agoLong(now, e.Time))),
		"",
		field(st, "actor", clean(e.Actor)),
	}
	opt := func(label, v string) {
		if v != "" {
			lines = append(lines, labelled(st, label, clean(v), w)...)
		}
	}
	opt("memory", e.MemoryRef)
	opt("key", e.Key)
	if e.Op == engine.OpPrincipal {
		opt("principal", e.ItemID)
	} else {
		opt("item", shortID(e.ItemID))
	}
	opt("version", shortID(e.VersionID))
	opt("previous", shortID(e.PrevVersionID))
	opt("reason", shortIDs(e.Reason))
	if e.Text != "" {
		lines = append(lines, "")
		lines = append(lines, wrap("“"+cleanBlock(e.Text)+"”", w)...)
	}
	lines = append(lines, "", field(st, "payload", shortID(e.PayloadHash)), field(st, "leaf", shortID(e.Leaf)))
	if e.Erased {
		lines = append(lines, st.Warn.Render("payload erased: identifiers and hashes remain verifiable"))
	}
	return lines
}
