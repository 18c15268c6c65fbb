package tui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov/review"
)

// column is a table column; the flex column takes the width the others leave.
type column struct {
	title string
	width int
	flex  bool
}

// cursor is the selection and scroll position of a list of n rows shown in
// height lines. Only the rows between offset and offset+height are rendered.
type cursor struct {
	pos, offset, height int
}

func (c *cursor) move(delta, n int) {
	c.pos += delta
	c.clamp(n)
}

func (c *cursor) clamp(n int) {
	c.pos = max(min(c.pos, n-1), 0)
	h := max(c.height, 1)
	if c.pos < c.offset {
		c.offset = c.pos
	}
	if c.pos >= c.offset+h {
		c.offset = c.pos - h + 1
	}
	c.offset = max(min(c.offset, n-h), 0)
}

// act applies a movement action to the cursor; it reports whether the action
// was a movement.
func (c *cursor) act(a Action, n int) bool {
	page := max(c.height-1, 1)
	switch a {
	case ActUp:
		c.move(-1, n)
	case ActDown:
		c.move(1, n)
	case ActPageUp:
		c.move(-page, n)
	case ActPageDown:
		c.move(page, n)
	case ActTop:
		c.move(-c.pos, n)
	case ActBottom:
		c.move(n, n)
	default:
		return false
	}
	return true
}

// widths resolves the column widths for a table of the given total width.
func widths(cols []column, total int) []int {
	ws := make([]int, len(cols))
	used := 2 + 2*(len(cols)-1) // the selection marker and the gaps
	flex := -1
	for i, c := range cols {
		ws[i] = c.width
		if c.flex {
			flex = i
			continue
		}
		used += c.width
	}
	if flex >= 0 {
		ws[flex] = max(total-used, 8)
	}
	return ws
}

// renderTable renders the header and the rows from..to of a table; cells(i)
// returns row i's cells, already sanitised.
func renderTable(st Styles, cols []column, total int, cur cursor, n int, cells func(i int) []string) []string {
	ws := widths(cols, total)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = fit(c.title, ws[i])
	}
	lines := []string{fit("  "+st.ColHeader.Render(strings.Join(head, "  ")), total)}
	to := min(cur.offset+cur.height, n)
	for i := cur.offset; i < to; i++ {
		cs := cells(i)
		parts := make([]string, len(cols))
		for j := range cols {
			if j < len(cs) {
				parts[j] = fit(cs[j], ws[j])
			} else {
				parts[j] = fit("", ws[j])
			}
		}
		row := strings.Join(parts, "  ")
		if i == cur.pos {
			lines = append(lines, fit("▸ "+st.Selected.Render(fit(row, total-2)), total))
		} else {
			lines = append(lines, fit("  "+row, total))
		}
	}
	return lines
}

