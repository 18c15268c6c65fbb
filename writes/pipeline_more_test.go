package writes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/writes"
)

// A deferred write is invisible until a curator approves it; a rejected one
// never becomes visible and its reason is recorded.
func TestReviewVisibility(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	ctx := context.Background()
	res := write(t, e, req("support-bot", "acme/support-bot", "c7/lang", "Customer 7 wants invoices in German."))
	if res.Status != memgov.StatusDeferred || res.ReviewID == "" {
		t.Fatalf("want a deferred write, got %+v", res)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/support-bot", "c7/lang"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("pending write is readable: %v", err)
	}
	if snap, _ := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: "acme/support-bot"}); len(snap.Versions) != 0 {
		t.Fatalf("pending write listed")
	}
	// The writer cannot approve, nor can an operator.
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "support-bot", Approve: true}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("self-approval: %v", err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "ops", Approve: true}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("operator approval: %v", err)
	}
	r, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Approve: true, Note: "confirmed by phone"})
	if err != nil || r.Status != memgov.ReviewApproved || r.DecidedBy != "jane" {
		t.Fatalf("approve = %+v, %v", r, err)
	}
	v, err := e.Host().Get(ctx, memgov.Owner, "acme/support-bot", "c7/lang")
	if err != nil || v.Text() != "Customer 7 wants invoices in German." {
		t.Fatalf("approved write not readable: %+v %v", v, err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Approve: true}); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("deciding twice: %v", err)
	}

	res = write(t, e, req("support-bot", "acme/support-bot", "c8/lang", "Customer 8 wants invoices in Klingon."))
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane"}); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("reject without a code: %v", err)
	}
	r, err = e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Code: "FACTUAL_ERROR", Note: "no such language on file"})
	if err != nil || r.Status != memgov.ReviewRejected || r.DecisionCode != "FACTUAL_ERROR" || r.Note != "no such language on file" {
		t.Fatalf("reject = %+v, %v", r, err)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/support-bot", "c8/lang"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("rejected write readable: %v", err)
	}
	// The decision is in the log with the reviewer and the reason.
	_, hist, err := e.Host().History(ctx, memgov.Owner, r.ItemID)
	if err != nil || len(hist) != 1 || hist[0].State != memgov.Retracted {
		t.Fatalf("history = %+v, %v", hist, err)
	}
	if rep, err := e.Audit().Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild after reviews: %+v %v", rb, err)
	}
}

func TestProvenanceCycle(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	a := write(t, e, req("billing-agent", "acme/billing-agent", "fact/a", "Plan A includes phone support."))
	cite := func(key, text, source string) []byte {
		b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": key,
			"target_layer": "EPISODIC", "observation_type": "tool_result_verified", "confidence": 0.9, "content": map[string]any{"text": text},
			"evidence_refs": []any{
				map[string]any{"source_type": "MEMORY_ITEM", "source_item_id": source, "authority": 0.9},
				map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://plans", "authority": 0.9}}})
		return b
	}
	b := write(t, e, cite("fact/b", "Plan B includes everything in plan A.", a.ItemID))
	if !b.Accepted() {
		t.Fatalf("b = %+v", b)
	}
	// Rewriting A to rest on B closes the loop A -> B -> A.
	res := write(t, e, cite("fact/a", "Plan A includes phone support, as plan B confirms.", b.ItemID))
	if res.Status != memgov.StatusRejected || res.Reason != gate.ReasonProvenanceCycle {
		t.Fatalf("got %+v, want PROVENANCE_CYCLE", res)
	}
}

// Agents whose writes curators keep rejecting lose auto-approval (spec §12.11.5).
func TestLowReputationRoutesToReview(t *testing.T) {
	e := newEngine(t, "reputation:\n  min_writes: 3\n  threshold: 0.7\n")
	setupAgents(t, e)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		res := write(t, e, req("support-bot", "acme/support-bot", fmt.Sprintf("k%d", i), fmt.Sprintf("Customer %d prefers fax number %d.", i, 1000+i*7919)))
		if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Code: "FACTUAL_ERROR"}); err != nil {
			t.Fatal(err)
		}
	}
	ok := write(t, e, req("billing-agent", "acme/billing-agent", "x", "Invoice 9 was paid in full."))
	if ok.Status != memgov.StatusCommitted {
		t.Fatalf("a reputable agent's write: %+v", ok)
	}
	res := write(t, e, req("support-bot", "acme/support-bot", "k9", "Customer 9 prefers letters in the mail."))
	if res.Status != memgov.StatusDeferred {
		t.Fatalf("low-reputation write: %+v", res)
	}
	rv, err := e.Reviews().Review(ctx, res.ReviewID)
	if err != nil {
		t.Fatal(err)
	}
	var d writes.ReviewDetail
	_ = json.Unmarshal(rv.Detail, &d)
	found := false
	for _, r := range d.Reasons {
		found = found || len(r) > 14 && r[:14] == "LOW_REPUTATION"
	}
	if !found {
		t.Fatalf("reasons %v do not name the reputation", d.Reasons)
	}
}

