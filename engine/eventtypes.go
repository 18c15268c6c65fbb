package engine

import "github.com/memgov/memgov"

// EventTypes lists every event type, in the order spec §16.6 gives them.
var EventTypes = []string{
	memgov.EventMemoryWritten, memgov.EventMemoryRetracted, memgov.EventMemoryExpired, memgov.EventMemorySuperseded,
	memgov.EventMemoryQuarantined, memgov.EventMemoryReleased, memgov.EventMemoryErased, memgov.EventMemoryCompacted,
	memgov.EventMemoryConsolidated, memgov.EventMemoryDriftDetected,
	memgov.EventReviewCreated, memgov.EventReviewApproved, memgov.EventReviewRejected, memgov.EventReviewEscalated,
	memgov.EventAgentSuspended, memgov.EventAgentReinstated, memgov.EventCommitmentFired,
	memgov.EventProposalCreated, memgov.EventProposalActivated,
}
