package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/memgov/memgov"
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

	list   *list[memgov.Proposal] // what the filter keeps; enter zooms on the artifact
	all    []memgov.Proposal      // what the service listed
	filter review.ProposalFilter
	words  []string // the filter's free words

	view    review.ProposalView // revision history of the selected proposal
	showReq int64
	showErr error
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

func newProposals(c *Context) *proposals {
	l := newList(c, "proposals", func(p memgov.Proposal) string { return p.ID }, "words in title, kind, owner or rationale · state=open kind=automation")
	l.input.CharLimit = 100
	return &proposals{ctx: c, list: l}
}

func (p *proposals) Title() string { return "Proposals" }
func (p *proposals) Init() tea.Cmd { return p.load() }

func (p *proposals) Mode() Mode { return p.list.mode() }

// lay stacks the table over the detail.
func (p *proposals) lay() split { return p.list.stacked(p.w, p.h) }

func (p *proposals) SetSize(w, h int) {
	p.w, p.h = w, h
	p.list.resize(p.lay().listH - 1)
}

func (p *proposals) svc() review.ProposalService { return p.ctx.Svc.Proposals() }

func (p *proposals) load() tea.Cmd {
	id := p.list.ask()
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

func (p *proposals) selected() (memgov.Proposal, bool) { return p.list.selected() }

func (p *proposals) filtered() bool {
	return p.filter != (review.ProposalFilter{}) || len(p.words) > 0
}

// keep lists the proposals the filter's words keep.
func (p *proposals) keep() {
	var rows []memgov.Proposal
	for _, r := range p.all {
		if matchWords(p.words, r.Title, r.Kind, r.Owner.Tenant+"/"+r.Owner.Principal, r.Rationale, r.State) {
			rows = append(rows, r)
		}
	}
	p.list.setAll(rows)
}

func (p *proposals) Update(msg tea.Msg, act Action) tea.Cmd {
	l := p.list
	if cmd, ok := l.heard(msg, p.load); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case proposalsMsg:
		if !l.answered(msg.id, msg.err) {
			return nil
		}
		if msg.err == nil {
			p.all = msg.rows
			p.keep()
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
	case tea.KeyMsg:
		if l.filtering {
			return p.filterKey(msg, act)
		}
		if l.zoom {
			switch act {
			case ActEnter:
				l.zoom = false
			case ActApply, ActReject, ActArchive:
				return p.decide(act)
			default:
				l.zoomKey(act, p.h)
			}
			return nil
		}
		if l.move(act) {
			return p.show()
		}
		switch act {
		case ActEnter:
			l.openZoom()
		case ActFilter:
			return l.openFilter(p.filter.String())
		case ActRefresh:
			return p.load()
		case ActBack:
			if p.filtered() {
				p.filter, p.words = review.ProposalFilter{}, nil // the cursor stays on its proposal
				return tea.Batch(p.load(), statusf(false, "filter cleared"))
			}
		case ActApply, ActReject, ActArchive:
			return p.decide(act)
		}
	}
	return nil
}

func (p *proposals) filterKey(msg tea.KeyMsg, act Action) tea.Cmd {
	l := p.list
	q, ok, cmd := l.filterKey(msg, act)
	if !ok {
		return cmd
	}
	terms, words := splitQuery(q)
	f, err := review.ParseProposalFilter(terms)
	if err != nil {
		return status(err)
	}
	l.closeFilter()
	p.filter, p.words, l.loaded = f, words, false
	l.setAll(nil)
	l.top()
	return p.load()
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
	if p.list.busy {
		return statusf(true, "a decision is still being recorded")
	}
	name := proposalName(pr)
	what := fmt.Sprintf("%s %s by %s (%s), revision %d, artifact %s.", pr.Kind, name, review.SanitizeLine(pr.Owner.Principal), review.SanitizeLine(pr.Owner.Tenant), pr.Revision, hashCell(pr.ArtifactHash))
	switch act {
	case ActApply:
		gate := p.ctx.Svc.ApplyGrant(pr)
		return askConfirm(confirmMsg{
			title: "Apply " + name, danger: true, word: "apply",
			lines: []string{what,
				"Installs this artifact byte for byte for tenant " + review.SanitizeLine(pr.Owner.Tenant) + "; its runs may use it from now on. Granted " + gate + ".",
				"The log records: proposal applied."},
			onYes: func(string) tea.Cmd {
				return p.list.decide(func() doneMsg {
					res, err := svc.Apply(ctx, pr)
					if err != nil {
						return doneMsg{err: fmt.Errorf("apply %s: %w", name, err)}
					}
					match := "= artifact hash ✓"
					if res.InstalledHash != res.ArtifactHash {
						match = "≠ artifact hash " + hashCell(res.ArtifactHash) + " ✗"
					}
					return doneMsg{text: fmt.Sprintf("applied %s (%s): installed %s %s", name, res.Activation, hashCell(res.InstalledHash), match)}
				})
			},
		})
	case ActReject:
		return askConfirm(confirmMsg{
			title: "Reject " + name, danger: true, required: true, label: "note",
			lines: []string{what, "The proposal stays inert and can no longer be applied. The note is recorded in the log for its owner."},
			onYes: func(note string) tea.Cmd {
				return p.list.decide(func() doneMsg {
					if _, err := svc.Reject(ctx, pr, note); err != nil {
						return doneMsg{err: fmt.Errorf("reject %s: %w", name, err)}
					}
					return doneMsg{text: "rejected " + name}
				})
			},
		})
	}
	return askConfirm(confirmMsg{
		title: "Archive " + name, label: "note", reason: "no longer needed",
		lines: []string{what, "Archived proposals leave the open list; they can no longer be revised or applied."},
		onYes: func(note string) tea.Cmd {
			return p.list.decide(func() doneMsg {
				if _, err := svc.Archive(ctx, pr, note); err != nil {
					return doneMsg{err: fmt.Errorf("archive %s: %w", name, err)}
				}
				return doneMsg{text: "archived " + name}
			})
		},
	})
}

// proposalName is how a sentence names a proposal: its title, or its id.
func proposalName(pr memgov.Proposal) string {
	if t := review.SanitizeLine(pr.Title); t != "" {
		return "“" + t + "”"
	}
	return "proposal " + shortID(pr.ID)
}

func (p *proposals) Bindings() []key.Binding {
	k := p.ctx.Keys
	if p.list.filtering {
		return p.list.filterBindings(k)
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
	if p.list.zoom {
		return append(bs, p.list.zoomBindings(k)...)
	}
	enter := k.Enter
	enter.SetHelp("enter", "artifact")
	return append(bs, enter, k.Filter)
}

// Crumb: how many proposals wait, the filter, how many are listed.
func (p *proposals) Crumb() string {
	st := p.ctx.Styles
	open := 0
	for _, r := range p.list.rows {
		if review.Open(r) {
			open++
		}
	}
	left := st.Crumb.Render("Proposals") + "   "
	if open > 0 {
		left = st.Attention.Render(plural(open, "proposal waits", "proposals wait")+" for a decision") + "   "
	}
	if p.list.filtering {
		return left + st.Bold.Render("filter: ") + p.list.input.View()
	}
	f := "any"
	if p.filtered() {
		f = review.SanitizeLine(strings.TrimSpace(p.filter.String() + " " + strings.Join(p.words, " ")))
	}
	mid := st.Muted.Render("filter: ") + f
	right := st.Bold.Render(fmt.Sprintf("%d listed", p.list.total))
	return crumbLine(left, mid, right, p.w-1)
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
	if p.list.zoom {
		return p.list.page(p.artifactPage(), p.w, p.h)
	}
	s := p.lay()
	return s.join(p.ctx.Styles, p.table(s.listW), p.detail(s.detW, s.detH))
}

func (p *proposals) table(w int) []string {
	st := p.ctx.Styles
	if n := p.list.notice(p.filtered(),
		[]string{"", "  " + st.Good.Render("No proposals."), "",
			"  " + st.Muted.Render("Artifacts agents' hosts learn from runs (agent packs, workflow chains, prompt templates, automations) wait here for a curator.")},
		[]string{"", "  " + st.Muted.Render("No proposal matches the filter (/ to change it, esc clears it).")}); n != nil {
		return n
	}
	now := p.ctx.Now()
	cols := proposalCols
	if w < wideMin {
		cols = proposalColsNarrow
	}
	return p.list.table(cols, w, func(i int) []string {
		r := p.list.rows[i]
		return []string{stateCell(st, r), r.Kind, review.SanitizeLine(r.Title), review.SanitizeLine(r.Owner.Tenant + "/" + r.Owner.Principal),
			fmt.Sprintf("%3d", r.Revision), ago(now, r.UpdatedAt)}
	})
}

func stateCell(st Styles, pr memgov.Proposal) string {
	s := pr.State
	switch {
	case review.Open(pr):
		return st.Attention.Render(s)
	case review.Applied(pr):
		return st.Good.Render(s)
	case s == memgov.ProposalRejected:
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
		lines[i] = review.SanitizeLine(l)
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
	title := review.SanitizeLine(pr.Title)
	if title == "" {
		title = "(untitled)"
	}
	add(st.Bold.Render(title) + "  " + stateCell(st, pr))
	owner := review.SanitizeLine(pr.Owner.Tenant) + "/" + review.SanitizeLine(pr.Owner.Principal)
	if pr.Owner.Workspace != "" {
		owner += " · workspace " + review.SanitizeLine(pr.Owner.Workspace)
	}
	add(st.Muted.Render(pr.Kind+" · by ") + owner)
	add(st.Muted.Render(fmt.Sprintf("revision %d · created %s · updated %s", pr.Revision, stamp(pr.CreatedAt), agoLong(now, pr.UpdatedAt))))
	if r := strings.TrimSpace(pr.Rationale); r != "" {
		for i, l := range wrapMax(review.Sanitize(r), w-11, 3) {
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
			rs[i] = shortIDs(review.SanitizeLine(r))
		}
		runs = strings.Join(rs, ", ")
	}
	add(field(st, "runs", runs))
	if pr.DuplicateOf != "" {
		dup := shortID(pr.DuplicateOf)
		for _, r := range p.all {
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
		d := pr.State + " by " + review.SanitizeLine(pr.DecidedBy)
		if pr.Gate != "" {
			d += " (" + pr.Gate + ")"
		}
		add(field(st, "decided", d))
		if pr.Note != "" {
			add(field(st, "note", "“"+review.SanitizeLine(pr.Note)+"”"))
		}
	}
	add("", st.ColHeader.Render("REVISIONS"))
	switch {
	case p.showErr != nil && p.view.ID != pr.ID:
		add(st.Bad.Render("cannot read revisions: " + review.SanitizeLine(p.showErr.Error())))
	case p.view.ID != pr.ID:
		add(st.Muted.Render("reading…"))
	default:
		revs := p.view.Revisions
		for i := len(revs) - 1; i >= 0 && i >= len(revs)-4; i-- {
			r := revs[i]
			line := fmt.Sprintf("r%-2d %s  %-14s %s", r.Revision, stamp(r.At), fit(review.SanitizeLine(r.By), 14), hashCell(r.ArtifactHash))
			if r.Rationale != "" && i > 0 {
				line += "  “" + review.SanitizeLine(r.Rationale) + "”"
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
	if !p.list.click(p.lay(), x, y) {
		return nil
	}
	return p.show()
}