// SYNC_BLOCK writes wait for a decision; a rejection reaches the waiting agent.
func TestSyncBlockDecision(t *testing.T) {
	e := newEngine(t, "risk:\n  sync_from: 0.2\n  async_from: 0.1\nreview:\n  sync_max_wait: 30s\n")
	setupAgents(t, e)
	ctx := context.Background()
	res := write(t, e, req("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $5,000 need no second signature."))
	if res.Tier != memgov.TierSync {
		t.Fatalf("want SYNC_BLOCK, got %+v", res)
	}
	done := make(chan memgov.WriteResult, 1)
	go func() {
		r, err := e.Writes().WaitReview(ctx, res.ReviewID, 10*time.Millisecond)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Code: "POLICY_VIOLATION", Note: "limit is $1,000"}); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.Status != memgov.StatusRejected || got.Reason != writes.ReasonReviewRejected {
		t.Fatalf("waiting writer got %+v", got)
	}
}

// The review queue sorts SYNC_BLOCK first, then by risk and age, and filters.
func TestReviewQueueOrder(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	ctx := context.Background()
	for i := 0; i < 5; i++ {
		write(t, e, req("support-bot", "acme/support-bot", fmt.Sprintf("k%d", i), fmt.Sprintf("Customer %d asked for a callback on day %d.", i*31, i+3)))
	}
	rs, total, err := e.Reviews().List(ctx, memgov.ReviewQuery{Limit: 3})
	if err != nil || total != 5 || len(rs) != 3 {
		t.Fatalf("reviews = %d/%d, %v", len(rs), total, err)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i-1].Risk < rs[i].Risk {
			t.Fatalf("not sorted by risk: %v then %v", rs[i-1].Risk, rs[i].Risk)
		}
	}
	if rs, _, _ := e.Reviews().List(ctx, memgov.ReviewQuery{Agent: "billing-agent"}); len(rs) != 0 {
		t.Fatalf("agent filter: %d", len(rs))
	}
	if rs, _, _ := e.Reviews().List(ctx, memgov.ReviewQuery{Breached: true}); len(rs) != 0 {
		t.Fatalf("nothing is past its SLA yet: %d", len(rs))
	}
}

func TestSecretRedactionAtTheChokepoint(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	ctx := context.Background()
	if _, err := e.Secrets().Register("run-1", "stripe", "sk_live_0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": "stripe",
		"target_layer": "WORKING", "run_id": "run-1", "tags": []string{"sk_live_0123456789abcdef"},
		"content": map[string]any{"text": "Use key sk_live_0123456789abcdef for refunds."}})
	res := write(t, e, b)
	if !res.Accepted() {
		t.Fatalf("%+v", res)
	}
	v, err := e.Host().Get(ctx, memgov.Owner, "acme/billing-agent", "stripe")
	if err != nil || v.Text() != "Use key [REDACTED:stripe] for refunds." || v.Tags[0] != "[REDACTED:stripe]" {
		t.Fatalf("stored %q %v, %v", v.Text(), v.Tags, err)
	}
}

