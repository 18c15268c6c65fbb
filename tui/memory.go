package tui

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

type memLevel int

const (
	levelRefs memLevel = iota
	levelItems
	levelHistory
)

// memory is the Memory screen: memoryRefs, then a ref's items (paged from the
// database), then an item's history with a diff against the previous
// version. It can look at any past log position (time travel).
type memory struct {
	ctx   *Context
	w, h  int
	level memLevel

	refs     *list[memgov.RefSummary] // what the refs' filter keeps
	allRefs  []memgov.RefSummary      // every ref
	refQuery string                   // the refs' filter

	ref        memgov.RefSummary
	items      *list[memgov.Version] // the pages read so far, or the filter's matches
	more       bool                  // more pages follow
	itemsStale bool                  // a decision changed the ref since the items were read
	itemQuery  string                // the items' filter ("" lists every item)
	findReq    int64
	finding    bool
	capped     bool // the items' filter stopped at itemCap matches
	toEnd      bool // G asked for the last item: go there when it is loaded

	hist     review.History            // the item and its versions
	versions *list[review.VersionView] // hist.Versions, newest first

	asOf      review.AsOf
	prompting bool
	input     textinput.Model
	asOfReq   int64
}

// itemCap bounds what an items filter keeps.
const itemCap = 2000

type itemsFoundMsg struct {
	id     int64
	query  string
	items  []memgov.Version
	capped bool
	err    error
}

type refsMsg struct {
	id   int64
	refs []memgov.RefSummary
	err  error
}

type itemsMsg struct {
	id     int64
	page   review.Page
	append bool
	err    error
}

type historyMsg struct {
	id  int64
	h   review.History
	err error
}

type asOfMsg struct {
	id   int64
	spec string
	at   review.AsOf
	err  error
}

func newMemory(c *Context) *memory {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = "1842 · 2026-11-20T14:03:00Z · 2h · empty = now"
	in.CharLimit = 64
	return &memory{ctx: c, input: in,
		refs:     newList(c, "memory refs", func(r memgov.RefSummary) string { return r.MemoryRef }, "words in the memoryRef"),
		items:    newList(c, "items", func(v memgov.Version) string { return v.ItemID }, "words in the key, text or tags"),
		versions: newList(c, "the history", func(v review.VersionView) string { return v.ID }, ""),
	}
}

func (m *memory) Title() string { return "Memory" }

func (m *memory) Init() tea.Cmd { return m.loadRefs() }

func (m *memory) Mode() Mode {
	if m.prompting || m.filtering() {
		return ModeInput
	}
	return ModeNormal
}

func (m *memory) SetSize(w, h int) {
	m.w, m.h = w, h
	m.clampAll()
}

func (m *memory) pageSize() int { return max(200, 3*m.h) }

func (m *memory) loadRefs() tea.Cmd {
	id := m.refs.ask()
	svc, ctx := m.ctx.Svc, m.ctx.Ctx
	return func() tea.Msg {
		rs, err := svc.RefsVisible(ctx)
		return refsMsg{id, rs, err}
	}
}

func (m *memory) loadItems(after string) tea.Cmd {
	id := m.items.ask()
	q := review.ItemsQuery{MemoryRef: m.ref.MemoryRef, AfterKey: after, Limit: m.pageSize(), At: m.asOf}
	svc, ctx := m.ctx.Svc, m.ctx.Ctx
	return func() tea.Msg {
		p, err := svc.Items(ctx, q)
		return itemsMsg{id, p, after != "", err}
	}
}

func (m *memory) loadHistory(itemID string) tea.Cmd {
	id := m.versions.ask()
	svc, ctx := m.ctx.Svc, m.ctx.Ctx
	return func() tea.Msg {
		h, err := svc.History(ctx, itemID)
		return historyMsg{id, h, err}
	}
}

