package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/review"
)

// proposals is the Proposals screen: artifacts agents' hosts synthesised
// (agent packs, workflow chains, prompt templates, automations), open ones
// first, with the selected one's artifact, rationale, provenance, hashes and
// revision history. y applies, r rejects with a note, z archives; each asks
// first. enter shows the whole artifact.
type proposals struct {
	ctx  *Context
	w, h int

	rows   []memgov.Proposal
	cur    cursor
	req    int64
	loaded bool
	err    error
	seen   int64 // the log size the list was read at
	filter review.ProposalFilter

	view    review.ProposalView // revision history of the selected proposal
	showReq int64
	showErr error

	zoom   bool // enter: the artifact takes the whole body
	scroll int

	filtering bool
	input     textinput.Model
	busy      bool
	words     []string          // the filter's free words
	all       []memgov.Proposal // what the service listed; rows is what the words keep
}

type proposalsMsg struct {
	id   int64
	rows []memgov.Proposal
	err  error
}

type proposalMsg struct {
	id   int64
	view review.ProposalView
	err  error
}

type proposalDoneMsg struct {
	text string
	err  error
}

func newProposals(c *Context) *proposals {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = "words in title, kind, owner or rationale · state=open kind=automation"
	in.CharLimit = 100
	return &proposals{ctx: c, input: in}
}

func (p *proposals) Title() string { return "Proposals" }
func (p *proposals) Init() tea.Cmd { return p.load() }

func (p *proposals) Mode() Mode {
	if p.filtering {
		return ModeInput
	}
	return ModeNormal
}

// lay stacks the table over the detail: the table needs the width for
// titles, the artifact needs the lines.
func (p *proposals) lay() split {
	lh := min(max(len(p.rows)+1, 3), max(p.h*2/5, 3))
	return split{listW: p.w, listH: lh, detW: p.w, detH: max(p.h-lh-1, 0)}
}

func (p *proposals) SetSize(w, h int) {
	p.w, p.h = w, h
	p.cur.height = max(p.lay().listH-1, 1)
	p.cur.clamp(len(p.rows))
}

func (p *proposals) svc() review.ProposalService { return p.ctx.Svc.Proposals() }

func (p *proposals) load() tea.Cmd {
	id := p.ctx.nextID()
	p.req = id
	svc, ctx, f := p.svc(), p.ctx.Ctx, p.filter
	return func() tea.Msg {
		rs, err := svc.List(ctx, f)
		return proposalsMsg{id, rs, err}
	}
}

// show loads the revision history of the selected proposal, unless it is
// already shown.
func (p *proposals) show() tea.Cmd {
	sel, ok := p.selected()
	if !ok || (p.view.ID == sel.ID && p.view.UpdatedAt.Equal(sel.UpdatedAt)) {
		return nil
	}
	id := p.ctx.nextID()
	p.showReq = id
	svc, ctx := p.svc(), p.ctx.Ctx
	return func() tea.Msg {
		v, err := svc.Show(ctx, sel.ID)
		return proposalMsg{id, v, err}
	}
}

func (p *proposals) selected() (memgov.Proposal, bool) {
	if p.cur.pos < len(p.rows) {
		return p.rows[p.cur.pos], true
	}
	return memgov.Proposal{}, false
}

