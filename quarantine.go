package memgov

import (
	"context"
	"time"
)

// QuarantineReader reads quarantined versions and what decides a quarantine
// (spec §12.11.5, engine/quarantine.go).
type QuarantineReader interface {
	// Quarantined lists quarantined versions matching q, newest first.
	Quarantined(ctx context.Context, q QuarantineQuery) ([]QuarantineEntry, error)
	// AgentOutcomes counts agent's write outcomes recorded at or after
	// since, and those a contradiction decided (CONTRADICTION,
	// SEMANTIC_CONFLICT, STRUCTURAL_CONFLICT).
	AgentOutcomes(ctx context.Context, agent string, since time.Time) (total, contradictions int, err error)
	// ActiveWrittenBy returns the ACTIVE versions agent created at or after
	// since, in log order.
	ActiveWrittenBy(ctx context.Context, agent string, since time.Time) ([]Version, error)
}

// Statuses of a quarantined version.
const (
	QuarantineOpen      = "QUARANTINED"
	QuarantineReleased  = "RELEASED"
	QuarantineRetracted = "RETRACTED"
)

// QuarantineEntry is one quarantined version.
type QuarantineEntry struct {
	VersionID  string     `json:"version_id"`
	ItemID     string     `json:"item_id"`
	MemoryRef  string     `json:"memory_ref"`
	Tenant     string     `json:"tenant"`
	Key        string     `json:"key"`
	Agent      string     `json:"agent"`
	Cause      string     `json:"cause"`
	Status     string     `json:"status"`
	At         time.Time  `json:"at"`
	LSN        int64      `json:"lsn"`
	DecidedBy  string     `json:"decided_by,omitempty"`
	DecidedAt  *time.Time `json:"decided_at,omitempty"`
	Note       string     `json:"note,omitempty"`
	ReleasedAs string     `json:"released_as,omitempty"`
}

// QuarantineQuery selects quarantined versions.
type QuarantineQuery struct {
	Status    string // "": every status
	Tenant    string // "" or "*": every tenant
	Agent     string
	VersionID string
	Limit     int
}
