// Package tui is memgov's terminal UI: a small root model that routes keys to
// the screen in focus (Queue, Drift, Proposals, Memory, Activity, Quarantine), a shared
// Context, a KeyMap from which every help text is drawn, and confirmation
// modals for every decision. All I/O runs in tea.Cmds through the review
// service; answers carry request ids so late ones are dropped.
package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// Screen is one tab of the program. Screens are pointers mutated in place;
// each draws only its body, between the header and the footer.
type Screen interface {
	// Title is the tab label.
	Title() string
	// Init starts the screen's first load; called once, when first shown.
	Init() tea.Cmd
	// Update handles a message; act is the key's action (ActNone for other
	// messages and for text typed into a field).
	Update(msg tea.Msg, act Action) tea.Cmd
	// View renders the body at the size of the last SetSize.
	View() string
	SetSize(w, h int)
	// Crumb is the location line under the tabs: where in the screen you are.
	Crumb() string
	// Bindings are the screen's keys for the help bar, most useful first.
	Bindings() []key.Binding
	// Mode says whether the screen is taking text.
	Mode() Mode
}

// Options configure a program.
type Options struct {
	Service *review.Service
	DBName  string
	Now     func() time.Time // default time.Now
	// Poll is how often the header and the screens check for new log
	// entries (default 2s).
	Poll time.Duration
	// NoSweep stops the poll from running the review SLA sweep and the
	// drift check (benchmarks).
	NoSweep bool
}

// Model is the root model.
type Model struct {
	ctx      *Context
	screens  []Screen
	started  []bool
	active   int
	help     help.Model
	fullHelp bool
	modal    *confirm
	status   statusMsg
	att      review.Attention
	poll     time.Duration
	cancel   context.CancelFunc
	sweep    bool
	sweeping bool
	ticks    int
	health   *health
	tabSpans [][2]int // where each tab sits on the tabs line, for clicks
}

// Indices of the screens.
const (
	QueueScreen = iota
	DriftScreen
	ProposalsScreen
	MemoryScreen
	ActivityScreen
	QuarantineScreen
)

// New returns the root model. Curators (and everyone else) open on the
// review queue; operators on Drift, which they acknowledge.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	bg, cancel := context.WithCancel(context.Background())
	c := &Context{Styles: NewStyles(DefaultTheme()), Keys: DefaultKeyMap(), Now: o.Now, Svc: o.Service,
		DBName: o.DBName, Ctx: bg, ReadOnly: o.Service.CanAct()}
	m := &Model{ctx: c, help: help.New(), poll: o.Poll, cancel: cancel, active: QueueScreen, sweep: !o.NoSweep, health: newHealth(c)}
	if o.Service.OnCall() {
		m.active = DriftScreen
	}
	m.screens = []Screen{
		newQueue(c),
		newDrift(c),
		newProposals(c),
		newMemory(c),
		newActivity(c, m.health),
		newQuarantine(c),
	}
	m.started = make([]bool, len(m.screens))
	m.help.ShortSeparator = "  "
	m.help.Styles.ShortKey = c.Styles.Bold
	m.help.Styles.FullKey = c.Styles.Bold
	return m
}

// Focus switches to a screen (for tests and for callers that open elsewhere).
func (m *Model) Focus(i int) { m.active = i }

type tickMsg struct{}

type attentionMsg struct {
	att review.Attention
	err error
}

func (m *Model) tick() tea.Cmd {
	return tea.Tick(m.poll, func(time.Time) tea.Msg { return tickMsg{} })
}

// checkAttention is the poll's change check: the log's size (O(1)), and the
// counts only when the log grew since they were taken. Everything that
// changes a count (a write, a decision, a sweep, a drift) is a log entry.
func (m *Model) checkAttention() tea.Cmd {
	svc, ctx, last := m.ctx.Svc, m.ctx.Ctx, m.att
	return func() tea.Msg {
		if last.LogSize > 0 {
			if n, err := svc.LogSize(ctx); err == nil && n == last.LogSize {
				return attentionMsg{last, nil}
			}
		}
		a, err := svc.Attention(ctx)
		return attentionMsg{a, err}
	}
}

// sweptMsg reports a background sweep: SLA escalations, sync timeouts and
// drift checks happen while the program is open.
type sweptMsg struct {
	res memgov.SweepResult
	err error
}

