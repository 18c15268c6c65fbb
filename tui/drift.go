package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/memgov/memgov/review"
)

// drift is the Drift screen: open MEMORY_DRIFT_DETECTED episodes, deny-on-drift
// first, with the key-level diff against the approved baseline. R re-approves
// the memory as it is now, B rolls it back to the baseline; operators and
// curators only.
type drift struct {
	ctx    *Context
	w, h   int
	rows   []review.DriftView
	cur    cursor
	req    int64
	loaded bool
	err    error
	seen   int64
	zoom   bool
	busy   bool

	all       []review.DriftView // every open episode; rows is what the filter keeps
	filtering bool
	input     textinput.Model
	query     string
}

type driftMsg struct {
	id   int64
	rows []review.DriftView
	err  error
}

type ackedMsg struct {
	text string
	err  error
}

func newDrift(c *Context) *drift {
	return &drift{ctx: c, input: newFilterInput("words in the memoryRef, policy or changed keys")}
}

func (d *drift) Title() string { return "Drift" }
func (d *drift) Init() tea.Cmd { return d.load() }
func (d *drift) Mode() Mode {
	if d.filtering {
		return ModeInput
	}
	return ModeNormal
}

// apply keeps the episodes matching the filter's words.
func (d *drift) apply() {
	_, words := splitQuery(d.query)
	d.rows = d.rows[:0:0]
	for _, v := range d.all {
		fields := []string{v.Event.MemoryRef, v.Event.Policy, v.Event.Detail}
		for _, c := range v.Changes {
			fields = append(fields, c.Key)
		}
		if matchWords(words, fields...) {
			d.rows = append(d.rows, v)
		}
	}
}

// lay stacks the table over the detail at every width: the list is short
// and its hashes need the width; the diff needs the lines.
func (d *drift) lay() split {
	lh := min(max(len(d.rows)+1, 3), max(d.h*2/5, 3))
	return split{listW: d.w, listH: lh, detW: d.w, detH: max(d.h-lh-1, 0)}
}

func (d *drift) SetSize(w, h int) {
	d.w, d.h = w, h
	d.cur.height = max(d.lay().listH-1, 1)
	d.cur.clamp(len(d.rows))
}

func (d *drift) load() tea.Cmd {
	id := d.ctx.nextID()
	d.req = id
	svc, ctx := d.ctx.Svc, d.ctx.Ctx
	return func() tea.Msg {
		rs, err := svc.Drift().List(ctx)
		return driftMsg{id, rs, err}
	}
}

func (d *drift) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case driftMsg:
		if msg.id != d.req {
			return nil
		}
		d.req, d.loaded, d.err = 0, true, msg.err
		if msg.err == nil {
			sel := d.selectedID()
			d.all = msg.rows
			d.apply()
			for i, r := range d.rows {
				if r.Event.ID == sel {
					d.cur.pos = i
				}
			}
		}
		d.SetSize(d.w, d.h)
		return nil
	case attentionMsg:
		if msg.err == nil && msg.att.LogSize != d.seen && d.loaded && d.req == 0 {
			d.seen = msg.att.LogSize
			return d.load()
		}
		return nil
	case ackedMsg:
		d.busy = false
		if msg.err != nil {
			return tea.Batch(d.load(), status(msg.err))
		}
		d.zoom = false
		return tea.Batch(d.load(), refreshCounts, statusf(false, "%s", msg.text))
	case tea.KeyMsg:
		if d.filtering {
			switch act {
			case ActBack:
				d.filtering = false
				d.input.Blur()
			case ActSubmit:
				d.filtering = false
				d.input.Blur()
				d.query = strings.TrimSpace(d.input.Value())
				d.apply()
				d.cur = cursor{height: d.cur.height}
				d.SetSize(d.w, d.h)
			default:
				var cmd tea.Cmd
				d.input, cmd = d.input.Update(msg)
				return cmd
			}
			return nil
		}
		if !d.zoom && d.cur.act(act, len(d.rows)) {
			return nil
		}
		switch act {
		case ActEnter:
			if len(d.rows) > 0 {
				d.zoom = true
			}
		case ActFilter:
			d.filtering = true
			d.input.SetValue(d.query)
			d.input.CursorEnd()
			return d.input.Focus()
		case ActBack:
			if !d.zoom && d.query != "" {
				d.query = ""
				d.apply()
				d.SetSize(d.w, d.h)
				return statusf(false, "filter cleared")
			}
			d.zoom = false
		case ActRefresh:
			return d.load()
		case ActReapprove, ActRollBaseline:
			return d.ack(act)
		}
	}
	return nil
}

