package policy

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Allowed reports whether role may perform op on layer under the RBAC matrix
// (spec §12.8.2). op is one of "read", "write", "annotate", "delete" (soft),
// "hard_delete", "approve" and "admin", matched without regard to case so
// spec §12.8.2's READ/WRITE/DELETE/ADMIN work too. Unknown roles, layers and
// operations are denied. The ABAC half of authorized(a, m, op), such as "own
// session" or a domain tag, is the caller's to check.
func (p Policy) Allowed(role, layer, op string) bool {
	g, ok := p.RBAC.Get(role)
	if !ok {
		return false
	}
	layers, ok := g.layers(strings.ToLower(op))
	return ok && slices.Contains(layers, layer)
}

// Cleared reports whether an agent with clearance may see an item of
// classification: classification(m) <= clearance(a) in the visibility order
// (spec §12.8.5). Unknown classifications or clearances are not cleared.
func (p Policy) Cleared(clearance, classification string) bool {
	c := slices.Index(p.Visibility.Order, clearance)
	m := slices.Index(p.Visibility.Order, classification)
	return c >= 0 && m >= 0 && m <= c
}

// HighestClearance is the last class of the visibility order: the clearance
// of a person with none of their own ("" when the order is empty).
func (p Policy) HighestClearance() string {
	if o := p.Visibility.Order; len(o) > 0 {
		return o[len(o)-1]
	}
	return ""
}

// ResidencyAllowed reports whether an item of the residency class may be
// stored in this store's region (spec §12.10.3). The empty class carries no
// constraint; an unknown class is refused.
func (p Policy) ResidencyAllowed(class string) bool {
	if class == "" {
		return true
	}
	regions, ok := p.Residency.Classes[class]
	if !ok {
		return false
	}
	return slices.Contains(regions, "*") || slices.Contains(regions, p.Residency.StoreRegion)
}

// BaselineTTLValid reports whether ttl lies within the baseline bounds
// (spec §3.2.6: 3,600 to 7,776,000 seconds), inclusive.
func (p Policy) BaselineTTLValid(ttl time.Duration) bool {
	return ttl >= p.Baseline.TTLMin.Std() && ttl <= p.Baseline.TTLMax.Std()
}

// DriftPolicyAllowed reports whether compliance level allows drift policy
// dp (spec §3.2.6: log-only only at levels 0 and 1, deny-on-drift required at
// level 2). Unknown levels allow nothing.
func (p Policy) DriftPolicyAllowed(level int, dp string) bool {
	return slices.Contains(p.Baseline.DriftPolicies[strconv.Itoa(level)], dp)
}