// pane pads or cuts lines to exactly h lines of width w.
func pane(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fit(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// split lays a list and a detail side by side at wide sizes and stacks them
// (list above detail) at narrow ones.
type split struct {
	wide                     bool
	listW, listH, detW, detH int
}

// wideMin is the narrowest terminal that shows list and detail side by side.
const wideMin = 100

// layout splits a body of w×h for a list of rows rows; stacked, the list takes
// no more lines than it needs, leaving the rest to the detail.
func layout(w, h int, listFrac float64, rows int) split {
	if w >= wideMin {
		lw := int(float64(w) * listFrac)
		return split{wide: true, listW: lw, listH: h, detW: w - lw - 3, detH: h}
	}
	lh := min(max(h*5/11, 4), max(rows+1, 4))
	return split{listW: w, listH: lh, detW: w, detH: max(h-lh-1, 0)}
}

// join renders a list and a detail pane in the layout.
func (s split) join(st Styles, list, detail []string) string {
	l := pane(list, s.listW, s.listH)
	d := pane(detail, s.detW, s.detH)
	if s.wide {
		sep := st.Rule.Render(" │ ")
		out := make([]string, s.listH)
		for i := range out {
			out[i] = l[i] + sep + d[i]
		}
		return strings.Join(out, "\n")
	}
	out := append(l, st.Rule.Render(strings.Repeat("┄", s.listW)))
	if s.detH > 0 {
		out = append(out, d...)
	}
	return strings.Join(out, "\n")
}

// list is the component every list screen is built on (Queue, Drift,
// Proposals, the three levels of Memory, Activity, Quarantine): rows read
// through the review service, either the whole list or a window of a longer
// one, with
//   - reads that carry a request id, so a late answer is dropped;
//   - the cursor kept on the same row (by id) when the rows are read again;
//   - a reload when the log grew since the rows were read;
//   - the filter bar;
//   - the zoomed page of the selected row, scrolled by the moving keys;
//   - a decision in flight (one at a time) and its done message;
//   - the notices of a failed, pending or empty read, and the table.
//
// A screen owns what its rows mean: how they are read and filtered, their
// columns, their detail and their decisions.
type list[T any] struct {
	ctx  *Context
	tag  int64          // tells this list's done messages from the others'
	noun string         // what it lists, for its notices: "proposals"
	id   func(T) string // a row's identity: the cursor stays on it across reads

	rows   []T // the loaded rows; rows[0] is row number offset
	offset int
	total  int // rows in the whole list, loaded or not
	cur    cursor

	req    int64 // the read whose answer the list waits for; 0 for none
	loaded bool
	err    error
	seen   int64 // the log size the rows were read at

	zoom   bool // the selected row's page takes the whole body
	scroll int  // the page's first line shown

	filtering bool // the filter bar has the keyboard
	input     textinput.Model

	busy bool // a decision is being recorded
	// marked are the rows marked for one decision on several, by id; a
	// mark outlives the read that showed its row.
	marked map[string]T
	// fresh: the next rows read start at the top rather than on the row
	// the cursor was on.
	fresh bool
}

func newList[T any](c *Context, noun string, id func(T) string, placeholder string) *list[T] {
	return &list[T]{ctx: c, tag: c.nextID(), noun: noun, id: id, input: newFilterInput(placeholder), marked: map[string]T{}}
}

// row returns row number i if it is loaded.
func (l *list[T]) row(i int) (T, bool) {
	if i < l.offset || i >= l.offset+len(l.rows) {
		var zero T
		return zero, false
	}
	return l.rows[i-l.offset], true
}

func (l *list[T]) selected() (T, bool) { return l.row(l.cur.pos) }

// ask starts a read and returns its id; answers with another id are stale.
func (l *list[T]) ask() int64 {
	l.req = l.ctx.nextID()
	return l.req
}

// answered takes the answer to read id; false when it is stale (the list
// asked again since, or left the view that asked).
func (l *list[T]) answered(id int64, err error) bool {
	if id != l.req {
		return false
	}
	l.req, l.loaded, l.err = 0, true, err
	return true
}

// set puts in the rows read (a window from row offset of total rows),
// keeping the cursor on the row it was on when that row is among them.
func (l *list[T]) set(rows []T, offset, total int) {
	sel, had := l.selected()
	l.rows, l.offset, l.total = rows, offset, total
	if had && !l.fresh {
		want := l.id(sel)
		for i, r := range rows {
			if l.id(r) == want {
				l.cur.pos = offset + i
				break
			}
		}
	}
	l.fresh = false
	l.cur.clamp(l.total)
}

// setAll puts in the whole list.
func (l *list[T]) setAll(rows []T) { l.set(rows, 0, len(rows)) }

// top puts the cursor on the first row (a new filter or order), where the
// rows read next keep it.
func (l *list[T]) top() {
	l.cur = cursor{height: l.cur.height}
	l.fresh = true
}

// resize gives the table h lines of rows.
func (l *list[T]) resize(h int) {
	l.cur.height = max(h, 1)
	l.cur.clamp(l.total)
}

// grew reports that the log grew since the rows were read and no read is
// under way: the screen reads them again. It notes the new size.
func (l *list[T]) grew(msg attentionMsg) bool {
	if msg.err != nil || msg.att.LogSize == l.seen || !l.loaded || l.req != 0 {
		return false
	}
	l.seen = msg.att.LogSize
	return true
}

// mode is a list screen's input mode: typing while its filter line is open.
func (l *list[T]) mode() Mode {
	if l.filtering {
		return ModeInput
	}
	return ModeNormal
}

// stacked lays out a screen whose table sits over its detail (Proposals,
// Quarantine): the table needs the width, the detail the lines, so the
// table is as tall as its rows and at most two fifths of h.
func (l *list[T]) stacked(w, h int) split {
	lh := min(max(l.total+1, 3), max(h*2/5, 3))
	return split{listW: w, listH: lh, detW: w, detH: max(h-lh-1, 0)}
}

// heard answers what every list screen hears alike: the log grew (the rows
// are read again) and the end of a decision it made (done). ok is false for
// any other message.
func (l *list[T]) heard(msg tea.Msg, reload func() tea.Cmd) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case attentionMsg:
		if l.grew(msg) {
			return reload(), true
		}
		return nil, true
	case doneMsg:
		if l.mine(msg) {
			return l.done(msg, reload()), true
		}
		return nil, true
	}
	return nil, false
}

