// Package storetest is the conformance suite every memgov.Store passes. A store
// package calls Run from its tests with a Factory: fresh, empty stores and the
// engine that drives them (engine.New, passed in, so that the suite and the
// store depend on the contract at the root and never on the engine).
//
// The suite produces realistic log entries with the engine's operations (Put,
// Write, ApproveBaseline, ... : the Engine interface) and checks each method
// of memgov.Store, memgov.ReadTx and memgov.Tx against the contract its doc
// comment states. It has one
// suite per concern of the contract (log.go, items.go, ...); Coverage maps
// every method to the tests that exercise it.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// Factory gives the suite fresh stores and the engine that drives them.
type Factory struct {
	// Open opens a fresh, empty store and returns it with the key it chains
	// its log with. The suite closes it.
	Open func(t testing.TB) (memgov.Store, []byte)
	// Engine builds memgov's engine over s (engine.New): it chains the log
	// with key, reads the time from now and, when policy is not empty, is
	// governed by that policy document (YAML, as memgov's policy file).
	Engine func(s memgov.Store, key []byte, now func() time.Time, policy []byte) (Engine, error)
}

// Engine is what the suite needs of memgov's engine: the operations whose
// log entries and derived rows it checks each store against.
type Engine interface {
	AcceptCheckpoint(ctx context.Context, signed oplog.AuditCheckpointRecord) (merkle.Verdict, error)
	AckDrift(ctx context.Context, r memgov.AckRequest) (memgov.AckResult, error)
	AcquireLease(ctx context.Context, ref string, key string, holder string, ttl time.Duration) (memgov.LeaseResult, error)
	AddPrincipal(ctx context.Context, p memgov.Principal, actor string) (memgov.Principal, error)
	AddSSHKeys(ctx context.Context, principal string, authorizedKeys []byte, actor string) ([]memgov.SSHKey, error)
	ApproveBaseline(ctx context.Context, r memgov.ApproveRequest) (memgov.Baseline, error)
	AuditRoot(ctx context.Context) (memgov.AuditRoot, error)
	Checkpoint(ctx context.Context, ttlSeconds int64, actor string) (oplog.AuditCheckpointRecord, error)
	CreateProposal(ctx context.Context, in memgov.ProposalInput, actor string) (memgov.Proposal, error)
	CreateToken(ctx context.Context, principal string, ttl time.Duration, actor string, reason string) (string, memgov.Token, error)
	CreateWorkspace(ctx context.Context, agent string, baseRef string, name string) (memgov.Workspace, error)
	Decide(ctx context.Context, d memgov.Decision) (memgov.Review, error)
	EndSession(ctx context.Context, ref string, actor string) (memgov.MemSession, error)
	Erase(ctx context.Context, r memgov.EraseRequest) (memgov.EraseReport, error)
	Expire(ctx context.Context, itemID string, actor string, reason string) (int64, error)
	Get(ctx context.Context, ref string, key string) (memgov.Version, error)
	HardDelete(ctx context.Context, itemID string, actor string, reason string) (int64, error)
	History(ctx context.Context, itemID string) (memgov.Item, []memgov.Version, error)
	IndexFeatures(content json.RawMessage) (memgov.VersionFeatures, error)
	Item(ctx context.Context, id string) (memgov.Item, error)
	JudgeVersion() string
	Pin(ctx context.Context, itemID string, actor string, reason string) (int64, error)
	Principal(ctx context.Context, id string) (memgov.Principal, error)
	Principals(ctx context.Context) ([]memgov.Principal, error)
	Prove(ctx context.Context, from int64) (memgov.ConsistencyProof, error)
	Put(ctx context.Context, r memgov.PutRequest) (memgov.PutResult, error)
	Read(ctx context.Context, q memgov.ReadQuery) (memgov.Snapshot, error)
	Rebuild(ctx context.Context) (memgov.RebuildReport, error)
	ReleaseLease(ctx context.Context, ref string, key string, holder string, token int64) error
	ReleaseQuarantine(ctx context.Context, versionID string, curator string, note string) (memgov.Version, error)
	RemoveFromWorkspace(ctx context.Context, id string, agent string, key string) (int64, error)
	RestoreVersion(ctx context.Context, versionID string, actor string, reason string) (memgov.RollbackResult, error)
	ReviseProposal(ctx context.Context, id string, in memgov.ProposalInput, actor string) (memgov.Proposal, error)
	RevokeToken(ctx context.Context, id string, actor string, reason string) (memgov.Token, error)
	Rollback(ctx context.Context, versionID string, actor string, reason string) (memgov.RollbackResult, error)
	StartSession(ctx context.Context, ref string, actor string) (memgov.MemSession, memgov.VerifyResult, error)
	SubmitWorkspace(ctx context.Context, id string, agent string) (memgov.MergeRequest, error)
	SweepReviews(ctx context.Context) (memgov.SweepResult, error)
	TickCommitments(ctx context.Context, ref string, actor string) (memgov.TickResult, error)
	Unpin(ctx context.Context, itemID string, actor string, reason string) (int64, error)
	Verify(ctx context.Context) (memgov.VerifyReport, error)
	VerifyMemory(ctx context.Context, r memgov.VerifyRequest) (memgov.VerifyResult, error)
	Write(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error)
}

// Clock is a settable test clock.
type Clock struct{ t time.Time }