func (d *drift) selectedID() string {
	if d.cur.pos < len(d.rows) {
		return d.rows[d.cur.pos].Event.ID
	}
	return ""
}

func (d *drift) ack(act Action) tea.Cmd {
	if len(d.rows) == 0 {
		return nil
	}
	v := d.rows[d.cur.pos]
	verb := map[Action]string{ActReapprove: "re-approve", ActRollBaseline: "roll back to the baseline"}[act]
	if err := d.ctx.Svc.Drift().CanAck(v.Event.MemoryRef); err != nil {
		return statusf(true, "cannot %s: %s", verb, err.Error())
	}
	if d.busy {
		return statusf(true, "an acknowledgement is still being recorded")
	}
	ref := review.SanitizeLine(v.Event.MemoryRef)
	svc, ctx := d.ctx.Svc, d.ctx.Ctx
	res, title := review.Reapprove, "Adopt the current memory of "+ref+" as its baseline"
	lines := []string{
		fmt.Sprintf("%s: %s.", ref, v.Summary()),
		"The memory as it is now becomes the new baseline (same type, TTL, policy and level). Changes made outside memgov are first written into the log as compensating entries.",
	}
	if act == ActRollBaseline {
		res, title = review.RollBack, "Roll "+ref+" back to its baseline"
		lines[1] = "Every key returns to the baseline's value with compensating log entries; keys added since are retracted. Nothing in the log is rewritten."
	}
	if v.Event.Policy == "deny-on-drift" {
		lines = append(lines, "Writes and tool calls of "+ref+" are allowed again afterwards.")
	}
	return askConfirm(confirmMsg{
		title: title, lines: lines, danger: true, required: true,
		onYes: func(note string) tea.Cmd {
			d.busy = true
			return func() tea.Msg {
				r, err := svc.Drift().Ack(ctx, v, res, note)
				if err != nil {
					return ackedMsg{err: err}
				}
				entries := plural(r.Compensations, "compensating entry", "compensating entries")
				if res == review.RollBack {
					return ackedMsg{text: fmt.Sprintf("%s rolled back to baseline %s with %s; the baseline is unchanged", ref, shortID(r.Baseline.ID), entries)}
				}
				return ackedMsg{text: fmt.Sprintf("%s: its current memory is the new baseline %s (%s first)", ref, shortID(r.Baseline.ID), entries)}
			}
		},
	})
}

func (d *drift) Bindings() []key.Binding {
	k := d.ctx.Keys
	if d.filtering {
		enter := k.Enter
		enter.SetHelp("enter", "apply filter")
		return []key.Binding{enter, k.Cancel}
	}
	enter := k.Enter
	enter.SetHelp("enter", "diff")
	bs := []key.Binding{enter}
	if d.zoom {
		bs = []key.Binding{k.Back}
	}
	if d.ctx.ReadOnly == nil {
		bs = append(bs, k.Reapprove, k.RollBaseline)
	}
	return append(bs, k.Filter)
}

