package lifecycle_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/store/sqlite"
)

// The tests here drive the service alone: a real SQLite store, the log
// written with oplog as the engine writes it, and recording stand-ins for
// what the service asks of the engine (the pipeline and the search index).

var testKey = []byte("lifecycle-test-key-0123456789abcdef")

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t.UTC().Truncate(time.Millisecond) }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// pipeline records the governed writes the service asks for and answers
// each as deferred to a curator.
type pipeline struct {
	writes []memgov.WriteRequest
}

func (p *pipeline) Write(_ context.Context, r memgov.WriteRequest) (memgov.WriteResult, error) {
	p.writes = append(p.writes, r)
	return memgov.WriteResult{Status: memgov.StatusDeferred, ReviewID: fmt.Sprintf("rv-%d", len(p.writes))}, nil
}

func (p *pipeline) Features(content json.RawMessage) (memory.Features, error) {
	return memory.FeaturesOf(content)
}

type searchIndex struct{ forgets int }

func (s *searchIndex) Forget() { s.forgets++ }

type fixture struct {
	ctx    context.Context
	store  memgov.Store
	clock  *clock
	pipe   *pipeline
	search *searchIndex
	svc    *lifecycle.Service
}

func setup(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := &fixture{ctx: ctx, store: s, clock: &clock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}, pipe: &pipeline{}, search: &searchIndex{}}
	pol := policy.Default()
	f.svc = lifecycle.New(lifecycle.Config{Store: s, Key: testKey, Now: f.clock.now, Policy: pol, Authz: authz.New(pol),
		Rules: judge.New(pol.Contradiction.Cardinalities()), Secrets: redact.NewRegistry(), Pipeline: f.pipe, Search: f.search})
	for _, p := range []memgov.Principal{{ID: "jane", Role: memgov.Curator, Tenant: "*"}, {ID: "orch", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, {ID: "rival", Role: memgov.Orchestrator, Tenant: "acme"}} {
		f.update(t, func(tx memgov.Tx) error {
			entry := &oplog.Entry{Time: f.clock.now(), Op: oplog.Principal, ItemID: p.ID, Actor: "admin"}
			return oplog.AppendData(ctx, tx, entry, "register principal", oplog.PrincipalData{Role: string(p.Role), Tenant: p.Tenant})
		})
	}
	return f
}

