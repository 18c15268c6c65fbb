package engine_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/internal/enginetest"
)

// Session baselines (seed 000): session memory is checked against the
// baseline at start-up and exempt from drift detection only while a
// session is active.
func TestSessionBaselineDrift(t *testing.T) {
	ctx := context.Background()
	const ref = "acme/chat"
	setup := func(t *testing.T, pol string) (*engine.Engine, *enginetest.Clock) {
		e, c := enginetest.Lifecycle(t, "")
		enginetest.PutText(t, e, ref, "greeting", memgov.Semantic, "Greet customers by their first name.", nil)
		if _, err := e.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: ref, By: "ops", MemoryType: memgov.MemorySession, TTLSeconds: 86400,
			DriftPolicy: pol, Level: 1, Reason: "session baseline"}); err != nil {
			t.Fatal(err)
		}
		c.Add(time.Second)
		return e, c
	}
	verify := func(t *testing.T, e *engine.Engine) memgov.VerifyResult {
		t.Helper()
		res, err := e.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref, Actor: "ops"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	t.Run("an in-session change is exempt while active, drift after the end, and refuses the next session", func(t *testing.T) {
		e, c := setup(t, policy.DenyOnDrift)
		if _, res, err := e.Baselines().StartSession(ctx, ref, "bot"); err != nil || res.Drift {
			t.Fatalf("first session: %+v %v", res, err)
		}
		enginetest.PutText(t, e, ref, "greeting", memgov.Semantic, "Greet customers by their surname.", nil)
		if res := verify(t, e); res.Drift || !res.SessionExempt || res.Action != "allow" {
			t.Fatalf("inside the session: %+v", res)
		}
		c.Add(time.Minute)
		if _, err := e.Baselines().EndSession(ctx, ref, "bot"); err != nil {
			t.Fatal(err)
		}
		res := verify(t, e)
		if !res.Drift || res.Cause != baselines.CauseSession || res.Action != "deny" || res.DriftID == "" {
			t.Fatalf("after the session: %+v", res)
		}
		if _, res, err := e.Baselines().StartSession(ctx, ref, "bot"); !errors.Is(err, memgov.ErrForbidden) || res.Action != "deny" {
			t.Fatalf("a session on drifted memory: %+v %v", res, err)
		}
	})

	t.Run("a session that leaves nothing behind is no drift", func(t *testing.T) {
		e, c := setup(t, policy.DenyOnDrift)
		if _, _, err := e.Baselines().StartSession(ctx, ref, "bot"); err != nil {
			t.Fatal(err)
		}
		enginetest.PutText(t, e, ref, "scratch", memgov.Working, "The customer is on the pricing page.", nil)
		c.Add(time.Minute)
		if _, err := e.Baselines().EndSession(ctx, ref, "bot"); err != nil {
			t.Fatal(err)
		}
		if res := verify(t, e); res.Drift || res.Action != "allow" {
			t.Fatalf("after a session whose working memory was cleared: %+v", res)
		}
		if _, res, err := e.Baselines().StartSession(ctx, ref, "bot"); err != nil || res.Drift {
			t.Fatalf("the next session: %+v %v", res, err)
		}
	})

	t.Run("a change between sessions is drift at the next start", func(t *testing.T) {
		for _, pol := range []string{policy.DenyOnDrift, policy.AlertOnDrift} {
			e, _ := setup(t, pol)
			enginetest.PutText(t, e, ref, "greeting", memgov.Semantic, "Greet customers with a joke.", nil)
			_, res, err := e.Baselines().StartSession(ctx, ref, "bot")
			if !res.Drift || res.Cause != baselines.CauseSession {
				t.Fatalf("%s: start on changed memory: %+v %v", pol, res, err)
			}
			if pol == policy.DenyOnDrift && (!errors.Is(err, memgov.ErrForbidden) || res.Action != "deny") {
				t.Fatalf("deny-on-drift started a session: %+v %v", res, err)
			}
			if pol == policy.AlertOnDrift && (err != nil || res.Action != "allow" || len(res.Alerts) == 0) {
				t.Fatalf("alert-on-drift: %+v %v", res, err)
			}
		}
	})
}
