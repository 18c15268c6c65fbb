package memgov

// NextAction names, in memgov's terms, what lifts a refusal or settles
// what a result reports: the action, not a command. Each door says it in
// its own words: the CLI names its command and flags, the HTTP and MCP
// doors return the code with the result (JSON "next_action"), and the
// result's own text says it in a phrase ("a curator registers it").
type NextAction string

// The next actions results name.
const (
	// NextRegisterAgent: a curator or operator registers the agent as a
	// principal of the memoryRef's tenant.
	NextRegisterAgent NextAction = "register_agent"
	// NextReinstateAgent: a curator reinstates the suspended agent.
	NextReinstateAgent NextAction = "reinstate_agent"
	// NextAcquireLease: the writer acquires the write lease of the key.
	NextAcquireLease NextAction = "acquire_lease"
	// NextCarryFencingToken: the writer sends the write again with the
	// fencing token of the lease it holds.
	NextCarryFencingToken NextAction = "carry_fencing_token"
	// NextAcknowledgeDrift: an operator acknowledges the open drift episode
	// of the memoryRef, re-approving or rolling back.
	NextAcknowledgeDrift NextAction = "acknowledge_drift"
	// NextVerifyMemory: a verification of the memoryRef records the drift
	// of memory changed outside memgov.
	NextVerifyMemory NextAction = "verify_memory"
	// NextRunGC: garbage collection expires what is past its TTL.
	NextRunGC NextAction = "run_gc"
	// NextRecordOutcomes: agents report task outcomes, with memory and with
	// memory withheld, as feedback on their retrievals.
	NextRecordOutcomes NextAction = "record_task_outcomes"
	// NextRecordFailureCause: agents report the failures memory caused, as
	// feedback on their retrievals.
	NextRecordFailureCause NextAction = "record_failure_cause"
	// NextRecordUsage: agents report which retrieved items they used.
	NextRecordUsage NextAction = "record_usage"
	// NextRevalidate: a re-validation sweep re-judges stored memory.
	NextRevalidate NextAction = "revalidate"
	// NextWrite: governed writes arrive in the window.
	NextWrite NextAction = "write"
	// NextRejectProposal: a curator rejects (or archives) the proposals an
	// erasure left in place.
	NextRejectProposal NextAction = "reject_proposal"
)
