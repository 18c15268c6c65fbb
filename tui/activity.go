package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// activity is the Activity screen: the audit log, newest first, growing as
// entries are written. LSNs run 1..N without gaps, so row i is LSN N-i: the
// screen keeps a window of entries around the cursor, read from the log as
// the cursor moves, and G reaches LSN 1 in one step. / filters: a scan of
// the log for entries whose words match, newest first.
type activity struct {
	ctx    *Context
	w, h   int
	health *health // the metrics panel above the log

	// list is the window of the log read around the cursor, newest first
	// (row i is LSN newest-i; the window's first row is LSN winTop), or the
	// filter's matches.
	list    *list[review.LogEvent]
	winTop  int64
	newest  int64 // the log's size: the newest LSN
	rootReq int64

	root    memgov.AuditRoot
	rootErr error

	query   string // the filter applied, "" for none
	capped  bool   // the scan stopped at matchCap
	findReq int64
	finding bool
}

type windowMsg struct {
	id     int64
	top    int64 // the LSN asked for as the window's first row
	size   int64
	events []review.LogEvent
	err    error
}

type foundMsg struct {
	id      int64
	query   string
	matches []review.LogEvent
	capped  bool
	err     error
}

type rootMsg struct {
	id   int64
	root memgov.AuditRoot
	err  error
}

// matchCap bounds the entries a filter keeps; scanBatchLog is one read of
// the scan.
const matchCap, scanBatchLog = 1000, 2000

func newActivity(c *Context, h *health) *activity {
	l := newList(c, "the log", func(e review.LogEvent) string { return strconv.FormatInt(e.LSN, 10) },
		"words in op, actor, ref, key, reason or text · op=APPROVE actor=ops-jane")
	return &activity{ctx: c, health: h, list: l}
}

func (a *activity) Title() string { return "Activity" }

func (a *activity) Mode() Mode { return a.list.mode() }

func (a *activity) Init() tea.Cmd { return tea.Batch(a.loadWindow(0), a.loadRoot()) }

func (a *activity) SetSize(w, h int) {
	a.w, a.h = w, h
	a.resize()
}

// n is how many rows the list has: the log, or the filter's matches.
func (a *activity) n() int { return a.list.total }

func (a *activity) resize() { a.list.resize(a.lay().listH - 1) }

// grown follows the log to size newest: the window's rows keep their LSNs,
// so their row numbers move down.
func (a *activity) grown(newest int64) {
	a.newest = newest
	if a.query == "" {
		a.list.offset, a.list.total = int(a.newest-a.winTop), int(a.newest)
	}
}

func (a *activity) lay() split {
	return layout(a.w, max(a.h-a.health.height(a.w), 1), 0.66, a.n())
}

func (a *activity) pageSize() int { return max(100, 3*a.h) }

// loadWindow reads a page of entries whose first (newest) row is LSN top;
// top 0 is the newest entry.
func (a *activity) loadWindow(top int64) tea.Cmd {
	id := a.list.ask()
	limit := a.pageSize()
	svc, ctx := a.ctx.Svc, a.ctx.Ctx
	return func() tea.Msg {
		size, err := svc.LogSize(ctx)
		if err != nil {
			return windowMsg{id: id, err: err}
		}
		t := top
		if t <= 0 || t > size {
			t = size
		}
		es, err := svc.LogBefore(ctx, t+1, limit)
		return windowMsg{id, t, size, es, err}
	}
}

// row returns row i (LSN newest-i, or the filter's match i) if it is loaded.
func (a *activity) row(i int) (review.LogEvent, bool) { return a.list.row(i) }