func (p *proposals) Update(msg tea.Msg, act Action) tea.Cmd {
	switch msg := msg.(type) {
	case proposalsMsg:
		if msg.id != p.req {
			return nil
		}
		p.req, p.loaded, p.err = 0, true, msg.err
		if msg.err == nil {
			sel, _ := p.selected()
			p.all = msg.rows
			p.rows = p.rows[:0:0]
			for _, r := range p.all {
				if matchWords(p.words, r.Title, r.Kind, r.Owner.Tenant+"/"+r.Owner.Principal, r.Rationale, r.State) {
					p.rows = append(p.rows, r)
				}
			}
			for i, r := range p.rows {
				if r.ID == sel.ID {
					p.cur.pos = i
				}
			}
		}
		p.SetSize(p.w, p.h)
		return p.show()
	case proposalMsg:
		if msg.id != p.showReq {
			return nil
		}
		p.showReq, p.showErr = 0, msg.err
		if msg.err == nil {
			p.view = msg.view
		}
		return nil
	case attentionMsg:
		if msg.err == nil && msg.att.LogSize != p.seen && p.loaded && p.req == 0 {
			p.seen = msg.att.LogSize
			return p.load()
		}
		return nil
	case proposalDoneMsg:
		p.busy = false
		if msg.err != nil {
			return tea.Batch(p.load(), status(msg.err))
		}
		return tea.Batch(p.load(), refreshCounts, statusf(false, "%s", msg.text))
	case tea.KeyMsg:
		if p.filtering {
			return p.filterKey(msg, act)
		}
		if p.zoom {
			switch act {
			case ActDown:
				p.scroll++
			case ActUp:
				p.scroll = max(p.scroll-1, 0)
			case ActPageDown:
				p.scroll += max(p.h-2, 1)
			case ActPageUp:
				p.scroll = max(p.scroll-max(p.h-2, 1), 0)
			case ActTop:
				p.scroll = 0
			case ActBack, ActEnter:
				p.zoom = false
			case ActApply, ActReject, ActArchive:
				return p.decide(act)
			}
			return nil
		}
		if p.cur.act(act, len(p.rows)) {
			return p.show()
		}
		switch act {
		case ActEnter:
			if len(p.rows) > 0 {
				p.zoom, p.scroll = true, 0
			}
		case ActFilter:
			p.filtering = true
			p.input.SetValue(p.filter.String())
			p.input.CursorEnd()
			return p.input.Focus()
		case ActRefresh:
			return p.load()
		case ActBack:
			if p.filter != (review.ProposalFilter{}) || len(p.words) > 0 {
				p.filter, p.words = review.ProposalFilter{}, nil
				p.cur = cursor{height: p.cur.height}
				return tea.Batch(p.load(), statusf(false, "filter cleared"))
			}
		case ActApply, ActReject, ActArchive:
			return p.decide(act)
		}
	}
	return nil
}

func (p *proposals) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	switch act {
	case ActBack:
		p.filtering = false
		p.input.Blur()
		return nil
	case ActSubmit:
		terms, words := splitQuery(p.input.Value())
		f, err := review.ParseProposalFilter(terms)
		if err != nil {
			return status(err)
		}
		p.filtering = false
		p.input.Blur()
		p.filter, p.words, p.rows, p.loaded = f, words, nil, false
		p.cur = cursor{height: p.cur.height}
		return p.load()
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}

// decide asks to apply, reject or archive the selected proposal, or says
// why the person may not.
func (p *proposals) decide(act Action) tea.Cmd {
	pr, ok := p.selected()
	if !ok {
		return nil
	}
	svc, ctx := p.svc(), p.ctx.Ctx
	verb := map[Action]string{ActApply: "apply", ActReject: "reject", ActArchive: "archive"}[act]
	check := map[Action]func(memgov.Proposal) error{ActApply: svc.CanApply, ActReject: svc.CanReject, ActArchive: svc.CanArchive}[act]
	if err := check(pr); err != nil {
		return statusf(true, "cannot %s: %s", verb, err.Error())
	}
	if p.busy {
		return statusf(true, "a decision is still being recorded")
	}
	name := proposalName(pr)
	what := fmt.Sprintf("%s %s by %s (%s), revision %d, artifact %s.", pr.Kind, name, guard.SanitizeLine(pr.Owner.Principal), guard.SanitizeLine(pr.Owner.Tenant), pr.Revision, hashCell(pr.ArtifactHash))
	switch act {
	case ActApply:
		gate := "through the approval gate: you are a curator and not its owner"
		if a := p.ctx.Svc.Actor(); !authz.IsCurator(a) || a.ID == pr.Owner.Principal {
			gate = "by direct RBAC: you hold the " + authz.ScopeProposalActivate + " scope"
		}
		return askConfirm(confirmMsg{
			title: "Apply " + name, danger: true, word: "apply",
			lines: []string{what,
				"Installs this artifact byte for byte for tenant " + guard.SanitizeLine(pr.Owner.Tenant) + "; its runs may use it from now on. Granted " + gate + ".",
				"The log records: proposal applied."},
			onYes: func(string) tea.Cmd {
				p.busy = true
				return func() tea.Msg {
					res, err := svc.Apply(ctx, pr)
					if err != nil {
						return proposalDoneMsg{err: fmt.Errorf("apply %s: %w", name, err)}
					}
					match := "= artifact hash ✓"
					if res.InstalledHash != res.ArtifactHash {
						match = "≠ artifact hash " + hashCell(res.ArtifactHash) + " ✗"
					}
					return proposalDoneMsg{text: fmt.Sprintf("applied %s (%s): installed %s %s", name, res.Activation, hashCell(res.InstalledHash), match)}
				}
			},
		})
	case ActReject:
		return askConfirm(confirmMsg{
			title: "Reject " + name, danger: true, required: true, label: "note",
			lines: []string{what, "The proposal stays inert and can no longer be applied. The note is recorded in the log for its owner."},
			onYes: func(note string) tea.Cmd {
				p.busy = true
				return func() tea.Msg {
					if _, err := svc.Reject(ctx, pr, note); err != nil {
						return proposalDoneMsg{err: fmt.Errorf("reject %s: %w", name, err)}
					}
					return proposalDoneMsg{text: "rejected " + name}
				}
			},
		})
	}
	return askConfirm(confirmMsg{
		title: "Archive " + name, label: "note", reason: "no longer needed",
		lines: []string{what, "Archived proposals leave the open list; they can no longer be revised or applied."},
		onYes: func(note string) tea.Cmd {
			p.busy = true
			return func() tea.Msg {
				if _, err := svc.Archive(ctx, pr, note); err != nil {
					return proposalDoneMsg{err: fmt.Errorf("archive %s: %w", name, err)}
				}
				return proposalDoneMsg{text: "archived " + name}
			}
		},
	})
}

