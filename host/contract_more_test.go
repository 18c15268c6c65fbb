package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
)

func TestSearchHybridRanking(t *testing.T) {
	e, c := enginetest.Contract(t)
	ctx := context.Background()
	enginetest.Put(t, e, "acme/support-bot", "refund/limit", "Refunds above 1000 dollars need a second signature from finance.", "billing")
	c.Add(time.Hour)
	enginetest.Put(t, e, "acme/support-bot", "shipping/eu", "Shipping to the EU takes four business days.", "logistics")
	c.Add(time.Hour)
	enginetest.Put(t, e, "acme/support-bot", "customer-42/channel", "Customer 42 prefers email follow-up.", "crm")
	enginetest.Put(t, e, "acme/support-bot", e2(memgov.IndexKey), `{"text":"refund refund refund"}`)
	bot := e.Host().Adapter(memgov.As("support-bot"))
	hits, err := bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot", Query: "who signs large refunds?"})
	if err != nil || len(hits) == 0 || hits[0].Entry.ID != "refund/limit" {
		t.Fatalf("hits = %+v, %v", hits, err)
	}
	for _, h := range hits {
		if h.Entry.ID == memgov.IndexKey {
			t.Fatal("reserved key searched")
		}
		if h.Ranks.Recency == 0 || h.Score <= 0 {
			t.Fatalf("hit %+v", h)
		}
	}
	want := e.Policy().HybridRRF(hits[0].Ranks)
	if d := hits[0].RRF - want; d > 1e-9 || d < -1e-9 {
		t.Fatalf("rrf %v, want %v", hits[0].RRF, want)
	}
	// Structure: a tag alone finds its entries.
	hits, _ = bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot", Query: "logistics"})
	if len(hits) == 0 || hits[0].Entry.ID != "shipping/eu" || hits[0].Structure == 0 {
		t.Fatalf("structure hits = %+v", hits)
	}
	hits, _ = bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot", Tags: []string{"crm"}})
	if len(hits) != 1 || hits[0].Entry.ID != "customer-42/channel" {
		t.Fatalf("tag filter = %+v", hits)
	}
	if _, err := bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot"}); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("empty query: %v", err)
	}
}

func e2(s string) string { return s }

func TestSearchTemporalValidity(t *testing.T) {
	e, c := enginetest.Contract(t)
	ctx := context.Background()
	v1 := enginetest.Put(t, e, "acme/support-bot", "ceo", `{"text":"The CEO of ACME is Alice Martin.","subject":"ACME","predicate":"ceo","object":"Alice Martin"}`)
	c.Add(24 * time.Hour)
	tChange := c.Now()
	enginetest.Put(t, e, "acme/support-bot", "ceo", `{"text":"The CEO of ACME is Bob Stone.","subject":"ACME","predicate":"ceo","object":"Bob Stone"}`)
	enginetest.Put(t, e, "acme/support-bot", "old-office", `{"text":"The ACME office was in Leeds.","invalid_at":"2026-05-10T12:00:00Z"}`)
	c.Add(24 * time.Hour)
	bot := e.Host().Adapter(memgov.As("support-bot"))
	q := host.SearchQuery{MemoryRef: "acme/support-bot", Query: "who is the CEO of ACME"}
	hits, _ := bot.Search(ctx, q)
	if len(hits) != 1 || !strings.Contains(hits[0].Entry.Content, "Bob") || hits[0].InvalidAt != "" {
		t.Fatalf("now: %+v", hits)
	}
	q.IncludeSuperseded = true
	hits, _ = bot.Search(ctx, q)
	ceo := 0
	for _, h := range hits {
		if h.Entry.ID == "ceo" {
			ceo++
		}
	}
	if ceo != 2 {
		t.Fatalf("include superseded: %+v", hits)
	}
	for _, h := range hits {
		if h.VersionID == v1.VersionID && (h.State != memgov.Superseded || h.InvalidAt != tChange.Format(oplog.TimeFormat)) {
			t.Fatalf("superseded fact: %+v", h)
		}
	}
	q.IncludeSuperseded = false
	q.AsOf = enginetest.T0.Add(time.Hour)
	hits, _ = bot.Search(ctx, q)
	if len(hits) != 1 || !strings.Contains(hits[0].Entry.Content, "Alice") {
		t.Fatalf("as of: %+v", hits)
	}
	// content.invalid_at ends a fact's validity.
	hits, _ = bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot", Query: "ACME office Leeds"})
	for _, h := range hits {
		if h.Entry.ID == "old-office" {
			t.Fatalf("invalid fact surfaced: %+v", h)
		}
	}
}

