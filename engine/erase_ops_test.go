package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
)

// An erasure keeps the audit whole after every operation that can carry the
// subject: distillation, consolidation, promotion, workspace merges,
// proposals and commitments. Each test runs the operation on a real SQLite
// file, erases the subject, and requires `audit verify` (the stored digest)
// and `audit verify --replay` (a fresh replay) to pass.

// auditWhole fails unless both the stored-digest verify and a fresh replay
// verify pass.
func auditWhole(t *testing.T, e *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	for name, f := range map[string]func(context.Context) (memgov.VerifyReport, error){"verify": e.Audit().Verify, "verify --replay": e.Audit().VerifyReplay} {
		vr, err := f(ctx)
		if err != nil || !vr.OK {
			t.Fatalf("audit %s after erasure: %v; table %s row %s lsn %d: %s %+v", name, err, vr.Table, vr.Row, vr.BadLSN, vr.Problem, vr.Differences)
		}
	}
}

func TestEraseAfterDistillKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/bot", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund.", nil)
	enginetest.PutText(t, e, "acme/bot", "other", memgov.Episodic, "Shipping to Lyon takes three days.", nil)
	if _, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/bot", Budget: 2000, Actor: "jane"}); err != nil {
		t.Fatal(err)
	}
	auditWhole(t, e)
	// A search before the erasure indexes the text; after it, nothing finds it.
	q := host.SearchQuery{MemoryRef: "acme/bot", Query: "Zed Quirinal refund", IncludeSuperseded: true}
	if hits, err := e.Host().Adapter(memgov.Owner).Search(ctx, q); err != nil || len(hits) == 0 || hits[0].Entry.ID != "cust" {
		t.Fatalf("search before the erasure: %+v %v", hits, err)
	}
	rep, err := e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"})
	if err != nil || rep.Status != "COMPLETED" {
		t.Fatalf("%+v %v", rep, err)
	}
	auditWhole(t, e)
	hits, err := e.Host().Adapter(memgov.Owner).Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if strings.Contains(strings.ToLower(string(h.Entry.Content)), "quirinal") {
			t.Fatalf("search finds the erased text: %+v", h)
		}
	}
}

// eraseAndAudit erases subject as jane and checks the audit, both ways, and
// that the erasure found something.
func eraseAndAudit(t *testing.T, e *engine.Engine, subject string) memgov.EraseReport {
	t.Helper()
	auditWhole(t, e)
	rep, err := e.Lifecycle().Erase(context.Background(), memgov.EraseRequest{Subject: subject, By: "jane"})
	if err != nil || rep.Items == 0 {
		t.Fatalf("erase %q: %+v %v", subject, rep, err)
	}
	auditWhole(t, e)
	return rep
}

func TestEraseAfterConsolidateKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/bot", "pref-1", memgov.Semantic, "Customer Zed Quirinal prefers email follow-up after every refund request.", nil)
	enginetest.PutText(t, e, "acme/bot", "pref-2", memgov.Semantic, "Customer Zed Quirinal prefers an email follow-up after every refund request.", nil)
	enginetest.PutText(t, e, "acme/bot", "ship", memgov.Semantic, "Shipping to the EU takes four business days.", nil)
	r, err := e.Lifecycle().Consolidate(ctx, lifecycle.ConsolidateRequest{MemoryRef: "acme/bot", Actor: "jane"})
	if err != nil || r.Merged == 0 {
		t.Fatalf("consolidate: %+v %v", r, err)
	}
	eraseAndAudit(t, e, "zed quirinal")
}

func TestEraseAfterPromoteKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: lifecycle.PromoterPrincipal, Role: memgov.Orchestrator, Tenant: "acme"}, ""); err != nil {
		t.Fatal(err)
	}
	fact := `{"text":"%s","subject":"zed quirinal","predicate":"lives in","object":"Lyon"}`
	episodeBy(t, e, "obs-1", "orch", fmtJSON(fact, "Zed Quirinal said he lives in Lyon"), "crm://1")
	episodeBy(t, e, "obs-2", "bot", fmtJSON(fact, "Delivery note: Zed Quirinal, Lyon"), "crm://2")
	episodeBy(t, e, "obs-3", "orch", fmtJSON(fact, "Zed Quirinal confirmed his Lyon address"), "crm://3")
	rep, err := e.Lifecycle().Promote(ctx, "acme/shared", lifecycle.PromoterPrincipal)
	if err != nil || len(rep.Candidates) == 0 || rep.Candidates[0].Status != lifecycle.PromoteWritten {
		t.Fatalf("promote: %+v %v", rep, err)
	}
	approveAs(t, e, rep.Candidates[0].Result.ReviewID, "jane")
	er := eraseAndAudit(t, e, "zed quirinal")
	if er.Items < 4 {
		t.Fatalf("the promoted fact was not erased with its episodes: %+v", er)
	}
}

func TestEraseAfterWorkspaceMergeKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/shared", "a", memgov.Episodic, "the deploy window is on tuesdays", nil)
	ws, err := e.Host().CreateWorkspace(ctx, "bot", "acme/shared", "task-1")
	if err != nil {
		t.Fatal(err)
	}
	if r := wsWrite(t, e, "bot", ws.Ref, "d", "Zed Quirinal asked for the canary to run thirty minutes"); r.Status != memgov.StatusCommitted {
		t.Fatalf("workspace write: %+v", r)
	}
	mr, err := e.Host().SubmitWorkspace(ctx, ws.ID, "bot")
	if err != nil || len(mr.Changes) != 1 {
		t.Fatalf("submit: %+v %v", mr, err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: mr.Changes[0].ReviewID, Reviewer: "jane", Approve: true}); err != nil {
		t.Fatal(err)
	}
	er := eraseAndAudit(t, e, "zed quirinal")
	if er.Items < 2 {
		t.Fatalf("the merged entry was not erased with the workspace's: %+v", er)
	}
}

func TestEraseAfterProposalKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/bot", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund.", nil)
	p, err := e.Host().CreateProposal(ctx, memgov.ProposalInput{Kind: "prompt-template", Title: "Refund follow-up",
		Artifact: json.RawMessage(`{"name":"refund","steps":["check refund"]}`), Rationale: "seen when Zed Quirinal asked"}, "bot")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Host().ApplyProposal(ctx, p.ID, "jane"); err != nil {
		t.Fatal(err)
	}
	er := eraseAndAudit(t, e, "zed quirinal")
	if er.Unresolved == 0 || er.Status != "INCOMPLETE" || len(er.Left) != 1 {
		t.Fatalf("the proposal naming the subject is not reported: %+v", er)
	}
}

func TestEraseAfterCommitmentKeepsAuditWhole(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/bot", "follow-up", memgov.Episodic, "", func(r *memgov.PutRequest) {
		r.Content = json.RawMessage(`{"text":"Follow up with Zed Quirinal about the refund.","commit_at":"2025-01-02T09:00:00Z"}`)
	})
	if r, err := e.Host().TickCommitments(ctx, "acme/bot", "jane"); err != nil || len(r.Inferred) != 1 {
		t.Fatalf("tick: %+v %v", r, err)
	}
	c.Add(day(2))
	if r, err := e.Host().TickCommitments(ctx, "acme/bot", "jane"); err != nil || len(r.Fired) != 1 {
		t.Fatalf("tick: %+v %v", r, err)
	}
	eraseAndAudit(t, e, "zed quirinal")
}