// driftEvery is how many polls pass between drift checks of every baselined
// memoryRef (each is O(1) when nothing changed).
const driftEvery = 5

// sweepCmd runs the review SLA sweep (and, every few polls, the drift check)
// off the update loop; at most one runs at a time.
func (m *Model) sweepCmd() tea.Cmd {
	if !m.sweep || m.sweeping {
		return nil
	}
	m.sweeping = true
	m.ticks++
	verify := m.ticks%driftEvery == 1
	svc, ctx := m.ctx.Svc, m.ctx.Ctx
	return func() tea.Msg {
		res, err := svc.Queue().Sweep(ctx)
		if err == nil && verify {
			_, err = svc.Drift().VerifyBaselined(ctx)
		}
		return sweptMsg{res, err}
	}
}

// Init loads the first screen and starts the poll.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.start(m.active), m.checkAttention(), m.sweepCmd(), m.tick(), m.health.load())
}

func (m *Model) start(i int) tea.Cmd {
	if m.started[i] {
		return nil
	}
	m.started[i] = true
	return m.screens[i].Init()
}

// Update routes a message: window size to everyone, keys to the modal or the
// screen in focus, answers to every screen (each drops what is not its own).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.ctx.Width, m.ctx.Height = msg.Width, msg.Height
		m.help.Width = msg.Width - 2
		for _, s := range m.screens {
			s.SetSize(msg.Width, m.bodyHeight())
		}
		return m, nil
	case tickMsg:
		return m, tea.Batch(m.checkAttention(), m.sweepCmd(), m.tick())
	case sweptMsg:
		m.sweeping = false
		if msg.err != nil && m.ctx.Ctx.Err() == nil {
			m.status = statusMsg{text: "background sweep: " + msg.err.Error(), err: true}
		} else if n := msg.res.TimedOut; n > 0 {
			m.status = statusMsg{text: plural(n, "SYNC_BLOCK review passed its deadline and was", "SYNC_BLOCK reviews passed their deadline and were") + " rejected (APPROVAL_TIMEOUT)", err: true}
		}
		return m, nil
	case attentionMsg:
		if msg.err == nil {
			m.att = msg.att
		}
		return m, tea.Batch(m.broadcast(msg), m.health.update(msg))
	case metricsMsg:
		return m, m.health.update(msg)
	case statusMsg:
		m.status = msg
		return m, nil
	case countsMsg:
		m.att.LogSize = 0 // recount now, whatever the log's size
		return m, tea.Batch(m.checkAttention(), m.health.refresh())
	case quitMsg:
		return m, m.shutdown()
	case tea.MouseMsg:
		return m, m.mouse(msg)
	case confirmMsg:
		m.modal = newConfirm(m.ctx, msg)
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, m.broadcast(msg)
}