func TestDistillationBudgetAndByteStability(t *testing.T) {
	ctx := context.Background()
	run := func() (*engine.Engine, host.DistillResult, error) {
		e, _ := enginetest.Contract(t)
		enginetest.Put(t, e, "acme/support-bot", "b", "Refunds above 1000 dollars need a second signature. Finance signs them within a day.")
		enginetest.Put(t, e, "acme/support-bot", "a", "Customer 42 prefers email follow-up. Never call after 6pm.")
		enginetest.Put(t, e, "acme/support-bot", "c", "Shipping to the EU takes four business days.")
		size, _ := e.Audit().LogSize(ctx)
		_, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 40, Actor: "acme-curator"})
		if after, _ := e.Audit().LogSize(ctx); after != size {
			t.Fatalf("a failed distillation wrote %d entries", after-size)
		}
		res, err2 := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 80, Actor: "acme-curator"})
		if err2 != nil {
			t.Fatal(err2)
		}
		return e, res, err
	}
	e, r1, overErr := run()
	if !errors.Is(overErr, host.ErrTokenBudgetExceeded) || !strings.Contains(overErr.Error(), "token_budget_exceeded") {
		t.Fatalf("over budget: %v", overErr)
	}
	if r1.TokensUsed > r1.TokenBudget || r1.TokensUsed != r1.InputTokens+r1.OutputTokens || r1.InputTokens == 0 || r1.OutputTokens == 0 {
		t.Fatalf("accounting: %+v", r1)
	}
	var ar host.Archive
	if err := json.Unmarshal(r1.Archive, &ar); err != nil {
		t.Fatal(err)
	}
	if host.CountTokens(ar.Text) != r1.OutputTokens || ar.Sources[0].Key != "a" || ar.Sources[2].Key != "c" {
		t.Fatalf("archive: %s", r1.Archive)
	}
	// Stored immutably under its hash, and the index the next session loads.
	bot := e.Host().Adapter(memgov.As("support-bot"))
	g, _ := bot.GetVersion(ctx, "acme/support-bot", r1.ArchiveKey)
	if g == nil || !bytes.Equal(g.Content, r1.Archive) || oplog.HashPayload(g.Content) != r1.ArchiveHash {
		t.Fatalf("archive entry: %+v", g)
	}
	idx, _ := bot.GetVersion(ctx, "acme/support-bot", memgov.IndexKey)
	var mi host.MemoryIndex
	if idx == nil || json.Unmarshal(idx.Content, &mi) != nil || mi.Archive != r1.ArchiveKey || mi.Text != ar.Text || !r1.IndexUpdated {
		t.Fatalf("index: %+v", idx)
	}
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "memory.compacted"})
	if len(evs) != 1 {
		t.Fatalf("events: %+v", evs)
	}
	var ev struct {
		Distillation struct {
			TokenBudget, TokensUsed int
			IndexUpdated            bool
		} `json:"distillation"`
	}
	_ = json.Unmarshal(evs[0].Data, &ev)
	if ev.Distillation.TokenBudget != 80 || ev.Distillation.TokensUsed != r1.TokensUsed || !ev.Distillation.IndexUpdated {
		t.Fatalf("memory.compacted = %s", evs[0].Data)
	}
	// Same sources and budget: the same bytes, in another database too; no
	// second archive and no index change.
	again, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 80, Actor: "acme-curator"})
	if err != nil || !bytes.Equal(again.Archive, r1.Archive) || again.ArchiveNew || again.IndexUpdated {
		t.Fatalf("second run: %+v %v", again, err)
	}
	_, r2, _ := run()
	if !bytes.Equal(r1.Archive, r2.Archive) || r1.ArchiveHash != r2.ArchiveHash {
		t.Fatalf("not byte-stable:\n%s\n%s", r1.Archive, r2.Archive)
	}
	if rep, err := e.Audit().Rebuild(ctx); err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
	if _, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 80, Actor: "research-agent"}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("other tenant distils: %v", err)
	}
}