// NewClock starts a clock at a fixed instant.
func NewClock() *Clock { return &Clock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { return c.t }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// test is one conformance test; suite groups the tests of one concern.
type test struct {
	name string
	fn   func(*testing.T, Factory)
}

type suite struct {
	name  string
	tests []test
}

// suites lists every conformance test, one suite per concern of the store
// contract, and the engine-level tests that drive a store through the engine.
func suites() []suite {
	return []suite{
		{"Store", storeTests},
		{"Log", logTests},
		{"Principals", principalTests},
		{"Items", itemTests},
		{"Pipeline", pipelineTests},
		{"Reviews", reviewTests},
		{"Baselines", baselineTests},
		{"Lifecycle", lifecycleTests},
		{"Telemetry", telemetryTests},
		{"Workspaces", workspaceTests},
		{"Events", eventTests},
		{"Proposals", proposalTests},
		{"Commitments", commitmentTests},
		{"Credentials", credentialTests},
		{"Quarantine", quarantineTests},
		{"DeadLetters", deadLetterTests},
		{"Engine", engineTests},
	}
}

// Run runs every conformance test against stores from f, as subtests named
// concern/test (for example Log/AppendAssignsLSNTimeAndChain).
func Run(t *testing.T, f Factory) {
	for _, s := range suites() {
		t.Run(s.name, func(t *testing.T) {
			for _, tc := range s.tests {
				t.Run(tc.name, func(t *testing.T) { tc.fn(t, f) })
			}
		})
	}
}

// The principals every fixture registers.
const (
	ref      = "acme/support-bot" // the executor's own memory
	executor = "support-bot"      // an executor of acme: its writes go to review
	orch     = "billing-agent"    // an orchestrator of acme: its writes commit
	curator  = "ops-jane"         // a curator of acme
	operator = "ops-oncall"       // an operator of every tenant
)

// fixture is an engine over a fresh store from the factory, with the store
// itself for calling the contract directly.
type fixture struct {
	t   *testing.T
	ctx context.Context
	s   memgov.Store
	e   Engine
	c   *Clock
}

// newFixture opens a store from f and an engine over it, governed by policy
// when one is given.
func newFixture(t *testing.T, f Factory, policy ...[]byte) *fixture {
	t.Helper()
	s, key := f.Open(t)
	t.Cleanup(func() { s.Close() })
	fx := &fixture{t: t, ctx: context.Background(), s: s, c: NewClock()}
	e, err := f.Engine(s, key, fx.c.Now, bytes.Join(policy, nil))
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	fx.e = e
	for _, p := range []memgov.Principal{
		{ID: executor, Role: memgov.Executor, Tenant: "acme"},
		{ID: orch, Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: curator, Role: memgov.Curator, Tenant: "acme"},
		{ID: operator, Role: memgov.Operator, Tenant: memgov.AllTenants},
	} {
		if _, err := fx.e.AddPrincipal(fx.ctx, p, "admin"); err != nil {
			t.Fatalf("add principal %s: %v", p.ID, err)
		}
	}
	return fx
}

// view runs fn in a read transaction and fails the test on its error.
func (fx *fixture) view(fn func(memgov.ReadTx) error) {
	fx.t.Helper()
	if err := fx.s.View(fx.ctx, fn); err != nil {
		fx.t.Fatal(err)
	}
}

// update runs fn in a write transaction and fails the test on its error.
func (fx *fixture) update(fn func(memgov.Tx) error) {
	fx.t.Helper()
	if err := fx.s.Update(fx.ctx, fn); err != nil {
		fx.t.Fatal(err)
	}
}

// put stores text under key of ref directly (no review), as the curator.
func (fx *fixture) put(ref, key, body string, mod ...func(*memgov.PutRequest)) memgov.PutResult {
	fx.t.Helper()
	r := memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: text(body), Actor: curator, Confidence: 0.9, Reason: "test"}
	for _, m := range mod {
		m(&r)
	}
	res, err := fx.e.Put(fx.ctx, r)
	if err != nil {
		fx.t.Fatalf("put %s: %v", key, err)
	}
	fx.c.Advance(time.Second)
	return res
}

// write sends a governed write request and returns its outcome.
func (fx *fixture) write(req map[string]any) memgov.WriteResult {
	fx.t.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		fx.t.Fatal(err)
	}
	wr, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		fx.t.Fatalf("decode write request: %v", err)
	}
	res, err := fx.e.Write(fx.ctx, wr)
	if err != nil {
		fx.t.Fatalf("write: %v", err)
	}
	fx.c.Advance(time.Second)
	return res
}

// request is a governed write of a stated preference with human evidence.
func request(agent, ref, key, body string) map[string]any {
	return map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": body},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}}
}

// deferred writes as the executor: the write waits for a review.
func (fx *fixture) deferred(key, body string) memgov.WriteResult {
	fx.t.Helper()
	r := fx.write(request(executor, ref, key, body))
	if r.Status != memgov.StatusDeferred || r.ReviewID == "" {
		fx.t.Fatalf("want a deferred write, got %+v", r)
	}
	return r
}

// committed writes as the orchestrator to its own memory: the write commits.
func (fx *fixture) committed(key, body string, mod ...func(map[string]any)) memgov.WriteResult {
	fx.t.Helper()
	req := request(orch, "acme/"+orch, key, body)
	for _, m := range mod {
		m(req)
	}
	r := fx.write(req)
	if r.Status != memgov.StatusCommitted {
		fx.t.Fatalf("want a committed write, got %+v", r)
	}
	return r
}

func text(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"text": s})
	return b
}

// entries returns every log entry.
func (fx *fixture) entries() []*oplog.Entry {
	fx.t.Helper()
	var out []*oplog.Entry
	fx.view(func(tx memgov.ReadTx) error {
		n, err := tx.LogSize(fx.ctx)
		if err != nil {
			return err
		}
		return tx.LogRange(fx.ctx, 1, n, func(e *oplog.Entry) error {
			out = append(out, e)
			return nil
		})
	})
	return out
}
