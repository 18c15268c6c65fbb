package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/writes"
)

func triple(t *testing.T, e *engine.Engine, layer memgov.Layer, key, text, s, p, o string, conf float64) memgov.WriteResult {
	t.Helper()
	return write(t, e, []byte(fmt.Sprintf(`{"source_agent_id":"jane","memory_ref":"acme/shared","key":%q,"target_layer":%q,"observation_type":%q,"confidence":%v,
		"content":{"text":%q,"subject":%q,"predicate":%q,"object":%q},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://facts/%s","authority":0.95}]}`,
		key, layer, obsType(layer), conf, text, s, p, o, key)))
}

func obsType(l memgov.Layer) string {
	if l == memgov.Procedural {
		return "task_completion_strategy"
	}
	return "user_stated_preference"
}

func resolveEngine(t *testing.T) (*engine.Engine, *enginetest.Clock) {
	t.Helper()
	e, c := enginetest.Lifecycle(t, "")
	if _, err := e.AddPrincipal(context.Background(), memgov.Principal{ID: "kim", Role: memgov.Curator, Tenant: "acme"}, ""); err != nil {
		t.Fatal(err)
	}
	return e, c
}

func approveAs(t *testing.T, e *engine.Engine, reviewID, who string) {
	t.Helper()
	if _, err := e.Reviews().Decide(context.Background(), memgov.Decision{ReviewID: reviewID, Reviewer: who, Approve: true}); err != nil {
		t.Fatal(err)
	}
}

// Episodic: an episode that contradicts another goes to a person with
// reason CONTRADICTION and the contradicted episode linked; approval keeps
// both ACTIVE (episodes accumulate).
func TestResolveEpisodicKeepsBoth(t *testing.T) {
	e, c := resolveEngine(t)
	r1 := triple(t, e, memgov.Episodic, "run-1", "Monday's nightly build of main passed every check", "nightly build", "result", "passed", 0.8)
	c.Add(time.Hour)
	r2 := triple(t, e, memgov.Episodic, "run-2", "Tuesday: the nightly job broke on the integration suite", "nightly build", "result", "failed", 0.8)
	if r1.Status != memgov.StatusCommitted {
		t.Fatalf("first episode: %+v", r1)
	}
	if r2.Status != memgov.StatusDeferred || r2.Reason != gate.ReasonContradiction || len(r2.Related) == 0 || r2.Related[0] != "run-1" {
		t.Fatalf("contradicting episode: %+v, want DEFERRED CONTRADICTION linked to run-1", r2)
	}
	approveAs(t, e, r2.ReviewID, "kim")
	snap, _ := e.Host().Read(context.Background(), memgov.Owner, memgov.ReadQuery{MemoryRef: "acme/shared"})
	if len(snap.Versions) != 2 {
		t.Fatalf("both episodes stay ACTIVE: %v", keyTexts(snap.Versions))
	}
}

// Semantic: UPDATE with temporal validity; a less confident contradiction is a NOOP.
func TestResolveSemanticTemporalValidity(t *testing.T) {
	ctx := context.Background()
	e, c := resolveEngine(t)
	res, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/shared", Key: "ceo", Layer: memgov.Semantic, Actor: "jane", Confidence: 0.6,
		Content: json.RawMessage(`{"text":"The CEO of ACME is Alice Martin.","subject":"ACME","predicate":"ceo","object":"Alice Martin"}`)})
	if err != nil {
		t.Fatal(err)
	}
	t1 := c.Now()
	c.Add(time.Hour)
	if r := triple(t, e, memgov.Semantic, "ceo-guess", "Rumour: the chief executive of ACME is Carl Weak.", "ACME", "ceo", "Carl Weak", 0.4); r.Status != memgov.StatusRejected || r.Reason != gate.ReasonContradiction {
		t.Fatalf("less confident contradiction: %+v", r)
	}
	r := triple(t, e, memgov.Semantic, "ceo-2025", "Since the board vote, ACME's chief executive is Bob Stone.", "ACME", "ceo", "Bob Stone", 0.9)
	if r.Status != memgov.StatusDeferred || r.Reason != gate.ReasonContradiction {
		t.Fatalf("more confident contradiction: %+v", r)
	}
	c.Add(time.Hour)
	tApprove := c.Now()
	approveAs(t, e, r.ReviewID, "kim")
	c.Add(time.Hour)

	_, hist, _ := e.Host().History(ctx, memgov.Owner, res.ItemID)
	if hist[0].State != memgov.Superseded {
		t.Fatalf("old fact: %+v", hist[0])
	}
	a := e.Host().Adapter(memgov.As("jane"))
	q := host.SearchQuery{MemoryRef: "acme/shared", Query: "who is the CEO of ACME"}
	hits, _ := a.Search(ctx, q)
	if len(hits) != 1 || hits[0].Entry.ID != "ceo-2025" || hits[0].ValidAt != tApprove.Format(oplog.TimeFormat) {
		t.Fatalf("now: %+v", hits)
	}
	q.AsOf = t1.Add(30 * time.Minute)
	hits, _ = a.Search(ctx, q)
	if len(hits) != 1 || hits[0].Entry.ID != "ceo" || hits[0].InvalidAt != tApprove.Format(oplog.TimeFormat) {
		t.Fatalf("as of before the update: %+v", hits)
	}
	q.AsOf = tApprove.Add(time.Minute)
	if hits, _ = a.Search(ctx, q); len(hits) != 1 || hits[0].Entry.ID != "ceo-2025" {
		t.Fatalf("as of after the update: %+v", hits)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}

