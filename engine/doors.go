package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
)

// This file holds the rules the doors of `memgov serve` and `memgov mcp` need
// beyond the engine's other calls, so that no rule lives only in a door: an
// authenticated principal acts only as itself, sees the fate of only its own
// deferred writes (or those of a tenant it governs), and verifies only memory
// of its tenant.

// ActingAs refuses a request whose body names an agent other than the
// authenticated principal p (memgov.ErrForbidden). An empty name is p.
func ActingAs(p memgov.Principal, named string) error {
	if named = strings.TrimSpace(named); named != "" && named != p.ID {
		return fmt.Errorf("%w: authenticated as %s; a request may not act as %s", memgov.ErrForbidden, p.ID, safeID(named))
	}
	return nil
}

// VerifyMemoryAs is VerifyMemory for a principal: the memoryRef must be of a
// tenant it governs, and it is the actor of any drift episode opened.
func (e *Engine) VerifyMemoryAs(ctx context.Context, principalID string, r memgov.VerifyRequest) (memgov.VerifyResult, error) {
	p, err := e.Principal(ctx, principalID)
	if err != nil {
		return memgov.VerifyResult{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, safeID(principalID))
	}
	if !authz.Governs(p, tenantOf(r.MemoryRef)) {
		return memgov.VerifyResult{}, fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, p.ID, p.Tenant)
	}
	r.Actor = p.ID
	return e.baselines.VerifyMemory(ctx, r)
}

// safeID renders an id for an error or a suggested command, or a
// placeholder.
func safeID(s string) string {
	if memgov.ValidID(s) {
		return s
	}
	return "AGENT_ID"
}
