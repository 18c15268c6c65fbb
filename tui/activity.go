package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
)

// activity is the Activity screen: the audit log, newest first, growing as
// entries are written. The root's poll reports the log size; only entries
// past the newest one shown are fetched. Older entries are paged in as the
// cursor moves down.
type activity struct {
	ctx    *Context
	w, h   int
	health *health // the metrics panel above the log

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

func newActivity(c *Context, h *health) *activity { return &activity{ctx: c, health: h} }

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

func (a *activity) lay() split {
	return layout(a.w, max(a.h-a.health.height(a.w), 1), 0.66, len(a.rows))
}

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
			return tea.Batch(a.loadTail(0), a.loadRoot(), a.health.refresh())
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
	panel := a.health.panel(a.w)
	return strings.Join(panel, "\n") + "\n" + s.join(a.ctx.Styles, a.list(s.listW, s.wide), a.detail(s.detW))
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

// health is the latest memory-quality Metrics (12.12): the header's band and
// the panel above the audit log. Metrics scans the window's write outcomes,
// so it loads in a tea.Cmd, one load at a time: at start, then from the
// root's poll every metricsEvery polls when the log has grown (and every
// metricsStale polls regardless: rejected writes add outcomes, not entries).
type health struct {
	ctx    *Context
	m      engine.Metrics
	loaded bool
	err    error
	req    int64
	seen   int64 // the log size at the last load
	polls  int   // polls since the last load
}

type metricsMsg struct {
	id  int64
	m   engine.Metrics
	err error
}

const metricsEvery, metricsStale = 10, 60

func newHealth(c *Context) *health { return &health{ctx: c} }

func (h *health) load() tea.Cmd {
	id := h.ctx.nextID()
	h.req, h.polls = id, 0
	svc, ctx := h.ctx.Svc, h.ctx.Ctx
	return func() tea.Msg {
		m, err := svc.Metrics(ctx)
		return metricsMsg{id, m, err}
	}
}

// refresh loads now unless a load is under way.
func (h *health) refresh() tea.Cmd {
	if h.req != 0 {
		return nil
	}
	return h.load()
}

// update takes the poll's attention counts and the metrics answers.
func (h *health) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case attentionMsg:
		h.polls++
		if msg.err != nil || h.req != 0 {
			return nil
		}
		if (h.polls >= metricsEvery && msg.att.LogSize != h.seen) || h.polls >= metricsStale {
			h.seen = msg.att.LogSize
			return h.load()
		}
	case metricsMsg:
		if msg.id != h.req {
			return nil
		}
		h.req, h.loaded, h.err = 0, true, msg.err
		if msg.err == nil {
			h.m = msg.m
		}
	}
	return nil
}

// bandStyle colours a health band.
func bandStyle(st Styles, band string) lipgloss.Style {
	switch band {
	case "HEALTHY":
		return st.Good
	case "DEGRADED":
		return st.Warn
	}
	return st.Bad
}

// badge is the header's "HEALTHY 0.86", or "" before the first load.
func (h *health) badge() string {
	if !h.loaded || h.err != nil || h.m.Band == "" {
		return ""
	}
	return bandStyle(h.ctx.Styles, h.m.Band).Bold(true).Render(fmt.Sprintf("%s %.2f", h.m.Band, h.m.Health))
}

// height is how many lines the panel takes at width w, its rule included.
func (h *health) height(w int) int {
	if w < wideMin {
		return 4
	}
	return 5
}