// Update handles answers (dropping those whose request id is stale) and keys.
func (m *memory) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case refsMsg:
		if !m.refs.answered(msg.id, msg.err) {
			return nil
		}
		if msg.err == nil {
			m.allRefs = msg.refs
			m.applyRefs()
			for _, r := range m.allRefs {
				if r.MemoryRef == m.ref.MemoryRef {
					m.ref = r
				}
			}
		}
		m.clampAll()
		return nil
	case itemsMsg:
		if !m.items.answered(msg.id, msg.err) || msg.err != nil {
			return nil
		}
		if m.itemQuery != "" {
			return nil // a filtered list stays as found
		}
		rows := msg.page.Versions
		if msg.append {
			rows = append(m.items.rows, rows...)
		}
		m.items.setAll(rows)
		m.more = msg.page.More
		if m.toEnd {
			m.items.cur.move(m.items.total, m.items.total)
			if m.more {
				return m.loadItems(m.items.rows[m.items.total-1].Key)
			}
			m.toEnd = false
		}
		m.clampAll()
		return m.maybeMore()
	case itemsFoundMsg:
		if msg.id != m.findReq {
			return nil
		}
		m.finding = false
		if msg.err != nil {
			return status(msg.err)
		}
		m.itemQuery, m.capped, m.more = msg.query, msg.capped, false
		m.items.loaded, m.items.err = true, nil
		m.items.top()
		m.items.setAll(msg.items)
		m.clampAll()
		return nil
	case historyMsg:
		if !m.versions.answered(msg.id, msg.err) {
			return nil
		}
		if msg.err == nil {
			m.hist = msg.h
			m.versions.setAll(msg.h.Versions)
		}
		m.clampAll()
		return nil
	case asOfMsg:
		if msg.id != m.asOfReq {
			return nil
		}
		m.asOfReq = 0
		if msg.err != nil {
			return func() tea.Msg { return errStatus(msg.err) }
		}
		m.asOf = msg.at
		// The status says so once the items of that time are on screen.
		status := "showing memory as of " + m.asOfText()
		return tea.Sequence(m.reloadItems(), func() tea.Msg { return statusMsg{text: status} })
	case attentionMsg:
		// The refs' counts follow writes made elsewhere; a history open
		// shows their new versions. The items' pages stay as read (ctrl+r
		// reads them again) so that the cursor does not jump.
		var cmds []tea.Cmd
		if m.refs.grew(msg) {
			cmds = append(cmds, m.loadRefs())
		}
		if m.versions.grew(msg) && m.level == levelHistory {
			cmds = append(cmds, m.loadHistory(m.hist.Item.ID))
		}
		return tea.Batch(cmds...)
	case doneMsg:
		if !m.versions.mine(msg) {
			return nil
		}
		var cmds []tea.Cmd
		if msg.err == nil {
			m.itemsStale = true
			cmds = append(cmds, m.loadRefs())
			if m.level >= levelItems {
				cmds = append(cmds, m.reloadItems())
			}
		}
		var reload tea.Cmd
		if m.level == levelHistory {
			reload = m.loadHistory(m.hist.Item.ID)
		}
		return tea.Batch(append(cmds, m.versions.done(msg, reload))...)
	case tea.KeyMsg:
		if m.prompting {
			return m.promptKey(msg, act)
		}
		if m.filtering() {
			return m.filterKey(msg, act)
		}
		return m.key(act)
	}
	return nil
}

// filtering reports whether the filter bar of the level shown has the keyboard.
func (m *memory) filtering() bool { return m.refs.filtering || m.items.filtering }

func (m *memory) reloadItems() tea.Cmd {
	if m.level < levelItems {
		return nil
	}
	m.itemsStale = false
	m.more = false
	return m.loadItems("")
}

// maybeMore fetches the next page when the cursor nears the end of what is
// loaded.
func (m *memory) maybeMore() tea.Cmd {
	if m.level != levelItems || !m.more || m.items.req != 0 || m.items.total == 0 {
		return nil
	}
	if m.items.cur.pos < m.items.total-2*max(m.items.cur.height, 1) {
		return nil
	}
	return m.loadItems(m.items.rows[m.items.total-1].Key)
}

func (m *memory) key(act Action) tea.Cmd {
	switch m.level {
	case levelRefs:
		if m.refs.move(act) {
			return nil
		}
	case levelItems:
		if act == ActBottom && m.more && m.itemQuery == "" {
			// The true end, not the end of the loaded pages: read on to it.
			m.toEnd = true
			m.items.cur.move(m.items.total, m.items.total)
			if m.items.req == 0 {
				return m.loadItems(m.items.rows[m.items.total-1].Key)
			}
			return nil
		}
		if m.items.move(act) {
			return m.maybeMore()
		}
	case levelHistory:
		switch {
		case m.versions.zoom && act == ActEnter:
			m.versions.zoom = false
			return nil
		case m.versions.zoom:
			if m.versions.zoomKey(act, m.h) {
				return nil
			}
		case m.versions.move(act):
			return nil
		}
	}
	switch act {
	case ActEnter:
		return m.enter()
	case ActFilter:
		if m.level == levelHistory {
			return statusf(true, "/ filters memory refs and items; esc goes back to the items")
		}
		if m.level == levelRefs {
			return m.refs.openFilter(m.refQuery)
		}
		return m.items.openFilter(m.itemQuery)
	case ActBack:
		if m.level == levelRefs && m.refQuery != "" {
			m.refQuery = ""
			m.applyRefs()
			return statusf(false, "filter cleared")
		}
		if m.level == levelItems && m.itemQuery != "" {
			m.itemQuery = ""
			return tea.Batch(m.reloadItems(), statusf(false, "filter cleared"))
		}
		return m.back()
	case ActTimeTravel:
		m.prompting = true
		m.input.SetValue("")
		return m.input.Focus()
	case ActRefresh:
		cmds := []tea.Cmd{m.loadRefs(), m.reloadItems()}
		if m.level == levelHistory {
			cmds = append(cmds, m.loadHistory(m.hist.Item.ID))
		}
		return tea.Batch(cmds...)
	case ActRollBack, ActPin, ActExpire:
		return m.decide(act)
	}
	return nil
}

func (m *memory) enter() tea.Cmd {
	switch m.level {
	case levelRefs:
		r, ok := m.refs.selected()
		if !ok {
			return nil
		}
		m.ref, m.level = r, levelItems
		m.items.loaded, m.items.err = false, nil
		m.items.setAll(nil)
		m.items.top()
		m.itemQuery, m.toEnd = "", false
		return m.reloadItems()
	case levelItems:
		v, ok := m.items.selected()
		if !ok {
			return nil
		}
		m.level, m.hist = levelHistory, review.History{}
		m.versions.loaded, m.versions.err, m.versions.zoom = false, nil, false
		m.versions.setAll(nil)
		m.versions.top()
		return m.loadHistory(v.ItemID)
	case levelHistory:
		m.versions.openZoom() // the whole version, however long
	}
	return nil
}

