package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/scope"
)

// Event is one entry of the outbox: a content-free notification derived from
// a log entry (memory.written, memory.retracted, memory.compacted,
// agent.memory.consolidated, commitment.fired, proposal.created, ...). Its
// data carries identifiers and counts, never memory content.
type Event struct {
	ID        int64           `json:"id"`
	LSN       int64           `json:"lsn"`
	At        time.Time       `json:"at"`
	Type      string          `json:"type"`
	MemoryRef string          `json:"memoryRef,omitempty"`
	Data      json.RawMessage `json:"data"`
}

// EventQuery selects events.
type EventQuery struct {
	AfterID int64  // only events with a larger id (for --follow)
	Type    string // "": every type
	Tenant  string // "" or "*": every tenant; else events of the tenant's memoryRefs and tenant-tagged events
	Limit   int    // 0: 1000
}

// Events returns outbox events in id order. A tenant-bound query returns only
// events of that tenant's memoryRefs (and tenant-scoped proposal events).
func (e *Engine) Events(ctx context.Context, q EventQuery) ([]Event, error) {
	if q.Tenant != "" && q.Tenant != AllTenants && !scope.ValidSegment(q.Tenant) {
		return []Event{}, nil
	}
	var out []Event
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		out, err = tx.Events(ctx, q)
		return err
	})
	if out == nil {
		out = []Event{}
	}
	return out, err
}

// EventsAs is Events bounded by a principal's tenant.
func (e *Engine) EventsAs(ctx context.Context, principal string, q EventQuery) ([]Event, error) {
	p, err := e.Principal(ctx, principal)
	if err != nil {
		if isNotFound(err) {
			return []Event{}, fmt.Errorf("%w: %q is not a registered principal", ErrUnauthorized, safeID(principal))
		}
		return []Event{}, err
	}
	q.Tenant = p.Tenant
	return e.Events(ctx, q)
}