func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i, s := range m.screens {
		if m.started[i] {
			cmds = append(cmds, s.Update(msg, ActNone))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) mode() Mode {
	if m.modal != nil {
		return m.modal.mode()
	}
	return m.screens[m.active].Mode()
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	act := MsgToAction(m.ctx.Keys, m.mode(), msg)
	if act == ActQuit {
		if m.modal == nil && msg.String() != "ctrl+c" {
			if lines := m.unfinished(); len(lines) > 0 {
				return askConfirm(confirmMsg{title: "Quit memgov", lines: lines, noField: true,
					onYes: func(string) tea.Cmd { return func() tea.Msg { return quitMsg{} } }})
			}
		}
		return m.shutdown()
	}
	m.status = statusMsg{}
	if m.modal != nil {
		cmd, done := m.modal.update(msg, act)
		if done {
			m.modal = nil
		}
		return cmd
	}
	if m.fullHelp {
		if act == ActHelp || act == ActBack {
			m.fullHelp = false
		}
		return nil
	}
	if m.mode() == ModeNormal {
		switch {
		case act == ActHelp:
			m.fullHelp = true
			return nil
		case act == ActNextTab:
			return m.switchTo((m.active + 1) % len(m.screens))
		case act == ActPrevTab:
			return m.switchTo((m.active + len(m.screens) - 1) % len(m.screens))
		case act >= ActScreen1 && act <= ActScreen6:
			return m.switchTo(int(act - ActScreen1))
		}
	}
	return m.screens[m.active].Update(msg, act)
}

func (m *Model) switchTo(i int) tea.Cmd {
	m.active = i
	return m.start(i)
}

const headerLines, footerLines = 4, 2

func (m *Model) bodyHeight() int { return max(m.ctx.Height-headerLines-footerLines, 1) }

// View draws the header, the body of the screen in focus (or the full help),
// any modal over it, and the footer.
func (m *Model) View() string {
	w := m.ctx.Width
	if w == 0 {
		return "starting memgov…"
	}
	st := m.ctx.Styles
	rule := st.Rule.Render(strings.Repeat("─", w))
	var body string
	if m.fullHelp {
		body = m.fullHelpView()
	} else {
		body = m.screens[m.active].View()
	}
	lines := pane(strings.Split(body, "\n"), w, m.bodyHeight())
	if m.modal != nil {
		lines = overlay(lines, m.modal.view(min(72, w-4)), w)
	}
	out := []string{m.tabsLine(), rule, fit(" "+m.crumb(), w), rule}
	out = append(out, lines...)
	out = append(out, m.statusRule(), fit(" "+m.helpLine(), w))
	return strings.Join(out, "\n")
}

func (m *Model) crumb() string {
	if m.fullHelp {
		return m.ctx.Styles.Crumb.Render("Keys of "+m.screens[m.active].Title()) + m.ctx.Styles.Muted.Render("  (? or esc to close)")
	}
	if m.modal != nil && m.modal.mode() == ModeInput {
		return m.screens[m.active].Crumb()
	}
	return m.screens[m.active].Crumb()
}

// shortTitles are the tab labels of the narrowest header.
var shortTitles = map[string]string{"Proposals": "Prop", "Quarantine": "Quar", "Memory": "Mem", "Activity": "Act"}

// tabsLine: brand, tabs with their counts, and on the right the database,
// who you are and what needs attention. When it does not fit, it gives up,
// in order, the database name, the brand and the separators, then the full
// names of the tabs: who you are and what waits matter more.
func (m *Model) tabsLine() string {
	st, w := m.ctx.Styles, m.ctx.Width
	tabsOf := func(short map[string]string) []string {
		var tabs []string
		for i, s := range m.screens {
			label := s.Title()
			if sh, ok := short[label]; ok {
				label = sh
			}
			switch i {
			case QueueScreen:
				label += count(m.att.Queue)
			case DriftScreen:
				label += count(m.att.Drift)
			case ProposalsScreen:
				label += count(m.att.Proposals)
			case QuarantineScreen:
				label += count(m.att.Quarantine)
			}
			if i == m.active {
				if st.Plain {
					label = "[" + label + "]"
				}
				tabs = append(tabs, st.ActiveTab.Render(label))
			} else {
				tabs = append(tabs, st.Tab.Render(label))
			}
		}
		return tabs
	}
	full := tabsOf(nil)
	steps := []struct {
		left  string
		tabs  []string
		right string
	}{
		{" " + st.Brand.Render("memgov") + "  " + strings.Join(full, st.TabSep.Render(" │ ")), full, m.whoami()},
		{" " + st.Brand.Render("memgov") + "  " + strings.Join(full, st.TabSep.Render(" │ ")), full, m.whoamiShort()},
		{" " + strings.Join(full, " "), full, m.whoamiShort()},
	}
	for _, short := range []map[string]string{{"Proposals": "Prop", "Quarantine": "Quar"}, shortTitles} {
		tabs := tabsOf(short)
		steps = append(steps, struct {
			left  string
			tabs  []string
			right string
		}{" " + strings.Join(tabs, " "), tabs, m.whoamiShort()})
	}
	pick := steps[len(steps)-1]
	for _, s := range steps {
		if w-ansi.StringWidth(s.left)-ansi.StringWidth(s.right)-1 >= 2 {
			pick = s
			break
		}
	}
	gap := w - ansi.StringWidth(pick.left) - ansi.StringWidth(pick.right) - 1
	line := fit(pick.left+strings.Repeat(" ", max(gap, 1))+pick.right, w)
	labels := make([]string, len(pick.tabs))
	for i, t := range pick.tabs {
		labels[i] = ansi.Strip(t)
	}
	m.tabSpans = spans(line, labels)
	return line
}

func count(c review.Count) string {
	if !c.Available {
		return ""
	}
	return fmt.Sprintf(" %d", c.N)
}

func (m *Model) identity() string {
	st := m.ctx.Styles
	a := m.ctx.Svc.Actor()
	role := string(a.Role)
	if role == "" {
		role = "unregistered"
	}
	who := st.Who.Render(fmt.Sprintf("%s (%s)", a.ID, role))
	if m.ctx.ReadOnly != nil {
		who += " " + st.ReadOnly.Render("read-only")
	}
	return who
}

func (m *Model) whoami() string {
	st := m.ctx.Styles
	parts := []string{}
	if m.ctx.DBName != "" {
		parts = append(parts, st.Muted.Render(m.ctx.DBName))
	}
	parts = append(parts, m.identity())
	if a := m.attention(); a != "" {
		parts = append(parts, a)
	}
	if b := m.health.badge(); b != "" {
		parts = append(parts, b)
	}
	return strings.Join(parts, st.Muted.Render(" · "))
}

func (m *Model) whoamiShort() string {
	who := m.identity()
	if a := m.attention(); a != "" {
		who += m.ctx.Styles.Muted.Render(" · ") + a
	}
	if b := m.health.badge(); b != "" && m.ctx.Width >= wideMin {
		who += m.ctx.Styles.Muted.Render(" · ") + b
	}
	return who
}

// attention names what waits for a person, from the services that exist.
func (m *Model) attention() string {
	n := 0
	for _, c := range []review.Count{m.att.Queue, m.att.Drift, m.att.Proposals, m.att.Quarantine} {
		if c.Available {
			n += c.N
		}
	}
	if n == 0 {
		return ""
	}
	return m.ctx.Styles.Attention.Render(fmt.Sprintf("%d need you", n))
}

// statusRule is the footer's rule, carrying the last status message.
func (m *Model) statusRule() string {
	st, w := m.ctx.Styles, m.ctx.Width
	if m.status.text == "" {
		return st.Rule.Render(strings.Repeat("─", w))
	}
	text := review.SanitizeLine(m.status.text)
	var s string
	if m.status.err {
		if st.Plain {
			text = "! " + text
		}
		s = st.StatusErr.Render(text)
	} else {
		if st.Plain {
			text = "✓ " + text
		}
		s = st.StatusOK.Render(text)
	}
	s = st.Rule.Render("── ") + ansi.Truncate(s, w-6, "…") + " "
	return s + st.Rule.Render(strings.Repeat("─", max(w-ansi.StringWidth(s), 0)))
}

// helpLine is the short help for what the keyboard is doing now, all from
// the KeyMap: a modal's keys in a modal, a field's keys while typing (never
// tab or q, which are text there), a picker's while choosing, and otherwise
// the screen's keys then the global ones that fit.
func (m *Model) helpLine() string {
	k := m.ctx.Keys
	switch {
	case m.modal != nil:
		return m.help.ShortHelpView(m.modal.bindings())
	case m.fullHelp:
		closeKey := k.Help
		closeKey.SetHelp("?/esc", "close help")
		return m.help.ShortHelpView([]key.Binding{closeKey, k.Quit})
	case m.mode() != ModeNormal:
		return m.help.ShortHelpView(m.screens[m.active].Bindings())
	}
	own := m.screens[m.active].Bindings()
	all := append(append([]key.Binding(nil), own...), k.ShortHelp()...)
	natural := m.help
	natural.Width = 0 // measure without the help's own truncation
	if ansi.StringWidth(natural.ShortHelpView(all)) > m.ctx.Width-2 {
		all = append(append([]key.Binding(nil), own...), k.Help, k.Quit) // tab is in ? help
	}
	return m.help.ShortHelpView(all)
}

// fullHelpView is the help of the screen in focus: its own keys first,
// then moving and switching, what the keys do in a field, a question and a
// picker (all from the KeyMap), then what the health badge means. The
// groups flow down columns that share the width, descriptions wrap rather
// than being cut, and when everything does not fit the moving keys and the
// modes are written compactly, so the help fits 80x24.
func (m *Model) fullHelpView() string {
	st, w, h := m.ctx.Styles, m.ctx.Width, m.bodyHeight()
	k := m.ctx.Keys
	field, question, picker := k.ModeHelp()
	groups := []helpGroup{
		{strings.ToUpper(m.screens[m.active].Title()) + " SCREEN", k.ScreenHelp(m.active), false},
		{"MOVE", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, true},
		{"SCREENS", []key.Binding{k.NextTab, k.PrevTab, k.Screen, k.Help, k.Quit}, true},
		{"TYPING IN A FIELD", field, false},
		{"IN A QUESTION", question, false},
		{"CHOOSING FROM A LIST", picker, false},
	}
	most := 3
	if w < wideMin {
		most = 2
	}
	// Compactness: 0 every key a line; 1 moving keys as a line below and the
	// modes' keys run together; 2 the screen's keys run together too.
	var lines []string
	// The health badge's explanation goes last, and is left out only when
	// nothing else makes room for it (at 80x24 with the read-only notice).
	for step := 0; step <= 3; step++ {
		compact, withHealth := min(step, 2), step < 3
		tail := m.helpTail(w-4, compact > 0)
		for n := most; n >= 1; n-- {
			colW := (w - 2 - 2*(n-1)) / n
			var flow [][]string
			put := func(gl []string) { flow = append(flow, gl) }
			for i, g := range groups {
				if compact > 0 && g.moving {
					continue
				}
				put(g.lines(st, colW, compact > 1 || compact > 0 && i > 0))
			}
			how := healthParagraph
			if compact > 0 {
				how = healthHelpShort
			}
			if s := m.health.explain(how); s != "" && withHealth {
				gl := []string{st.ColHeader.Render("HEALTH BADGE")}
				for _, l := range wrap(s, colW) {
					gl = append(gl, strings.TrimRight(l, " "))
				}
				put(gl)
			}
			cols, ok := newspaper(flow, n, h-len(tail))
			if !ok && !(step == 3 && n == 1) {
				continue
			}
			// As short as the columns can be: the groups spread over the width.
			for hh := 1; ok && hh < h-len(tail); hh++ {
				if c, fits := newspaper(flow, n, hh); fits {
					cols = c
					break
				}
			}
			rows := 0
			for _, c := range cols {
				rows = max(rows, len(c))
			}
			for i := range rows {
				row := " "
				for c := range cols {
					cell := ""
					if i < len(cols[c]) {
						cell = cols[c][i]
					}
					row += " " + fit(cell, colW) + " "
				}
				lines = append(lines, strings.TrimRight(row, " "))
			}
			lines = append(lines, tail...)
			return strings.Join(lines, "\n")
		}
	}
	return strings.Join(lines, "\n")
}

// helpGroup is a titled group of keys in the full help; moving groups are
// written as one line when the help is compact.
type helpGroup struct {
	title  string
	bs     []key.Binding
	moving bool
}

// lines renders a group to w cells: the title, then a key and its
// description a line, the description wrapped under itself; compact, the
// keys follow one another ("enter apply · esc cancel"), wrapped.
func (g helpGroup) lines(st Styles, w int, compact bool) []string {
	out := []string{st.ColHeader.Render(g.title)}
	if compact {
		var parts []string
		for _, b := range g.bs {
			if b.Enabled() {
				parts = append(parts, b.Help().Key+" "+b.Help().Desc)
			}
		}
		for _, l := range wrap(strings.Join(parts, " · "), w) {
			out = append(out, strings.TrimRight(l, " "))
		}
		return out
	}
	kw := 0
	for _, b := range g.bs {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	for _, b := range g.bs {
		if !b.Enabled() {
			continue
		}
		for i, l := range wrap(b.Help().Desc, max(w-kw-2, 8)) {
			l = strings.TrimRight(l, " ")
			if i == 0 {
				out = append(out, st.Bold.Render(fmt.Sprintf("%-*s", kw+2, b.Help().Key))+l)
			} else {
				out = append(out, strings.Repeat(" ", kw+2)+l)
			}
		}
	}
	return out
}

// newspaper flows groups of lines down n columns of at most h lines, a
// blank line between groups. A group goes whole to the next column when it
// does not fit the rest of this one; only a group taller than a column is
// split, never after its title. ok is false when the groups do not fit.
func newspaper(groups [][]string, n, h int) ([][]string, bool) {
	if h < 2 {
		return nil, false
	}
	cols := [][]string{nil}
	next := func() bool {
		if len(cols) == n {
			return false
		}
		cols = append(cols, nil)
		return true
	}
	for _, g := range groups {
		c := &cols[len(cols)-1]
		gap := 0
		if len(*c) > 0 {
			gap = 1
		}
		if len(*c) > 0 && (len(*c)+gap+len(g) > h && len(g) <= h || len(*c)+gap+1 >= h) {
			if !next() {
				return cols, false
			}
			c, gap = &cols[len(cols)-1], 0
		}
		if gap == 1 {
			*c = append(*c, "")
		}
		for i, l := range g {
			if len(*c) >= h || (i == 0 && len(*c) >= h-1) {
				if !next() {
					return cols, false
				}
				c = &cols[len(cols)-1]
			}
			*c = append(*c, l)
		}
	}
	return cols, true
}

// helpTail is what follows the keys in the full help: how to move (when
// compact) or the mouse, the read-only notice, and the note on times and
// agents' text when not compact.
func (m *Model) helpTail(w int, compact bool) []string {
	st := m.ctx.Styles
	var out []string
	add := func(style lipgloss.Style, s string) {
		for _, l := range wrap(s, w) {
			out = append(out, "  "+style.Render(strings.TrimRight(l, " ")))
		}
	}
	out = append(out, "")
	if compact {
		add(st.Muted, "move ↑↓ j k pgup pgdn g G · screens tab 1-6 · the mouse scrolls and clicks")
	} else {
		add(st.Muted, "The mouse: the wheel scrolls the list, a click selects a row or a tab.")
	}
	if m.ctx.ReadOnly != nil {
		out = append(out, "")
		add(st.ReadOnly, m.ctx.ReadOnly.Error()+nextStep(m.ctx.ReadOnly)+". Decisions (a r e A in Queue, R B in Drift, y r z in Proposals, b p E in Memory, y X in Quarantine) need a curator or operator; reading works.")
	}
	if !compact {
		out = append(out, "")
		add(st.Muted, "Times are UTC. Agent-written text is shown sanitised (escapes removed, invisibles marked).")
	}
	return out
}

// overlay draws box centred over lines of width w.
func overlay(lines []string, box string, w int) []string {
	bl := strings.Split(box, "\n")
	bw := 0
	for _, l := range bl {
		bw = max(bw, ansi.StringWidth(l))
	}
	top := max((len(lines)-len(bl))/2, 0)
	left := max((w-bw)/2, 0)
	out := append([]string(nil), lines...)
	for i, l := range bl {
		y := top + i
		if y >= len(out) {
			break
		}
		base := out[y]
		// What lies right of the box is blanked rather than cut mid-word.
		out[y] = fit(ansi.Truncate(base, left, "")+fit(l, bw), w)
	}
	return out
}

// quitMsg ends the program after the person confirmed.
type quitMsg struct{}

// unfinished says what quitting would leave behind: marked reviews not
// approved, a claim held on an open review.
func (m *Model) unfinished() []string {
	q, ok := m.screens[QueueScreen].(*queue)
	if !ok || !m.started[QueueScreen] {
		return nil
	}
	var lines []string
	if n := len(q.list.marked); n > 0 {
		lines = append(lines, plural(n, "marked review is", "marked reviews are")+" not approved; the marks are lost.")
	}
	if q.open.Mine {
		lines = append(lines, "You hold the claim on "+review.SanitizeLine(q.open.Review.MemoryRef+" › "+rowKey(q.openRow()))+"; quitting releases it.")
	}
	if len(lines) > 0 {
		lines = append(lines, "enter quits · esc stays")
	}
	return lines
}

// shutdown releases the person's claim (a short write, so the review is
// free for others at once rather than when the lease lapses) and quits.
func (m *Model) shutdown() tea.Cmd {
	if q, ok := m.screens[QueueScreen].(*queue); ok && q.open.Mine {
		_, _ = m.ctx.Svc.Queue().Release(m.ctx.Ctx, q.open.Review.ID)
		q.open = review.Opened{}
	}
	m.cancel()
	return tea.Quit
}