func (m *memory) back() tea.Cmd {
	switch m.level {
	case levelHistory:
		m.level, m.versions.req = levelItems, 0
		if m.itemsStale {
			return m.reloadItems()
		}
	case levelItems:
		m.level, m.items.req = levelRefs, 0
	}
	return nil
}

func (m *memory) promptKey(msg tea.KeyMsg, act Action) tea.Cmd {
	switch act {
	case ActBack:
		m.prompting = false
		m.input.Blur()
		return nil
	case ActSubmit:
		m.prompting = false
		m.input.Blur()
		spec := m.input.Value()
		id := m.ctx.nextID()
		m.asOfReq = id
		svc, ctx := m.ctx.Svc, m.ctx.Ctx
		return func() tea.Msg {
			at, err := svc.ParseAsOf(ctx, spec)
			return asOfMsg{id, spec, at, err}
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

// decide asks to confirm a rollback, a pin change or an expiry of the
// selected version's item; only in the history view, and only for people who
// may decide.
func (m *memory) decide(act Action) tea.Cmd {
	if m.level != levelHistory || !m.versions.loaded || m.versions.err != nil || m.versions.total == 0 {
		if m.level == levelItems {
			return func() tea.Msg {
				return statusMsg{text: "open the item's history (enter) to roll back, pin or expire it", err: true}
			}
		}
		return nil
	}
	if m.ctx.ReadOnly != nil {
		verb := map[Action]string{ActRollBack: "roll back", ActPin: "pin or unpin", ActExpire: "expire"}[act]
		text := "cannot " + verb + ": " + m.ctx.ReadOnly.Error()
		return func() tea.Msg { return statusMsg{text: text, err: true} }
	}
	it := m.hist.Item
	name := review.SanitizeLine(it.MemoryRef + " › " + it.Key)
	svc, ctx := m.ctx.Svc, m.ctx.Ctx
	switch act {
	case ActRollBack:
		plan := review.PlanRollback(m.hist, m.versions.cur.pos)
		if plan.Kind == review.CannotRollBack {
			return func() tea.Msg { return statusMsg{text: plan.Summary, err: true} }
		}
		v, hist := plan.Version, m.hist
		title := fmt.Sprintf("Roll back %s to v%d", review.SanitizeLine(it.Key), v.Seq)
		if plan.Kind == review.RetractActive {
			title = fmt.Sprintf("Retract v%d of %s", v.Seq, review.SanitizeLine(it.Key))
		}
		return askConfirm(confirmMsg{
			title:    title,
			lines:    []string{name, plan.Summary, fmt.Sprintf("v%d: “%s”", v.Seq, review.SanitizeLine(v.Text()))},
			danger:   true,
			required: true,
			onYes: func(reason string) tea.Cmd {
				return m.versions.decide(func() doneMsg {
					res, err := svc.RollBackTo(ctx, v.ID, reason)
					if err != nil {
						return doneMsg{err: err}
					}
					text := fmt.Sprintf("%s: v%d retracted (LSN %d)", review.SanitizeLine(it.Key), v.Seq, res.RetractLSN)
					if res.NewVersionID != "" {
						text = fmt.Sprintf("%s: content of %s is ACTIVE again as a new version (LSN %d)", review.SanitizeLine(it.Key), seqOf(hist, res.RestoredFrom), res.ReactivationLSN)
					}
					return doneMsg{text: text, top: true}
				})
			},
		})
	case ActPin:
		pin := !it.Pinned
		verb := map[bool]string{true: "Pin", false: "Unpin"}[pin]
		what, reason := "Protect it from garbage collection.", "pinned from the review console"
		if !pin {
			what, reason = "Garbage collection may then expire it under the retention policy.", ""
		}
		return askConfirm(confirmMsg{
			title:    verb + " " + review.SanitizeLine(it.Key),
			lines:    []string{name, what},
			reason:   reason,
			danger:   !pin,
			required: true,
			onYes: func(reason string) tea.Cmd {
				return m.versions.decide(func() doneMsg {
					lsn, err := svc.SetPinned(ctx, it.ID, pin, reason)
					if err != nil {
						return doneMsg{err: err}
					}
					return doneMsg{text: fmt.Sprintf("%s: %sned (LSN %d)", review.SanitizeLine(it.Key), strings.ToLower(verb), lsn)}
				})
			},
		})
	case ActExpire:
		if it.Head == "" {
			return func() tea.Msg {
				return statusMsg{text: review.SanitizeLine(it.Key) + " has no ACTIVE version to expire", err: true}
			}
		}
		head := seqOf(m.hist, it.Head)
		return askConfirm(confirmMsg{
			title:    "Force-expire " + review.SanitizeLine(it.Key),
			lines:    []string{name, fmt.Sprintf("%s stops being visible now; the item has no visible content until a version is restored or written.", head)},
			danger:   true,
			required: true,
			onYes: func(reason string) tea.Cmd {
				return m.versions.decide(func() doneMsg {
					lsn, err := svc.ForceExpire(ctx, it.ID, reason)
					if err != nil {
						return doneMsg{err: err}
					}
					return doneMsg{text: fmt.Sprintf("%s: %s expired (LSN %d)", review.SanitizeLine(it.Key), head, lsn)}
				})
			},
		})
	}
	return nil
}

// marked emphasises a changed word but not the space after it, so that
// wrapping can still break there.
func marked(st Styles, word string) string {
	w := strings.TrimRightFunc(word, unicode.IsSpace)
	return st.DiffWord.Render(w) + word[len(w):]
}

func seqOf(h review.History, versionID string) string {
	for _, v := range h.Versions {
		if v.ID == versionID {
			return fmt.Sprintf("v%d", v.Seq)
		}
	}
	return shortID(versionID)
}

func (m *memory) lay() split {
	switch m.level {
	case levelItems:
		return layout(m.w, m.h, 0.56, m.items.total)
	case levelHistory:
		return layout(m.w, m.h, 0.63, m.versions.total)
	}
	return layout(m.w, m.h, 0.5, m.refs.total)
}

func (m *memory) clampAll() {
	s := m.lay()
	h := s.listH - 1 // the column header takes a line
	m.refs.resize(h)
	m.items.resize(h)
	m.versions.resize(h)
}

// Bindings are the keys of the current view.
func (m *memory) Bindings() []key.Binding {
	k := m.ctx.Keys
	enter := func(h string) key.Binding { b := k.Enter; b.SetHelp("enter", h); return b }
	if m.filtering() {
		return m.refs.filterBindings(k)
	}
	if m.prompting {
		return []key.Binding{enter("go there"), k.Cancel}
	}
	switch m.level {
	case levelRefs:
		return []key.Binding{enter("items"), k.Filter, k.TimeTravel}
	case levelItems:
		return []key.Binding{enter("history"), k.Filter, k.Bottom, k.TimeTravel, k.Back}
	}
	bs := []key.Binding{enter("whole version")}
	if m.w < wideMin {
		bs[0] = enter("whole")
	}
	if m.versions.zoom {
		bs = nil
	}
	if m.ctx.ReadOnly == nil {
		pin := k.Pin
		if m.hist.Item.Pinned {
			pin.SetHelp("p", "unpin")
		} else {
			pin.SetHelp("p", "pin")
		}
		rb, ex := k.RollBack, k.Expire
		if m.w < wideMin {
			rb.SetHelp("b", "roll back")
			ex.SetHelp("E", "expire")
		}
		bs = append(bs, rb, pin, ex)
	}
	switch {
	case m.versions.zoom:
		return append(bs, m.versions.zoomBindings(k)...)
	case m.w < wideMin && m.ctx.ReadOnly == nil:
		return append(bs, k.Back) // t: in ? help
	}
	return append(bs, k.TimeTravel, k.Back)
}

// Crumb says where you are and as of when.
func (m *memory) Crumb() string {
	st := m.ctx.Styles
	var left string
	switch m.level {
	case levelRefs:
		left = st.Crumb.Render("Memory") + st.Muted.Render("  "+plural(m.refs.total, "memory ref", "memory refs"))
		if m.refQuery != "" {
			left += st.Muted.Render(fmt.Sprintf(" of %d match ", len(m.allRefs))) + review.SanitizeLine(m.refQuery) + st.Muted.Render(" · esc clears")
		}
	case levelItems:
		left = st.Crumb.Render(review.SanitizeLine(m.ref.MemoryRef))
		switch {
		case m.finding:
			left += st.Muted.Render("  searching…")
		case m.itemQuery != "" && m.capped:
			left += st.Bold.Render(fmt.Sprintf("  first %d matching ", m.items.total)) + review.SanitizeLine(m.itemQuery)
		case m.itemQuery != "":
			left += "  " + st.Bold.Render(plural(m.items.total, "match", "matches")+" for ") + review.SanitizeLine(m.itemQuery) + st.Muted.Render(" · esc clears")
		default:
			left += st.Muted.Render(fmt.Sprintf("  %s, %d visible now", plural(m.ref.Items, "item", "items"), m.ref.Active))
		}
	case levelHistory:
		it := m.hist.Item
		if it.ID == "" {
			left = st.Crumb.Render(review.SanitizeLine(m.ref.MemoryRef) + " › …")
			break
		}
		tags := []string{string(it.Layer)}
		if it.Classification != "" {
			tags = append(tags, review.SanitizeLine(it.Classification))
		}
		if it.Pinned {
			tags = append(tags, "pinned")
		}
		left = st.Crumb.Render(review.SanitizeLine(it.MemoryRef)+" › "+review.SanitizeLine(it.Key)) + "   " + st.Muted.Render(strings.Join(tags, " · "))
	}
	if m.refs.filtering {
		return fit(left, max(m.w/3, 10)) + "  " + st.Bold.Render("filter: ") + m.refs.input.View()
	}
	if m.items.filtering {
		return fit(left, max(m.w/3, 10)) + "  " + st.Bold.Render("filter: ") + m.items.input.View()
	}
	var right string
	switch {
	case m.prompting:
		right = st.Bold.Render("as of: ") + m.input.View()
	case m.asOf.Now() && m.w < wideMin:
		right = st.Muted.Render("as of now")
	case m.asOf.Now():
		right = st.Muted.Render("as of: now (t: time-travel)")
	default:
		right = st.AsOfPast.Render("AS OF "+m.asOfText()) + st.Muted.Render(" (t: change)")
	}
	w := m.w - 1
	rw := ansi.StringWidth(right)
	if m.prompting {
		rw = min(rw, 60)
		right = fit(right, rw)
	}
	return fit(left, max(w-rw-2, 0)) + "  " + right
}

func (m *memory) asOfText() string {
	if m.asOf.Now() {
		return "now"
	}
	return fmt.Sprintf("LSN %d · %s UTC", m.asOf.LSN, stamp(m.asOf.Time))
}

// View renders the current level.
func (m *memory) View() string {
	s := m.lay()
	switch m.level {
	case levelRefs:
		return s.join(m.ctx.Styles, m.refsList(s.listW), m.refDetail(s.detW))
	case levelItems:
		return s.join(m.ctx.Styles, m.itemsList(s.listW, s.wide), m.itemDetail(s.detW))
	}
	if m.versions.zoom {
		return m.versions.page(m.versionDetail(m.w, m.h), m.w, m.h)
	}
	return s.join(m.ctx.Styles, m.histList(s.listW), m.versionDetail(s.detW, s.detH))
}

// muted is a notice's lines: a blank line, then each line indented.
func (m *memory) muted(ls ...string) []string {
	out := []string{""}
	for _, l := range ls {
		out = append(out, "  "+m.ctx.Styles.Muted.Render(l))
	}
	return out
}

// noMatch is the notice of a filter that keeps nothing.
func (m *memory) noMatch(what, query string) []string {
	return []string{"", "  No " + what + " matches " + review.SanitizeLine(query) + ".", "  " + m.ctx.Styles.Muted.Render("/ changes the filter; esc clears it.")}
}

func (m *memory) refsList(w int) []string {
	if n := m.refs.notice(m.refQuery != "", m.muted("No memory yet: nothing has been written to this database."), m.noMatch("memory ref", m.refQuery)); n != nil {
		return n
	}
	cols := []column{{title: "MEMORY REF", flex: true}, {title: "ITEMS", width: 7}, {title: "VISIBLE", width: 7}}
	return m.refs.table(cols, w, func(i int) []string {
		r := m.refs.rows[i]
		return []string{review.SanitizeLine(r.MemoryRef), fmt.Sprintf("%7d", r.Items), fmt.Sprintf("%7d", r.Active)}
	})
}

func (m *memory) refDetail(w int) []string {
	r, ok := m.refs.selected()
	if !ok {
		return nil
	}
	st := m.ctx.Styles
	lines := []string{st.Bold.Render(review.SanitizeLine(r.MemoryRef)), ""}
	lines = append(lines, field(st, "items", fmt.Sprintf("%d", r.Items)))
	lines = append(lines, labelled(st, "visible", fmt.Sprintf("%d ACTIVE and unexpired now (what memgov list returns)", r.Active), w)...)
	lines = append(lines, labelled(st, "not", fmt.Sprintf("%d retracted, expired or awaiting review", r.Items-r.Active), w)...)
	lines = append(lines, "")
	return append(lines, wrap(st.Muted.Render("enter lists the items; t shows them as of an earlier LSN or time."), w)...)
}

func field(st Styles, label, value string) string {
	return st.Label.Render(fmt.Sprintf("%-10s", label)) + " " + value
}

// labelled is a field whose value wraps under itself, not under the label.
func labelled(st Styles, label, value string, w int) []string {
	vs := wrap(value, max(w-11, 10))
	out := make([]string, len(vs))
	for i, v := range vs {
		if i == 0 {
			out[i] = field(st, label, v)
		} else {
			out[i] = strings.Repeat(" ", 11) + v
		}
	}
	return out
}

// wrapPairs wraps a line of "name: value" pairs set apart by two spaces
// (evidence, provenance) to w cells, breaking between pairs rather than
// inside one. A pair wider than w puts its value on the next line, indented;
// only a value wider than that is cut into pieces.
func wrapPairs(s string, w int) []string {
	var out []string
	line := ""
	for _, p := range strings.Split(s, "  ") {
		switch {
		case line == "" && ansi.StringWidth(p) <= w:
			line = p
		case line != "" && ansi.StringWidth(line)+2+ansi.StringWidth(p) <= w:
			line += "  " + p
		default:
			if line != "" {
				out = append(out, line)
				line = ""
			}
			if ansi.StringWidth(p) <= w {
				line = p
				continue
			}
			name, value, ok := strings.Cut(p, ": ")
			if !ok {
				name, value = "", p
			} else {
				out = append(out, name+":")
			}
			for ansi.StringWidth(value) > w-2 {
				cut := ansi.Truncate(value, w-2, "")
				out = append(out, "  "+cut)
				value = value[len(cut):]
			}
			out = append(out, "  "+value)
		}
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// longHash is a hex digest written whole ("sha256:c22a...c402").
var longHash = regexp.MustCompile(`\b(sha256|shake256):[0-9a-f]{16,}\b`)

// longHex is a bare hex string of 32 digits or more (a signature).
var longHex = regexp.MustCompile(`\b[0-9a-f]{32,}\b`)

// shortValues abbreviates the UUIDs, digests and signatures in a line of
// fields, as every table does ("01a2…b3fb", "sha256:c22a…c402").
func shortValues(s string) string {
	return longHex.ReplaceAllStringFunc(longHash.ReplaceAllStringFunc(shortIDs(s), hashCell), shortID)
}

func (m *memory) itemsList(w int, wide bool) []string {
	if n := m.items.notice(m.itemQuery != "", m.muted(m.emptyItems()), m.noMatch("visible item", m.itemQuery)); n != nil {
		return n
	}
	// KEY is as wide as the longest key loaded (up to 24): the text keeps
	// the rest.
	keyW := 8
	for _, v := range m.items.rows {
		keyW = max(keyW, min(ansi.StringWidth(review.SanitizeLine(v.Key)), 24))
	}
	cols := []column{{title: "KEY", width: keyW}, {title: "VER", width: 4}, {title: "AGE", width: 4}, {title: "TEXT", flex: true}}
	if !wide {
		cols = []column{{title: "KEY", width: keyW}, {title: "LAYER", width: 10}, {title: "VER", width: 4}, {title: "AGE", width: 4}, {title: "TEXT", flex: true}}
	}
	now := m.ctx.Now()
	lines := m.items.table(cols, w, func(i int) []string {
		v := m.items.rows[i]
		cells := []string{keyCell(review.SanitizeLine(v.Key), cols[0].width)}
		if !wide {
			cells = append(cells, string(v.Layer))
		}
		return append(cells, fmt.Sprintf("v%d", v.Seq), ago(now, v.CreatedAt), review.SanitizeLine(v.Text()))
	})
	if m.more && m.items.cur.pos >= m.items.total-1 {
		lines = append(lines, "  "+m.ctx.Styles.Muted.Render("loading more…"))
	}
	return lines
}

func (m *memory) emptyItems() string {
	if m.asOf.Now() {
		return "No visible items: every item here is retracted, expired or awaiting review."
	}
	return "No items were visible as of " + m.asOfText() + "."
}

func (m *memory) itemDetail(w int) []string {
	v, ok := m.items.selected()
	if !ok {
		return nil
	}
	st := m.ctx.Styles
	now := m.ctx.Now()
	lines := []string{st.Bold.Render(review.SanitizeLine(v.Key)) + "  " + st.Muted.Render(fmt.Sprintf("v%d %s", v.Seq, v.State)), ""}
	lines = append(lines, wrap("“"+review.Sanitize(v.Text())+"”", w)...)
	lines = append(lines, "")
	lines = append(lines, field(st, "layer", string(v.Layer)))
	lines = append(lines, labelled(st, "written", fmt.Sprintf("%s UTC (%s) by %s", stamp(v.CreatedAt), agoLong(now, v.CreatedAt), review.SanitizeLine(v.CreatedBy)), w)...)
	lines = append(lines, field(st, "confidence", fmt.Sprintf("%.2f", v.Confidence)))
	if len(v.Tags) > 0 {
		lines = append(lines, field(st, "tags", review.SanitizeLine(strings.Join(v.Tags, ", "))))
	}
	if v.Classification != "" {
		lines = append(lines, field(st, "class", review.SanitizeLine(v.Classification)))
	}
	if v.ExpiresAt != nil {
		lines = append(lines, field(st, "expires", fmt.Sprintf("%s UTC (%s)", stamp(*v.ExpiresAt), agoLong(now, *v.ExpiresAt))))
	}
	if v.Reason != "" {
		// The judge's reason can run to many lines; the history has it whole.
		// Its ids are abbreviated as the history abbreviates them.
		for i, l := range wrapMax(shortIDs(review.SanitizeLine(v.Reason)), max(w-11, 10), 4) {
			if i == 0 {
				lines = append(lines, field(st, "reason", l))
			} else {
				lines = append(lines, strings.Repeat(" ", 11)+l)
			}
		}
	}
	lines = append(lines, field(st, "log", fmt.Sprintf("LSN %d", v.CreatedLSN)), field(st, "version", shortID(v.ID)), "",
		st.Muted.Render("enter: history, diff, roll back, pin, expire"))
	return lines
}

func (m *memory) histList(w int) []string {
	if n := m.versions.notice(false, m.muted("This item has no versions."), nil); n != nil {
		return n
	}
	cols := []column{{title: "VER", width: 4}, {title: "STATE", width: 10}, {title: "WHEN (UTC)", width: 16}, {title: "BY", width: 12}, {title: "HOW", flex: true}}
	lines := m.versions.table(cols, w, func(i int) []string {
		v := m.hist.Versions[i]
		ver := fmt.Sprintf("v%d", v.Seq)
		if !m.asOf.Now() && visibleAt(v.Version, m.asOf.LSN) {
			ver = "◆" + ver
		}
		how := review.SanitizeLine(v.How())
		if len(v.Links) > 0 {
			how += " · linked"
		}
		return []string{ver, m.stateText(v.State), stamp(v.CreatedAt), review.SanitizeLine(v.CreatedBy), how}
	})
	if !m.asOf.Now() {
		legend := "nothing of this item was visible as of " + m.asOfText()
		for _, v := range m.hist.Versions {
			if visibleAt(v.Version, m.asOf.LSN) {
				legend = "◆ the version visible as of " + m.asOfText()
			}
		}
		lines = append(lines, "", "  "+m.ctx.Styles.Muted.Render(legend))
	}
	return lines
}

func visibleAt(v memgov.Version, lsn int64) bool {
	return v.ActiveFrom > 0 && v.ActiveFrom <= lsn && (v.ActiveTo == 0 || v.ActiveTo > lsn)
}

func (m *memory) stateText(s memgov.State) string {
	st := m.ctx.Styles
	switch s {
	case memgov.Active:
		return st.Good.Render(string(s))
	case memgov.Retracted, memgov.Quarantined:
		return st.Bad.Render(string(s))
	case memgov.Expired, memgov.Draft:
		return st.Warn.Render(string(s))
	}
	return st.Muted.Render(string(s))
}

// versionDetail is the selected version: its text, the diff against the
// version before it, how it began and ended, evidence and provenance, and its
// place in the log.
func (m *memory) versionDetail(w, h int) []string {
	if m.versions.total == 0 {
		return nil
	}
	st := m.ctx.Styles
	i := m.versions.cur.pos
	v := m.hist.Versions[i]
	head := st.Bold.Render(fmt.Sprintf("v%d ", v.Seq)) + m.stateText(v.State)
	switch {
	case v.State == memgov.Active:
		head += st.Muted.Render(fmt.Sprintf("  since LSN %d", v.ActiveFrom))
	case v.Ended != nil:
		head += st.Muted.Render(fmt.Sprintf("  LSN %d–%d", v.ActiveFrom, v.Ended.LSN))
	}
	lines := []string{head}
	lines = append(lines, wrap("“"+review.Sanitize(v.Text())+"”", w)...)
	lines = append(lines, "")
	if prev, ok := m.previous(i); ok {
		lines = append(lines, st.Label.Render(fmt.Sprintf("vs v%d:", prev.Seq)))
		lines = append(lines, m.diffLines(review.Sanitize(prev.Text()), review.Sanitize(v.Text()), w)...)
	} else {
		lines = append(lines, st.Muted.Render("first version: nothing to compare"))
	}
	lines = append(lines, "")
	for _, l := range v.Links {
		lines = append(lines, m.linkLines(l, w)...)
	}
	lines = append(lines, m.eventLine("written", v.Created, w)...)
	if v.Activated != nil {
		lines = append(lines, m.eventLine("activated", *v.Activated, w)...)
	}
	if v.Ended != nil {
		lines = append(lines, m.eventLine("ended", *v.Ended, w)...)
	}
	meta := fmt.Sprintf("confidence %.2f", v.Confidence)
	if len(v.Tags) > 0 {
		meta += " · tags " + review.SanitizeLine(strings.Join(v.Tags, ", "))
	}
	if v.ExpiresAt != nil {
		meta += " · expires " + stamp(*v.ExpiresAt)
	}
	lines = append(lines, labelled(st, "meta", meta, w)...)
	// Evidence and provenance: a heading, then their "name: value" fields
	// packed under it, wrapped between fields; ids and hashes abbreviated,
	// and the provenance's copy of the evidence left out.
	for i, e := range v.Evidence {
		if i == 0 {
			lines = append(lines, st.Label.Render("evidence"))
		}
		for _, l := range wrapPairs(shortValues(review.SanitizeLine(e)), max(w-2, 10)) {
			lines = append(lines, "  "+l)
		}
	}
	var prov []string
	for _, p := range v.Provenance {
		if !strings.HasPrefix(p, "evidence_refs: ") {
			prov = append(prov, shortValues(review.SanitizeLine(p)))
		}
	}
	if len(prov) > 0 {
		lines = append(lines, st.Label.Render("provenance"))
		for _, l := range wrapPairs(strings.Join(prov, "  "), max(w-2, 10)) {
			lines = append(lines, "  "+l)
		}
	}
	lines = append(lines, field(st, "log", fmt.Sprintf("LSN %d · leaf %s", v.Created.LSN, shortID(v.Created.Leaf))),
		field(st, "version", shortID(v.ID)))
	return lines
}

// linkLines is a near version the version was kept beside: "linked
// NEAR_DUPLICATE of KEY v1 (ACTIVE)", the linked text when the console may
// show it, and the judge rule that linked them with the words that fired it.
func (m *memory) linkLines(l review.LinkView, w int) []string {
	st := m.ctx.Styles
	s := review.SanitizeLine(l.Relation) + " of " + shortIDs(review.SanitizeLine(l.Key))
	switch {
	case l.State == "":
		s += " (gone)"
	case l.Seq > 0:
		s += fmt.Sprintf(" v%d (%s)", l.Seq, l.State)
	default:
		s += " (" + string(l.State) + ")"
	}
	lines := labelled(st, "linked", s, w)
	if l.Text != "" {
		for _, t := range wrapMax("“"+review.SanitizeLine(l.Text)+"”", max(w-12, 10), 2) {
			lines = append(lines, strings.Repeat(" ", 11)+st.Muted.Render("│")+t)
		}
	}
	if l.Rule != "" {
		rule := review.SanitizeLine(l.Rule)
		if len(l.RuleWords) > 0 {
			rule += ": " + review.SanitizeLine(quoteWords(l.RuleWords))
		}
		lines = append(lines, labelled(st, "rule", rule, w)...)
	}
	return lines
}

// quoteWords writes the words that fired a rule: "anil", "cousin", "dev".
func quoteWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = `"` + w + `"`
	}
	return strings.Join(q, ", ")
}

func (m *memory) eventLine(label string, e review.Event, w int) []string {
	s := fmt.Sprintf("%s · %s · LSN %d · %s", e.Op, review.SanitizeLine(e.Actor), e.LSN, stamp(e.Time))
	if e.Reason != "" {
		s += " · “" + shortIDs(review.SanitizeLine(e.Reason)) + "”"
	}
	return labelled(m.ctx.Styles, label, s, w)
}

// previous is the version a version replaced: its Prev link, or else the
// next older version in the history.
func (m *memory) previous(i int) (memgov.Version, bool) {
	v := m.hist.Versions[i]
	for _, o := range m.hist.Versions {
		if o.ID == v.Prev && v.Prev != "" {
			return o.Version, true
		}
	}
	if i+1 < m.versions.total {
		return m.hist.Versions[i+1].Version, true
	}
	return memgov.Version{}, false
}

// diffLines renders a diff: for one-line texts, the old and new line with the
// changed words marked; otherwise a line diff.
func (m *memory) diffLines(a, b string, w int) []string {
	st := m.ctx.Styles
	if a == b {
		return []string{st.Muted.Render(" (same text)")}
	}
	if !strings.Contains(a, "\n") && !strings.Contains(b, "\n") {
		var del, ins strings.Builder
		for _, p := range review.WordDiff(a, b) {
			switch p.Op {
			case review.Equal:
				del.WriteString(p.Text)
				ins.WriteString(p.Text)
			case review.Delete:
				del.WriteString(marked(st, p.Text))
			case review.Insert:
				ins.WriteString(marked(st, p.Text))
			}
		}
		var out []string
		for i, l := range wrap(del.String(), w-3) {
			out = append(out, st.DiffDel.Render(map[bool]string{true: " - ", false: "   "}[i == 0]+l))
		}
		for i, l := range wrap(ins.String(), w-3) {
			out = append(out, st.DiffIns.Render(map[bool]string{true: " + ", false: "   "}[i == 0]+l))
		}
		return out
	}
	var out []string
	for _, p := range review.LineDiff(a, b) {
		style := st.Muted
		switch p.Op {
		case review.Delete:
			style = st.DiffDel
		case review.Insert:
			style = st.DiffIns
		}
		for i, l := range wrap(p.Text, w-3) {
			mark := " " + p.Op.String() + " "
			if i > 0 {
				mark = "   "
			}
			out = append(out, style.Render(mark+l))
		}
	}
	return out
}

// Click selects the row under the mouse at the current level.
func (m *memory) Click(x, y int) tea.Cmd {
	s := m.lay()
	switch m.level {
	case levelRefs:
		m.refs.click(s, x, y)
	case levelItems:
		if m.items.click(s, x, y) {
			return m.maybeMore()
		}
	case levelHistory:
		m.versions.click(s, x, y)
	}
	return nil
}

// applyRefs keeps the refs matching the refs' filter.
func (m *memory) applyRefs() {
	_, words := splitQuery(m.refQuery)
	var rows []memgov.RefSummary
	for _, r := range m.allRefs {
		if matchWords(words, r.MemoryRef) {
			rows = append(rows, r)
		}
	}
	m.refs.setAll(rows)
	m.clampAll()
}

func (m *memory) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	if m.refs.filtering {
		q, ok, cmd := m.refs.filterKey(msg, act)
		if ok {
			m.refs.closeFilter()
			m.refQuery = q
			m.refs.top()
			m.applyRefs()
		}
		return cmd
	}
	q, ok, cmd := m.items.filterKey(msg, act)
	if !ok {
		return cmd
	}
	m.items.closeFilter()
	if q == "" {
		m.itemQuery = ""
		return m.reloadItems()
	}
	return m.findItems(q)
}

// findItems scans the ref's visible items (as of the time shown) for those
// whose key, text or tags hold every word.
func (m *memory) findItems(query string) tea.Cmd {
	id := m.ctx.nextID()
	m.findReq, m.finding = id, true
	svc, ctx, ref, at := m.ctx.Svc, m.ctx.Ctx, m.ref.MemoryRef, m.asOf
	_, words := splitQuery(query)
	return func() tea.Msg {
		var out []memgov.Version
		after := ""
		for {
			p, err := svc.Items(ctx, review.ItemsQuery{MemoryRef: ref, AfterKey: after, Limit: 2000, At: at})
			if err != nil {
				return itemsFoundMsg{id: id, err: err}
			}
			for _, v := range p.Versions {
				if matchWords(words, v.Key, v.Text(), strings.Join(v.Tags, " ")) {
					out = append(out, v)
					if len(out) == itemCap {
						return itemsFoundMsg{id, query, out, true, nil}
					}
				}
			}
			if !p.More || len(p.Versions) == 0 {
				return itemsFoundMsg{id, query, out, false, nil}
			}
			after = p.Versions[len(p.Versions)-1].Key
		}
	}
}
