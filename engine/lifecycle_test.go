package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
)

func day(n int) time.Duration { return time.Duration(n) * 24 * time.Hour }

func modes(r lifecycle.GCReport) map[string]string {
	out := map[string]string{}
	for _, a := range r.Expired {
		out[a.Key] = a.Mode
	}
	for _, a := range r.Protected {
		out[a.Key] = a.Mode
	}
	for _, a := range r.HardDeleted {
		out[a.Key] = out[a.Key] + "+hard"
	}
	return out
}

func TestGCModesGracePinsAndLinks(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	ttl := time.Hour
	enginetest.PutText(t, e, "acme/bot", "ttl", memgov.Session, "short lived", func(r *memgov.PutRequest) { r.TTL = ttl })
	enginetest.PutText(t, e, "acme/bot", "stale-session", memgov.Session, "an idle session note", nil)
	enginetest.PutText(t, e, "acme/orch", "old-episode", memgov.Episodic, "an old episode nobody reads", nil)
	enginetest.PutText(t, e, "acme/orch", "read-episode", memgov.Episodic, "an old episode that is read often", nil)
	pinned := enginetest.PutText(t, e, "acme/orch", "pinned-episode", memgov.Episodic, "a pinned episode", nil)
	enginetest.PutText(t, e, "acme/orch", "pii", memgov.Semantic, "PII past retention", func(r *memgov.PutRequest) { r.Classification = policy.PII })
	cited := enginetest.PutText(t, e, "acme/orch", "cited", memgov.Session, "cited by a semantic fact", nil)
	if _, err := e.Lifecycle().Pin(ctx, pinned.ItemID, "jane", "keep"); err != nil {
		t.Fatal(err)
	}
	// A version citing "cited" as MEMORY_ITEM evidence makes it load-bearing.
	c.Add(time.Minute)
	res := write(t, e, []byte(fmt.Sprintf(`{"source_agent_id":"jane","memory_ref":"acme/orch","key":"fact","target_layer":"EPISODIC","observation_type":"user_stated_preference","confidence":0.9,
		"content":{"text":"The refund ceiling is approved by finance"},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://x","authority":0.95},{"source_type":"MEMORY_ITEM","source_item_id":%q}]}`, cited.ItemID)))
	if res.Status != memgov.StatusCommitted && res.Status != memgov.StatusDeferred {
		t.Fatalf("citing write: %+v", res)
	}
	// The citing fact must itself live for the year this test spans.
	if res.Status == memgov.StatusCommitted {
		if _, err := e.Lifecycle().Pin(ctx, res.ItemID, "jane", "keeps its citation alive"); err != nil {
			t.Fatal(err)
		}
	}

	// Four hours on: the TTL item and the idle session note are due.
	c.Add(4 * time.Hour)
	r, err := e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	m := modes(r)
	if m["ttl"] != oplog.GCModeTTL || m["stale-session"] != oplog.GCModeRelevance || m["cited"] != oplog.GCModeLinked {
		t.Fatalf("after 4h: %v", m)
	}
	if _, ok := m["old-episode"]; ok {
		t.Fatalf("episodic memory collected after 4h: %v", m)
	}
	// Reads reinforce: read-episode is read every month.
	for i := 0; i < 12; i++ {
		c.Add(day(30))
		if _, err := e.Host().Get(ctx, memgov.As("orch"), "acme/orch", "read-episode"); err != nil {
			t.Fatal(err)
		}
	}
	// A dry run decides without writing.
	dry, err := e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Expired) == 0 {
		t.Fatal("dry run found nothing")
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "old-episode"); err != nil || v.State != memgov.Active {
		t.Fatalf("dry run changed memory: %v %v", v.State, err)
	}
	r, err = e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	m = modes(r)
	if m["old-episode"] != oplog.GCModeRelevance || m["pinned-episode"] != oplog.GCModePinned || m["pii"] != oplog.GCModeRetention+"+hard" {
		t.Fatalf("after a year: %v", m)
	}
	if _, ok := m["read-episode"]; ok {
		t.Fatalf("an episode read monthly was collected: %v", m)
	}
	// Grace: the SESSION items expired a year ago were hard deleted in this run
	// (more than 30 days); the EPISODIC one just expired stays recoverable.
	hard := map[string]bool{}
	for _, a := range r.HardDeleted {
		hard[a.ItemID] = true
	}
	item, _ := e.Host().Item(ctx, memgov.Owner, pinned.ItemID)
	if !item.Pinned || hard[item.ID] {
		t.Fatal("pinned item hard deleted")
	}
	c.Add(day(31))
	r, err = e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.HardDeleted) != 0 || r.Retained == 0 {
		t.Fatalf("persistent memory must not be hard deleted by GC: %+v", r)
	}
	// The cited SESSION item is never collected; rebuild reproduces everything.
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "cited"); err != nil || v.Text() == "" {
		t.Fatalf("cited item: %v %v", v, err)
	}
	rb, err := e.Audit().Rebuild(ctx)
	if err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
	vr, err := e.Audit().Verify(ctx)
	if err != nil || !vr.OK {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

func TestGCGracePeriodTransient(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	a := enginetest.PutText(t, e, "acme/bot", "note", memgov.Session, "session scratch about Alice", nil)
	if _, err := e.Lifecycle().Expire(ctx, a.ItemID, "jane", "stale"); err != nil {
		t.Fatal(err)
	}
	c.Add(day(29))
	r, err := e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane"})
	if err != nil || len(r.HardDeleted) != 0 {
		t.Fatalf("within grace: %+v %v", r.HardDeleted, err)
	}
	// Orchestrators soft delete but may not hard delete.
	c.Add(day(2))
	if _, err := e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "orch"}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("orchestrator hard delete: %v", err)
	}
	r, err = e.Lifecycle().GC(ctx, lifecycle.GCOptions{By: "jane"})
	if err != nil || len(r.HardDeleted) != 1 || r.ErasureLSN == 0 {
		t.Fatalf("after grace: %+v %v", r, err)
	}
	_, vs, err := e.Host().History(ctx, memgov.Owner, a.ItemID)
	if err != nil || vs[0].Text() != "" || string(vs[0].Content) != string(oplog.ErasedContent) {
		t.Fatalf("content after hard delete: %s %v", vs[0].Content, err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
	if vr, err := e.Audit().Verify(ctx); err != nil || !vr.OK || vr.Erased == 0 {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

func TestEraseClosureAndRebuild(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	a := enginetest.PutText(t, e, "acme/orch", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund", nil)
	enginetest.PutText(t, e, "acme/orch", "other", memgov.Episodic, "Unrelated note on shipping", nil)
	c.Add(time.Minute)
	res := write(t, e, []byte(fmt.Sprintf(`{"source_agent_id":"jane","memory_ref":"acme/orch","key":"summary","target_layer":"EPISODIC","observation_type":"tool_result_verified","confidence":0.9,
		"content":{"text":"Refund requests rose this week"},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://x","authority":0.95},{"source_type":"MEMORY_ITEM","source_item_id":%q}]}`, a.ItemID)))
	if res.Status != memgov.StatusCommitted && res.Status != memgov.StatusDeferred {
		t.Fatalf("%+v", res)
	}
	if _, err := e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "orch"}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("orchestrator erase: %v", err)
	}
	rep, err := e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Items != 2 || len(rep.Derived) != 1 || rep.ByLayer["EPISODIC"] != 2 {
		t.Fatalf("report: %+v", rep)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "summary"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("derived item still visible: %v", err)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, "acme/orch", "other"); err != nil || v.Text() == "" {
		t.Fatalf("unrelated item: %v", err)
	}
	rb, err := e.Audit().Rebuild(ctx)
	if err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild after erasure: %v %v", rb.Differences, err)
	}
	if vr, err := e.Audit().Verify(ctx); err != nil || !vr.OK {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	cr, err := e.Audit().ComplianceReport(ctx)
	if err != nil || len(cr.Erasures) != 1 || cr.Erasures[0].SubjectHash != rep.SubjectHash || cr.Erasures[0].Items != 2 {
		t.Fatalf("compliance: %+v %v", cr.Erasures, err)
	}
}

// TestRBACMatrixThroughEngine exercises every role x layer x operation of
// spec §12.8.2 through the engine's own doors, and compares with the policy matrix.
func TestRBACMatrixThroughEngine(t *testing.T) {
	ctx := context.Background()
	ops := []string{policy.OpRead, policy.OpWrite, policy.OpAnnotate, policy.OpDelete, policy.OpHardDelete, policy.OpApprove, policy.OpAdmin}
	n := 0
	for _, role := range memgov.Roles {
		for _, layer := range memgov.Layers {
			for _, op := range ops {
				t.Run(fmt.Sprintf("%s/%s/%s", role, layer, op), func(t *testing.T) {
					e, _ := enginetest.Lifecycle(t, "")
					id := "p-" + string(role)
					if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: id, Role: role, Tenant: "acme"}, ""); err != nil {
						t.Fatal(err)
					}
					ref := "acme/" + id
					it := enginetest.PutText(t, e, ref, "k", layer, "an entry of "+string(layer), nil)
					want := e.Policy().Allowed(string(role), string(layer), op)
					var err error
					switch op {
					case policy.OpRead:
						_, err = e.Host().Get(ctx, memgov.As(id), ref, "k")
					case policy.OpWrite:
						r := write(t, e, []byte(fmt.Sprintf(`{"source_agent_id":%q,"memory_ref":%q,"key":"w","target_layer":%q,"observation_type":"tool_result_verified","confidence":0.9,
							"content":{"text":"A verified tool result for the matrix"},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://x","authority":0.95}]}`, id, ref, layer)))
						if r.Status != memgov.StatusCommitted {
							err = fmt.Errorf("%w: %s %s", memgov.ErrForbidden, r.Status, r.Reason)
						}
						if want && (r.Status == memgov.StatusDenied || r.Reason == gate.ReasonUnauthorized) {
							t.Fatalf("allowed write refused: %+v", r)
						}
						if want {
							return // an allowed write may still be reviewed for risk
						}
					case policy.OpAnnotate:
						_, err = e.Lifecycle().Annotate(ctx, it.ItemID, id, "validation", "checked")
					case policy.OpDelete:
						_, err = e.Lifecycle().Expire(ctx, it.ItemID, id, "stale")
					case policy.OpHardDelete:
						_, err = e.Lifecycle().HardDelete(ctx, it.ItemID, id, "remove")
					case policy.OpApprove:
						err = authorize(ctx, e, id, ref, layer, op)
					case policy.OpAdmin:
						to := memgov.Episodic
						if layer == memgov.Episodic {
							to = memgov.Semantic
						}
						err = authorize(ctx, e, id, ref, layer, op)
						if err == nil && e.Policy().Allowed(string(role), string(to), op) {
							_, err = e.Lifecycle().Reclassify(ctx, it.ItemID, to, id, "move")
						}
					}
					if want && err != nil {
						t.Fatalf("allowed by the matrix, refused by the engine: %v", err)
					}
					if !want && err == nil {
						t.Fatal("denied by the matrix, allowed by the engine")
					}
					if !want && !errors.Is(err, memgov.ErrForbidden) {
						t.Fatalf("want memgov.ErrForbidden, got %v", err)
					}
				})
				n++
			}
		}
	}
	if n != 5*5*7 {
		t.Fatalf("%d cases", n)
	}
}

