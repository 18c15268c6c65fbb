package engine

import "fmt"

// Conflict resolution per memory typology (seed 003 section 10, Mem0's
// ADD / UPDATE / DELETE / NOOP decisions with Zep's temporal validity;
// 12.9.4 human-mediated resolution for durable facts).
type Resolution string

// Resolutions.
const (
	ResolveAdd    Resolution = "ADD"    // nothing conflicts: the write is a new entry
	ResolveUpdate Resolution = "UPDATE" // the write supersedes what it contradicts, once a person agrees
	ResolveDelete Resolution = "DELETE" // the contradicted entry is removed (never chosen automatically: seed 003 "no hard DELETE")
	ResolveNoop   Resolution = "NOOP"   // memory keeps what it has
)

// ConflictResolution is what resolveConflict decides about a contradicting write.
type ConflictResolution struct {
	Action Resolution
	// Keep: the write proceeds (episodic NOOP keeps both); otherwise a
	// NOOP refuses the write and memory keeps the existing entry.
	Keep bool
	// Supersedes is the key of the entry an UPDATE retires: on approval it
	// gets a SUPERSEDE entry (invalid_at = then) and the write becomes ACTIVE
	// (valid_at = then). Both stay for audit.
	Supersedes string
	Why        string
}

// resolveConflict is the one place the contradiction path decides per typology:
//
//   - EPISODIC: NOOP, both kept — episodes are events, not claims; a
//     contradiction is itself an observation.
//   - SEMANTIC: UPDATE with temporal validity when the write is more confident
//     than what it contradicts (highest-confidence-wins, 12.9.4), through
//     review; otherwise NOOP: the established fact stands and the write is
//     refused.
//   - PROCEDURAL: UPDATE with supersession — the latest procedure wins, through
//     review; the prior version is SUPERSEDED, never overwritten or deleted.
//
// found is never empty; maxConf is the highest confidence among found.
func resolveConflict(layer Layer, writeConf, maxConf float64, found []RelatedItem) ConflictResolution {
	if len(found) == 0 {
		return ConflictResolution{Action: ResolveAdd, Keep: true}
	}
	first := found[0].Key
	switch layer {
	case Episodic:
		return ConflictResolution{Action: ResolveNoop, Keep: true,
			Why: fmt.Sprintf("contradicts the episode %s; episodes accumulate, both are kept", first)}
	case Procedural:
		return ConflictResolution{Action: ResolveUpdate, Supersedes: first,
			Why: fmt.Sprintf("a new procedure for %s; proposed to supersede it (the latest procedure wins)", first)}
	}
	if writeConf > maxConf {
		return ConflictResolution{Action: ResolveUpdate, Supersedes: first,
			Why: fmt.Sprintf("contradicts %s; proposed to supersede it (confidence %.2f > %.2f)", first, writeConf, maxConf)}
	}
	return ConflictResolution{Action: ResolveNoop,
		Why: fmt.Sprintf("contradicts %s (confidence %.2f is not above %.2f); the established fact stands", first, writeConf, maxConf)}
}