func (d *drift) Crumb() string {
	st := d.ctx.Styles
	if d.filtering {
		return st.Crumb.Render("Drift") + "   " + st.Bold.Render("filter: ") + d.input.View()
	}
	if d.query != "" {
		return st.Crumb.Render("Drift") + st.Muted.Render("  filter: ") + review.SanitizeLine(d.query) + "  " +
			st.Bold.Render(fmt.Sprintf("%d of %d open", len(d.rows), len(d.all))) + st.Muted.Render(" · esc clears")
	}
	n, deny := len(d.rows), 0
	for _, r := range d.rows {
		if r.Event.Policy == "deny-on-drift" {
			deny++
		}
	}
	switch {
	case !d.loaded:
		return st.Crumb.Render("Drift")
	case n == 0:
		return st.Crumb.Render("Drift") + st.Muted.Render("  no open drift: every baselined memoryRef matches its baseline")
	}
	s := st.Attention.Render(plural(n, "open drift episode", "open drift episodes"))
	if deny > 0 {
		s += "  " + st.Bad.Render(fmt.Sprintf("%d DENYING writes", deny))
	}
	if d.w < wideMin {
		return s + st.Muted.Render("  ·  changed since baseline")
	}
	return s + st.Muted.Render("  ·  memory changed since its approved baseline")
}

var driftCols = []column{
	{title: "POLICY", width: 14}, {title: "MEMORY REF", flex: true}, {title: "SINCE", width: 5},
	{title: "APPROVED HASH", width: 16}, {title: "CURRENT HASH", width: 16}, {title: "CHANGES", width: 18},
}

var driftColsNarrow = []column{
	{title: "POLICY", width: 14}, {title: "MEMORY REF", flex: true}, {title: "SINCE", width: 5}, {title: "CHANGES", width: 18},
}

func (d *drift) View() string {
	s := d.lay()
	if d.zoom {
		return strings.Join(pane(d.detail(d.w), d.w, d.h), "\n")
	}
	return s.join(d.ctx.Styles, d.list(s.listW), d.detail(s.detW))
}

