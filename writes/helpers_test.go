package writes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/internal/enginetest"
)

var testKey = enginetest.Key

// newEngine opens a fresh database with the given policy overrides.
func newEngine(t testing.TB, pol string, opts ...engine.Option) *engine.Engine {
	t.Helper()
	return enginetest.New(t, pol, opts...)
}

func write(t testing.TB, e *engine.Engine, raw []byte) memgov.WriteResult {
	t.Helper()
	return enginetest.Write(t, e, raw)
}

func setupAgents(t testing.TB, e *engine.Engine) {
	t.Helper()
	enginetest.AddAgents(t, e)
}

func req(agent, ref, key, text string) []byte { return enginetest.Req(agent, ref, key, text) }

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
