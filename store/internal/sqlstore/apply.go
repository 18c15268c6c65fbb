package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/memgov/memgov/engine/oplog"
)

// ErrUnknownOp is the error of an entry whose operation this store does not
// apply: a log written by a newer memgov, or a corrupt row.
var ErrUnknownOp = errors.New("unknown operation")

// apply updates the derived tables for one log entry. Append applies each new
// entry through it and Rebuild replays the whole log through it, so the tables
// always equal a replay of the log.
func apply(ctx context.Context, q querier, e *oplog.Entry) error {
	if len(e.Payload) == 0 {
		// An erasure removed this payload: replay its content-free skeleton.
		if err := restoreErased(ctx, q, e); err != nil {
			return err
		}
	}
	if err := applyOp(ctx, q, e); err != nil {
		return err
	}
	// Every entry that names an item may change what its memoryRef holds:
	// the PUT/DEL op log, mem_map and the memory checkpoints follow it.
	return observeMemory(ctx, q, e)
}

// applyOp applies the operation of e. Every operation of the log format has
// its case here; a new operation needs one, or Append refuses it.
func applyOp(ctx context.Context, q querier, e *oplog.Entry) error {
	switch e.Op {
	// Versions (append.go), their indexes, reviews and events (pipeline.go).
	case oplog.Insert, oplog.Update, oplog.Merge, oplog.Stage:
		return applyVersion(ctx, q, e)
	case oplog.Approve:
		return inOrder(ctx, q, e, applyApprove, recordDecision)
	case oplog.Reject:
		return inOrder(ctx, q, e, applyReject, recordDecision)
	case oplog.Retract, oplog.Expire, oplog.Supersede:
		return inOrder(ctx, q, e, applyEndVersion, versionEnded)
	case oplog.Pin, oplog.Unpin:
		return applyPin(ctx, q, e)

	// Principals and audit checkpoints (append.go), suspensions (pipeline.go).
	case oplog.Principal:
		return applyPrincipal(ctx, q, e)
	case oplog.AuditCP:
		return applyAuditCheckpoint(ctx, q, e)
	case oplog.Suspend, oplog.Reinstate:
		return applySuspension(ctx, q, e)
	case oplog.Quarantine:
		return applyQuarantine(ctx, q, e) // quarantine.go

	// Review claims and escalations (claims.go).
	case oplog.Claim, oplog.Release, oplog.Escalate:
		return applyClaim(ctx, q, e)

	// The lifecycle (lifecycle.go) and workspaces (workspace.go).
	case oplog.Erase:
		return inOrder(ctx, q, e, applyErase, eraseText, eraseReviewText)
	case oplog.Annotate:
		return applyAnnotate(ctx, q, e)
	case oplog.Reclassify:
		return applyReclassify(ctx, q, e)
	case oplog.LeaseAcquire, oplog.LeaseRelease:
		return applyLease(ctx, q, e)
	case oplog.Workspace:
		return inOrder(ctx, q, e, applyWorkspace, recordWorkspace)

	// Baselines, drift and sessions (baseline.go).
	case oplog.BaselineApprove:
		return applyBaseline(ctx, q, e)
	case oplog.DriftDetected:
		return applyDriftDetected(ctx, q, e)
	case oplog.DriftAck:
		return applyDriftAck(ctx, q, e)
	case oplog.SessionStart, oplog.SessionEnd:
		return applySession(ctx, q, e)

	// The host memory contract (contract.go).
	case oplog.Distill:
		return applyDistill(ctx, q, e)
	case oplog.Consolidate:
		return applyConsolidate(ctx, q, e)
	case oplog.Commitment, oplog.CommitmentFire, oplog.CommitmentArm:
		return applyCommitment(ctx, q, e)
	case oplog.ProposalCreate, oplog.ProposalRevise, oplog.ProposalApply, oplog.ProposalReject, oplog.ProposalArchive:
		return applyProposal(ctx, q, e)

	// Door credentials (credentials.go).
	case oplog.TokenCreate, oplog.TokenRevoke:
		return applyToken(ctx, q, e)
	case oplog.SSHKeyAdd:
		return applySSHKey(ctx, q, e)
	}
	return fmt.Errorf("apply log entry %d: %w %q", e.LSN, ErrUnknownOp, e.Op)
}

// inOrder runs the steps that apply one entry, stopping at the first error.
func inOrder(ctx context.Context, q querier, e *oplog.Entry, steps ...func(context.Context, querier, *oplog.Entry) error) error {
	for _, step := range steps {
		if err := step(ctx, q, e); err != nil {
			return err
		}
	}
	return nil
}

// DerivedTable is a table rebuilt from the log; key names the column that
// identifies a row in a difference report.
type DerivedTable struct{ Name, Key string }

// derivedTables are every table Rebuild empties and refills from the log, in
// the order their rows can be deleted (children before parents).
var derivedTables = []DerivedTable{
	// workspace.go
	{"workspace_removed", "key"},
	{"workspace_reviews", "review_id"},
	// fts.go
	{"version_fts", "version_id"},
	// reviewfts.go
	{"review_text", "review_id"}, // Dialect.ReviewText
	{"version_index", "version_id"},
	{"version_evidence", "version_id"},
	{"reviews", "id"},
	{"idempotency", "token"},
	{"events", "id"},
	// quarantine.go
	{"quarantine", "version_id"},
	// memmap.go
	{"mem_map", "memory_ref || '#' || key"},
	// lifecycle.go
	{"annotations", "lsn"},
	{"leases", "resource"},
	{"erasures", "lsn"},
	{"purged_items", "item_id"},
	{"workspaces", "ref"},
	// contract.go
	{"commitments", "id"},
	{"proposal_revisions", "proposal_id"},
	{"proposals", "id"},
	// baseline.go
	{"baselines", "baseline_id"},
	{"mem_ops", "memory_ref || '#' || idx"},
	{"mem_heads", "memory_ref"},
	{"mem_checkpoints", "memory_ref || '#' || seq"},
	{"drift_events", "id"},
	{"mem_sessions", "session_id"},
	// append.go
	{"versions", "id"},
	{"items", "id"},
	{"principals", "id"},
	{"audit_checkpoints", "seq"},
	// credentials.go
	{"tokens", "id"},
	{"ssh_keys", "fingerprint"},
}
