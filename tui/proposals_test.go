package tui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// settle completes the loads the header shows, the attention counts and the
// health band, so that a golden does not depend on whether they answered
// before the program quit. Every seeded world has a log, so an attention
// answer has a log size.
func settle(m *Model) *Model {
	if m.att.LogSize == 0 {
		m.Update(m.checkAttention()())
	}
	if !m.health.loaded {
		m.Update(m.health.load()())
	}
	return m
}

// seeAll waits until every text has been drawn, in any order and any frames.
func seeAll(s *session, texts ...string) {
	s.t.Helper()
	teatest.WaitFor(s.t, s.tm.Output(), func(b []byte) bool {
		for _, t := range texts {
			if !bytes.Contains(b, []byte(t)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitTime), teatest.WithCheckInterval(10*time.Millisecond))
}

// proposalWorld is the seeded world with proposals in every state. Open ones
// list first, most recently changed first:
//
//	0 revised  Weekly paper digest chain          globex/research-agent
//	1 draft    Dunning email sequence              acme/billing-agent
//	2 draft    Refund reply template (retry loop)  acme/support-bot (duplicate of 3)
//	3 draft    Refund reply template              acme/support-bot
//
// then applied, rejected and archived ones.
type proposalWorld struct {
	*world
	ids map[string]string
}

func newProposalWorld(t *testing.T) *proposalWorld {
	t.Helper()
	w := &proposalWorld{world: newWorld(t), ids: map[string]string{}}
	if _, err := w.eng.AddPrincipal(w.ctx, memgov.Principal{ID: "sales-agent", Role: memgov.Executor, Tenant: "initech"}, "demo-curator"); err != nil {
		t.Fatal(err)
	}
	create := func(name, kind, by, title, art, rationale string, runs ...string) {
		p, err := w.eng.Host().CreateProposal(w.ctx, memgov.ProposalInput{Kind: kind, Title: title, Artifact: json.RawMessage(art),
			Rationale: rationale, SourceRunIDs: runs}, by)
		if err != nil {
			t.Fatal(err)
		}
		w.ids[name] = p.ID
	}
	create("vacation", "prompt-template", "hr-assistant", "Vacation request checklist",
		`{"template":"Dates: {from}-{to}. Cover: {who}. Manager: {manager}."}`, "HR asked the same four questions in 30 chats.", "r-3001")
	create("automerge", "automation", "research-agent", "Auto-merge dependency bumps",
		`{"on":"pull_request","if":"author == 'deps-bot'","do":"merge"}`, "Dependency PRs waited 3 days on average.", "r-811", "r-812")
	create("discovery", "agent-pack", "sales-agent", "Enterprise discovery pack",
		`{"tools":["crm.search","calendar.book"],"prompt":"Ask about budget, authority, need, timeline."}`, "Won deals asked these four things.", "r-77")
	create("refund", "prompt-template", "support-bot", "Refund reply template",
		`{"template":"Hi {name}, your refund of {amount} is on its way and reaches your account within 5 business days.","tone":"warm"}`,
		"Agents wrote 40 near-identical refund replies last week.", "r-2291", "r-2307")
	create("dup", "prompt-template", "support-bot", "Refund reply template (retry loop)",
		`{"template":"Hi {name}, your refund of {amount} is on its way and reaches your account within 5 business days.","tone":"warm"}`,
		"Same template, proposed again by a retried run.", "r-2308")
	// Titles refuse escapes at the engine since issue 13; the screen's
	// sanitiser still covers artifacts and rationales.
	create("dunning", "workflow-chain-pack", "billing-agent", "Dunning email sequence",
		`{"steps":["day 1: friendly reminder","day 7: second notice\u001b[2J","day 14: call the account owner"]}`,
		"Late invoices are chased by hand.\u200b", "r-1202")
	create("digest", "workflow-chain-pack", "research-agent", "Weekly paper digest chain",
		`{"steps":["search arxiv","summarise","post to #research"]}`, "Researchers asked for a digest every Monday.", "r-800")
	if _, err := w.eng.Host().ApplyProposal(w.ctx, w.ids["vacation"], "demo-curator"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.Host().RejectProposal(w.ctx, w.ids["automerge"], "demo-curator", "merging unattended breaks the release freeze"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.Host().ArchiveProposal(w.ctx, w.ids["discovery"], "sales-agent", "replaced by the CRM vendor's pack"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.Host().ReviseProposal(w.ctx, w.ids["digest"], memgov.ProposalInput{
		Artifact:  json.RawMessage(`{"steps":["search arxiv","keep papers with code","summarise","post to #research"]}`),
		Rationale: "Curator asked to skip papers without code."}, "research-agent"); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *proposalWorld) proposal(t *testing.T, name string) memgov.Proposal {
	t.Helper()
	p, _, err := w.eng.Host().ShowProposal(w.ctx, w.ids[name], "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoldenProposals(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			s := open(t, newProposalWorld(t).world, "demo-curator", size[0], size[1], ProposalsScreen)
			want := []string{"7 listed", "r2"} // the list and the revised digest's history
			if size[0] >= wideMin {
				want = append(want, "PARTIAL") // the header's band: the demo leaves metrics unmeasured
			}
			seeAll(s, want...)
			s.golden()
		})
	}
}

func TestGoldenProposalArtifact(t *testing.T) {
	s := open(t, newProposalWorld(t).world, "demo-curator", 80, 24, ProposalsScreen)
	s.see("r2")
	s.press("j", "enter") // the dunning sequence, whose title and artifact carry escapes
	s.see("ARTIFACT of")
	s.golden()
}

func TestFlowApplyProposalAsCurator(t *testing.T) {
	w := newProposalWorld(t)
	s := open(t, w.world, "demo-curator", 120, 40, ProposalsScreen)
	s.see("r2")
	s.press("j", "j", "j", "y")
	s.see("Apply “Refund reply template”?")
	s.press("y", "enter") // the double tap y y: the second y is text, enter refuses it
	s.see(`type "apply" to confirm`)
	if p := w.proposal(t, "refund"); p.State == memgov.ProposalApplied {
		t.Fatal("a double tap applied the proposal")
	}
	s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	s.press("apply", "enter")
	s.see("applied “Refund reply template” (approval-gate)")
	m := s.quit()
	if !strings.Contains(m.status.text, "= artifact hash ✓") {
		t.Fatalf("status %q", m.status.text)
	}
	p := w.proposal(t, "refund")
	if p.State != memgov.ProposalApplied || p.InstalledHash == "" || p.InstalledHash != p.ArtifactHash || p.DecidedBy != "demo-curator" {
		t.Fatalf("after apply: %+v", p)
	}
	if art, err := w.eng.Host().InstalledArtifact(w.ctx, p.ID); err != nil || oplog.HashPayload(art) != p.ArtifactHash {
		t.Fatalf("installed artifact: %s %v", art, err)
	}
}

func TestFlowRejectProposalWithNote(t *testing.T) {
	w := newProposalWorld(t)
	s := open(t, w.world, "demo-curator", 80, 24, ProposalsScreen)
	s.see("r2")
	s.press("j", "r")
	s.see("Reject “Dunning email sequence”?")
	s.press("duplicates the ERP dunning run", "enter")
	s.see("rejected “Dunning email sequence”")
	s.quit()
	p := w.proposal(t, "dunning")
	if p.State != memgov.ProposalRejected || p.Note != "duplicates the ERP dunning run" || p.DecidedBy != "demo-curator" {
		t.Fatalf("after reject: %+v", p)
	}
}

func TestFlowArchiveProposal(t *testing.T) {
	w := newProposalWorld(t)
	s := open(t, w.world, "demo-curator", 120, 40, ProposalsScreen)
	s.see("r2")
	s.press("j", "j", "z")
	s.see("Archive “Refund reply template (retry loop)”?")
	s.press("esc")
	s.see("cancelled")
	if p := w.proposal(t, "dup"); p.State != memgov.ProposalDraft {
		t.Fatalf("cancel archived it: %s", p.State)
	}
	s.press("z")
	s.see("Archive “Refund reply template (retry loop)”?")
	s.press("enter")
	s.see("archived “Refund reply template (retry loop)”")
	s.quit()
	if p := w.proposal(t, "dup"); p.State != memgov.ProposalArchived || p.Note != "no longer needed" {
		t.Fatalf("after archive: %+v", p)
	}
}

func TestFlowExecutorCannotApplyOrReject(t *testing.T) {
	w := newProposalWorld(t)
	before, _ := w.eng.Audit().LogSize(w.ctx)
	s := open(t, w.world, "support-bot", 120, 40, ProposalsScreen)
	s.see("3 listed")                                                    // acme's proposals only
	s.press("j", "j")                                                    // its own refund template
	seeAll(s, "z archive", "cannot apply: read-only: support-bot is an") // its own proposal: it may archive it, never apply it
	s.press("y")
	s.see("cannot apply: read-only: support-bot is an executor")
	s.press("r")
	s.see("cannot reject: read-only: support-bot is an executor")
	m := s.quit()
	if m.modal != nil {
		t.Fatal("a refused decision opened a confirmation")
	}
	if after, _ := w.eng.Audit().LogSize(w.ctx); after != before {
		t.Fatalf("log grew from %d to %d", before, after)
	}
	if p := w.proposal(t, "refund"); p.State != memgov.ProposalDraft {
		t.Fatalf("state %s", p.State)
	}
}

func TestProposalsFilter(t *testing.T) {
	s := open(t, newProposalWorld(t).world, "demo-curator", 120, 40, ProposalsScreen)
	s.see("r2")
	s.press("/", "state=open kind=prompt-template", "enter")
	s.see("2 listed")
	s.press("/", " state=finished", "enter") // appended to the filter shown
	s.see("state \"finished\"")
	m := s.quit()
	p := m.screens[ProposalsScreen].(*proposals)
	if len(p.list.rows) != 2 || p.filter.Kind != "prompt-template" {
		t.Fatalf("%d rows, filter %+v", len(p.list.rows), p.filter)
	}
}

// The header counts open proposals and follows decisions made elsewhere.
func TestProposalsCountInHeader(t *testing.T) {
	w := newProposalWorld(t)
	s := open(t, w.world, "demo-curator", 120, 40, MemoryScreen)
	s.see("Proposals 4")
	if _, err := w.eng.Host().RejectProposal(w.ctx, w.ids["dunning"], "ops-jane", "from the CLI"); err != nil {
		t.Fatal(err)
	}
	s.see("Proposals 3")
	s.quit()
}

// The Activity screen's health panel shows the governed write path's figures
// and follows new outcomes through the poll, without a key press.
func TestActivityHealthFollowsWrites(t *testing.T) {
	w := newQueueWorld(t)
	s := open(t, w.world, "demo-curator", 120, 40, ActivityScreen)
	seeAll(s, "acceptance 0.000", "top rejections none", "validation p50/p95/p99 ")
	res := w.write(t, writeReq("support-bot", "acme/support-bot", "c1/note", "EPISODIC", "Customer 1 called.", 7, nil))
	if res.Status != memgov.StatusRejected {
		t.Fatalf("write: %+v", res)
	}
	s.see("top rejections " + res.Reason + " 1")
	m := s.quit()
	if !m.health.loaded || m.health.r.Metrics.Rejections[res.Reason] != 1 {
		t.Fatalf("health %+v", m.health.r.Metrics)
	}
}
