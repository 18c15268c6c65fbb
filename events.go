package memgov

import (
	"context"
	"encoding/json"
	"time"
)

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

// The event types of the outbox (spec §16.6). The store emits these and no
// others; docs/spec.md lists them all, and a test holds the three together.
const (
	EventMemoryWritten       = "memory.written"
	EventMemoryRetracted     = "memory.retracted"
	EventMemoryExpired       = "memory.expired"
	EventMemorySuperseded    = "memory.superseded"
	EventMemoryQuarantined   = "memory.quarantined"
	EventMemoryReleased      = "memory.released"
	EventMemoryErased        = "memory.erased"
	EventMemoryCompacted     = "memory.compacted"
	EventMemoryConsolidated  = "agent.memory.consolidated"
	EventMemoryDriftDetected = "MEMORY_DRIFT_DETECTED"
	EventReviewCreated       = "review.created"
	EventReviewApproved      = "review.approved"
	EventReviewRejected      = "review.rejected"
	EventReviewEscalated     = "review.escalated"
	EventAgentSuspended      = "agent.suspended"
	EventAgentReinstated     = "agent.reinstated"
	EventCommitmentFired     = "commitment.fired"
	EventProposalCreated     = "proposal.created"
	EventProposalActivated   = "proposal.activated"
)