// panel is the health figures above the audit log: the score and band, the
// write acceptance rate, the top rejection reasons, validation latency
// percentiles (overall and the slowest stages), dedup hit rate, retrieval
// precision, hallucination leakage, and what is not measured.
func (h *health) panel(w int) []string {
	st := h.ctx.Styles
	n := h.height(w) - 1
	var lines []string
	switch {
	case h.err != nil:
		lines = []string{st.Bad.Render("health metrics: " + clean(h.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !h.loaded:
		lines = []string{st.Muted.Render("reading health metrics…")}
	default:
		lines = h.figures(w)
	}
	out := pane(lines, w-1, n)
	for i := range out {
		out[i] = " " + out[i]
	}
	return append(out, st.Rule.Render(strings.Repeat("─", w)))
}

func (h *health) figures(w int) []string {
	st, m := h.ctx.Styles, h.m
	un := st.Muted.Render("unmeasured")
	ratio := func(v *float64, why string) string {
		if v == nil {
			return un + st.Muted.Render(" ("+why+")")
		}
		return fmt.Sprintf("%.3f", *v)
	}
	sep := st.Muted.Render(" · ")
	head := st.Bold.Render("HEALTH ") + bandStyle(st, m.Band).Bold(true).Render(fmt.Sprintf("%.2f %s", m.Health, m.Band))
	since := st.Muted.Render(fmt.Sprintf("  operational %.2f · since %s", m.Operational, m.Since.UTC().Format("2006-01-02")))
	accept := un + st.Muted.Render(" (no writes)")
	dedup := un
	if m.Writes > 0 {
		accept = fmt.Sprintf("%.3f", m.WriteAcceptance)
		dedup = fmt.Sprintf("%.3f", m.DedupHitRate)
	}
	prec := ratio(m.RetrievalPrecision, "no feedback")
	leak := ratio(m.HallucinationLeak, "no re-validation")
	lat := un + st.Muted.Render(" (no writes)")
	if m.LatencyUS.N > 0 {
		lat = pct(m.LatencyUS) + " ms"
	}
	rej := st.Muted.Render("none")
	if reasons := topReasons(m.Rejections, 3); len(reasons) > 0 {
		rej = strings.Join(reasons, ", ")
	}
	unmeasured := ""
	if len(m.Unmeasured) > 0 {
		unmeasured = st.Muted.Render("unmeasured: " + strings.Join(m.Unmeasured, ", "))
	}
	if unmeasured != "" {
		unmeasured = "   " + unmeasured
	}
	if w < wideMin {
		return []string{
			head + unmeasured,
			"accept " + accept + sep + "dedup " + dedup + sep + "precision " + prec + sep + "leakage " + leak,
			"latency p50/p95/p99 " + lat + sep + "rejected " + rej,
		}
	}
	head += since + unmeasured
	if m.Writes > 0 {
		accept += st.Muted.Render(fmt.Sprintf(" (%d writes)", m.Writes))
	}
	if m.RetrievalPrecision != nil {
		prec += st.Muted.Render(fmt.Sprintf(" (%d judged)", m.RetrievalsJudged))
	}
	if m.HallucinationLeak != nil {
		leak += st.Muted.Render(fmt.Sprintf(" (%d checked)", m.Revalidated))
	}
	stages := slowStages(m.StageLatencyUS, 3)
	if stages != "" {
		stages = sep + st.Muted.Render("slowest p95: ") + stages
	}
	return []string{
		head,
		"acceptance " + accept + sep + "dedup hits " + dedup + sep + "retrieval precision " + prec + sep + "leakage " + leak,
		"validation p50/p95/p99 " + lat + stages,
		"top rejections " + rej,
	}
}

// pct writes percentiles in microseconds as milliseconds: "6.2/28.1/98.7".
func pct(p engine.Percentiles) string {
	return fmt.Sprintf("%s/%s/%s", ms(p.P50), ms(p.P95), ms(p.P99))
}

func ms(us float64) string {
	if us < 1000 {
		return fmt.Sprintf("%.2f", us/1000)
	}
	return fmt.Sprintf("%.1f", us/1000)
}

// topReasons are the n most frequent rejection reasons: "DUPLICATE 9".
func topReasons(rs map[string]int, n int) []string {
	keys := make([]string, 0, len(rs))
	for k := range rs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if rs[keys[i]] != rs[keys[j]] {
			return rs[keys[i]] > rs[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []string
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, fmt.Sprintf("%s %d", clean(k), rs[k]))
	}
	return out
}

// slowStages names the n stages with the highest p95: "commit 11.2ms".
func slowStages(ss map[string]engine.Percentiles, n int) string {
	keys := make([]string, 0, len(ss))
	for k, p := range ss {
		if p.N > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if ss[keys[i]].P95 != ss[keys[j]].P95 {
			return ss[keys[i]].P95 > ss[keys[j]].P95
		}
		return keys[i] < keys[j]
	})
	var out []string
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, fmt.Sprintf("%s %sms", k, ms(ss[k].P95)))
	}
	return strings.Join(out, ", ")
}