func (f *fixture) update(t *testing.T, fn func(memgov.Tx) error) {
	t.Helper()
	if err := f.store.Update(f.ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// insert writes a new ACTIVE version of ref/key, as an ungated put does.
func (f *fixture) insert(t *testing.T, ref, key string, layer memgov.Layer, actor, content string, evidence ...oplog.EvidenceRef) *oplog.Entry {
	t.Helper()
	c, err := canon.Canonicalize(json.RawMessage(content))
	if err != nil {
		t.Fatal(err)
	}
	conf := 0.8
	p := oplog.Payload{Reason: "observed", Key: key, Layer: string(layer), Content: c, ContentHash: oplog.HashPayload(c), Confidence: &conf}
	if len(evidence) > 0 {
		if p.Data, err = json.Marshal(oplog.VersionData{Evidence: evidence}); err != nil {
			t.Fatal(err)
		}
	}
	entry := &oplog.Entry{Time: f.clock.now(), Op: oplog.Insert, MemoryRef: ref, ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: actor}
	f.update(t, func(tx memgov.Tx) error { return oplog.Append(f.ctx, tx, entry, p) })
	return entry
}

func (f *fixture) logSize(t *testing.T) int64 {
	t.Helper()
	var n int64
	if err := f.store.View(f.ctx, func(tx memgov.ReadTx) (err error) {
		n, err = tx.LogSize(f.ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLeaseFencingTokens(t *testing.T) {
	f := setup(t)
	ctx := f.ctx
	got, err := f.svc.AcquireLease(ctx, "acme/shared", "plan", "orch", 30*time.Second)
	if err != nil || got.Status != lifecycle.LeaseGranted || got.Lease.Token != 1 || got.Lease.Holder != "orch" {
		t.Fatalf("first acquire: %+v %v", got, err)
	}
	denied, err := f.svc.AcquireLease(ctx, "acme/shared", "plan", "rival", 30*time.Second)
	if err != nil || denied.Status != lifecycle.LeaseDenied || denied.Holder != "orch" || !denied.RetryAfter.Equal(got.Lease.ExpiresAt) {
		t.Fatalf("a rival's acquire: %+v %v", denied, err)
	}
	f.clock.advance(10 * time.Second)
	renewed, err := f.svc.RenewLease(ctx, "acme/shared", "plan", "orch", 1, time.Minute)
	if err != nil || renewed.Token != 1 || !renewed.ExpiresAt.Equal(f.clock.now().Add(time.Minute)) {
		t.Fatalf("renewal: %+v %v", renewed, err)
	}
	f.clock.advance(2 * time.Minute)
	if _, err := f.svc.RenewLease(ctx, "acme/shared", "plan", "orch", 1, time.Minute); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("renewing an expired lease: %v, want ErrConflict", err)
	}
	taken, err := f.svc.AcquireLease(ctx, "acme/shared", "plan", "rival", 0)
	if err != nil || taken.Status != lifecycle.LeaseGranted || taken.Lease.Token != 2 {
		t.Fatalf("acquire after expiry: %+v %v", taken, err)
	}
	if err := f.svc.ReleaseLease(ctx, "acme/shared", "plan", "rival", 1); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("release with a stale token: %v, want ErrConflict", err)
	}
	if err := f.svc.ReleaseLease(ctx, "acme/shared", "plan", "rival", 2); err != nil {
		t.Fatal(err)
	}
	again, err := f.svc.AcquireLease(ctx, "acme/shared", "plan", "orch", 0)
	if err != nil || again.Status != lifecycle.LeaseGranted || again.Lease.Token != 3 {
		t.Fatalf("acquire after release: %+v %v", again, err)
	}
	if _, err := f.svc.AcquireLease(ctx, "acme/shared", "plan\u202e", "orch", 0); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("a key with a bidirectional control: %v, want ErrInvalid", err)
	}
	if _, err := f.svc.AcquireLease(ctx, "acme/shared", "plan", "nobody", 0); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("an unknown holder: %v, want ErrUnauthorized", err)
	}
	if tok, ok := lifecycle.FencingToken(lifecycle.WithFencingToken(ctx, 3)); !ok || tok != 3 {
		t.Fatalf("fencing token of the context: %d %v", tok, ok)
	}
	if _, ok := lifecycle.FencingToken(ctx); ok {
		t.Fatal("a bare context carries a fencing token")
	}
}

func TestPromotionWritesThroughThePipeline(t *testing.T) {
	f := setup(t)
	ctx := f.ctx
	fact := `{"text":%q,"subject":"eu shipping","predicate":"takes","object":"four business days"}`
	e1 := f.insert(t, "acme/shared", "obs-1", memgov.Episodic, "orch", fmt.Sprintf(fact, "Parcel to Berlin arrived after four business days"),
		oplog.EvidenceRef{SourceType: "TOOL_OUTPUT", SourceURI: "carrier://track/1"})
	e2 := f.insert(t, "acme/shared", "obs-2", memgov.Episodic, "bot", fmt.Sprintf(fact, "Lyon order: delivery took four business days"))
	// The host's reserved key says the same and is never counted.
	f.insert(t, "acme/shared", "distill/archive", memgov.Episodic, "rival", fmt.Sprintf(fact, "Archive: four business days"))

	plan, err := f.svc.PlanPromotion(ctx, "acme/shared", "orch")
	if err != nil {
		t.Fatal(err)
	}
	if plan.Scanned != 2 || len(plan.Candidates) != 1 || plan.Candidates[0].Corroborations != 2 || plan.Candidates[0].Status != lifecycle.PromoteInsufficient {
		t.Fatalf("plan of two corroborations: %+v", plan)
	}
	e3 := f.insert(t, "acme/shared", "obs-3", memgov.Episodic, "orch", fmt.Sprintf(fact, "Madrid: four business days door to door"),
		oplog.EvidenceRef{SourceType: "TOOL_OUTPUT", SourceURI: "carrier://track/3"})
	size := f.logSize(t)
	plan, err = f.svc.PlanPromotion(ctx, "acme/shared", "orch")
	if err != nil || plan.Candidates[0].Status != lifecycle.PromoteWouldPromote || plan.Candidates[0].Corroborations != 3 {
		t.Fatalf("plan of three corroborations: %+v %v", plan, err)
	}
	if len(f.pipe.writes) != 0 || f.logSize(t) != size {
		t.Fatalf("a dry run wrote: %d pipeline writes, log %d -> %d", len(f.pipe.writes), size, f.logSize(t))
	}
	rep, err := f.svc.Promote(ctx, "acme/shared", "orch")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Deferred != 1 || rep.Promoted != 0 || rep.Candidates[0].Status != lifecycle.PromoteWritten || rep.Candidates[0].Result.ReviewID != "rv-1" {
		t.Fatalf("promotion: %+v", rep)
	}
	if len(f.pipe.writes) != 1 {
		t.Fatalf("the pipeline was asked for %d writes, want 1", len(f.pipe.writes))
	}
	w := f.pipe.writes[0]
	if w.TargetLayer != memgov.Semantic || w.MemoryRef != "acme/shared" || w.SourceAgentID != "orch" || w.Key != rep.Candidates[0].Key ||
		!strings.HasPrefix(w.Key, "promoted/") || w.RequestID != "promote-"+strings.TrimPrefix(w.Key, "promoted/") {
		t.Fatalf("promotion request: %+v", w)
	}
	cited, uris := map[string]bool{}, 0
	for _, r := range w.EvidenceRefs {
		if r.SourceType == "MEMORY_ITEM" {
			cited[r.SourceItemID] = true
		} else {
			uris++
		}
	}
	if len(cited) != 3 || !cited[e1.ItemID] || !cited[e2.ItemID] || !cited[e3.ItemID] || uris != 2 {
		t.Fatalf("evidence of the promotion: %+v", w.EvidenceRefs)
	}
	if _, err := f.svc.Promote(ctx, "acme/shared", "nobody"); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("an unknown principal's promotion: %v, want ErrUnauthorized", err)
	}
	if _, err := f.svc.Promote(ctx, "acme/../globex", "orch"); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("a malformed memoryRef: %v, want ErrInvalid", err)
	}
}