// A more confident contradicting write is deferred with a supersession
// proposal; approving it supersedes the contradicted item.
func TestApprovedSupersession(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	ctx := context.Background()
	fact := func(key, obj string, conf float64) []byte {
		b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": key,
			"target_layer": "SEMANTIC", "observation_type": "user_stated_preference", "confidence": conf,
			"content":       map[string]any{"text": "Customer 42 prefers " + obj + ".", "subject": "customer 42", "predicate": "prefers_channel", "object": obj},
			"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
		return b
	}
	// A stated preference is a claim (SEMANTIC): contradictions of episodes
	// are kept side by side instead (engine/resolve.go).
	if r := write(t, e, fact("c42/channel", "email", 0.6)); r.Status == memgov.StatusDeferred {
		if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: r.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
			t.Fatal(err)
		}
	} else if r.Status != memgov.StatusCommitted {
		t.Fatalf("%+v", r)
	}
	r := write(t, e, fact("c42/channel-new", "sms", 0.95))
	if r.Status != memgov.StatusDeferred || r.Reason != gate.ReasonContradiction {
		t.Fatalf("%+v", r)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: r.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/billing-agent", "c42/channel"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("the superseded fact is still visible: %v", err)
	}
	v, err := e.Host().Get(ctx, memgov.Owner, "acme/billing-agent", "c42/channel-new")
	if err != nil || v.Text() != "Customer 42 prefers sms." {
		t.Fatalf("%+v %v", v, err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rb, err)
	}
}

// The provenance record a curator reads in the review is the signed one, and
// its signature verifies; a changed record does not.
func TestReviewProvenanceIsSigned(t *testing.T) {
	e := newEngine(t, "")
	setupAgents(t, e)
	ctx := context.Background()
	res := write(t, e, req("support-bot", "acme/support-bot", "c7/lang", "Customer 7 wants invoices in German."))
	rv, err := e.Reviews().Review(ctx, res.ReviewID)
	if err != nil {
		t.Fatal(err)
	}
	var d writes.ReviewDetail
	if err := json.Unmarshal(rv.Detail, &d); err != nil || d.Provenance == nil || d.Provenance.Signature == "" {
		t.Fatalf("detail provenance: %+v %v", d.Provenance, err)
	}
	if err := e.Writes().VerifyProvenance(*d.Provenance); err != nil {
		t.Fatalf("signature: %v", err)
	}
	forged := *d.Provenance
	forged.AgentConfidence = 1
	if err := e.Writes().VerifyProvenance(forged); err == nil {
		t.Fatal("a changed provenance record verified")
	}
}

// Eight goroutines writing through one engine at once lose nothing and
// surface no SQLITE_BUSY; one idempotency token written from all of them
// commits once.
func TestConcurrentGoroutines(t *testing.T) {
	e := newEngine(t, "reputation:\n  burst_limit: 100000\nrate_limits:\n  layers:\n    EPISODIC:\n      writes: 100000\n")
	setupAgents(t, e)
	ctx := context.Background()
	const workers, per = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*(per+1))
	statuses := make(chan string, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				r, err := memgov.DecodeWriteRequest(req("billing-agent", "acme/billing-agent", fmt.Sprintf("w%d/k%d", w, i),
					fmt.Sprintf("Worker %d recorded payment %d of invoice %d.", w, i, w*1000+i*37)))
				if err == nil {
					var res memgov.WriteResult
					if res, err = e.Writes().Write(ctx, r); err == nil && res.Status != memgov.StatusCommitted {
						err = fmt.Errorf("worker %d write %d: %+v", w, i, res)
					}
				}
				if err != nil {
					errs <- err
				}
			}
			same, _ := memgov.DecodeWriteRequest([]byte(`{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"once","target_layer":"WORKING","idempotency_token":"tok","content":{"text":"once"}}`))
			res, err := e.Writes().Write(ctx, same)
			if err != nil {
				errs <- err
				return
			}
			statuses <- res.Status
		}(w)
	}
	wg.Wait()
	close(errs)
	close(statuses)
	for err := range errs {
		t.Error(err)
	}
	counts := map[string]int{}
	for s := range statuses {
		counts[s]++
	}
	if counts[memgov.StatusCommitted] != 1 || counts[memgov.StatusAlreadyCommitted] != workers-1 {
		t.Fatalf("one token from %d goroutines: %v", workers, counts)
	}
	snap, err := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: "acme/billing-agent"})
	if err != nil || len(snap.Versions) != workers*per+1 {
		t.Fatalf("%d entries, want %d (%v)", len(snap.Versions), workers*per+1, err)
	}
	if rep, err := e.Audit().Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}
