package engine

import "context"

// PrincipalReader reads the principals (agents and people) that the log's
// principal entries registered.
type PrincipalReader interface {
	// Principal returns the principal with id, with its role, tenant,
	// attributes and suspension; an unknown id is ErrNotFound.
	Principal(ctx context.Context, id string) (Principal, error)
	// Principals returns every principal ordered by tenant, then id.
	Principals(ctx context.Context) ([]Principal, error)
}
