package writes_test

import (
	"testing"

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
