package review_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// proposalFixture adds principals around proposals: an owner-curator of acme,
// a principal holding proposal:activate, an operator, and three proposals of
// support-bot (acme) plus one of globex.
func proposalFixture(t *testing.T) (*fixture, map[string]memgov.Proposal) {
	t.Helper()
	f := setup(t)
	for _, p := range []memgov.Principal{
		{ID: "acme-owner-cur", Role: memgov.Curator, Tenant: "acme"},
		{ID: "deployer", Role: memgov.Orchestrator, Tenant: "acme", Attributes: map[string]string{"scopes": "memory:read proposal:activate"}},
		{ID: "ops", Role: memgov.Operator, Tenant: memgov.AllTenants},
		{ID: "research-agent", Role: memgov.Executor, Tenant: "globex"},
	} {
		if _, err := f.eng.AddPrincipal(f.ctx, p, "cur"); err != nil {
			t.Fatal(err)
		}
	}
	ps := map[string]memgov.Proposal{}
	for _, c := range []struct{ name, kind, by, art string }{
		{"refund", "prompt-template", "support-bot", `{"template":"Your refund of {{amount}} is on its way."}`},
		{"cron", "automation", "support-bot", `{"cron":"0 9 * * 1","action":"digest"}`},
		{"own", "agent-pack", "acme-owner-cur", `{"tools":["search"]}`},
		{"globex", "automation", "research-agent", `{"cron":"@daily"}`},
	} {
		p, err := f.eng.Host().CreateProposal(f.ctx, memgov.ProposalInput{Kind: c.kind, Title: c.name, Artifact: json.RawMessage(c.art),
			Rationale: "seen 3 times", SourceRunIDs: []string{"run-1"}}, c.by)
		if err != nil {
			t.Fatal(err)
		}
		ps[c.name] = p
	}
	rev, err := f.eng.Host().ReviseProposal(f.ctx, ps["refund"].ID, memgov.ProposalInput{Artifact: json.RawMessage(`{"template":"Refund of {{amount}} sent."}`), Rationale: "shorter"}, "support-bot")
	if err != nil {
		t.Fatal(err)
	}
	ps["refund"] = rev
	return f, ps
}

func who(t *testing.T, f *fixture, id string, opts ...review.Option) *review.Proposals {
	t.Helper()
	p, err := review.Identify(f.ctx, f.eng, id)
	if err != nil {
		t.Fatal(err)
	}
	return review.New(f.eng, p, opts...).Proposals().(*review.Proposals)
}

func TestProposalsListAndShow(t *testing.T) {
	f, ps := proposalFixture(t)
	cur := who(t, f, "cur")
	if _, err := cur.Reject(f.ctx, ps["cron"], "too noisy"); err != nil {
		t.Fatal(err)
	}
	all, err := cur.List(f.ctx, review.ProposalFilter{})
	if err != nil || len(all) != 4 {
		t.Fatalf("list: %d %v", len(all), err)
	}
	if all[len(all)-1].ID != ps["cron"].ID {
		t.Errorf("the rejected proposal is not last: %+v", all)
	}
	open, _ := cur.List(f.ctx, review.ProposalFilter{State: review.StateOpen})
	if len(open) != 3 {
		t.Errorf("open: %d", len(open))
	}
	if n, _ := cur.Pending(f.ctx); n != 3 {
		t.Errorf("pending %d", n)
	}
	auto, _ := cur.List(f.ctx, review.ProposalFilter{Kind: "automation", State: memgov.ProposalDraft})
	if len(auto) != 1 || auto[0].ID != ps["globex"].ID {
		t.Errorf("draft automations: %+v", auto)
	}
	// An acme agent sees acme's proposals only.
	bot := who(t, f, "support-bot")
	if n, _ := bot.Pending(f.ctx); n != 2 {
		t.Errorf("support-bot sees %d open", n)
	}
	if _, err := bot.Show(f.ctx, ps["globex"].ID); !errors.Is(err, memgov.ErrNotFound) {
		t.Errorf("support-bot reads globex's proposal: %v", err)
	}
	v, err := cur.Show(f.ctx, ps["refund"].ID)
	if err != nil || len(v.Revisions) != 2 || v.State != memgov.ProposalRevised || v.Revisions[1].ArtifactHash != v.ArtifactHash {
		t.Fatalf("show: %+v %v", v, err)
	}
}