// TestDistillationRedactsAgain: a secret registered after an entry was
// stored never reaches the archive or the index (SR-1 carries forward).
func TestDistillationRedactsAgain(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	const secret = "hunter2-hunter2-xyz"
	enginetest.Put(t, e, "acme/support-bot", "legacy", "The legacy admin password is "+secret+" until rotation.")
	if _, err := e.Secrets().Register("", "admin-pw", secret); err != nil {
		t.Fatal(err)
	}
	res, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 200, Actor: "acme-curator"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(res.Archive, []byte(secret)) || bytes.Contains(res.Index, []byte(secret)) || !bytes.Contains(res.Archive, []byte("[REDACTED:admin-pw]")) {
		t.Fatalf("archive %s", res.Archive)
	}
}

func TestConsolidationIdempotency(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	put2 := func(key, content, actor string, conf float64) {
		if !strings.HasPrefix(content, "{") {
			content = string(enginetest.MustJSON(map[string]string{"text": content}))
		}
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: key, Layer: memgov.Semantic, Content: json.RawMessage(content),
			Confidence: conf, Actor: actor, Tags: []string{key}}); err != nil {
			t.Fatal(err)
		}
	}
	put2("pref-1", "Customer 42 prefers email follow-up after every refund request.", "support-bot", 0.6)
	// The same claims, once normalised ("an" is no content word): the judge
	// proves pref-2 holds pref-1. ("e-mail" for "email" is not proven: the
	// judge reads another value of a single-valued "prefer".)
	put2("pref-2", "Customer 42 prefers an email follow-up after every refund request.", "acme-curator", 0.7)
	put2("ceo-old", `{"text":"ACME's CEO is Alice.","subject":"ACME","predicate":"ceo","object":"Alice"}`, "support-bot", 0.8)
	put2("ceo-new", `{"text":"ACME's CEO is Bob.","subject":"ACME","predicate":"ceo","object":"Bob"}`, "support-bot", 0.8)
	put2("ship", "Shipping to the EU takes four business days.", "support-bot", 0.8)
	enginetest.Put(t, e, "acme/other-bot", "pref-1", "Customer 42 prefers email follow-up after every refund request.")
	const secret = "tok-9999-abcdef"
	put2("note", "Use token "+secret+" for the sandbox.", "support-bot", 0.5)
	put2("note-dup", "Use token "+secret+" for the sandbox!", "acme-curator", 0.5)
	if _, err := e.Secrets().Register("", "sandbox", secret); err != nil {
		t.Fatal(err)
	}
	r1, err := e.Lifecycle().Consolidate(ctx, lifecycle.ConsolidateRequest{MemoryRef: "acme/support-bot", Actor: "acme-curator"})
	if err != nil {
		t.Fatal(err)
	}
	if r1.InputCount != 7 || r1.Merged != 2 || r1.Superseded != 1 || r1.OutputCount != 4 || r1.Strengthened != 2 {
		t.Fatalf("first pass: %+v", r1)
	}
	if !reflect.DeepEqual(r1.Rules, map[string]int{"same-words": 2, "single-valued": 1}) || len(r1.Changes) != 3 {
		t.Fatalf("first pass rules: %+v", r1)
	}
	jane := e.Host().Adapter(memgov.As("jane"))
	l, _ := jane.List(ctx, "acme/support-bot", host.ListOptions{})
	if got := enginetest.KeysOf(l); !reflect.DeepEqual(got, []string{"ceo-new", "note-dup", "pref-2", "ship"}) {
		t.Fatalf("after pass: %v", got)
	}
	v, _ := jane.GetVersion(ctx, "acme/support-bot", "pref-2")
	if v.Confidence <= 0.7 || !reflect.DeepEqual(v.Tags, []string{"pref-2", "pref-1"}) || v.MergedFrom == "" {
		t.Fatalf("strengthened: %+v", v)
	}
	n, _ := jane.GetVersion(ctx, "acme/support-bot", "note-dup")
	if strings.Contains(n.Text(), secret) || !strings.Contains(n.Text(), "[REDACTED:sandbox]") {
		t.Fatalf("merged content not redacted: %s", n.Content)
	}
	if l, _ := jane.List(ctx, "acme/other-bot", host.ListOptions{}); len(l) != 1 {
		t.Fatal("consolidation touched another memoryRef")
	}
	size, _ := e.Audit().LogSize(ctx)
	r2, err := e.Lifecycle().Consolidate(ctx, lifecycle.ConsolidateRequest{MemoryRef: "acme/support-bot", Actor: "acme-curator"})
	if err != nil || r2.InputCount != 4 || r2.OutputCount != 4 || r2.Merged+r2.Superseded+r2.Strengthened != 0 {
		t.Fatalf("second pass: %+v %v", r2, err)
	}
	if after, _ := e.Audit().LogSize(ctx); after != size+1 {
		t.Fatalf("second pass wrote %d entries, want only its CONSOLIDATE record", after-size)
	}
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "agent.memory.consolidated"})
	if len(evs) != 2 || string(evs[0].Data) != `{"inputCount":7,"memoryRef":"acme/support-bot","outputCount":4}` {
		t.Fatalf("events: %+v", evs)
	}
	if rep, err := e.Audit().Rebuild(ctx); err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
}

