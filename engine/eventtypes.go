package engine

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

// EventTypes lists every event type, in the order spec §16.6 gives them.
var EventTypes = []string{
	EventMemoryWritten, EventMemoryRetracted, EventMemoryExpired, EventMemorySuperseded,
	EventMemoryQuarantined, EventMemoryReleased, EventMemoryErased, EventMemoryCompacted,
	EventMemoryConsolidated, EventMemoryDriftDetected,
	EventReviewCreated, EventReviewApproved, EventReviewRejected, EventReviewEscalated,
	EventAgentSuspended, EventAgentReinstated, EventCommitmentFired,
	EventProposalCreated, EventProposalActivated,
}