// proposalName is how a sentence names a proposal: its title, or its id.
func proposalName(pr memgov.Proposal) string {
	if t := guard.SanitizeLine(pr.Title); t != "" {
		return "“" + t + "”"
	}
	return "proposal " + shortID(pr.ID)
}

func (p *proposals) Bindings() []key.Binding {
	k := p.ctx.Keys
	if p.filtering {
		enter := k.Enter
		enter.SetHelp("enter", "apply filter")
		return []key.Binding{enter, k.Cancel}
	}
	var bs []key.Binding
	if pr, ok := p.selected(); ok {
		for _, d := range []struct {
			b   key.Binding
			can func(memgov.Proposal) error
		}{{k.Apply, p.svc().CanApply}, {k.Reject, p.svc().CanReject}, {k.Archive, p.svc().CanArchive}} {
			if d.can(pr) == nil {
				bs = append(bs, d.b)
			}
		}
	}
	if p.zoom {
		sc := key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "scroll"))
		return append(bs, sc, k.Back)
	}
	enter := k.Enter
	enter.SetHelp("enter", "artifact")
	return append(bs, enter, k.Filter)
}

// Crumb: how many proposals wait, the filter, how many are listed.
func (p *proposals) Crumb() string {
	st := p.ctx.Styles
	open := 0
	for _, r := range p.rows {
		if review.Open(r) {
			open++
		}
	}
	left := st.Crumb.Render("Proposals") + "   "
	if open > 0 {
		left = st.Attention.Render(plural(open, "proposal waits", "proposals wait")+" for a decision") + "   "
	}
	if p.filtering {
		return left + st.Bold.Render("filter: ") + p.input.View()
	}
	f := "any"
	if p.filter != (review.ProposalFilter{}) || len(p.words) > 0 {
		f = guard.SanitizeLine(strings.TrimSpace(p.filter.String() + " " + strings.Join(p.words, " ")))
	}
	mid := st.Muted.Render("filter: ") + f
	right := st.Bold.Render(fmt.Sprintf("%d listed", len(p.rows)))
	w := p.w - 1
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(mid) - ansi.StringWidth(right)
	if gap < 1 {
		return fit(left+mid, max(w-ansi.StringWidth(right)-1, 0)) + " " + right
	}
	return left + mid + strings.Repeat(" ", gap) + right
}

var proposalCols = []column{
	{title: "STATE", width: 8}, {title: "KIND", width: 19}, {title: "TITLE", flex: true},
	{title: "OWNER", width: 28}, {title: "REV", width: 3}, {title: "UPDATED", width: 7},
}

var proposalColsNarrow = []column{
	{title: "STATE", width: 8}, {title: "KIND", width: 12}, {title: "TITLE", flex: true},
	{title: "OWNER", width: 16}, {title: "REV", width: 3}, {title: "UPD", width: 4},
}

func (p *proposals) View() string {
	if p.zoom {
		lines := p.artifactPage()
		p.scroll = max(min(p.scroll, len(lines)-p.h), 0)
		return strings.Join(pane(lines[p.scroll:], p.w, p.h), "\n")
	}
	s := p.lay()
	return s.join(p.ctx.Styles, p.list(s.listW), p.detail(s.detW, s.detH))
}

