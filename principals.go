package memgov

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// PrincipalReader reads the principals (agents and people) that the log's
// principal entries registered.
type PrincipalReader interface {
	// Principal returns the principal with id, with its role, tenant,
	// attributes and suspension; an unknown id is ErrNotFound.
	Principal(ctx context.Context, id string) (Principal, error)
	// Principals returns every principal ordered by tenant, then id.
	Principals(ctx context.Context) ([]Principal, error)
}

// Role is what a principal may do (spec §12.8.2, plus operator for drift).
type Role string

// Roles.
const (
	Executor     Role = "executor"
	Verifier     Role = "verifier"
	Orchestrator Role = "orchestrator"
	Curator      Role = "curator"
	Operator     Role = "operator"
)

// Roles lists every role.
var Roles = []Role{Executor, Verifier, Orchestrator, Curator, Operator}

// ParseRole accepts a role name in any case.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if equalFold(string(r), s) {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown role %q (want one of executor, verifier, orchestrator, curator, operator)", s)
}

// AllTenants is the tenant of a principal that governs every tenant (an
// installation-wide curator or operator). Agents always belong to one tenant.
const AllTenants = "*"

// Principal is an agent or a person known to memgov.
type Principal struct {
	ID         string            `json:"id"`
	Role       Role              `json:"role"`
	Tenant     string            `json:"tenant"`
	Attributes map[string]string `json:"attributes,omitempty"`
	Suspended  bool              `json:"suspended,omitempty"`
	CreatedAt  time.Time         `json:"created_at"`
}

// DomainsOf reads "domain:X" or "domain=X" tags.
func DomainsOf(tags []string) []string {
	var out []string
	for _, t := range tags {
		for _, pre := range []string{"domain:", "domain="} {
			if v, ok := strings.CutPrefix(t, pre); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// ValidID reports whether s may name a principal or a tenant: 1-64
// characters of A-Z a-z 0-9 . _ -, and neither "." nor "..".
func ValidID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return s != "." && s != ".."
}