// around reads the window around the cursor when it nears an edge of what
// is loaded; the key press never waits for the database.
func (a *activity) around() tea.Cmd {
	if a.query != "" || a.list.req != 0 || !a.list.loaded {
		return nil
	}
	lsn := a.newest - int64(a.list.cur.pos)
	h := int64(max(a.list.cur.height, 1))
	bottom := a.winTop - int64(len(a.list.rows)) + 1
	needUp := lsn+h > a.winTop && a.winTop < a.newest
	needDown := lsn-h < bottom && bottom > 1
	if !needUp && !needDown {
		return nil
	}
	return a.loadWindow(min(lsn+int64(a.pageSize()/2), a.newest))
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

// find scans the log, newest first, for entries matching every word.
func (a *activity) find(query string) tea.Cmd {
	id := a.ctx.nextID()
	a.findReq, a.finding = id, true
	svc, ctx := a.ctx.Svc, a.ctx.Ctx
	words := strings.Fields(strings.ToLower(query))
	return func() tea.Msg {
		size, err := svc.LogSize(ctx)
		if err != nil {
			return foundMsg{id: id, err: err}
		}
		var out []review.LogEvent
		for before := size + 1; before > 1; before -= scanBatchLog {
			es, err := svc.LogBefore(ctx, before, scanBatchLog)
			if err != nil {
				return foundMsg{id: id, err: err}
			}
			for _, e := range es {
				if logMatches(e, words) {
					out = append(out, e)
					if len(out) == matchCap {
						return foundMsg{id, query, out, true, nil}
					}
				}
			}
		}
		return foundMsg{id, query, out, false, nil}
	}
}

// logMatches: every word occurs in the entry's op, actor, ref, key, reason
// or text; a word op=X or actor=X must equal that field.
func logMatches(e review.LogEvent, words []string) bool {
	hay := strings.ToLower(strings.Join([]string{string(e.Op), e.Actor, e.MemoryRef, e.Key, e.Reason, e.Text, e.ItemID}, "\x00"))
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok {
			switch k {
			case "op":
				if !strings.EqualFold(string(e.Op), v) {
					return false
				}
				continue
			case "actor":
				if !strings.EqualFold(e.Actor, v) {
					return false
				}
				continue
			}
		}
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func (a *activity) Update(msg tea.Msg, act Action) tea.Cmd {
	l := a.list
	switch msg := msg.(type) {
	case attentionMsg:
		if msg.err != nil || !l.loaded || msg.att.LogSize <= a.newest {
			return nil
		}
		grew := int(msg.att.LogSize - a.newest)
		a.grown(msg.att.LogSize)
		if a.query != "" {
			return nil // a filtered list stays as found; ctrl+r finds again
		}
		if l.cur.pos > 0 || l.zoom { // reading further down, or one entry whole: stay on it
			l.cur.pos += grew
			l.cur.offset += grew
			a.resize()
			return a.around()
		}
		l.top() // following the newest entry
		return a.loadWindow(0)
	case windowMsg:
		if !l.answered(msg.id, msg.err) || msg.err != nil {
			return nil
		}
		if msg.size > a.newest {
			if l.cur.pos > 0 {
				l.cur.pos += int(msg.size - a.newest)
				l.cur.offset += int(msg.size - a.newest)
			}
			a.grown(msg.size)
		}
		if a.query == "" {
			a.winTop = msg.top
			l.set(msg.events, int(a.newest-msg.top), int(a.newest))
		}
		a.resize()
		return tea.Batch(a.loadRoot(), a.around())
	case foundMsg:
		if msg.id != a.findReq {
			return nil
		}
		a.finding = false
		if msg.err != nil {
			return status(msg.err)
		}
		a.query, a.capped = msg.query, msg.capped
		l.top()
		l.setAll(msg.matches)
		a.resize()
		return nil
	case rootMsg:
		if msg.id != a.rootReq {
			return nil
		}
		a.rootReq = 0
		a.root, a.rootErr = msg.root, msg.err
	case tea.KeyMsg:
		if l.filtering {
			return a.filterKey(msg, act)
		}
		if l.zoom {
			if act == ActEnter {
				l.zoom = false
			} else {
				l.zoomKey(act, a.h)
			}
			return nil
		}
		if l.move(act) {
			return a.around()
		}
		switch act {
		case ActEnter:
			l.openZoom() // the whole entry, however long
		case ActFilter:
			return l.openFilter(a.query)
		case ActBack:
			if a.query != "" {
				return tea.Batch(a.unfilter(), statusf(false, "filter cleared"))
			}
		case ActRefresh:
			l.top()
			cmds := []tea.Cmd{a.loadRoot(), a.health.refresh()}
			if a.query != "" {
				cmds = append(cmds, a.find(a.query))
			} else {
				cmds = append(cmds, a.loadWindow(0))
			}
			return tea.Batch(cmds...)
		}
	}
	return nil
}

// unfilter goes back to the whole log, at its newest entry.
func (a *activity) unfilter() tea.Cmd {
	a.query = ""
	a.list.top()
	a.list.set(nil, 0, int(a.newest))
	a.resize()
	return a.loadWindow(0)
}

func (a *activity) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	q, ok, cmd := a.list.filterKey(msg, act)
	if !ok {
		return cmd
	}
	a.list.closeFilter()
	if q == "" {
		return a.unfilter()
	}
	return a.find(q)
}

func (a *activity) Bindings() []key.Binding {
	k := a.ctx.Keys
	if a.list.filtering {
		return a.list.filterBindings(k)
	}
	if a.list.zoom {
		return a.list.zoomBindings(k)
	}
	enter := k.Enter
	enter.SetHelp("enter", "entry")
	bs := []key.Binding{enter, k.Top, k.Bottom, k.Filter}
	if a.w >= wideMin {
		bs = append(bs, k.Refresh) // narrow: in ? help
	}
	if a.query != "" {
		bs = append(bs, k.Back)
	}
	return bs
}

func (a *activity) Crumb() string {
	st := a.ctx.Styles
	if a.list.filtering {
		return st.Crumb.Render("Audit log") + "  " + st.Bold.Render("filter: ") + a.list.input.View()
	}
	if a.query != "" || a.finding {
		s := st.Crumb.Render("Audit log") + st.Muted.Render("  filter: ") + review.SanitizeLine(a.query)
		switch {
		case a.finding:
			s += st.Muted.Render("  searching the log…")
		case a.capped:
			s += "  " + st.Bold.Render(fmt.Sprintf("the newest %d matches", a.list.total))
		default:
			s += "  " + st.Bold.Render(plural(a.list.total, "match", "matches")+fmt.Sprintf(" in %d entries", a.newest))
		}
		return s + st.Muted.Render(" · esc clears")
	}
	s := st.Crumb.Render("Audit log") + st.Muted.Render("  "+plural(int(a.newest), "entry", "entries"))
	switch {
	case a.rootErr != nil:
		s += "  " + st.Bad.Render("audit root: "+review.SanitizeLine(a.rootErr.Error()))
	case a.root.Root != "":
		s += st.Muted.Render(fmt.Sprintf(" · audit root %s over %d", shortID(a.root.Root), a.root.TreeSize))
	}
	switch {
	case a.list.cur.pos == 0 && a.w < wideMin:
		s += st.Muted.Render(" · following")
	case a.list.cur.pos == 0:
		s += st.Muted.Render(" · following new entries")
	default:
		s += st.Muted.Render(" · g: back to newest")
	}
	return s
}

func (a *activity) View() string {
	if a.list.zoom {
		return a.list.page(a.detail(a.w), a.w, a.h)
	}
	s := a.lay()
	panel := a.health.panel(a.w)
	return strings.Join(panel, "\n") + "\n" + s.join(a.ctx.Styles, a.table(s.listW, s.wide), a.detail(s.detW))
}

func (a *activity) table(w int, wide bool) []string {
	st := a.ctx.Styles
	if n := a.list.notice(a.query != "", []string{"", "  " + st.Muted.Render("The log is empty.")},
		[]string{"", "  No entry matches " + review.SanitizeLine(a.query) + ".", "  " + st.Muted.Render("/ changes the filter; esc clears it.")}); n != nil {
		return n
	}
	// The OP column is as wide as the longest operation on screen, so
	// PROPOSAL_APPLY and PROPOSAL_ARCHIVE read in full.
	opW := 2
	to := min(a.list.cur.offset+a.list.cur.height, a.n())
	for i := a.list.cur.offset; i < to; i++ {
		if e, ok := a.row(i); ok {
			opW = max(opW, len(e.Op))
		}
	}
	lsnW := max(len(fmt.Sprint(a.newest)), 3)
	cols := []column{{title: "LSN", width: lsnW}, {title: "AGE", width: 4}, {title: "OP", width: opW}, {title: "ACTOR", width: 14}, {title: "WHAT", flex: true}}
	if !wide {
		cols[3].width = 12
	}
	now := a.ctx.Now()
	return a.list.table(cols, w, func(i int) []string {
		e, ok := a.row(i)
		if !ok {
			return []string{fmt.Sprintf("%*d", lsnW, a.newest-int64(i)), st.Muted.Render("…")}
		}
		return []string{fmt.Sprintf("%*d", lsnW, e.LSN), ago(now, e.Time), string(e.Op), review.SanitizeLine(e.Actor), review.SanitizeLine(what(e))}
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
	case e.NamesPrincipal():
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
	e, ok := a.row(a.list.cur.pos)
	if !ok {
		return nil
	}
	st := a.ctx.Styles
	now := a.ctx.Now()
	lines := []string{
		st.Bold.Render(fmt.Sprintf("LSN %d  %s", e.LSN, e.Op)),
		st.Muted.Render(fmt.Sprintf("%s UTC (%s)", e.Time.UTC().Format("2006-01-02 15:04:05"), agoLong(now, e.Time))),
		"",
		field(st, "actor", review.SanitizeLine(e.Actor)),
	}
	opt := func(label, v string) {
		if v != "" {
			lines = append(lines, labelled(st, label, review.SanitizeLine(v), w)...)
		}
	}
	opt("memory", e.MemoryRef)
	opt("key", e.Key)
	if e.NamesPrincipal() {
		opt("principal", e.ItemID)
	} else {
		opt("item", shortID(e.ItemID))
	}
	opt("version", shortID(e.VersionID))
	opt("previous", shortID(e.PrevVersionID))
	opt("reason", shortIDs(e.Reason))
	if e.Text != "" {
		lines = append(lines, "")
		lines = append(lines, wrap("“"+review.Sanitize(e.Text)+"”", w)...)
	}
	lines = append(lines, "", field(st, "payload", shortID(e.PayloadHash)), field(st, "leaf", shortID(e.Leaf)))
	if e.Erased {
		lines = append(lines, st.Warn.Render("payload erased: identifiers and hashes remain verifiable"))
	}
	return lines
}

// health is the latest memory-quality Metrics (spec §12.12): the header's band and
// the panel above the audit log. Metrics scans the window's write outcomes,
// so it loads in a tea.Cmd, one load at a time: at start, then from the
// root's poll every metricsEvery polls when the log has grown (and every
// metricsStale polls regardless: rejected writes add outcomes, not entries).
type health struct {
	ctx    *Context
	r      review.HealthReport
	loaded bool
	err    error
	req    int64
	seen   int64 // the log size at the last load
	polls  int   // polls since the last load
}

type metricsMsg struct {
	id  int64
	r   review.HealthReport
	err error
}

const metricsEvery, metricsStale = 10, 60

func newHealth(c *Context) *health { return &health{ctx: c} }

func (h *health) load() tea.Cmd {
	id := h.ctx.nextID()
	h.req, h.polls = id, 0
	svc, ctx := h.ctx.Svc, h.ctx.Ctx
	return func() tea.Msg {
		r, err := svc.Health(ctx)
		return metricsMsg{id, r, err}
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
			h.r = msg.r
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
	m := h.r.Metrics
	if !h.loaded || h.err != nil || m.Band == "" {
		return ""
	}
	return bandStyle(h.ctx.Styles, m.Band).Bold(true).Render(fmt.Sprintf("%s %.2f", m.Band, m.Health))
}

// height is how many lines the panel takes at width w, its rule included:
// the figures and the lines that explain the score.
func (h *health) height(w int) int {
	n := 5
	if w < wideMin {
		n = 4
	}
	return n + len(h.explainLines(w))
}

// explainLines is what the score means, wrapped to the panel.
func (h *health) explainLines(w int) []string {
	how := healthLine
	if w < wideMin {
		how = healthTiny
	}
	s := h.explain(how)
	if s == "" {
		return nil
	}
	return wrap(s, w-1)
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
		lines = []string{st.Bad.Render("health metrics: " + review.SanitizeLine(h.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !h.loaded:
		lines = []string{st.Muted.Render("reading health metrics…")}
	default:
		lines = h.figures(w)
		for _, l := range h.explainLines(w) {
			lines = append(lines, st.Muted.Render(strings.TrimRight(l, " ")))
		}
	}
	out := pane(lines, w-1, n)
	for i := range out {
		out[i] = " " + out[i]
	}
	return append(out, st.Rule.Render(strings.Repeat("─", w)))
}

func (h *health) figures(w int) []string {
	st, m := h.ctx.Styles, h.r.Metrics
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
	if v := h.r.Validation(); v.N > 0 {
		lat = pct(v) + " ms"
	}
	rej := st.Muted.Render("none")
	if reasons := topReasons(m.Rejections, 3); len(reasons) > 0 {
		rej = strings.Join(reasons, ", ")
		if w < wideMin && len(reasons) > 1 {
			// Narrow: the most frequent, and how many others there are.
			rej = reasons[0] + st.Muted.Render(fmt.Sprintf(" +%d more", len(m.Rejections)-1))
		}
	}
	// What is not measured is said by the lines that explain the score.
	unmeasured := ""
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
	stages := slowStages(h.r.SlowestStages(3))
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
func pct(p review.Latency) string {
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
		out = append(out, fmt.Sprintf("%s %d", review.SanitizeLine(k), rs[k]))
	}
	return out
}

// slowStages names stages by their p95: "commit 11.2ms".
func slowStages(ls []review.Latency) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %sms", l.Stage, ms(l.P95)))
	}
	return strings.Join(out, ", ")
}

// Click selects the row under the mouse (below the health panel).
func (a *activity) Click(x, y int) tea.Cmd {
	if a.list.zoom {
		return nil
	}
	if a.list.click(a.lay(), x, y-a.health.height(a.w)) {
		return a.around()
	}
	return nil
}
