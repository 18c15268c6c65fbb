package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov/engine/merkle"
)

// AuditRoot is the Merkle root of the whole log.
type AuditRoot struct {
	Root     string `json:"audit_chain_root"`
	TreeSize int64  `json:"tree_size"`
}

// AuditRoot returns the RFC 9162 root over every log leaf.
func (e *Engine) AuditRoot(ctx context.Context) (AuditRoot, error) {
	var r AuditRoot
	err := e.store.View(ctx, func(tx ReadTx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		leaves, err := tx.Leaves(ctx, n)
		if err != nil {
			return err
		}
		r = AuditRoot{Root: "sha256:" + merkle.Root(leaves).String(), TreeSize: n}
		return nil
	})
	return r, err
}

// Checkpoint records a signed audit checkpoint of the log as it is now. The
// checkpoint itself is appended to the log, after the entries it covers.
func (e *Engine) Checkpoint(ctx context.Context, ttlSeconds int64, actor string) (AuditCheckpointRecord, error) {
	var rec AuditCheckpointRecord
	err := e.store.Update(ctx, func(tx Tx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: the log is empty; there is nothing to checkpoint", ErrInvalid)
		}
		leaves, err := tx.Leaves(ctx, n)
		if err != nil {
			return err
		}
		cps, err := tx.AuditCheckpoints(ctx)
		if err != nil {
			return err
		}
		seq := uint64(1)
		if len(cps) > 0 {
			seq = cps[len(cps)-1].Seq + 1
		}
		cp := merkle.AuditCheckpoint{Root: merkle.Root(leaves), TreeSize: uint64(n), Seq: seq,
			ObservedAt: e.Now(), TTLSeconds: ttlSeconds}
		if err := cp.Validate(); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		sig, err := merkle.Sign(e.key, cp)
		if err != nil {
			return err
		}
		rec = AuditCheckpointRecord{AuditCheckpoint: cp, Signature: sig}
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		entry := &LogEntry{Time: cp.ObservedAt, Op: OpAuditCP, Actor: actor}
		if err := entry.Seal(Payload{Reason: "audit checkpoint", Data: data}); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		rec.LSN = entry.LSN
		return nil
	})
	return rec, err
}

// ConsistencyProof is an RFC 9162 proof that the log at FromSize is a prefix of
// the log at ToSize.
type ConsistencyProof struct {
	FromSize int64    `json:"from_size"`
	ToSize   int64    `json:"to_size"`
	FromRoot string   `json:"from_root"`
	ToRoot   string   `json:"to_root"`
	Proof    []string `json:"proof"`
}

// Prove returns the consistency proof from an earlier log size to the current one.
func (e *Engine) Prove(ctx context.Context, from int64) (ConsistencyProof, error) {
	var p ConsistencyProof
	err := e.store.View(ctx, func(tx ReadTx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		if from < 1 || from > n {
			return fmt.Errorf("%w: --from must be between 1 and the log size %d", ErrInvalid, n)
		}
		leaves, err := tx.Leaves(ctx, n)
		if err != nil {
			return err
		}
		proof, err := merkle.ConsistencyProof(leaves, uint64(from))
		if err != nil {
			return err
		}
		p = ConsistencyProof{FromSize: from, ToSize: n, FromRoot: "sha256:" + merkle.Root(leaves[:from]).String(),
			ToRoot: "sha256:" + merkle.Root(leaves).String(), Proof: make([]string, len(proof))}
		for i, h := range proof {
			p.Proof[i] = h.String()
		}
		return nil
	})
	return p, err
}

// AcceptCheckpoint checks a signed checkpoint (held by a client, or stored)
// against the current log with the spec §3.2.7.1 acceptance rules.
func (e *Engine) AcceptCheckpoint(ctx context.Context, signed AuditCheckpointRecord) (merkle.Verdict, error) {
	if err := merkle.VerifySignature(e.key, signed.AuditCheckpoint, signed.Signature); err != nil {
		return merkle.Verdict{Code: merkle.CodeMismatch, Detail: "signature does not verify: " + err.Error()}, nil
	}
	// Continuity is only meaningful over a log whose rows match their leaves.
	rep, err := e.store.Verify(ctx)
	if err != nil {
		return merkle.Verdict{}, err
	}
	if !rep.OK {
		return merkle.Verdict{Code: merkle.CodeMismatch, Detail: fmt.Sprintf("the log does not verify at LSN %d: %s", rep.BadLSN, rep.Problem)}, nil
	}
	var v merkle.Verdict
	err = e.store.View(ctx, func(tx ReadTx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		leaves, err := tx.Leaves(ctx, n)
		if err != nil {
			return err
		}
		cps, err := tx.AuditCheckpoints(ctx)
		if err != nil {
			return err
		}
		// The current observation carries the latest stored checkpoint's seq, one
		// more when the log has grown past it (an uncheckpointed advance). A log
		// restored from an old copy therefore shows a lower seq or a smaller size.
		current := merkle.AuditCheckpoint{Root: merkle.Root(leaves), TreeSize: uint64(n), ObservedAt: e.Now(), TTLSeconds: signed.TTLSeconds}
		if len(cps) > 0 {
			last := cps[len(cps)-1]
			current.Seq = last.Seq
			if uint64(n) > last.TreeSize+1 {
				current.Seq++
			}
		} else if n > 0 {
			current.Seq = 1
		}
		var proof []merkle.Hash
		if signed.TreeSize > 0 && signed.TreeSize <= uint64(n) {
			if proof, err = merkle.ConsistencyProof(leaves, signed.TreeSize); err != nil {
				return err
			}
		}
		v = merkle.AcceptAudit(signed.AuditCheckpoint, current, proof, e.Now())
		return nil
	})
	return v, err
}

// Verify checks the whole log (leaves, payload hashes, chain, stored
// checkpoints). It reports the first LSN that does not verify.
func (e *Engine) Verify(ctx context.Context) (VerifyReport, error) {
	return e.store.Verify(ctx)
}

// Rebuild rebuilds every derived table from the log.
func (e *Engine) Rebuild(ctx context.Context) (RebuildReport, error) {
	return e.store.Rebuild(ctx)
}
