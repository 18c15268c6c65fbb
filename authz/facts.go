package authz

import (
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// The facts about a principal's role and tenant that the rules are made of.
// Every comparison of a role or a tenant in memgov is one of these.

// Known reports whether p is a registered principal: it has a role. The
// review service acts for people memgov does not know as read-only readers.
func Known(p memgov.Principal) bool { return p.Role != "" }

// Human reports whether p is held by people who decide reviews or drift:
// curators and operators.
func Human(p memgov.Principal) bool { return p.Role == memgov.Curator || p.Role == memgov.Operator }

// IsCurator reports whether p is a curator: the only role that decides
// reviews, releases quarantined memory and erases.
func IsCurator(p memgov.Principal) bool { return p.Role == memgov.Curator }

// IsOperator reports whether p is an operator: the person who watches drift.
func IsOperator(p memgov.Principal) bool { return p.Role == memgov.Operator }

// Governs reports whether p may act on memory of tenant (CTI-1): its own
// tenant, or every tenant for an installation-wide principal.
func Governs(p memgov.Principal, tenant string) bool {
	return p.Tenant == memgov.AllTenants || p.Tenant == tenant
}

// Confined returns the one tenant p governs, and false for an
// installation-wide principal, who governs every tenant.
func Confined(p memgov.Principal) (string, bool) {
	if p.Tenant == memgov.AllTenants {
		return "", false
	}
	return p.Tenant, true
}

// GovernsScope reports whether p governs the tenant of the memoryRef scope r.
func GovernsScope(p memgov.Principal, r scope.Ref) bool {
	return p.Tenant == memgov.AllTenants || r.Within(p.Tenant)
}

// ValidTenant reports whether p's tenant may be registered: a valid id, or
// AllTenants.
func ValidTenant(p memgov.Principal) bool {
	return p.Tenant == memgov.AllTenants || memgov.ValidID(p.Tenant)
}

// SameGrant reports whether a and b hold the same role in the same tenant:
// registering a principal again with its grant is a no-op.
func SameGrant(a, b memgov.Principal) bool { return a.Role == b.Role && a.Tenant == b.Tenant }

// AgentOfTenant reports whether p is an agent (not a person) of exactly
// tenant: a reader of the tenant's shared memory.
func AgentOfTenant(p memgov.Principal, tenant string) bool {
	return p.Tenant == tenant && !Human(p)
}

// ProposesDurable reports whether p may propose durable memory its role may
// not write, for a person to approve: executors and orchestrators.
func ProposesDurable(p memgov.Principal) bool {
	return p.Role == memgov.Executor || p.Role == memgov.Orchestrator
}

// OutsideOwnSession reports whether p is an executor touching working or
// session memory of another agent than itself (agent is the memoryRef's
// agent): ABAC own-session, spec §12.8.2.
func OutsideOwnSession(p memgov.Principal, layer memgov.Layer, agent string) bool {
	return p.Role == memgov.Executor && (layer == memgov.Working || layer == memgov.Session) && agent != p.ID
}

// ConsoleTenant is the tenant filter of what p reads at the review console:
// "" (every tenant) for a person memgov does not know (the reader of the
// database file, who decides nothing) and for an installation-wide
// principal; otherwise p's tenant, and a tenant that matches nothing for a
// principal of no tenant.
func ConsoleTenant(p memgov.Principal) string {
	switch {
	case !Known(p) || p.Tenant == memgov.AllTenants:
		return ""
	case p.Tenant == "":
		return "\x00none" // a principal of no tenant governs nothing
	}
	return p.Tenant
}

// Sees reports whether p reads memory of tenant at the review console (see
// ConsoleTenant).
func Sees(p memgov.Principal, tenant string) bool {
	t := ConsoleTenant(p)
	return t == "" || t == tenant
}

// InDomains reports domain(m) ⊆ domains(a) for memory tagged with tags. A
// principal's "domains" attribute is a comma-separated list; people without
// one see every domain, agents without one only undomained memory.
func InDomains(p memgov.Principal, tags []string) bool {
	ds := memgov.DomainsOf(tags)
	if len(ds) == 0 {
		return true
	}
	attr, ok := p.Attributes["domains"]
	if !ok {
		return Human(p)
	}
	allowed := map[string]bool{}
	for _, d := range strings.Split(attr, ",") {
		allowed[strings.TrimSpace(d)] = true
	}
	if allowed["*"] {
		return true
	}
	for _, d := range ds {
		if !allowed[d] {
			return false
		}
	}
	return true
}

// CuratorOnly refuses anyone but a curator: what names what only curators
// do ("decide reviews").
func CuratorOnly(p memgov.Principal, what string) error {
	if !IsCurator(p) {
		return fmt.Errorf("%w: only curators %s; %s is a %s", memgov.ErrForbidden, what, p.ID, p.Role)
	}
	return nil
}

// ScopeProposalActivate is the scope that lets a principal apply proposals
// under direct-rbac activation.
const ScopeProposalActivate = "proposal:activate"

// HasScope reports whether a principal's "scopes" attribute holds scope.
func HasScope(p memgov.Principal, scope string) bool {
	for _, s := range strings.FieldsFunc(p.Attributes["scopes"], func(r rune) bool { return r == ',' || r == ' ' }) {
		if s == scope {
			return true
		}
	}
	return false
}

// ActivationGate decides whether p may apply pr through mode, the policy's
// activation mode, which is the only one (it is what capabilities advertise):
// under approval-gate a curator of the tenant who is not the owner applies;
// under direct-rbac a principal holding the proposal:activate scope. It
// returns the mode, or an error wrapping memgov.ErrForbidden that says why not.
func ActivationGate(mode string, p memgov.Principal, pr memgov.Proposal) (string, error) {
	switch mode {
	case policy.ActivationApprovalGate:
		if IsCurator(p) && p.ID != pr.Owner.Principal {
			return mode, nil
		}
		if IsCurator(p) {
			return "", fmt.Errorf("%w: %s owns this proposal; another curator must apply it (activation is %s)", memgov.ErrForbidden, p.ID, mode)
		}
		return "", fmt.Errorf("%w: %s is %s; activation is %s: a curator who is not the owner applies proposals", memgov.ErrForbidden, p.ID, p.Role, mode)
	case policy.ActivationDirectRBAC:
		if HasScope(p, ScopeProposalActivate) {
			return mode, nil
		}
		return "", fmt.Errorf("%w: %s does not hold the %s scope; activation is %s", memgov.ErrForbidden, p.ID, ScopeProposalActivate, mode)
	}
	return "", fmt.Errorf("%w: activation mode %q is not one of %s, %s", memgov.ErrInvalid, mode, policy.ActivationApprovalGate, policy.ActivationDirectRBAC)
}