func TestCommitmentFiresOnce(t *testing.T) {
	e, c := enginetest.Contract(t)
	ctx := context.Background()
	enginetest.Put(t, e, "acme/support-bot", "follow-up", `{"text":"Follow up with customer 42 about the refund.","commit_at":"2026-05-11T09:00:00Z"}`)
	enginetest.Put(t, e, "acme/support-bot", "invoice-watch", `{"text":"Tell customer 42 when invoice 7 clears.","commit_when":{"key":"invoice/7/cleared"}}`)
	tick := func() memgov.TickResult {
		t.Helper()
		r, err := e.Host().TickCommitments(ctx, "acme/support-bot", "acme-curator")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := tick(); len(r.Inferred) != 2 || len(r.Fired) != 0 {
		t.Fatalf("first tick: %+v", r)
	}
	if r := tick(); len(r.Inferred) != 0 || len(r.Fired) != 0 {
		t.Fatalf("inference is not idempotent: %+v", r)
	}
	c.Set(time.Date(2026, 5, 11, 9, 0, 0, 0, time.UTC))
	if r := tick(); len(r.Fired) != 1 {
		t.Fatalf("time commitment: %+v", r)
	}
	if r := tick(); len(r.Fired) != 0 {
		t.Fatalf("re-fired: %+v", r)
	}
	cleared := enginetest.Put(t, e, "acme/support-bot", "invoice/7/cleared", "Invoice 7 cleared.")
	if r := tick(); len(r.Fired) != 1 {
		t.Fatalf("predicate commitment: %+v", r)
	}
	if r := tick(); len(r.Fired) != 0 {
		t.Fatalf("predicate re-fired while still true: %+v", r)
	}
	// A new false-to-true transition fires once more.
	if _, err := e.Lifecycle().Rollback(ctx, cleared.VersionID, "acme-curator", "not yet cleared"); err != nil {
		t.Fatal(err)
	}
	if r := tick(); len(r.Rearmed) != 1 || len(r.Fired) != 0 {
		t.Fatalf("re-arm: %+v", r)
	}
	enginetest.Put(t, e, "acme/support-bot", "invoice/7/cleared", "Invoice 7 cleared, really.")
	if r := tick(); len(r.Fired) != 1 {
		t.Fatalf("second transition: %+v", r)
	}
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "commitment.fired"})
	if len(evs) != 3 {
		t.Fatalf("fired events: %d", len(evs))
	}
	for _, ev := range evs {
		if strings.Contains(string(ev.Data), "customer") || strings.Contains(string(ev.Data), "invoice") {
			t.Fatalf("commitment.fired carries content: %s", ev.Data)
		}
	}
	// Replay: the rebuild re-derives the firings from the log without firing again.
	rep, err := e.Audit().Rebuild(ctx)
	if err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
	after, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "commitment.fired"})
	if len(after) != 3 {
		t.Fatalf("replay fired again: %d", len(after))
	}
	if r := tick(); len(r.Fired) != 0 {
		t.Fatalf("fired after replay: %+v", r)
	}
	cs, _ := e.Host().Adapter(memgov.As("support-bot")).Commitments(ctx, "acme/support-bot")
	if len(cs) != 2 || cs[0].FiredCount+cs[1].FiredCount != 3 {
		t.Fatalf("commitments: %+v", cs)
	}
	if _, err := e.Host().TickCommitments(ctx, "acme/support-bot", "research-agent"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("other tenant ticks: %v", err)
	}
}

