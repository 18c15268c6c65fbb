package authz

import (
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// A Reading is a memgov.Reader resolved for one read: the local owner of the
// database, or the registered principal a read is bounded by. The read rules
// below are the only place that decides what a reader sees.
type Reading struct {
	Owner     bool
	Principal memgov.Principal
}

// ReadingOf is the reading of a registered principal p.
func ReadingOf(p memgov.Principal) Reading { return Reading{Principal: p} }

// OwnerReading is the reading of the local owner.
var OwnerReading = Reading{Owner: true}

// ReadsTenant reports whether r may read memory of tenant (CTI-1): the owner
// reads every tenant, a principal those it governs.
func (c *Checker) ReadsTenant(r Reading, tenant string) bool {
	return r.Owner || Governs(r.Principal, tenant)
}

// ReadsScope reports whether r may read the memoryRef scope sc: the owner
// any valid scope, a principal one of a tenant it governs.
func (c *Checker) ReadsScope(r Reading, sc scope.Ref) bool {
	if r.Owner {
		return sc.Valid()
	}
	return GovernsScope(r.Principal, sc)
}

// ReadsItem checks the matrix's read cell for an item of ref in layer
// (Authorized with the read operation); the owner reads every item.
func (c *Checker) ReadsItem(r Reading, ref string, layer memgov.Layer) error {
	if r.Owner {
		return nil
	}
	return c.Authorized(r.Principal, ref, layer, policy.OpRead)
}

// Visible is spec §12.8.5's read rule for one version: authorized(a, m,
// READ) ∧ classification(m) <= clearance(a) ∧ domain(m) ⊆ domains(a).
// Unclassified memory counts as PUBLIC. The host's reserved keys of an
// agent's own memoryRef (its distillation index and archives, spec §15.7)
// are the agent's to load whatever their layer; clearance and domains still
// apply to them. The owner sees every version.
func (c *Checker) Visible(r Reading, v memgov.Version) error {
	if r.Owner {
		return nil
	}
	p := r.Principal
	own := memgov.Reserved(v.Key) && agentOf(v.MemoryRef) == p.ID && Governs(p, tenantOf(v.MemoryRef))
	if err := c.Authorized(p, v.MemoryRef, v.Layer, policy.OpRead); err != nil && !own {
		return err
	}
	class := v.Classification
	if class == "" {
		class = policy.Public
	}
	if !c.pol.Cleared(c.clearance(p), class) {
		return fmt.Errorf("%w: %s memory needs a higher clearance than %s's", memgov.ErrForbidden, class, p.ID)
	}
	if !InDomains(p, v.Tags) {
		return fmt.Errorf("%w: the entry's domain is outside %s's domains", memgov.ErrForbidden, p.ID)
	}
	return nil
}

// clearance is the principal's "clearance" attribute; people without one are
// cleared for everything, agents for GENERAL.
func (c *Checker) clearance(p memgov.Principal) string {
	if cl := p.Attributes["clearance"]; cl != "" {
		return strings.ToUpper(cl)
	}
	if Human(p) {
		if h := c.pol.HighestClearance(); h != "" {
			return h
		}
	}
	return policy.General
}

// EventTenant returns the tenant an outbox read by r is bounded to, given
// the tenant it asked for: the owner's as asked ("" or memgov.AllTenants:
// every tenant); a principal's own tenant whatever it asked, and every
// tenant for an installation-wide principal.
func (c *Checker) EventTenant(r Reading, asked string) string {
	if r.Owner {
		return asked
	}
	if t, confined := Confined(r.Principal); confined {
		return t
	}
	return memgov.AllTenants
}
