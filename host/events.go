package host

import (
	"context"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/scope"
)

// Events returns the outbox events r may see, in id order: the read API's
// read of the outbox. The owner reads q as asked (q.Tenant "" or "*":
// every tenant; else that tenant's memoryRefs and tenant-tagged events); a
// principal reads the events of the tenant authz bounds it to
// (authz.Checker.EventTenant), whatever q.Tenant it asked for. A principal
// memgov does not know is ErrUnauthorized. Events carry ids and counts,
// never content, so reading them is not recorded.
func (s *Service) Events(ctx context.Context, r memgov.Reader, q memgov.EventQuery) ([]memgov.Event, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return []memgov.Event{}, err
	}
	q.Tenant = s.authz.EventTenant(rd, q.Tenant)
	if q.Tenant != "" && q.Tenant != memgov.AllTenants && !scope.ValidSegment(q.Tenant) {
		return []memgov.Event{}, nil
	}
	var out []memgov.Event
	err = s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = tx.Events(ctx, q)
		return err
	})
	if out == nil {
		out = []memgov.Event{}
	}
	return out, err
}
