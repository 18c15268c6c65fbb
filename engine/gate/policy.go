package gate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// LeaseReader reads the write lease of one entry.
type LeaseReader interface {
	// LeaseOf returns the lease on resource (memoryRef#key), if any.
	LeaseOf(ctx context.Context, resource string) (memgov.Lease, bool, error)
}

// PolicyInput is what the policy gate needs.
type PolicyInput struct {
	Principal memgov.Principal
	Ref       scope.Ref // the memoryRef, parsed
	MemoryRef string
	Layer     memgov.Layer
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

// allDomains reports a domains attribute that allows every domain.
func allDomains(attr string) bool {
	for _, d := range strings.Split(attr, ",") {
		if strings.TrimSpace(d) == "*" {
			return true
		}
	}
	return false
}

// Policy applies the policy checks of the lifecycle subsystem to every write:
// ABAC (an executor's own session, domain tags), data residency (spec §12.10.3), the
// reference-only invariant (spec §13.13) and write leases with fencing
// tokens (spec §12.8.3).
type Policy struct{}

// Name returns NamePolicy.
func (Policy) Name() string { return NamePolicy }

// Evaluate rejects writes the policy forbids and defers writes to an entry
// another agent holds the lease on.
func (Policy) Evaluate(ctx context.Context, in PolicyInput) (Result, error) {
	p, pol := in.Principal, in.Policy
	if authz.OutsideOwnSession(p, in.Layer, in.Ref.Agent) {
		return reject(ReasonUnauthorized, "an executor writes only its own session memory (%s/%s/...)", in.Ref.Tenant, p.ID), nil
	}
	if attr, ok := p.Attributes["domains"]; ok {
		// ABAC: an agent restricted to domains writes only memory tagged
		// with one of them; untagged memory would escape the restriction.
		if !authz.InDomains(p, in.Tags) {
			return reject(ReasonUnauthorized, "%s may write only memory tagged with its domains (%s)", p.ID, attr), nil
		}
		if len(memgov.DomainsOf(in.Tags)) == 0 && !allDomains(attr) {
			return reject(ReasonUnauthorized, "%s is restricted to the domains %s: tag the write with one of them (domain:NAME)", p.ID, attr), nil
		}
	}
	if !pol.ResidencyAllowed(in.Residency) {
		return reject(memgov.ReasonResidency, "residency class %s may not be stored in region %s", clip(in.Residency, 20), pol.Residency.StoreRegion), nil
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
	live := found && !l.Released && in.Now.Before(l.ExpiresAt)
	if in.HasToken {
		// write_valid of spec §12.8.3: the token must be the current token of
		// the entry, issued to the writer, and its lease not expired (a
		// released lease's last token stays valid for its holder).
		switch {
		case !found:
			return reject(ReasonStaleFencing, "fencing token %d names no lease on %s; acquire the lease first", in.FencingToken, in.Key).then(memgov.NextAcquireLease), nil
		case in.FencingToken < l.Token:
			return reject(ReasonStaleFencing, "fencing token %d is older than the current token %d of %s", in.FencingToken, l.Token, in.Key), nil
		case in.FencingToken > l.Token:
			return reject(ReasonStaleFencing, "fencing token %d was never issued for %s (the current token is %d)", in.FencingToken, in.Key, l.Token), nil
		case l.Holder != p.ID:
			return reject(ReasonStaleFencing, "fencing token %d of %s belongs to %s, not %s", in.FencingToken, in.Key, l.Holder, p.ID), nil
		case !live && !l.Released:
			return reject(ReasonStaleFencing, "the lease with fencing token %d on %s expired at %s; acquire it again", in.FencingToken, in.Key, l.ExpiresAt.UTC().Format(time.RFC3339)).then(memgov.NextAcquireLease), nil
		}
		return accept(), nil
	}
	if !live {
		return accept(), nil
	}
	if l.Holder != p.ID {
		r := verdict(Defer, ReasonLeaseHeld, "%s holds the write lease on %s until %s", l.Holder, in.Key, l.ExpiresAt.Format(time.RFC3339))
		r.RetryAfter = max(l.ExpiresAt.Sub(in.Now), time.Second)
		return r, nil
	}
	return reject(ReasonStaleFencing, "a write under a lease must carry the lease's fencing token").then(memgov.NextCarryFencingToken), nil
}
