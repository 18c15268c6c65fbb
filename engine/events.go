package engine

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/scope"
)

// Events returns outbox events in id order. A tenant-bound query returns only
// events of that tenant's memoryRefs (and tenant-scoped proposal events).
func (e *Engine) Events(ctx context.Context, q memgov.EventQuery) ([]memgov.Event, error) {
	if q.Tenant != "" && q.Tenant != memgov.AllTenants && !scope.ValidSegment(q.Tenant) {
		return []memgov.Event{}, nil
	}
	var out []memgov.Event
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = tx.Events(ctx, q)
		return err
	})
	if out == nil {
		out = []memgov.Event{}
	}
	return out, err
}

// EventsAs is Events bounded by a principal's tenant.
func (e *Engine) EventsAs(ctx context.Context, principal string, q memgov.EventQuery) ([]memgov.Event, error) {
	p, err := e.Principal(ctx, principal)
	if err != nil {
		if isNotFound(err) {
			return []memgov.Event{}, fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, safeID(principal))
		}
		return []memgov.Event{}, err
	}
	q.Tenant = p.Tenant
	return e.Events(ctx, q)
}