func TestParseProposalFilter(t *testing.T) {
	f, err := review.ParseProposalFilter("state=Open kind=automation")
	if err != nil || f != (review.ProposalFilter{State: "open", Kind: "automation"}) || f.String() != "state=open kind=automation" {
		t.Fatalf("%+v %v", f, err)
	}
	for _, bad := range []string{"state=done", "kind=x", "owner=me", "open"} {
		if _, err := review.ParseProposalFilter(bad); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestProposalApplyNeedsACuratorOrTheScope(t *testing.T) {
	f, ps := proposalFixture(t)
	for _, tc := range []struct {
		who, proposal string
		want          string // "" applies
	}{
		{"support-bot", "refund", "read-only: support-bot is an executor; applying needs a curator who is not the owner (activation is approval-gate)"},
		{"ops", "refund", "read-only: ops is an operator"},
		{"stranger", "refund", "not a registered principal"},
		{"acme-owner-cur", "own", "acme-owner-cur owns this proposal; another curator must apply it"},
		{"acme-cur", "refund", "read-only here: acme-cur governs tenant globex, not acme"},
		// The scope holder: direct-rbac is not the advertised mode (M5).
		{"deployer", "own", "read-only: deployer is an orchestrator; applying needs a curator who is not the owner"},
		{"cur", "refund", ""},
		{"cur", "refund", "the proposal is applied"},
	} {
		before, _ := f.eng.Audit().LogSize(f.ctx)
		p := who(t, f, tc.who)
		cur, err := p.Show(f.ctx, ps[tc.proposal].ID)
		if err != nil {
			cur.Proposal = ps[tc.proposal]
		}
		res, err := p.Apply(f.ctx, cur.Proposal)
		after, _ := f.eng.Audit().LogSize(f.ctx)
		if tc.want == "" {
			if err != nil || res.Status != 200 || res.InstalledHash != cur.ArtifactHash || after != before+1 {
				t.Errorf("%s applies %s: %+v %v", tc.who, tc.proposal, res, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || after != before {
			t.Errorf("%s applies %s: %v (log %d -> %d), want %q", tc.who, tc.proposal, err, before, after, tc.want)
		}
		if _, forbidden := err.(*review.ForbiddenError); forbidden != (res.Status == 403) || forbidden != errors.Is(err, memgov.ErrForbidden) {
			t.Errorf("%s: status %d for %v", tc.who, res.Status, err)
		}
	}
}

func TestProposalRejectAndArchive(t *testing.T) {
	f, ps := proposalFixture(t)
	bot, ops := who(t, f, "support-bot"), who(t, f, "ops")
	if _, err := bot.Reject(f.ctx, ps["cron"], "mine"); !errors.Is(err, memgov.ErrForbidden) || !strings.Contains(err.Error(), "only curators and operators reject") {
		t.Fatalf("the owner agent rejects: %v", err)
	}
	p, err := ops.Reject(f.ctx, ps["cron"], "runs during the freeze")
	if err != nil || p.State != memgov.ProposalRejected || p.DecidedBy != "ops" || p.Note != "runs during the freeze" {
		t.Fatalf("reject: %+v %v", p, err)
	}
	if _, err := ops.Reject(f.ctx, p, "again"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("reject twice: %v", err)
	}
	// The owner may archive its own proposals, even as an executor.
	a, err := bot.Archive(f.ctx, p, "superseded by the weekly digest")
	if err != nil || a.State != memgov.ProposalArchived {
		t.Fatalf("owner archives: %+v %v", a, err)
	}
	if _, err := bot.Archive(f.ctx, a, "again"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("archive twice: %v", err)
	}
	if _, err := who(t, f, "research-agent").Archive(f.ctx, ps["refund"], "not mine"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("another tenant's agent archives: %v", err)
	}
}