func TestErasureDropsTheSearchIndex(t *testing.T) {
	f := setup(t)
	ctx := f.ctx
	f.insert(t, "acme/bot", "customer", memgov.Semantic, "bot", `{"text":"Zed Quirinal prefers email"}`)
	f.insert(t, "acme/bot", "other", memgov.Semantic, "bot", `{"text":"The office opens at nine"}`)

	if _, err := f.svc.Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "orch"}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("an orchestrator's erasure: %v, want ErrForbidden", err)
	}
	dry, err := f.svc.Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane", DryRun: true})
	if err != nil || dry.Status != "DRY_RUN" || dry.Items != 1 || f.search.forgets != 0 {
		t.Fatalf("dry run: %+v %v (search index dropped %d times)", dry, err, f.search.forgets)
	}
	rep, err := f.svc.Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"})
	if err != nil || rep.Status != "COMPLETED" || rep.Items != 1 || rep.ByLayer[string(memgov.Semantic)] != 1 || rep.LSN == 0 {
		t.Fatalf("erasure: %+v %v", rep, err)
	}
	if f.search.forgets != 1 {
		t.Fatalf("the search index was dropped %d times, want 1", f.search.forgets)
	}
	if !strings.HasPrefix(rep.SubjectHash, "sha256:") || strings.Contains(rep.SubjectHash, "quirinal") {
		t.Fatalf("subject hash %q", rep.SubjectHash)
	}
	var erased bool
	if err := f.store.View(ctx, func(tx memgov.ReadTx) error {
		return tx.LogRange(ctx, 1, rep.LSN, func(e *oplog.Entry) error {
			if strings.Contains(strings.ToLower(string(e.Payload)), "quirinal") {
				return fmt.Errorf("log entry %d still holds the subject", e.LSN)
			}
			erased = erased || e.Op == oplog.Erase
			return nil
		})
	}); err != nil || !erased {
		t.Fatalf("log after erasure: %v (ERASE entry found: %v)", err, erased)
	}
	none, err := f.svc.Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"})
	if err != nil || none.Status != "NOTHING_FOUND" || f.search.forgets != 1 {
		t.Fatalf("a second erasure: %+v %v (dropped %d times)", none, err, f.search.forgets)
	}
}

// An erasure that leaves a proposal naming the subject says so, and names
// what settles it: a curator rejects the proposal.
func TestErasureNamesWhatSettlesAProposalLeft(t *testing.T) {
	f := setup(t)
	f.insert(t, "acme/bot", "customer", memgov.Semantic, "bot", `{"text":"Zed Quirinal prefers email"}`)
	f.update(t, func(tx memgov.Tx) error {
		entry := &oplog.Entry{Time: f.clock.now(), Op: oplog.ProposalCreate, ItemID: oplog.NewID(), Actor: "bot"}
		return oplog.AppendData(f.ctx, tx, entry, "propose", oplog.ProposalData{ID: entry.ItemID, Kind: "prompt-template",
			Title: "Refund follow-up", Artifact: json.RawMessage(`{"name":"refund"}`), ArtifactHash: "sha256:a", Rationale: "seen when Zed Quirinal asked", Owner: &oplog.ProposalOwner{Tenant: "acme", Principal: "bot"}})
	})
	rep, err := f.svc.Erase(f.ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"})
	if err != nil || rep.Status != "INCOMPLETE" || len(rep.Left) != 1 {
		t.Fatalf("erasure: %+v %v", rep, err)
	}
	if !strings.Contains(rep.Left[0], "reject or archive such proposals") || strings.Contains(rep.Left[0], "memgov ") ||
		len(rep.NextActions) != 1 || rep.NextActions[0] != memgov.NextRejectProposal {
		t.Fatalf("what the erasure left: %q, next %v; want the proposal and %s", rep.Left, rep.NextActions, memgov.NextRejectProposal)
	}
}