func (d *drift) list(w int) []string {
	st := d.ctx.Styles
	switch {
	case d.err != nil:
		return []string{st.Bad.Render("cannot read drift: " + review.SanitizeLine(d.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !d.loaded:
		return []string{st.Muted.Render("reading drift…")}
	case len(d.rows) == 0 && d.query != "":
		return []string{"", "  No open drift matches " + review.SanitizeLine(d.query) + ".", "  " + st.Muted.Render("/ changes the filter; esc clears it.")}
	case len(d.rows) == 0:
		return []string{"", "  " + st.Good.Render("No open drift."), "",
			"  " + st.Muted.Render("Memory changed outside its baseline shows here as soon as memgov notices.")}
	}
	now := d.ctx.Now()
	cols := driftCols
	if w < 100 {
		cols = driftColsNarrow
	}
	return renderTable(st, cols, w, d.cur, len(d.rows), func(i int) []string {
		r := d.rows[i]
		pol := r.Event.Policy
		if pol == "deny-on-drift" {
			pol = st.Bad.Render(pol)
		} else {
			pol = st.Warn.Render(pol)
		}
		ch := changeSummary(r)
		if len(cols) == len(driftColsNarrow) {
			return []string{pol, review.SanitizeLine(r.Event.MemoryRef), ago(now, r.Event.DetectedAt), ch}
		}
		return []string{pol, review.SanitizeLine(r.Event.MemoryRef), ago(now, r.Event.DetectedAt), hashCell(r.Event.ApprovedHash), hashCell(nowHash(r)), ch}
	})
}

// nowHash is the hash of the episode's memory now: computed when the list
// was read, else what detection saw; "?" when neither is known.
func nowHash(r review.DriftView) string {
	switch {
	case r.Now != "":
		return r.Now
	case r.Event.CurrentHash != "":
		return r.Event.CurrentHash
	}
	return "?"
}

// hashCell abbreviates a hash as the mockups do: sha256:4f1c…9a0e.
func hashCell(h string) string {
	alg, hex, ok := strings.Cut(h, ":")
	if !ok || len(hex) <= 8 {
		return h
	}
	return alg + ":" + hex[:4] + "…" + hex[len(hex)-4:]
}

func changeSummary(r review.DriftView) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{r.Changed, "changed"}, {r.Added, "added"}, {r.Removed, "removed"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) == 0 {
		if r.Err != nil {
			return "diff unavailable"
		}
		return "no key differs"
	}
	return strings.Join(parts, ", ")
}

func (d *drift) detail(w int) []string {
	st := d.ctx.Styles
	if len(d.rows) == 0 {
		return nil
	}
	v := d.rows[d.cur.pos]
	e, b := v.Event, v.Baseline
	now := d.ctx.Now()
	var out []string
	add := func(ls ...string) { out = append(out, ls...) }
	add(st.Bold.Render(fit(review.SanitizeLine(e.MemoryRef), w)))
	switch e.Policy {
	case "deny-on-drift":
		add(fit(st.Bad.Render("DENYING all writes and tool calls since "+clock(e.DetectedAt)), w))
	case "alert-on-drift":
		add(fit(st.Warn.Render("allowing writes with alerts since "+clock(e.DetectedAt)), w))
	default:
		add(fit(st.Muted.Render(e.Policy+": recorded only, since "+clock(e.DetectedAt)), w))
	}
	if b.ID != "" {
		add(fit(fmt.Sprintf("baseline %s by %s, level %d", shortID(b.ID), review.SanitizeLine(b.ApprovedBy), b.ComplianceLevel), w))
		ttl := "no ttl"
		if b.TTLSeconds > 0 {
			ttl = "ttl " + days(time.Duration(b.TTLSeconds)*time.Second)
			if exp := b.ExpiresAt(); !exp.IsZero() {
				if exp.After(now) {
					ttl += " (expires in " + days(exp.Sub(now)) + ")"
				} else {
					ttl += " " + st.Bad.Render("(expired)")
				}
			}
		}
		add(fit(string(b.MemoryType)+" · "+ttl, w))
	}
	add(fit(st.Muted.Render("approved ")+shortID(e.ApprovedHash)+st.Muted.Render("  now ")+shortID(nowHash(v)), w))
	if v.NowErr != nil {
		add(st.Bad.Render(fit("cannot hash the memory now: "+review.SanitizeLine(v.NowErr.Error()), w)))
	}
	add("")
	if v.Err != nil {
		add(st.Bad.Render(fit("no diff: "+review.SanitizeLine(v.Err.Error()), w)))
	}
	shown := 0
	for _, c := range v.Changes {
		if shown >= 6 && !d.zoom {
			add(st.Muted.Render(fmt.Sprintf("… %d more keys (enter shows all)", len(v.Changes)-shown)))
			break
		}
		shown++
		add(fit(st.Bold.Render(strings.ToUpper(c.Kind))+"  "+review.SanitizeLine(c.Key), w))
		if len(c.Old) > 0 {
			for _, l := range wrapMax("- "+contentText(c.Old), w-1, 3) {
				add(" " + st.DiffDel.Render(l))
			}
		}
		if len(c.New) > 0 {
			for _, l := range wrapMax("+ "+contentText(c.New), w-1, 3) {
				add(" " + st.DiffIns.Render(l))
			}
		}
		if c.Outside {
			add(" " + st.Warn.Render("changed outside memgov: no log entry, no review"))
		} else {
			add(" " + st.Muted.Render("a governed change beyond the baseline's delta budget"))
		}
		add("")
	}
	if len(v.Changes) == 0 && e.Detail != "" {
		for _, l := range wrap(review.SanitizeLine(e.Detail), w) {
			add(l)
		}
		add("")
	}
	if err := d.ctx.Svc.Drift().CanAck(e.MemoryRef); err != nil {
		for _, l := range wrap(err.Error(), w) {
			add(st.ReadOnly.Render(l))
		}
	} else {
		add(st.Bold.Render("R") + " re-approve current state   " + st.Bold.Render("B") + " roll back to baseline")
	}
	return out
}

// contentText is the text of a stored content object, or the object itself.
func contentText(raw json.RawMessage) string {
	var c struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &c) == nil && c.Text != nil {
		return "“" + review.SanitizeLine(*c.Text) + "”"
	}
	return review.SanitizeLine(string(raw))
}

func days(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	case d >= time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dm", int(d/time.Minute))
}

// Click selects the row under the mouse.
func (d *drift) Click(x, y int) tea.Cmd {
	if !d.zoom {
		clickRow(&d.cur, len(d.rows), d.lay(), x, y)
	}
	return nil
}
