package writes_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/reviews"
)

// Every write of these tests is a SYNC_BLOCK: the risk thresholds sit below
// the lowest risk they score.
const syncPolicy = "risk:\n  sync_from: 0.1\n  async_from: 0.05\nreview:\n  sync_max_wait: 10m\n"

func orchReq(key, text string) []byte {
	return []byte(fmt.Sprintf(`{"source_agent_id":"orch","memory_ref":"acme/orch","key":%q,"target_layer":"EPISODIC",
		"observation_type":"task_completion_strategy","confidence":0.8,"content":{"text":%q},
		"evidence_refs":[{"source_type":"TOOL_OUTPUT","source_uri":"erp://policies","authority":0.9},{"source_type":"HUMAN_INPUT","source_uri":"ticket://1","authority":0.9}]}`, key, text))
}

// A SYNC_BLOCK review past its deadline fails closed on first touch: a
// decision is refused (ErrApprovalTimeout) and the review is rejected with
// APPROVAL_TIMEOUT; a listing rejects the others.
func TestSyncReviewFailsClosedOnFirstTouch(t *testing.T) {
	e, c := enginetest.Lifecycle(t, syncPolicy)
	ctx := context.Background()
	a := write(t, e, orchReq("refund/limit", "Refunds up to $5,000 need no second signature."))
	b := write(t, e, orchReq("refund/cap", "Refunds are capped at $9,000 a year."))
	if a.Status != memgov.StatusDeferred || a.Tier != memgov.TierSync || b.Tier != memgov.TierSync {
		t.Fatalf("%+v %+v", a, b)
	}
	c.Add(9 * time.Minute)
	if rs, _, err := e.Reviews().List(ctx, memgov.ReviewQuery{}); err != nil || len(rs) != 2 {
		t.Fatalf("before the deadline: %d reviews, %v", len(rs), err)
	}
	c.Add(2 * time.Minute)
	_, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: a.ReviewID, Reviewer: "jane", Approve: true})
	if !errors.Is(err, reviews.ErrApprovalTimeout) {
		t.Fatalf("approval after the deadline: %v", err)
	}
	r, err := e.Reviews().Review(ctx, a.ReviewID)
	if err != nil || r.Status != memgov.ReviewRejected || r.DecisionCode != memgov.ReasonApprovalTimeout || r.DecidedBy != "memgov" {
		t.Fatalf("expired review: %+v %v", r, err)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "refund/limit"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("a timed-out write is visible: %+v %v", v, err)
	}
	// Listing is a touch: the other review is rejected too.
	if rs, _, err := e.Reviews().List(ctx, memgov.ReviewQuery{}); err != nil || len(rs) != 0 {
		t.Fatalf("after the deadline: %d open reviews, %v", len(rs), err)
	}
	r, _ = e.Reviews().Review(ctx, b.ReviewID)
	if r.Status != memgov.ReviewRejected || r.DecisionCode != memgov.ReasonApprovalTimeout {
		t.Fatalf("listed review: %+v", r)
	}
	// A waiting writer gets the final outcome at once.
	res, err := e.Writes().AwaitSync(ctx, b)
	if err != nil || res.Status != memgov.StatusRejected || res.Reason != memgov.ReasonApprovalTimeout {
		t.Fatalf("AwaitSync: %+v %v", res, err)
	}
	if sw, err := e.Reviews().Sweep(ctx); err != nil || sw.TimedOut != 0 {
		t.Fatalf("sweep after the touches: %+v %v", sw, err)
	}
}

// A scoped idempotency token: the same write replays, another write under
// the same token is refused.
func TestIdempotencyConflict(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "")
	req := func(ref, text string) []byte {
		return []byte(fmt.Sprintf(`{"source_agent_id":"orch","memory_ref":%q,"key":"k","target_layer":"WORKING","idempotency_token":"t-1","content":{"text":%q}}`, ref, text))
	}
	if r := write(t, e, req("acme/orch", "one")); r.Status != memgov.StatusCommitted {
		t.Fatalf("%+v", r)
	}
	if r := write(t, e, req("acme/orch", "one")); r.Status != memgov.StatusAlreadyCommitted {
		t.Fatalf("replay: %+v", r)
	}
	for _, r := range []memgov.WriteResult{write(t, e, req("acme/orch", "two")), write(t, e, req("acme/orch/x", "one"))} {
		if r.Status != memgov.StatusRejected || r.Reason != "IDEMPOTENCY_CONFLICT" {
			t.Fatalf("conflict: %+v", r)
		}
	}
}

// An agent whose contradiction rate reaches the policy's threshold has its
// recent ACTIVE writes quarantined.
func TestContradictionRateQuarantines(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "reputation:\n  quarantine_min_writes: 4\n  quarantine_contradiction_rate: 0.5\n")
	ctx := context.Background()
	spo := func(key, subject, object string) []byte {
		return []byte(fmt.Sprintf(`{"source_agent_id":"orch","memory_ref":"acme/orch","key":%q,"target_layer":"SEMANTIC",
		"observation_type":"tool_result_verified","confidence":0.8,
		"content":{"text":"%s ships from %s.","subject":%q,"predicate":"ships_from","object":%q},
		"evidence_refs":[{"source_type":"TOOL_OUTPUT","source_uri":"erp://policies","authority":0.9},{"source_type":"HUMAN_INPUT","source_uri":"ticket://1","authority":0.9}]}`,
			key, subject, object, subject, object))
	}
	var committed []string
	for i, place := range []string{"Lyon", "Oslo"} {
		r := write(t, e, spo(fmt.Sprintf("w%d", i+1), fmt.Sprintf("warehouse-%d", i+1), place))
		if r.Status == memgov.StatusDeferred { // an orchestrator's semantic memory is reviewed
			if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: r.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
				t.Fatal(err)
			}
		} else if r.Status != memgov.StatusCommitted {
			t.Fatalf("%+v", r)
		}
		committed = append(committed, r.VersionID)
	}
	contradicting := 0
	for i, place := range []string{"Porto", "Gent"} {
		r := write(t, e, spo(fmt.Sprintf("c%d", i+1), fmt.Sprintf("warehouse-%d", i+1), place))
		if r.Reason == gate.ReasonContradiction {
			contradicting++
		}
	}
	if contradicting != 2 {
		t.Fatalf("%d contradicting writes", contradicting)
	}
	qs, err := e.Reviews().Quarantined(ctx, memgov.QuarantineQuery{Status: memgov.QuarantineOpen})
	if err != nil || len(qs) != 2 || qs[0].Agent != "orch" {
		t.Fatalf("quarantine: %+v %v", qs, err)
	}
	for _, k := range []string{"w1", "w2"} {
		if _, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", k); !errors.Is(err, memgov.ErrNotFound) {
			t.Fatalf("quarantined %s still read: %v", k, err)
		}
	}
	if _, err := e.Reviews().ReleaseQuarantine(ctx, committed[0], "orch", "mine"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("an agent released its own write: %v", err)
	}
	if _, err := e.Reviews().ReleaseQuarantine(ctx, committed[0], "jane", "checked"); err != nil {
		t.Fatal(err)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "w1"); err != nil || v.Text() != "warehouse-1 ships from Lyon." {
		t.Fatalf("released: %+v %v", v, err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}