// move applies a moving key to the cursor; it reports whether it was one.
func (l *list[T]) move(act Action) bool { return l.cur.act(act, l.total) }

// click selects the row under a click in the list part of s.
func (l *list[T]) click(s split, x, y int) bool {
	return !l.zoom && clickRow(&l.cur, l.total, s, x, y)
}

// openZoom shows the selected row's page from its top.
func (l *list[T]) openZoom() {
	if _, ok := l.selected(); ok {
		l.zoom, l.scroll = true, 0
	}
}

// zoomKey scrolls the zoomed page (h lines high) with the moving keys and
// closes it with esc; it reports whether it used the key.
func (l *list[T]) zoomKey(act Action, h int) bool {
	page := max(h-2, 1)
	switch act {
	case ActDown:
		l.scroll++
	case ActUp:
		l.scroll = max(l.scroll-1, 0)
	case ActPageDown:
		l.scroll += page
	case ActPageUp:
		l.scroll = max(l.scroll-page, 0)
	case ActTop:
		l.scroll = 0
	case ActBottom:
		l.scroll = 1 << 30 // the page clamps it to its last screenful
	case ActBack:
		l.zoom = false
	default:
		return false
	}
	return true
}

// page draws the zoomed page's lines at w×h from the scroll position, which
// it keeps within the page.
func (l *list[T]) page(lines []string, w, h int) string {
	l.scroll = max(min(l.scroll, len(lines)-h), 0)
	return strings.Join(pane(lines[l.scroll:], w, h), "\n")
}

// zoomBindings are the keys of the zoomed page.
func (l *list[T]) zoomBindings(k KeyMap) []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll")), k.Back}
}

// openFilter gives the keyboard to the filter bar, holding value.
func (l *list[T]) openFilter(value string) tea.Cmd {
	l.filtering = true
	l.input.SetValue(value)
	l.input.CursorEnd()
	return l.input.Focus()
}

// filterKey is a key typed in the filter bar: esc closes it, enter closes
// it and submits what it holds (the screen applies it), anything else is
// text.
func (l *list[T]) filterKey(msg tea.KeyMsg, act Action) (query string, submitted bool, cmd tea.Cmd) {
	switch act {
	case ActBack:
		l.closeFilter()
		return "", false, nil
	case ActSubmit:
		return strings.TrimSpace(l.input.Value()), true, nil
	}
	l.input, cmd = l.input.Update(msg)
	return "", false, cmd
}

// closeFilter gives the keyboard back to the list.
func (l *list[T]) closeFilter() {
	l.filtering = false
	l.input.Blur()
}

// filterBindings are the keys of the filter bar.
func (l *list[T]) filterBindings(k KeyMap) []key.Binding {
	enter := k.Enter
	enter.SetHelp("enter", "apply filter")
	return []key.Binding{enter, k.Cancel}
}

