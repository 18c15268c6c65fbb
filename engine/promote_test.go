package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/writes"
)

func episodeBy(t *testing.T, e *engine.Engine, key, agent, content, uri string) memgov.PutResult {
	t.Helper()
	a := 0.9
	r := memgov.PutRequest{MemoryRef: "acme/shared", Key: key, Layer: memgov.Episodic, Actor: agent, Confidence: 0.7, Content: json.RawMessage(content)}
	if uri != "" {
		r.Evidence = []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: uri, Authority: &a}}
	}
	res, err := e.Writes().Put(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPromoteAfterIndependentCorroborations(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: lifecycle.PromoterPrincipal, Role: memgov.Orchestrator, Tenant: "acme"}, ""); err != nil {
		t.Fatal(err)
	}
	fact := `{"text":"%s","subject":"eu shipping","predicate":"takes","object":"four business days"}`
	ep := func(text string) string { return fmtJSON(fact, text) }
	// Three independent observations of one fact: two agents, and the same
	// agent again with new external evidence.
	e1 := episodeBy(t, e, "obs-1", "orch", ep("Parcel to Berlin arrived after four business days"), "carrier://track/1")
	e2 := episodeBy(t, e, "obs-2", "bot", ep("Lyon order: delivery took four business days"), "carrier://track/2")
	c.Add(time.Minute)
	// Two observations of another fact by one agent citing one source: one corroboration.
	other := `{"text":"The warehouse closes at 6pm on Fridays and at 6pm on Fridays only"}`
	episodeBy(t, e, "obs-x1", "bot", other, "wiki://hours")
	episodeBy(t, e, "obs-x2", "bot", `{"text":"The warehouse closes at 6pm on Fridays and at 6pm on Fridays only!"}`, "wiki://hours")

	plan, err := e.Lifecycle().PlanPromotion(ctx, "acme/shared", lifecycle.PromoterPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Candidates) != 2 || plan.Candidates[0].Corroborations != 2 || plan.Candidates[0].Status != lifecycle.PromoteInsufficient ||
		plan.Candidates[1].Corroborations != 1 || len(plan.Candidates[1].Episodes) != 2 {
		t.Fatalf("plan with two corroborations: %+v", plan.Candidates)
	}
	e3 := episodeBy(t, e, "obs-3", "orch", ep("Madrid: four business days door to door"), "carrier://track/3")
	size, _ := e.Audit().LogSize(ctx)
	plan, _ = e.Lifecycle().PlanPromotion(ctx, "acme/shared", lifecycle.PromoterPrincipal)
	if plan.Candidates[0].Status != lifecycle.PromoteWouldPromote || plan.Candidates[0].Corroborations != 3 {
		t.Fatalf("plan: %+v", plan.Candidates[0])
	}
	if after, _ := e.Audit().LogSize(ctx); after != size {
		t.Fatal("a dry run wrote to the log")
	}
	rep, err := e.Lifecycle().Promote(ctx, "acme/shared", lifecycle.PromoterPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	cand := rep.Candidates[0]
	// An orchestrator proposes semantic memory: the promotion waits for a curator.
	if cand.Status != lifecycle.PromoteWritten || cand.Result.Status != memgov.StatusDeferred || rep.Deferred != 1 {
		t.Fatalf("promotion: %+v %+v", cand, cand.Result)
	}
	rv, _ := e.Reviews().Review(ctx, cand.Result.ReviewID)
	var d writes.ReviewDetail
	_ = json.Unmarshal(rv.Detail, &d)
	cited := map[string]bool{}
	uris := 0
	for _, r := range d.Evidence {
		if r.SourceType == "MEMORY_ITEM" {
			cited[r.SourceItemID] = true
		} else if r.SourceURI != "" {
			uris++
		}
	}
	if !cited[e1.ItemID] || !cited[e2.ItemID] || !cited[e3.ItemID] || uris != 3 {
		t.Fatalf("evidence: %+v", d.Evidence)
	}
	approveAs(t, e, cand.Result.ReviewID, "jane")
	v, err := e.Host().Get(ctx, memgov.Owner, "acme/shared", cand.Key)
	if err != nil || v.Layer != memgov.Semantic || v.CreatedBy != lifecycle.PromoterPrincipal {
		t.Fatalf("promoted fact: %+v %v", v, err)
	}
	again, _ := e.Lifecycle().Promote(ctx, "acme/shared", lifecycle.PromoterPrincipal)
	if again.Candidates[0].Status != lifecycle.PromoteAlready {
		t.Fatalf("second pass: %+v", again.Candidates[0])
	}
	if _, err := e.Lifecycle().Promote(ctx, "acme/shared", "nobody"); err == nil {
		t.Fatal("an unknown principal promoted")
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}

func fmtJSON(format, text string) string {
	b, _ := json.Marshal(text)
	return fmt.Sprintf(format, string(b[1:len(b)-1]))
}
