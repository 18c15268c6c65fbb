package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/writes"
)

type stepClock struct{ t time.Time }

func (c *stepClock) Now() time.Time { return c.t }

func TestReviewClaimsAndFencing(t *testing.T) {
	clock := &stepClock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	e := newEngine(t, "", engine.WithClock(clock.Now))
	setupAgents(t, e)
	ctx := context.Background()
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "kim", Role: memgov.Curator, Tenant: "*"}, "admin"); err != nil {
		t.Fatal(err)
	}
	res := write(t, e, req("support-bot", "acme/support-bot", "c7/lang", "Customer 7 wants invoices in German."))
	jane, err := e.Reviews().Claim(ctx, res.ReviewID, "jane")
	if err != nil || jane.ClaimHolder != "jane" || jane.ClaimToken != 1 {
		t.Fatalf("claim = %+v, %v", jane, err)
	}
	// A second reviewer sees who holds it.
	if _, err := e.Reviews().Claim(ctx, res.ReviewID, "kim"); !errors.Is(err, memgov.ErrConflict) || !strings.Contains(err.Error(), "jane") {
		t.Fatalf("second claim: %v", err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "kim", Approve: true}); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("deciding over someone's claim: %v", err)
	}
	// The lease expires; kim claims with a newer token; jane's token is stale.
	clock.t = clock.t.Add(10 * time.Minute)
	kim, err := e.Reviews().Claim(ctx, res.ReviewID, "kim")
	if err != nil || kim.ClaimToken != 2 {
		t.Fatalf("claim after expiry = %+v, %v", kim, err)
	}
	clock.t = clock.t.Add(10 * time.Minute)
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "jane", Approve: true, Token: jane.ClaimToken}); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("stale token: %v", err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: "kim", Approve: true, Token: kim.ClaimToken}); err != nil {
		t.Fatalf("decision with the current token: %v", err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %+v %v", rb, err)
	}
}

func TestSweepEscalatesAndFailsClosed(t *testing.T) {
	clock := &stepClock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	e := newEngine(t, "risk:\n  sync_from: 0.2\n  async_from: 0.1\n", engine.WithClock(clock.Now))
	setupAgents(t, e)
	ctx := context.Background()
	sync := write(t, e, req("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $5,000 need no second signature."))
	if sync.Tier != memgov.TierSync {
		t.Fatalf("%+v", sync)
	}
	if res, err := e.Reviews().Sweep(ctx); err != nil || res.TimedOut != 0 || res.Escalated != 0 {
		t.Fatalf("nothing is due yet: %+v %v", res, err)
	}
	clock.t = clock.t.Add(2 * time.Hour)
	res, err := e.Reviews().Sweep(ctx)
	if err != nil || res.TimedOut != 1 {
		t.Fatalf("sweep = %+v, %v", res, err)
	}
	if r, _ := e.Reviews().Review(ctx, sync.ReviewID); r.Status != memgov.ReviewRejected || r.DecisionCode != memgov.ReasonApprovalTimeout {
		t.Fatalf("sync review after its deadline: %+v", r)
	}

	// An async review past its 24 h SLA is escalated, once, with an event.
	a := newEngine(t, "", engine.WithClock(clock.Now))
	setupAgents(t, a)
	pending := write(t, a, req("support-bot", "acme/support-bot", "c9/lang", "Customer 9 wants invoices in French."))
	if pending.Tier != writes.TierAsync {
		t.Fatalf("%+v", pending)
	}
	clock.t = clock.t.Add(25 * time.Hour)
	if res, err := a.Reviews().Sweep(ctx); err != nil || res.Escalated != 1 {
		t.Fatalf("sweep = %+v, %v", res, err)
	}
	if res, err := a.Reviews().Sweep(ctx); err != nil || res.Escalated != 0 {
		t.Fatalf("second sweep = %+v, %v", res, err)
	}
	if r, _ := a.Reviews().Review(ctx, pending.ReviewID); r.Status != memgov.ReviewEscalated {
		t.Fatalf("%+v", r)
	}
	// Escalated reviews stay in the queue and can still be decided.
	if _, err := a.Reviews().Decide(ctx, memgov.Decision{ReviewID: pending.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
		t.Fatal(err)
	}
}