// Procedural: the latest procedure supersedes the prior one (a SUPERSEDE
// entry), whatever its confidence; the prior stays for audit.
func TestResolveProceduralSupersession(t *testing.T) {
	ctx := context.Background()
	e, c := resolveEngine(t)
	old, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/shared", Key: "deploy-approvals", Layer: memgov.Procedural, Actor: "jane", Confidence: 0.9,
		Content: json.RawMessage(`{"text":"Production deploys need two approvals.","subject":"production deploy","predicate":"approvals","object":"two"}`)})
	if err != nil {
		t.Fatal(err)
	}
	c.Add(time.Hour)
	r := triple(t, e, memgov.Procedural, "deploy-approvals-v2", "From now on a single reviewer signs off each release to production.", "production deploy", "approvals", "one", 0.6)
	if r.Status != memgov.StatusDeferred || r.Reason != gate.ReasonContradiction {
		t.Fatalf("new procedure: %+v", r)
	}
	rv, _ := e.Reviews().Review(ctx, r.ReviewID)
	var d writes.ReviewDetail
	_ = json.Unmarshal(rv.Detail, &d)
	if d.Supersedes != "deploy-approvals" {
		t.Fatalf("supersession proposal: %+v", d)
	}
	approveAs(t, e, r.ReviewID, "kim")
	_, hist, _ := e.Host().History(ctx, memgov.Owner, old.ItemID)
	if len(hist) != 1 || hist[0].State != memgov.Superseded {
		t.Fatalf("prior procedure: %+v", hist)
	}
	ops := map[oplog.Op]int{}
	tail, _ := e.Audit().LogTail(ctx, 0, 1000)
	for _, le := range tail {
		if le.ItemID == old.ItemID {
			ops[le.Op]++
		}
	}
	if ops[oplog.Supersede] != 1 || ops[oplog.Retract] != 0 {
		t.Fatalf("entries of the prior procedure: %v", ops)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/shared", "deploy-approvals-v2"); err != nil || v.State != memgov.Active {
		t.Fatalf("new procedure: %+v %v", v, err)
	}
	// A new version of the same procedure is an UPDATE: the prior version is SUPERSEDED.
	c.Add(time.Hour)
	u := triple(t, e, memgov.Procedural, "deploy-approvals-v2", "From now on a single senior reviewer signs off each release to production.", "production deploy", "approvals", "one senior", 0.7)
	if u.Status == memgov.StatusDeferred {
		approveAs(t, e, u.ReviewID, "kim")
	} else if u.Status != memgov.StatusCommitted {
		t.Fatalf("procedure update: %+v", u)
	}
	_, hist2, _ := e.Host().History(ctx, memgov.Owner, r.ItemID)
	if len(hist2) != 2 || hist2[0].State != memgov.Active || hist2[1].State != memgov.Superseded {
		t.Fatalf("procedure versions: %+v", hist2)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}
