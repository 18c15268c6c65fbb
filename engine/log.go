package engine

import (
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// The log format is declared in engine/oplog. These aliases keep the engine's
// own names for it so that code reading the log through the engine need not
// change; new code uses oplog directly.
type (
	// Op is the operation of a log entry.
	Op = oplog.Op
	// LogEntry is one row of the append-only log.
	LogEntry = oplog.Entry
	// Payload is the erasable body of a log entry.
	Payload = oplog.Payload
)

// Log operations (see oplog for what each records).
const (
	OpInsert    = oplog.Insert
	OpUpdate    = oplog.Update
	OpMerge     = oplog.Merge
	OpStage     = oplog.Stage
	OpApprove   = oplog.Approve
	OpReject    = oplog.Reject
	OpRetract   = oplog.Retract
	OpSupersede = oplog.Supersede
	OpExpire    = oplog.Expire
	OpPin       = oplog.Pin
	OpUnpin     = oplog.Unpin
	OpPrincipal = oplog.Principal
	OpAuditCP   = oplog.AuditCP
	OpSuspend   = oplog.Suspend
	OpReinstate = oplog.Reinstate

	OpClaim    = oplog.Claim
	OpRelease  = oplog.Release
	OpEscalate = oplog.Escalate

	OpErase        = oplog.Erase
	OpAnnotate     = oplog.Annotate
	OpReclassify   = oplog.Reclassify
	OpLeaseAcquire = oplog.LeaseAcquire
	OpLeaseRelease = oplog.LeaseRelease
	OpWorkspace    = oplog.Workspace

	OpBaselineApprove = oplog.BaselineApprove
	OpDriftDetected   = oplog.DriftDetected
	OpDriftAck        = oplog.DriftAck
	OpSessionStart    = oplog.SessionStart
	OpSessionEnd      = oplog.SessionEnd

	OpDistill         = oplog.Distill
	OpConsolidate     = oplog.Consolidate
	OpCommitment      = oplog.Commitment
	OpCommitmentFire  = oplog.CommitmentFire
	OpCommitmentArm   = oplog.CommitmentArm
	OpProposalCreate  = oplog.ProposalCreate
	OpProposalRevise  = oplog.ProposalRevise
	OpProposalApply   = oplog.ProposalApply
	OpProposalReject  = oplog.ProposalReject
	OpProposalArchive = oplog.ProposalArchive
)

// TimeFormat is how log times are written: RFC 3339 UTC with milliseconds.
const TimeFormat = oplog.TimeFormat

// ChainNext returns the keyed chain value of an entry: HMAC-SHA256(key, prev || leaf).
func ChainNext(key []byte, prev, leaf merkle.Hash) merkle.Hash {
	return oplog.ChainNext(key, prev, leaf)
}

// HashPayload returns sha256:<hex> of a payload's bytes.
func HashPayload(p []byte) string { return oplog.HashPayload(p) }