func (p *proposals) list(w int) []string {
	st := p.ctx.Styles
	switch {
	case p.err != nil:
		return []string{st.Bad.Render("cannot read proposals: " + guard.SanitizeLine(p.err.Error())), st.Muted.Render("ctrl+r retries")}
	case !p.loaded:
		return []string{st.Muted.Render("reading proposals…")}
	case len(p.rows) == 0 && (p.filter != (review.ProposalFilter{}) || len(p.words) > 0):
		return []string{"", "  " + st.Muted.Render("No proposal matches the filter (/ to change it).")}
	case len(p.rows) == 0:
		return []string{"", "  " + st.Good.Render("No proposals."), "",
			"  " + st.Muted.Render("Artifacts agents' hosts learn from runs (agent packs, workflow chains, prompt templates, automations) wait here for a curator.")}
	}
	now := p.ctx.Now()
	cols := proposalCols
	if w < wideMin {
		cols = proposalColsNarrow
	}
	return renderTable(st, cols, w, p.cur, len(p.rows), func(i int) []string {
		r := p.rows[i]
		return []string{stateCell(st, r.State), r.Kind, guard.SanitizeLine(r.Title), guard.SanitizeLine(r.Owner.Tenant + "/" + r.Owner.Principal),
			fmt.Sprintf("%3d", r.Revision), ago(now, r.UpdatedAt)}
	})
}

func stateCell(st Styles, s string) string {
	switch s {
	case memgov.ProposalDraft, memgov.ProposalRevised:
		return st.Attention.Render(s)
	case engine.ProposalApplied:
		return st.Good.Render(s)
	case memgov.ProposalRejected:
		return st.Bad.Render(s)
	}
	return st.Muted.Render(s)
}

// prettyArtifact is the artifact indented, one sanitised line per line.
func prettyArtifact(raw json.RawMessage) []string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		b.Reset()
		b.Write(raw)
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = guard.SanitizeLine(l)
	}
	return lines
}

// artifactPage is the zoomed view: the whole artifact, then the facts.
func (p *proposals) artifactPage() []string {
	pr, ok := p.selected()
	if !ok {
		return nil
	}
	st := p.ctx.Styles
	out := []string{st.Bold.Render(fmt.Sprintf("ARTIFACT of %s  (%s, revision %d, %d bytes, %s)", proposalName(pr), pr.Kind, pr.Revision, len(pr.Artifact), hashCell(pr.ArtifactHash))), ""}
	for _, l := range prettyArtifact(pr.Artifact) {
		out = append(out, wrap(l, p.w)...)
	}
	return append(append(out, ""), p.facts(pr, p.w)...)
}

// detail: the artifact beside the facts at wide sizes; the facts above the
// artifact at narrow ones.
func (p *proposals) detail(w, h int) []string {
	pr, ok := p.selected()
	if !ok {
		return nil
	}
	st := p.ctx.Styles
	if w < wideMin {
		facts := p.facts(pr, w)
		room := h - len(facts) - 2
		return append(append(facts, ""), p.artifactBox(pr, w, max(room, 1))...)
	}
	lw := w / 2
	left := p.artifactBox(pr, lw, h)
	right := p.facts(pr, w-lw-3)
	out := make([]string, max(len(left), len(right)))
	lp, rp := pane(left, lw, len(out)), pane(right, w-lw-3, len(out))
	for i := range out {
		out[i] = lp[i] + st.Rule.Render(" ┊ ") + rp[i]
	}
	return out
}

// artifactBox is the artifact's first lines, in at most h lines.
func (p *proposals) artifactBox(pr memgov.Proposal, w, h int) []string {
	st := p.ctx.Styles
	out := []string{st.ColHeader.Render(fmt.Sprintf("ARTIFACT  %d bytes", len(pr.Artifact)))}
	lines := prettyArtifact(pr.Artifact)
	room := h - 1
	var wrapped []string
	for _, l := range lines {
		wrapped = append(wrapped, wrap(l, w)...)
	}
	for i, l := range wrapped {
		if i == room-1 && len(wrapped) > room {
			out = append(out, st.Muted.Render(fmt.Sprintf("… %d more lines (enter shows all)", len(wrapped)-i)))
			break
		}
		out = append(out, l)
	}
	return out
}

