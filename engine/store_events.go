package engine

import "context"

// EventReader reads the outbox of events (memory.written,
// MEMORY_DRIFT_DETECTED, memory.compacted, ...) that applying log entries
// emits.
type EventReader interface {
	// Events returns the events with an id greater than q.AfterID, of type
	// q.Type (when set), of q.Tenant (when set and not "*": events of the
	// tenant's memoryRefs and events without a memoryRef whose data names the
	// tenant), by id, at most q.Limit (0: 1000).
	Events(ctx context.Context, q EventQuery) ([]Event, error)
}