// mark marks the selected row, or unmarks it, and moves to the next.
func (l *list[T]) mark() {
	r, ok := l.selected()
	if !ok {
		return
	}
	if _, on := l.marked[l.id(r)]; on {
		delete(l.marked, l.id(r))
	} else {
		l.marked[l.id(r)] = r
	}
	l.cur.move(1, l.total)
}

// isMarked reports whether r is marked.
func (l *list[T]) isMarked(r T) bool {
	_, on := l.marked[l.id(r)]
	return on
}

// unmark drops the marks of rows a decision closed.
func (l *list[T]) unmark(ids []string) {
	for _, id := range ids {
		delete(l.marked, id)
	}
}

// keepMarks drops the marks of loaded rows that can no longer be decided.
func (l *list[T]) keepMarks(open func(T) bool) {
	for _, r := range l.rows {
		if l.isMarked(r) && !open(r) {
			delete(l.marked, l.id(r))
		}
	}
}

// markedRows are the marked rows in the list's order as loaded, then the
// rest by id: a stable order for the question and the decisions.
func (l *list[T]) markedRows() []T {
	out := make([]T, 0, len(l.marked))
	seen := map[string]bool{}
	for _, r := range l.rows {
		if m, ok := l.marked[l.id(r)]; ok {
			out = append(out, m)
			seen[l.id(r)] = true
		}
	}
	var rest []string
	for id := range l.marked {
		if !seen[id] {
			rest = append(rest, id)
		}
	}
	sort.Strings(rest)
	for _, id := range rest {
		out = append(out, l.marked[id])
	}
	return out
}

// doneMsg reports a decision made on a list: the status line's text, or the
// error that refused it; warn marks a text that reports a partial failure,
// and ids are the rows the decision closed.
type doneMsg struct {
	tag  int64
	text string
	err  error
	warn bool
	ids  []string
	top  bool // the decision put a new row first: select it once read again
}

// decide records a decision off the update loop, one at a time: it returns
// why not when one is still being recorded.
func (l *list[T]) decide(run func() doneMsg) tea.Cmd {
	if l.busy {
		return statusf(true, "a decision is still being recorded")
	}
	l.busy = true
	tag := l.tag
	return func() tea.Msg {
		d := run()
		d.tag = tag
		return d
	}
}

// mine reports whether a done message is this list's.
func (l *list[T]) mine(d doneMsg) bool { return d.tag == l.tag }

// done ends the decision in flight: the rows are read again (reload), the
// header's counts recounted, and the status line says what happened.
func (l *list[T]) done(d doneMsg, reload tea.Cmd) tea.Cmd {
	l.busy = false
	l.unmark(d.ids)
	if d.top && d.err == nil {
		l.top()
	}
	if d.err != nil {
		return tea.Batch(reload, refreshCounts, status(d.err))
	}
	return tea.Batch(reload, refreshCounts, statusf(d.warn, "%s", d.text))
}

// notice is what the list shows instead of its table: why the read failed,
// that it is under way, or the lines for an empty list (noMatch when a
// filter emptied it). nil when there are rows to show.
func (l *list[T]) notice(filtered bool, empty, noMatch []string) []string {
	st := l.ctx.Styles
	switch {
	case l.err != nil:
		return []string{st.Bad.Render("cannot read " + l.noun + ": " + review.SanitizeLine(l.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !l.loaded:
		return []string{st.Muted.Render("reading " + l.noun + "…")}
	case l.total == 0 && filtered:
		return noMatch
	case l.total == 0:
		return empty
	}
	return nil
}

// table draws the rows on screen in columns; cells(i) is row i's cells
// (already sanitised).
func (l *list[T]) table(cols []column, w int, cells func(i int) []string) []string {
	return renderTable(l.ctx.Styles, cols, w, l.cur, l.total, cells)
}

// crumbLine lays a crumb out as left, middle and right parts over w cells,
// cutting the middle when they do not fit.
func crumbLine(left, mid, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(mid) - ansi.StringWidth(right)
	if gap < 1 {
		return fit(left+mid, max(w-ansi.StringWidth(right)-1, 0)) + " " + right
	}
	return left + mid + strings.Repeat(" ", gap) + right
}
