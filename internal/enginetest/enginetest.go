// Package enginetest builds engines on fresh SQLite files for the tests of
// the engine and of the services it composes (host's reads and
// MemoryAdapter among them): a test key, a settable clock, the principals
// of the memory-contract tests and the writes they start from. Only tests
// import it.
package enginetest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/store/sqlite"
)

// Key chains the logs of the tests' stores.
var Key = []byte("memgov-test-key-0123456789abcdef")

// New returns an engine on a fresh SQLite file in t's temporary directory,
// under the policy pol (YAML; "" is the default) and opts.
func New(t testing.TB, pol string, opts ...engine.Option) *engine.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: Key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := policy.Parse([]byte(pol))
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	return engine.New(s, Key, append([]engine.Option{engine.WithPolicy(p)}, opts...)...)
}

// Clock is a settable test clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set sets the clock's time.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// T0 is the time a contract engine's clock starts at.
var T0 = time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)

// Contract returns an engine on a fresh database with a clock at T0 and the
// principals of the contract tests (AddPrincipals).
func Contract(t testing.TB) (*engine.Engine, *Clock) {
	t.Helper()
	c := NewClock(T0)
	e := New(t, "", engine.WithClock(c.Now))
	AddPrincipals(t, e)
	return e, c
}

// AddPrincipals registers the contract tests' principals: acme's executor
// support-bot, curator acme-curator and operator acme-ops; globex's
// executor research-agent and curator globex-curator; jane, a curator of
// every tenant.
func AddPrincipals(t testing.TB, e *engine.Engine) {
	t.Helper()
	for _, p := range []memgov.Principal{
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "acme-curator", Role: memgov.Curator, Tenant: "acme"},
		{ID: "acme-ops", Role: memgov.Operator, Tenant: "acme", Attributes: map[string]string{"scopes": "memory:read proposal:activate"}},
		{ID: "research-agent", Role: memgov.Executor, Tenant: "globex"},
		{ID: "globex-curator", Role: memgov.Curator, Tenant: "globex"},
		{ID: "jane", Role: memgov.Curator, Tenant: memgov.AllTenants},
	} {
		if _, err := e.AddPrincipal(context.Background(), p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
}

// Put commits an EPISODIC version of ref/key by jane, ungated: content is a
// content object, or a text that becomes one.
func Put(t testing.TB, e *engine.Engine, ref, key, content string, tags ...string) memgov.PutResult {
	t.Helper()
	if !strings.HasPrefix(content, "{") {
		b, _ := json.Marshal(map[string]string{"text": content})
		content = string(b)
	}
	r, err := e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Episodic, Content: json.RawMessage(content),
		Tags: tags, Confidence: 0.8, Actor: "jane", Reason: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Governed is a governed SESSION write of text by agent, with an API
// response as its evidence.
func Governed(agent, ref, key, text, run string) memgov.WriteRequest {
	conf := 0.9
	auth := 0.95
	return memgov.WriteRequest{SourceAgentID: agent, MemoryRef: ref, Key: key, TargetLayer: memgov.Session, Confidence: &conf,
		ObservationType: "tool_result_verified", RunID: run, Content: json.RawMessage(MustJSON(map[string]string{"text": text})),
		EvidenceRefs: []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: "erp://x", Authority: &auth}}}
}

// MustJSON is v's JSON; it panics on a value JSON cannot encode.
func MustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// KeysOf is the ids (keys) of es, in order; never nil.
func KeysOf(es []host.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// Write decodes raw as a write request and writes it through the governed
// pipeline, failing t on a decoding or store error.
func Write(t testing.TB, e *engine.Engine, raw []byte) memgov.WriteResult {
	t.Helper()
	req, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	res, err := e.Writes().Write(context.Background(), req)
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	return res
}

// AddAgents registers the principals of the pipeline tests: an executor and
// an orchestrator of tenant acme, a curator and an operator of every tenant.
func AddAgents(t testing.TB, e *engine.Engine) {
	t.Helper()
	for _, p := range []memgov.Principal{
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "billing-agent", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "jane", Role: memgov.Curator, Tenant: "*"},
		{ID: "ops", Role: memgov.Operator, Tenant: "*"},
	} {
		if _, err := e.AddPrincipal(context.Background(), p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
}

// Req is the JSON of an EPISODIC write by agent of text to ref/key, with
// one piece of human-input evidence.
func Req(agent, ref, key, text string) []byte {
	b, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	return b
}

// Lifecycle returns an engine under the policy pol with its clock stopped at
// 2025-01-01 and the principals of the lifecycle tests: a curator of every
// tenant (jane) and an orchestrator, an executor, a verifier and an operator
// of acme (orch, bot, ver, ops).
func Lifecycle(t testing.TB, pol string) (*engine.Engine, *Clock) {
	t.Helper()
	c := NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	e := New(t, pol, engine.WithClock(c.Now))
	ctx := context.Background()
	for _, p := range []memgov.Principal{{ID: "jane", Role: memgov.Curator, Tenant: "*"}, {ID: "orch", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, {ID: "ver", Role: memgov.Verifier, Tenant: "acme"}, {ID: "ops", Role: memgov.Operator, Tenant: "acme"}} {
		if _, err := e.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	return e, c
}

// PutText puts text as ref/key in layer, ungated, as jane with confidence
// 0.5; mod, when given, changes the request first.
func PutText(t testing.TB, e *engine.Engine, ref, key string, layer memgov.Layer, text string, mod func(*memgov.PutRequest)) memgov.PutResult {
	t.Helper()
	body, err := json.Marshal(map[string]string{"text": text})
	if err != nil {
		t.Fatal(err)
	}
	r := memgov.PutRequest{MemoryRef: ref, Key: key, Layer: layer, Content: body, Actor: "jane", Confidence: 0.5}
	if mod != nil {
		mod(&r)
	}
	res, err := e.Writes().Put(context.Background(), r)
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return res
}