func TestProposalInertnessAndGatedActivation(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	enginetest.Put(t, e, "acme/support-bot", "k", "Customer 42 prefers email.")
	before, _ := e.Host().Adapter(memgov.As("jane")).List(ctx, "acme/support-bot", host.ListOptions{})
	const secret = "ghp_abcdefghijklmnop"
	if _, err := e.Secrets().Register("run-9", "gh", secret); err != nil {
		t.Fatal(err)
	}
	art := json.RawMessage(`{"name":"refund-followup","steps":["check refund","email customer"],"token":"` + secret + `"}`)
	p, err := e.Host().CreateProposal(ctx, memgov.ProposalInput{Kind: "prompt-template", Title: "Refund follow-up", Artifact: art,
		Rationale: "seen in runs using " + secret, SourceRunIDs: []string{"run-9"}, Workspace: "support", RunID: "run-9"}, "support-bot")
	if err != nil {
		t.Fatal(err)
	}
	if p.State != memgov.ProposalDraft || p.Owner != (oplog.ProposalOwner{Tenant: "acme", Workspace: "support", Principal: "support-bot"}) ||
		bytes.Contains(p.Artifact, []byte(secret)) || strings.Contains(p.Rationale, secret) || p.Revision != 1 {
		t.Fatalf("created: %+v", p)
	}
	dup, _ := e.Host().CreateProposal(ctx, memgov.ProposalInput{Kind: "prompt-template", Artifact: art, RunID: "run-9"}, "support-bot")
	if dup.DuplicateOf != p.ID {
		t.Fatalf("duplicateOf = %q", dup.DuplicateOf)
	}
	// Inert: no installed artifact, memory unchanged.
	if _, err := e.Host().InstalledArtifact(ctx, p.ID); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("draft installed: %v", err)
	}
	rev := json.RawMessage(`{"name":"refund-followup","steps":["check refund","email customer","close ticket"]}`)
	p, err = e.Host().ReviseProposal(ctx, p.ID, memgov.ProposalInput{Artifact: rev, Rationale: "added close"}, "support-bot")
	if err != nil || p.State != memgov.ProposalRevised || p.Revision != 2 {
		t.Fatalf("revise: %+v %v", p, err)
	}
	if ins, _ := e.Host().InstalledArtifacts(ctx, "acme", ""); len(ins) != 0 {
		t.Fatalf("revised proposal installed: %+v", ins)
	}
	// Refused: the owner agent, another tenant's curator.
	res, err := e.Host().ApplyProposal(ctx, p.ID, "support-bot")
	if !errors.Is(err, memgov.ErrForbidden) || res.Status != http.StatusForbidden {
		t.Fatalf("agent apply: %+v %v", res, err)
	}
	if _, err := e.Host().ApplyProposal(ctx, p.ID, "globex-curator"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("other tenant apply: %v", err)
	}
	if pr, _, _ := e.Host().ShowProposal(ctx, p.ID, ""); pr.State != memgov.ProposalRevised {
		t.Fatalf("refused apply changed state: %s", pr.State)
	}
	// Approval gate: a curator applies; the installed artifact is the last persisted one, byte for byte.
	res, err = e.Host().ApplyProposal(ctx, p.ID, "acme-curator")
	if err != nil || res.Status != http.StatusOK || res.Activation != policy.ActivationApprovalGate {
		t.Fatalf("curator apply: %+v %v", res, err)
	}
	inst, err := e.Host().InstalledArtifact(ctx, p.ID)
	canonRev, _ := json.Marshal(json.RawMessage(rev))
	if err != nil || !bytes.Equal(inst, canonRev) || res.InstalledHash != oplog.HashPayload(inst) {
		t.Fatalf("installed %s (%v), want %s", inst, err, canonRev)
	}
	_, revs, _ := e.Host().ShowProposal(ctx, p.ID, "acme")
	if len(revs) != 2 || revs[1].ArtifactHash != res.InstalledHash {
		t.Fatalf("revisions: %+v", revs)
	}
	if _, _, err := e.Host().ShowProposal(ctx, p.ID, "globex"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("globex sees acme's proposal: %v", err)
	}
	// The advertised mode is the only one: a principal holding
	// proposal:activate does not bypass the approval gate (M5;
	// TestM5AdvertisedActivationIsTheOnlyOne covers direct-rbac).
	if res, err := e.Host().ApplyProposal(ctx, dup.ID, "acme-ops"); !errors.Is(err, memgov.ErrForbidden) || res.Status != http.StatusForbidden {
		t.Fatalf("scope holder under approval-gate: %+v %v", res, err)
	}
	if res, err = e.Host().ApplyProposal(ctx, dup.ID, "acme-curator"); err != nil || res.Activation != policy.ActivationApprovalGate {
		t.Fatalf("curator apply: %+v %v", res, err)
	}
	if _, err := e.Host().ApplyProposal(ctx, dup.ID, "acme-curator"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("double apply: %v", err)
	}
	// Reject and archive.
	third, _ := e.Host().CreateProposal(ctx, memgov.ProposalInput{Kind: "automation", Artifact: json.RawMessage(`{"cron":"0 9 * * 1"}`)}, "support-bot")
	if _, err := e.Host().RejectProposal(ctx, third.ID, "support-bot", "no"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("owner rejects: %v", err)
	}
	if r, err := e.Host().RejectProposal(ctx, third.ID, "acme-curator", "not now"); err != nil || r.State != memgov.ProposalRejected {
		t.Fatalf("reject: %+v %v", r, err)
	}
	if r, err := e.Host().ArchiveProposal(ctx, third.ID, "support-bot", "cleanup"); err != nil || r.State != memgov.ProposalArchived {
		t.Fatalf("archive: %+v %v", r, err)
	}
	if _, err := e.Host().ApplyProposal(ctx, third.ID, "acme-curator"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("apply archived: %v", err)
	}
	// Events are content-free; memory is unchanged by proposals.
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{})
	for _, ev := range evs {
		if strings.HasPrefix(ev.Type, "proposal.") && (strings.Contains(string(ev.Data), "refund") || strings.Contains(string(ev.Data), "close")) {
			t.Fatalf("%s carries the artifact or rationale: %s", ev.Type, ev.Data)
		}
	}
	if n, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "proposal.activated"}); len(n) != 2 {
		t.Fatalf("activated events: %d", len(n))
	}
	after, _ := e.Host().Adapter(memgov.As("jane")).List(ctx, "acme/support-bot", host.ListOptions{})
	if !reflect.DeepEqual(before, after) {
		t.Fatal("proposals changed memory")
	}
	if rep, err := e.Audit().Rebuild(ctx); err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
	assertNoPlaintext(t, e, secret)
}
