package gate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
)

// readers answers the gates' reads from fixed records.
type readers struct {
	principal *memgov.Principal // nil: unknown
	lease     *memgov.Lease     // nil: none
	deny      bool              // the memoryRef drifted under deny-on-drift
}

func (r readers) Principal(context.Context, string) (memgov.Principal, error) {
	if r.principal == nil {
		return memgov.Principal{}, memgov.ErrNotFound
	}
	return *r.principal, nil
}

func (readers) ItemByKey(context.Context, string, string) (memgov.Item, error) {
	return memgov.Item{}, memgov.ErrNotFound
}

func (r readers) LeaseOf(context.Context, string) (memgov.Lease, bool, error) {
	if r.lease == nil {
		return memgov.Lease{}, false, nil
	}
	return *r.lease, true, nil
}

func (r readers) DriftStatus(context.Context, string) (gate.DriftStatus, error) {
	return gate.DriftStatus{Deny: r.deny}, nil
}

// A refusal that an action lifts names the action in memgov's terms, and its
// detail says it in a phrase, never as a command of one door.
func TestRefusalsNameTheirNextAction(t *testing.T) {
	ctx := context.Background()
	bot := memgov.Principal{ID: "bot", Role: memgov.Orchestrator, Tenant: "acme"}
	suspended := bot
	suspended.Suspended = true
	auth := func(p *memgov.Principal) gate.Result {
		t.Helper()
		r, err := gate.Authorization{}.Evaluate(ctx, gate.AuthorizationInput{Agent: "bot", MemoryRef: "acme/bot", Ref: ref(t, "acme/bot"),
			Layer: memgov.Episodic, Key: "k", Policy: pol(), Reader: readers{principal: p}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Result
	}
	policyGate := func(l *memgov.Lease, token int64) gate.Result {
		t.Helper()
		r, err := gate.Policy{}.Evaluate(ctx, gate.PolicyInput{Principal: bot, Ref: ref(t, "acme/bot"), MemoryRef: "acme/bot", Layer: memgov.Episodic,
			Key: "k", FencingToken: token, HasToken: token > 0, Now: now, Policy: pol(), Leases: readers{lease: l}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	drift := func() gate.Result {
		t.Helper()
		r, err := gate.Drift{}.Evaluate(ctx, gate.DriftInput{MemoryRef: "acme/bot", Reader: readers{deny: true}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Result
	}
	held := &memgov.Lease{Resource: "acme/bot#k", Holder: "bot", Token: 3, ExpiresAt: now.Add(time.Minute)}
	expired := &memgov.Lease{Resource: "acme/bot#k", Holder: "bot", Token: 3, ExpiresAt: now.Add(-time.Minute)}
	for _, tc := range []struct {
		name   string
		r      gate.Result
		reason string
		next   memgov.NextAction
		says   string
	}{
		{"unknown agent", auth(nil), gate.ReasonUnauthorized, memgov.NextRegisterAgent, "a curator registers it as a principal of tenant acme"},
		{"suspended agent", auth(&suspended), gate.ReasonSuspended, memgov.NextReinstateAgent, "a curator reinstates it"},
		{"token without a lease", policyGate(nil, 2), gate.ReasonStaleFencing, memgov.NextAcquireLease, "acquire the lease first"},
		{"token of an expired lease", policyGate(expired, 3), gate.ReasonStaleFencing, memgov.NextAcquireLease, "acquire it again"},
		{"leased write without its token", policyGate(held, 0), gate.ReasonStaleFencing, memgov.NextCarryFencingToken, "must carry the lease's fencing token"},
		{"drift under deny-on-drift", drift(), gate.ReasonDriftDenied, memgov.NextAcknowledgeDrift, "an operator must acknowledge the drift"},
	} {
		if tc.r.Reason != tc.reason || tc.r.Next != tc.next || !strings.Contains(tc.r.Detail, tc.says) {
			t.Errorf("%s: %s %s %q, want %s %s and %q", tc.name, tc.r.Reason, tc.r.Next, tc.r.Detail, tc.reason, tc.next, tc.says)
		}
	}
	// A refusal no action of another lifts names none.
	if r := policyGate(held, 2); r.Reason != gate.ReasonStaleFencing || r.Next != "" {
		t.Errorf("a token never issued: %s %s %q, want %s and no next action", r.Reason, r.Next, r.Detail, gate.ReasonStaleFencing)
	}
}