func TestVisibilityClearanceAndDomains(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "med", Role: memgov.Orchestrator, Tenant: "acme", Attributes: map[string]string{"domains": "medical", "clearance": "BUSINESS"}}, ""); err != nil {
		t.Fatal(err)
	}
	enginetest.PutText(t, e, "acme/shared", "pii", memgov.Episodic, "a PII note", func(r *memgov.PutRequest) { r.Classification = policy.PII })
	enginetest.PutText(t, e, "acme/shared", "fin", memgov.Episodic, "a finance note", func(r *memgov.PutRequest) { r.Tags = []string{"domain:finance"} })
	enginetest.PutText(t, e, "acme/shared", "med", memgov.Episodic, "a medical note", func(r *memgov.PutRequest) { r.Tags = []string{"domain:medical"} })
	s, err := e.Host().Read(ctx, memgov.As("med"), memgov.ReadQuery{MemoryRef: "acme/shared"})
	if err != nil || len(s.Versions) != 1 || s.Versions[0].Key != "med" || s.Hidden != 2 || s.RetrievalID == "" {
		t.Fatalf("%+v %v", s, err)
	}
	if _, err := e.Host().Read(ctx, memgov.As("med"), memgov.ReadQuery{MemoryRef: "globex/x"}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("cross-tenant: %v", err)
	}
	if n, err := e.Host().Feedback(ctx, s.RetrievalID, []string{s.Versions[0].ItemID}); err != nil || n != 1 {
		t.Fatalf("feedback: %d %v", n, err)
	}
}

