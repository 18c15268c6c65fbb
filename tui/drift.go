package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/memgov/memgov/review"
)

// drift is the Drift screen: open MEMORY_DRIFT_DETECTED episodes, deny-on-drift
// first, with the key-level diff against the approved baseline. R re-approves
// the memory as it is now, B rolls it back to the baseline; operators and
// curators only.
type drift struct {
	ctx   *Context
	w, h  int
	list  *list[review.DriftView] // what the filter keeps; enter zooms on the whole diff
	all   []review.DriftView      // every open episode
	query string
}

type driftMsg struct {
	id   int64
	rows []review.DriftView
	err  error
}

func newDrift(c *Context) *drift {
	return &drift{ctx: c, list: newList(c, "drift", func(v review.DriftView) string { return v.Event.ID },
		"words in the memoryRef, policy or changed keys")}
}

func (d *drift) Title() string { return "Drift" }
func (d *drift) Init() tea.Cmd { return d.load() }
func (d *drift) Mode() Mode    { return d.list.mode() }

// apply keeps the episodes matching the filter's words.
func (d *drift) apply() {
	_, words := splitQuery(d.query)
	var rows []review.DriftView
	for _, v := range d.all {
		fields := []string{v.Event.MemoryRef, v.Event.Policy, v.Event.Detail}
		for _, c := range v.Changes {
			fields = append(fields, c.Key)
		}
		if matchWords(words, fields...) {
			rows = append(rows, v)
		}
	}
	d.list.setAll(rows)
	d.SetSize(d.w, d.h)
}

// lay stacks the table over the detail at every width: the list is short
// and its hashes need the width; the diff needs the lines.
func (d *drift) lay() split {
	lh := min(max(d.list.total+1, 3), max(d.h*2/5, 3))
	return split{listW: d.w, listH: lh, detW: d.w, detH: max(d.h-lh-1, 0)}
}

func (d *drift) SetSize(w, h int) {
	d.w, d.h = w, h
	d.list.resize(d.lay().listH - 1)
}

func (d *drift) load() tea.Cmd {
	id := d.list.ask()
	svc, ctx := d.ctx.Svc, d.ctx.Ctx
	return func() tea.Msg {
		rs, err := svc.Drift().List(ctx)
		return driftMsg{id, rs, err}
	}
}

func (d *drift) Update(msg tea.Msg, act Action) tea.Cmd {
	l := d.list
	switch msg := msg.(type) {
	case driftMsg:
		if !l.answered(msg.id, msg.err) {
			return nil
		}
		if msg.err == nil {
			d.all = msg.rows
			d.apply()
		}
		d.SetSize(d.w, d.h)
		return nil
	case attentionMsg:
		if l.grew(msg) {
			return d.load()
		}
		return nil
	case doneMsg:
		if !l.mine(msg) {
			return nil
		}
		if msg.err == nil {
			l.zoom = false
		}
		return l.done(msg, d.load())
	case tea.KeyMsg:
		if l.filtering {
			q, ok, cmd := l.filterKey(msg, act)
			if ok {
				l.closeFilter()
				d.query = q
				l.top()
				d.apply()
			}
			return cmd
		}
		if l.zoom {
			switch act {
			case ActEnter:
				l.zoom = false
			case ActReapprove, ActRollBaseline:
				return d.ack(act)
			case ActRefresh:
				return d.load()
			default:
				l.zoomKey(act, d.h)
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
			return l.openFilter(d.query)
		case ActBack:
			if d.query != "" {
				d.query = ""
				d.apply()
				return statusf(false, "filter cleared")
			}
		case ActRefresh:
			return d.load()
		case ActReapprove, ActRollBaseline:
			return d.ack(act)
		}
	}
	return nil
}

func (d *drift) ack(act Action) tea.Cmd {
	v, ok := d.list.selected()
	if !ok {
		return nil
	}
	verb := map[Action]string{ActReapprove: "re-approve", ActRollBaseline: "roll back to the baseline"}[act]
	if err := d.ctx.Svc.Drift().CanAck(v.Event.MemoryRef); err != nil {
		return statusf(true, "cannot %s: %s", verb, err.Error())
	}
	if d.list.busy {
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
			return d.list.decide(func() doneMsg {
				r, err := svc.Drift().Ack(ctx, v, res, note)
				if err != nil {
					return doneMsg{err: err}
				}
				entries := plural(r.Compensations, "compensating entry", "compensating entries")
				if res == review.RollBack {
					return doneMsg{text: fmt.Sprintf("%s rolled back to baseline %s with %s; the baseline is unchanged", ref, shortID(r.Baseline.ID), entries)}
				}
				return doneMsg{text: fmt.Sprintf("%s: its current memory is the new baseline %s (%s first)", ref, shortID(r.Baseline.ID), entries)}
			})
		},
	})
}

func (d *drift) Bindings() []key.Binding {
	k := d.ctx.Keys
	if d.list.filtering {
		return d.list.filterBindings(k)
	}
	var acks []key.Binding
	if d.ctx.ReadOnly == nil {
		acks = []key.Binding{k.Reapprove, k.RollBaseline}
	}
	if d.list.zoom {
		return append(acks, d.list.zoomBindings(k)...)
	}
	enter := k.Enter
	enter.SetHelp("enter", "diff")
	return append(append([]key.Binding{enter}, acks...), k.Filter)
}

func (d *drift) Crumb() string {
	st := d.ctx.Styles
	if d.list.filtering {
		return st.Crumb.Render("Drift") + "   " + st.Bold.Render("filter: ") + d.list.input.View()
	}
	if d.query != "" {
		return st.Crumb.Render("Drift") + st.Muted.Render("  filter: ") + review.SanitizeLine(d.query) + "  " +
			st.Bold.Render(fmt.Sprintf("%d of %d open", d.list.total, len(d.all))) + st.Muted.Render(" · esc clears")
	}
	n, deny := d.list.total, 0
	for _, r := range d.list.rows {
		if r.Event.Policy == "deny-on-drift" {
			deny++
		}
	}
	switch {
	case !d.list.loaded:
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
	if d.list.zoom {
		return d.list.page(d.detail(d.w), d.w, d.h)
	}
	s := d.lay()
	return s.join(d.ctx.Styles, d.table(s.listW), d.detail(s.detW))
}

func (d *drift) table(w int) []string {
	st := d.ctx.Styles
	if n := d.list.notice(d.query != "",
		[]string{"", "  " + st.Good.Render("No open drift."), "",
			"  " + st.Muted.Render("Memory changed outside its baseline shows here as soon as memgov notices.")},
		[]string{"", "  No open drift matches " + review.SanitizeLine(d.query) + ".", "  " + st.Muted.Render("/ changes the filter; esc clears it.")}); n != nil {
		return n
	}
	now := d.ctx.Now()
	cols := driftCols
	if w < 100 {
		cols = driftColsNarrow
	}
	return d.list.table(cols, w, func(i int) []string {
		r := d.list.rows[i]
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
	v, ok := d.list.selected()
	if !ok {
		return nil
	}
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
		if shown >= 6 && !d.list.zoom {
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
	d.list.click(d.lay(), x, y)
	return nil
}
