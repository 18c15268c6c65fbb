// Package oplog owns memgov's log format: the operations, the log entry and
// its canonical form, the Merkle leaf and keyed chain an entry commits to, the
// erasable payload with its sealing and decoding, and the typed data every
// operation's payload carries.
//
// The engine encodes entries and the stores decode them with these same types,
// so the byte format of a log is declared once. oplog imports no other memgov
// package except engine/canon and engine/merkle.
package oplog

// Op is the operation of a log entry.
type Op string

// Memory operations follow spec §12.5.4; they change an item's versions.
const (
	Insert    Op = "INSERT"    // a new item with its first ACTIVE version
	Update    Op = "UPDATE"    // a new ACTIVE version; the previous head becomes SUPERSEDED
	Merge     Op = "MERGE"     // a new ACTIVE version linking two predecessors (spec §12.3.4)
	Stage     Op = "STAGE"     // a DRAFT version awaiting review; invisible to reads
	Approve   Op = "APPROVE"   // a DRAFT version becomes ACTIVE (a human decision)
	Reject    Op = "REJECT"    // a DRAFT version is refused (a human decision)
	Retract   Op = "RETRACT"   // an ACTIVE version is invalidated (spec §12.5.6)
	Supersede Op = "SUPERSEDE" // an ACTIVE version is replaced by another item's (an approved supersession)
	Expire    Op = "EXPIRE"    // an ACTIVE version is expired (TTL, GC, or by hand)
)

// Item, principal and audit operations.
const (
	Pin       Op = "PIN"       // an item is protected from GC
	Unpin     Op = "UNPIN"     // the protection is removed
	Principal Op = "PRINCIPAL" // a principal is registered
	AuditCP   Op = "AUDIT_CHECKPOINT"
	Suspend   Op = "SUSPEND" // an agent's writes are suspended
	// Quarantine withholds an ACTIVE version from reads for investigation, or
	// (its data's action) releases it back as a new ACTIVE version or
	// retracts it (spec §12.11.5).
	Quarantine Op = "QUARANTINE"
	Reinstate  Op = "REINSTATE" // the suspension is lifted
)

// Review claim and escalation operations.
const (
	Claim    Op = "CLAIM"    // a reviewer takes a lease on a review (spec §12.8.3 fencing token)
	Release  Op = "RELEASE"  // the reviewer gives the lease back
	Escalate Op = "ESCALATE" // a review is escalated, by a person or past its SLA
)

// Lifecycle operations (spec §12.7, §12.8, §12.10; spec §13.16 audit posture).
const (
	Erase        Op = "ERASE"         // payloads removed: subject erasure, GC hard delete, retention hard delete
	Annotate     Op = "ANNOTATE"      // a curation note or verifier annotation on an item
	Reclassify   Op = "RECLASSIFY"    // an item moves to another layer
	LeaseAcquire Op = "LEASE_ACQUIRE" // a write lease is granted or renewed
	LeaseRelease Op = "LEASE_RELEASE" // a write lease is released
	Workspace    Op = "WORKSPACE"     // a workspace is opened, submitted or decided
)

// Baselines, drift and sessions (spec §3.2.6).
const (
	BaselineApprove Op = "BASELINE_APPROVE" // a memory_baseline record is approved
	DriftDetected   Op = "DRIFT_DETECTED"   // a MEMORY_DRIFT_DETECTED episode opens
	DriftAck        Op = "DRIFT_ACK"        // an operator acknowledges (and resolves) an episode
	SessionStart    Op = "SESSION_START"    // a session boundary opens (session memory)
	SessionEnd      Op = "SESSION_END"      // the session boundary closes
)

// The host memory contract: distillation, consolidation, commitments and
// reviewable-learning proposals.
const (
	Distill         Op = "DISTILL"     // a distillation run; its apply emits memory.compacted
	Consolidate     Op = "CONSOLIDATE" // a consolidation pass; its apply emits agent.memory.consolidated
	Commitment      Op = "COMMITMENT"
	CommitmentFire  Op = "COMMITMENT_FIRE"
	CommitmentArm   Op = "COMMITMENT_ARM"
	ProposalCreate  Op = "PROPOSAL_CREATE"
	ProposalRevise  Op = "PROPOSAL_REVISE"
	ProposalApply   Op = "PROPOSAL_APPLY"
	ProposalReject  Op = "PROPOSAL_REJECT"
	ProposalArchive Op = "PROPOSAL_ARCHIVE"
)

// Door credentials: the bearer tokens agents present at `memgov serve` and
// `memgov mcp`, and the SSH keys reviewers present at `memgov serve --ssh`.
const (
	TokenCreate Op = "TOKEN_CREATE" // a bearer token is issued to a principal (its hash only)
	TokenRevoke Op = "TOKEN_REVOKE" // a bearer token is revoked
	SSHKeyAdd   Op = "SSH_KEY_ADD"  // an SSH public key is authorised for a principal
)

// All returns every operation of the log format, in declaration order.
func All() []Op {
	return []Op{
		Insert, Update, Merge, Stage, Approve, Reject, Retract, Supersede, Expire,
		Pin, Unpin, Principal, AuditCP, Suspend, Reinstate, Quarantine,
		Claim, Release, Escalate,
		Erase, Annotate, Reclassify, LeaseAcquire, LeaseRelease, Workspace,
		BaselineApprove, DriftDetected, DriftAck, SessionStart, SessionEnd,
		Distill, Consolidate, Commitment, CommitmentFire, CommitmentArm,
		ProposalCreate, ProposalRevise, ProposalApply, ProposalReject, ProposalArchive,
		TokenCreate, TokenRevoke, SSHKeyAdd,
	}
}

// ChangesVersions reports whether the operation changes the version graph.
func (o Op) ChangesVersions() bool {
	switch o {
	case Insert, Update, Merge, Stage, Approve, Reject, Retract, Expire, Supersede:
		return true
	}
	return false
}

// Known reports whether o is an operation of the log format.
func (o Op) Known() bool {
	for _, k := range All() {
		if k == o {
			return true
		}
	}
	return false
}
