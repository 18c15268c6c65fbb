// Package storetest is the conformance suite every engine.Store passes. A store
// package calls Run from its tests with a factory for fresh, empty stores.
//
// The suite is written only against the engine's interfaces and public API:
// it produces realistic log entries with the engine (engine.New, Put, Write,
// ApproveBaseline, ...) and checks each method of engine.Store, engine.ReadTx
// and engine.Tx against the contract its doc comment states. It has one
// suite per concern of the contract (log.go, items.go, ...); Coverage maps
// every method to the tests that exercise it.
package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/memgov/memgov/engine"
)

// Factory opens a fresh, empty store and returns it with the key it chains
// its log with. The suite closes it.
type Factory func(t testing.TB) (engine.Store, []byte)

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
	s   engine.Store
	e   *engine.Engine
	c   *Clock
}

func newFixture(t *testing.T, f Factory, opts ...engine.Option) *fixture {
	t.Helper()
	s, key := f(t)
	t.Cleanup(func() { s.Close() })
	fx := &fixture{t: t, ctx: context.Background(), s: s, c: NewClock()}
	fx.e = engine.New(s, key, append([]engine.Option{engine.WithClock(fx.c.Now)}, opts...)...)
	for _, p := range []engine.Principal{
		{ID: executor, Role: engine.Executor, Tenant: "acme"},
		{ID: orch, Role: engine.Orchestrator, Tenant: "acme"},
		{ID: curator, Role: engine.Curator, Tenant: "acme"},
		{ID: operator, Role: engine.Operator, Tenant: engine.AllTenants},
	} {
		if _, err := fx.e.AddPrincipal(fx.ctx, p, "admin"); err != nil {
			t.Fatalf("add principal %s: %v", p.ID, err)
		}
	}
	return fx
}

// view runs fn in a read transaction and fails the test on its error.
func (fx *fixture) view(fn func(engine.ReadTx) error) {
	fx.t.Helper()
	if err := fx.s.View(fx.ctx, fn); err != nil {
		fx.t.Fatal(err)
	}
}

// update runs fn in a write transaction and fails the test on its error.
func (fx *fixture) update(fn func(engine.Tx) error) {
	fx.t.Helper()
	if err := fx.s.Update(fx.ctx, fn); err != nil {
		fx.t.Fatal(err)
	}
}

// put stores text under key of ref directly (no review), as the curator.
func (fx *fixture) put(ref, key, body string, mod ...func(*engine.PutRequest)) engine.PutResult {
	fx.t.Helper()
	r := engine.PutRequest{MemoryRef: ref, Key: key, Layer: engine.Semantic, Content: text(body), Actor: curator, Confidence: 0.9, Reason: "test"}
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
func (fx *fixture) write(req map[string]any) engine.WriteResult {
	fx.t.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		fx.t.Fatal(err)
	}
	wr, err := engine.DecodeWriteRequest(raw)
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
func (fx *fixture) deferred(key, body string) engine.WriteResult {
	fx.t.Helper()
	r := fx.write(request(executor, ref, key, body))
	if r.Status != engine.StatusDeferred || r.ReviewID == "" {
		fx.t.Fatalf("want a deferred write, got %+v", r)
	}
	return r
}

// committed writes as the orchestrator to its own memory: the write commits.
func (fx *fixture) committed(key, body string, mod ...func(map[string]any)) engine.WriteResult {
	fx.t.Helper()
	req := request(orch, "acme/"+orch, key, body)
	for _, m := range mod {
		m(req)
	}
	r := fx.write(req)
	if r.Status != engine.StatusCommitted {
		fx.t.Fatalf("want a committed write, got %+v", r)
	}
	return r
}

func text(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"text": s})
	return b
}

// entries returns every log entry.
func (fx *fixture) entries() []*engine.LogEntry {
	fx.t.Helper()
	var out []*engine.LogEntry
	fx.view(func(tx engine.ReadTx) error {
		n, err := tx.LogSize(fx.ctx)
		if err != nil {
			return err
		}
		return tx.LogRange(fx.ctx, 1, n, func(e *engine.LogEntry) error {
			out = append(out, e)
			return nil
		})
	})
	return out
}