func TestLeasesFencing(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	a, err := e.Lifecycle().AcquireLease(ctx, "acme/shared", "plan", "orch", 30*time.Second)
	if err != nil || a.Status != lifecycle.LeaseGranted || a.Lease.Token != 1 {
		t.Fatalf("%+v %v", a, err)
	}
	d, err := e.Lifecycle().AcquireLease(ctx, "acme/shared", "plan", "jane", 30*time.Second)
	if err != nil || d.Status != lifecycle.LeaseDenied || d.Holder != "orch" {
		t.Fatalf("%+v %v", d, err)
	}
	req := []byte(`{"source_agent_id":"jane","memory_ref":"acme/shared","key":"plan","target_layer":"SESSION","content":{"text":"the plan"}}`)
	if r := write(t, e, req); r.Reason != gate.ReasonLeaseHeld {
		t.Fatalf("write under another's lease: %+v", r)
	}
	if _, err := e.Lifecycle().RenewLease(ctx, "acme/shared", "plan", "orch", 1, time.Minute); err != nil {
		t.Fatal(err)
	}
	c.Add(2 * time.Minute) // expired: reclaimable
	b, err := e.Lifecycle().AcquireLease(ctx, "acme/shared", "plan", "jane", 30*time.Second)
	if err != nil || b.Status != lifecycle.LeaseGranted || b.Lease.Token != 2 {
		t.Fatalf("%+v %v", b, err)
	}
	reqOrch := []byte(`{"source_agent_id":"orch","memory_ref":"acme/shared","key":"plan","target_layer":"SESSION","content":{"text":"the stale plan"}}`)
	dec, _ := memgov.DecodeWriteRequest(reqOrch)
	r, err := e.Writes().Write(lifecycle.WithFencingToken(ctx, 1), dec)
	if err != nil || r.Reason != gate.ReasonLeaseHeld && r.Reason != gate.ReasonStaleFencing {
		t.Fatalf("stale holder: %+v %v", r, err)
	}
	if err := e.Lifecycle().ReleaseLease(ctx, "acme/shared", "plan", "jane", 2); err != nil {
		t.Fatal(err)
	}
	r, err = e.Writes().Write(lifecycle.WithFencingToken(ctx, 1), dec)
	if err != nil || r.Reason != gate.ReasonStaleFencing {
		t.Fatalf("stale token after release: %+v %v", r, err)
	}
	dec2, _ := memgov.DecodeWriteRequest(req)
	if r, err := e.Writes().Write(lifecycle.WithFencingToken(ctx, 2), dec2); err != nil || r.Status != memgov.StatusCommitted {
		t.Fatalf("current token: %+v %v", r, err)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}

func TestResidencyAndReferenceOnly(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "residency:\n  store_region: us\nreference_only:\n  sources:\n    - uri: rules://refund-policy\n      text: Refunds above one thousand dollars require a second signature from the finance controller.\n")
	r := write(t, e, []byte(`{"source_agent_id":"jane","memory_ref":"acme/x","key":"a","target_layer":"SESSION","residency":"EU","content":{"text":"an EU customer's note"}}`))
	if r.Reason != memgov.ReasonResidency {
		t.Fatalf("%+v", r)
	}
	r = write(t, e, []byte(`{"source_agent_id":"jane","memory_ref":"acme/x","key":"b","target_layer":"SESSION","content":{"text":"Refunds above one thousand dollars require a second signature from the finance controller."}}`))
	if r.Reason != gate.ReasonReferenceOnly {
		t.Fatalf("%+v", r)
	}
	if r := write(t, e, []byte(`{"source_agent_id":"jane","memory_ref":"acme/x","key":"c","target_layer":"SESSION","residency":"US","content":{"text":"see rules://refund-policy for large refunds"}}`)); r.Status != memgov.StatusCommitted {
		t.Fatalf("%+v", r)
	}
}

// authorize is the matrix's cell for the registered principal id on memory
// of ref in layer, as the engine's authority decides it.
func authorize(ctx context.Context, e *engine.Engine, id, ref string, layer memgov.Layer, op string) error {
	p, err := e.Principal(ctx, id)
	if err != nil {
		return err
	}
	return e.Authz().Authorized(p, ref, layer, op)
}
