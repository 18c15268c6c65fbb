package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// LeaseReader reads the write lease of one entry.
type LeaseReader interface {
	// LeaseOf returns the lease on resource (memoryRef#key), if any.
	LeaseOf(ctx context.Context, resource string) (memory.Lease, bool, error)
}

// PolicyInput is what the policy gate needs.
type PolicyInput struct {
	Principal memory.Principal
	Ref       scope.Ref // the memoryRef, parsed
	MemoryRef string
	Layer     memory.Layer
	Key       string
	Tags      []string
	Residency string
	Text      string // content.text
	// FencingToken is the token the writer holds, when HasToken.
	FencingToken int64
	HasToken     bool
	Now          time.Time
	Policy       *policy.Policy
	// Leases is nil when the store keeps no leases.
	Leases LeaseReader
}

// Policy applies the policy checks of the lifecycle subsystem to every write:
// ABAC (an executor's own session, domain tags), data residency (12.10.3), the
// reference-only invariant (seed 003 section 13) and write leases with fencing
// tokens (12.8.3).
type Policy struct{}

// Name returns NamePolicy.
func (Policy) Name() string { return NamePolicy }

// Evaluate rejects writes the policy forbids and defers writes to an entry
// another agent holds the lease on.
func (Policy) Evaluate(ctx context.Context, in PolicyInput) (Result, error) {
	p, pol := in.Principal, in.Policy
	if p.Role == memory.Executor && (in.Layer == memory.Working || in.Layer == memory.Session) && in.Ref.Agent != p.ID {
		return reject(ReasonUnauthorized, "an executor writes only its own session memory (%s/%s/...)", in.Ref.Tenant, p.ID), nil
	}
	if _, ok := p.Attributes["domains"]; ok && !p.InDomains(in.Tags) {
		return reject(ReasonUnauthorized, "%s may write only memory tagged with its domains (%s)", p.ID, p.Attributes["domains"]), nil
	}
	if !pol.ResidencyAllowed(in.Residency) {
		return reject(ReasonResidency, "residency class %s may not be stored in region %s", clip(in.Residency, 20), pol.Residency.StoreRegion), nil
	}
	if len(pol.ReferenceOnly.Sources) > 0 {
		if uri, sim, found := pol.ReferenceMatch(in.Text); found {
			return reject(ReasonReferenceOnly, "the content copies the canonical source %s (%.0f%% of its trigrams); reference it instead of mirroring it", uri, sim*100), nil
		}
	}
	if in.Key == "" || in.Leases == nil {
		return accept(), nil
	}
	l, found, err := in.Leases.LeaseOf(ctx, in.MemoryRef+"#"+in.Key)
	if err != nil {
		return Result{}, fmt.Errorf("read lease of %s: %w", in.Key, err)
	}
	if !found {
		return accept(), nil
	}
	live := !l.Released && in.Now.Before(l.ExpiresAt)
	if live && l.Holder != p.ID {
		r := verdict(Defer, ReasonLeaseHeld, "%s holds the write lease on %s until %s", l.Holder, in.Key, l.ExpiresAt.Format(time.RFC3339))
		r.RetryAfter = max(l.ExpiresAt.Sub(in.Now), time.Second)
		return r, nil
	}
	if in.HasToken && in.FencingToken < l.Token {
		return reject(ReasonStaleFencing, "fencing token %d is older than the current token %d of %s", in.FencingToken, l.Token, in.Key), nil
	}
	if live && !in.HasToken {
		return reject(ReasonStaleFencing, "a write under a lease must carry its fencing token (engine.WithFencingToken)"), nil
	}
	return accept(), nil
}