// facts: what a curator decides on, next to the artifact.
func (p *proposals) facts(pr memgov.Proposal, w int) []string {
	st := p.ctx.Styles
	now := p.ctx.Now()
	var out []string
	add := func(ls ...string) {
		for _, l := range ls {
			out = append(out, fit(l, w))
		}
	}
	title := guard.SanitizeLine(pr.Title)
	if title == "" {
		title = "(untitled)"
	}
	add(st.Bold.Render(title) + "  " + stateCell(st, pr.State))
	owner := guard.SanitizeLine(pr.Owner.Tenant) + "/" + guard.SanitizeLine(pr.Owner.Principal)
	if pr.Owner.Workspace != "" {
		owner += " · workspace " + guard.SanitizeLine(pr.Owner.Workspace)
	}
	add(st.Muted.Render(pr.Kind+" · by ") + owner)
	add(st.Muted.Render(fmt.Sprintf("revision %d · created %s · updated %s", pr.Revision, stamp(pr.CreatedAt), agoLong(now, pr.UpdatedAt))))
	if r := strings.TrimSpace(pr.Rationale); r != "" {
		for i, l := range wrapMax(guard.Sanitize(r), w-11, 3) {
			if i == 0 {
				add(st.Label.Render(fmt.Sprintf("%-11s", "rationale")) + l)
			} else {
				add(strings.Repeat(" ", 11) + l)
			}
		}
	}
	runs := "none recorded"
	if len(pr.Provenance.SourceRunIDs) > 0 {
		rs := make([]string, len(pr.Provenance.SourceRunIDs))
		for i, r := range pr.Provenance.SourceRunIDs {
			rs[i] = shortIDs(guard.SanitizeLine(r))
		}
		runs = strings.Join(rs, ", ")
	}
	add(field(st, "runs", runs))
	if pr.DuplicateOf != "" {
		dup := shortID(pr.DuplicateOf)
		for _, r := range p.rows {
			if r.ID == pr.DuplicateOf {
				dup += " " + proposalName(r) + " (" + r.State + ")"
			}
		}
		add(field(st, "duplicate", st.Warn.Render("of "+dup)))
	}
	add(field(st, "artifact", hashCell(pr.ArtifactHash)))
	switch {
	case pr.InstalledHash == "":
		add(field(st, "installed", st.Muted.Render("— (not applied)")))
	case pr.InstalledHash == pr.ArtifactHash:
		add(field(st, "installed", hashCell(pr.InstalledHash)+st.Good.Render(" = artifact ✓")))
	default:
		add(field(st, "installed", hashCell(pr.InstalledHash)+st.Bad.Render(" ≠ artifact ✗")))
	}
	if pr.DecidedBy != "" {
		d := pr.State + " by " + guard.SanitizeLine(pr.DecidedBy)
		if pr.Gate != "" {
			d += " (" + pr.Gate + ")"
		}
		add(field(st, "decided", d))
		if pr.Note != "" {
			add(field(st, "note", "“"+guard.SanitizeLine(pr.Note)+"”"))
		}
	}
	add("", st.ColHeader.Render("REVISIONS"))
	switch {
	case p.showErr != nil && p.view.ID != pr.ID:
		add(st.Bad.Render("cannot read revisions: " + guard.SanitizeLine(p.showErr.Error())))
	case p.view.ID != pr.ID:
		add(st.Muted.Render("reading…"))
	default:
		revs := p.view.Revisions
		for i := len(revs) - 1; i >= 0 && i >= len(revs)-4; i-- {
			r := revs[i]
			line := fmt.Sprintf("r%-2d %s  %-14s %s", r.Revision, stamp(r.At), fit(guard.SanitizeLine(r.By), 14), hashCell(r.ArtifactHash))
			if r.Rationale != "" && i > 0 {
				line += "  “" + guard.SanitizeLine(r.Rationale) + "”"
			}
			add(line)
		}
		if len(revs) > 4 {
			add(st.Muted.Render(fmt.Sprintf("… %d older", len(revs)-4)))
		}
	}
	add("")
	var why []string
	for _, c := range []struct {
		verb string
		err  error
	}{{"apply", p.svc().CanApply(pr)}, {"reject", p.svc().CanReject(pr)}, {"archive", p.svc().CanArchive(pr)}} {
		if c.err == nil {
			why = append(why, st.Bold.Render(map[string]string{"apply": "y", "reject": "r", "archive": "z"}[c.verb])+" "+c.verb)
		}
	}
	if len(why) > 0 {
		add(strings.Join(why, "   "))
	}
	if err := p.svc().CanApply(pr); err != nil && review.Open(pr) {
		for _, l := range wrap("cannot apply: "+err.Error(), w) {
			add(st.ReadOnly.Render(l))
		}
	} else if len(why) == 0 {
		add(st.Muted.Render("closed: nothing to decide"))
	}
	return out
}

// Click selects the row under the mouse.
func (p *proposals) Click(x, y int) tea.Cmd {
	if p.zoom || !clickRow(&p.cur, len(p.rows), p.lay(), x, y) {
		return nil
	}
	return p.show()
}
