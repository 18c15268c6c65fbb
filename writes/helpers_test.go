package writes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

var testKey = []byte("memgov-test-key-0123456789abcdef")

// newEngine opens a fresh database with the given policy overrides.
func newEngine(t testing.TB, pol string, opts ...engine.Option) *engine.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := policy.Parse([]byte(pol))
	if err != nil {
		t.Fatalf("policy: %v", err)
	}
	return engine.New(s, testKey, append([]engine.Option{engine.WithPolicy(p)}, opts...)...)
}

func write(t testing.TB, e *engine.Engine, raw []byte) memgov.WriteResult {
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

func setupAgents(t testing.TB, e *engine.Engine) {
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

func req(agent, ref, key, text string) []byte {
	b, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	return b
}

type lcClock struct{ t time.Time }

func (c *lcClock) now() time.Time          { return c.t }
func (c *lcClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func lcEngine(t *testing.T, pol string) (*engine.Engine, *lcClock) {
	t.Helper()
	c := &lcClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := newEngine(t, pol, engine.WithClock(c.now))
	ctx := context.Background()
	for _, p := range []memgov.Principal{{ID: "jane", Role: memgov.Curator, Tenant: "*"}, {ID: "orch", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, {ID: "ver", Role: memgov.Verifier, Tenant: "acme"}, {ID: "ops", Role: memgov.Operator, Tenant: "acme"}} {
		if _, err := e.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	return e, c
}

func lcPut(t *testing.T, e *engine.Engine, ref, key string, layer memgov.Layer, text string, mod func(*memgov.PutRequest)) memgov.PutResult {
	t.Helper()
	r := memgov.PutRequest{MemoryRef: ref, Key: key, Layer: layer, Content: json.RawMessage(fmt.Sprintf(`{"text":%q}`, text)), Actor: "jane", Confidence: 0.5}
	if mod != nil {
		mod(&r)
	}
	res, err := e.Writes().Put(context.Background(), r)
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return res
}
