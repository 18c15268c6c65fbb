package engine

import "github.com/memgov/memgov/engine/gate"

// Resolution is a conflict resolution per memory typology (spec §13 section
// 10); gate.ResolveConflict decides it for the contradiction gate.
type Resolution = gate.Resolution

// Resolutions.
const (
	ResolveAdd    = gate.ResolveAdd
	ResolveUpdate = gate.ResolveUpdate
	ResolveDelete = gate.ResolveDelete
	ResolveNoop   = gate.ResolveNoop
)

// ConflictResolution is what the contradiction gate decides about a
// contradicting write.
type ConflictResolution = gate.ConflictResolution
