package audit

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// The algorithms of memgov's audit log (spec §3.2.7.1), named in its
// checkpoints and roots so that a verifier knows what it checks.
const (
	HashAlgorithm  = "sha256"       // leaves, nodes, roots and the unkeyed chain
	ChainMerkleLog = "merkle-log"   // the RFC 9162 Merkle Tree Hash over the entry leaves
	ChainHashChain = "hash-chained" // chain_i = SHA-256(0x02 || chain_{i-1} || leaf_i), unkeyed
	MemoryLeafTag  = "am-mem-kv"    // the leaf tag of a memoryRef's op log (spec §3.2.6.2)
)

// AuditRoot returns the RFC 9162 root over every log leaf.
func (s *Service) AuditRoot(ctx context.Context) (memgov.AuditRoot, error) {
	var r memgov.AuditRoot
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		leaves, err := tx.Leaves(ctx, n)
		if err != nil {
			return err
		}
		r = memgov.AuditRoot{Root: "sha256:" + merkle.Root(leaves).String(), TreeSize: n, HashAlg: HashAlgorithm, ChainMode: ChainMerkleLog,
			HashChained: merkle.ChainRoot(leaves).Prefixed()}
		return nil
	})
	return r, err
}

// HeldCheckpoint is a signed audit checkpoint as `memgov audit checkpoint`
// prints it for a verifier to keep: the record, and the hash and chain
// algorithms it was taken with (outside the signature, which covers the
// spec §3.2.7.1 fields only; a held checkpoint naming other algorithms is MISMATCH).
type HeldCheckpoint struct {
	oplog.AuditCheckpointRecord
	HashAlg   string
	ChainMode string
}

// MarshalJSON writes the record's fields with hash_alg and chain_mode.
func (h HeldCheckpoint) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(h.AuditCheckpointRecord)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["hash_alg"], _ = json.Marshal(h.HashAlg)
	m["chain_mode"], _ = json.Marshal(h.ChainMode)
	return json.Marshal(m)
}

// UnmarshalJSON reads a held checkpoint; a file without the algorithm fields
// (written by an earlier memgov) means SHA-256 and merkle-log.
func (h *HeldCheckpoint) UnmarshalJSON(b []byte) error {
	var algs struct {
		HashAlg   string `json:"hash_alg"`
		ChainMode string `json:"chain_mode"`
	}
	if err := json.Unmarshal(b, &algs); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &h.AuditCheckpointRecord); err != nil {
		return err
	}
	h.HashAlg, h.ChainMode = algs.HashAlg, algs.ChainMode
	if h.HashAlg == "" {
		h.HashAlg = HashAlgorithm
	}
	if h.ChainMode == "" {
		h.ChainMode = ChainMerkleLog
	}
	return nil
}

// Held returns the record as a verifier keeps it.
func Held(rec oplog.AuditCheckpointRecord) HeldCheckpoint {
	return HeldCheckpoint{AuditCheckpointRecord: rec, HashAlg: HashAlgorithm, ChainMode: ChainMerkleLog}
}

// AcceptHeld checks a held checkpoint: the same hash algorithm and chain mode
// as the log (else MISMATCH, spec §3.2.7.1), then AcceptCheckpoint.
func (s *Service) AcceptHeld(ctx context.Context, h HeldCheckpoint) (merkle.Verdict, error) {
	if h.HashAlg != HashAlgorithm || h.ChainMode != ChainMerkleLog {
		return merkle.Verdict{Code: merkle.CodeMismatch, Detail: fmt.Sprintf("the checkpoint was taken with %s/%s; this log is %s/%s",
			h.HashAlg, h.ChainMode, HashAlgorithm, ChainMerkleLog)}, nil
	}
	return s.AcceptCheckpoint(ctx, h.AuditCheckpointRecord)
}

// InclusionProof is an RFC 9162 audit path showing that one log entry's leaf
// is in the log of TreeSize entries whose root is Root.
type InclusionProof struct {
	LSN      int64    `json:"lsn"`
	Index    int64    `json:"leaf_index"` // LSN - 1
	Leaf     string   `json:"leaf"`
	TreeSize int64    `json:"tree_size"`
	Root     string   `json:"root"`
	Proof    []string `json:"proof"`
}

// ProveInclusion returns the inclusion proof of log entry lsn in the log of
// size entries (0: the whole log), checked before it is returned.
func (s *Service) ProveInclusion(ctx context.Context, lsn, size int64) (InclusionProof, error) {
	var p InclusionProof
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		leaves, err := treeLeaves(ctx, tx, size, "size", "the tree size")
		if err != nil {
			return err
		}
		size = int64(len(leaves))
		if lsn < 1 || lsn > size {
			return memgov.Inputf(memgov.ErrInvalid, "lsn", "the entry's LSN must be between 1 and the tree size %d", size)
		}
		proof, err := merkle.InclusionProof(leaves, uint64(lsn-1))
		if err != nil {
			return err
		}
		root := merkle.Root(leaves)
		if err := merkle.VerifyInclusion(leaves[lsn-1], uint64(lsn-1), uint64(size), root, proof); err != nil {
			return fmt.Errorf("%w: %v", memgov.ErrTampered, err)
		}
		p = InclusionProof{LSN: lsn, Index: lsn - 1, Leaf: leaves[lsn-1].String(), TreeSize: size, Root: root.Prefixed(), Proof: merkle.Hexes(proof)}
		return nil
	})
	return p, err
}

// ExportedEntry is one log entry as `memgov audit export` prints it: the
// canonical JSON its leaf commits to, the leaf, and the unkeyed hash chain up
// to it, so a verifier without the log key recomputes every value.
type ExportedEntry struct {
	LSN         int64           `json:"lsn"`
	Entry       json.RawMessage `json:"entry"`
	Leaf        string          `json:"leaf"`
	HashChained string          `json:"hash_chained"`
}

// ExportAudit calls fn for entries from..to (to 0: the last) in order.
func (s *Service) ExportAudit(ctx context.Context, from, to int64, fn func(ExportedEntry) error) error {
	return s.store.View(ctx, func(tx memgov.ReadTx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		if to == 0 {
			to = n
		}
		if from < 1 || from > to || to > n {
			if n == 0 {
				return nil
			}
			return fmt.Errorf("%w: entries %d..%d are not in the log of %d entries", memgov.ErrInvalid, from, to, n)
		}
		// The chain before from is replayed from the stored leaves.
		leaves, err := tx.Leaves(ctx, from-1)
		if err != nil {
			return err
		}
		var chain merkle.Hash
		have := len(leaves) > 0
		if have {
			chain = merkle.ChainRoot(leaves)
		}
		return tx.LogRange(ctx, from, to, func(en *oplog.Entry) error {
			c, err := en.Canonical()
			if err != nil {
				return err
			}
			leaf := merkle.LeafHash(merkle.TagTraceEntry, c)
			if have {
				chain = merkle.NextChain(chain, leaf)
			} else {
				chain, have = leaf, true
			}
			return fn(ExportedEntry{LSN: en.LSN, Entry: c, Leaf: leaf.String(), HashChained: chain.Prefixed()})
		})
	})
}

// Checkpoint records a signed audit checkpoint of the log as it is now. The
// checkpoint itself is appended to the log, after the entries it covers.
func (s *Service) Checkpoint(ctx context.Context, ttlSeconds int64, actor string) (oplog.AuditCheckpointRecord, error) {
	var rec oplog.AuditCheckpointRecord
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		n, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: the log is empty; there is nothing to checkpoint", memgov.ErrInvalid)
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
			ObservedAt: s.now(), TTLSeconds: ttlSeconds}
		if err := cp.Validate(); err != nil {
			return fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
		}
		sig, err := merkle.Sign(s.key, cp)
		if err != nil {
			return err
		}
		rec = oplog.AuditCheckpointRecord{AuditCheckpoint: cp, Signature: sig}
		entry := &oplog.Entry{Time: cp.ObservedAt, Op: oplog.AuditCP, Actor: actor}
		if err := oplog.AppendData(ctx, tx, entry, "audit checkpoint", rec); err != nil {
			return err
		}
		rec.LSN = entry.LSN
		return nil
	})
	return rec, err
}

// Prove returns the consistency proof from an earlier log size to the current one.
func (s *Service) Prove(ctx context.Context, from int64) (memgov.ConsistencyProof, error) {
	return s.ProveRange(ctx, from, 0)
}

// treeLeaves returns the leaves of the log's tree of size entries (0: the
// whole log). input and what name size in an error: a size must be between 1
// and the log's size.
func treeLeaves(ctx context.Context, tx memgov.ReadTx, size int64, input, what string) ([]merkle.Hash, error) {
	n, err := tx.LogSize(ctx)
	if err != nil {
		return nil, err
	}
	if size == 0 {
		size = n
	}
	if size < 1 || size > n {
		return nil, memgov.Inputf(memgov.ErrInvalid, input, "%s must be between 1 and the log size %d", what, n)
	}
	return tx.Leaves(ctx, size)
}

// ProveRange returns the consistency proof from log size from to log size to
// (0: the current size), checked before it is returned.
func (s *Service) ProveRange(ctx context.Context, from, to int64) (memgov.ConsistencyProof, error) {
	var p memgov.ConsistencyProof
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		leaves, err := treeLeaves(ctx, tx, to, "to", "the later tree size")
		if err != nil {
			return err
		}
		to = int64(len(leaves))
		if from < 1 || from > to {
			return memgov.Inputf(memgov.ErrInvalid, "from", "the earlier tree size must be between 1 and %d", to)
		}
		proof, err := merkle.ConsistencyProof(leaves, uint64(from))
		if err != nil {
			return err
		}
		oldRoot, newRoot := merkle.Root(leaves[:from]), merkle.Root(leaves)
		if err := merkle.VerifyConsistency(uint64(from), uint64(to), oldRoot, newRoot, proof); err != nil {
			return fmt.Errorf("%w: %v", memgov.ErrTampered, err)
		}
		p = memgov.ConsistencyProof{FromSize: from, ToSize: to, FromRoot: oldRoot.Prefixed(), ToRoot: newRoot.Prefixed(), Proof: merkle.Hexes(proof)}
		return nil
	})
	return p, err
}

// AcceptCheckpoint checks a signed checkpoint (held by a client, or stored)
// against the current log with the spec §3.2.7.1 acceptance rules.
func (s *Service) AcceptCheckpoint(ctx context.Context, signed oplog.AuditCheckpointRecord) (merkle.Verdict, error) {
	if err := merkle.VerifySignature(s.key, signed.AuditCheckpoint, signed.Signature); err != nil {
		return merkle.Verdict{Code: merkle.CodeMismatch, Detail: "signature does not verify: " + err.Error()}, nil
	}
	// Continuity is only meaningful over a log whose rows match their leaves.
	rep, err := s.store.Verify(ctx)
	if err != nil {
		return merkle.Verdict{}, err
	}
	if !rep.OK {
		return merkle.Verdict{Code: merkle.CodeMismatch, Detail: fmt.Sprintf("the log does not verify at LSN %d: %s", rep.BadLSN, rep.Problem)}, nil
	}
	var v merkle.Verdict
	err = s.store.View(ctx, func(tx memgov.ReadTx) error {
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
		// more when the log has grown past the size it covers (spec §3.2.7.1:
		// strictly greater when the sizes differ). A checkpoint's own entry is
		// appended after the entries it covers, so it alone is such growth: the
		// log holding it is a later observation than the checkpoint. A log
		// restored from an old copy therefore shows a lower seq or a smaller size.
		current := merkle.AuditCheckpoint{Root: merkle.Root(leaves), TreeSize: uint64(n), ObservedAt: s.now(), TTLSeconds: signed.TTLSeconds}
		if len(cps) > 0 {
			last := cps[len(cps)-1]
			current.Seq = last.Seq
			if uint64(n) > last.TreeSize {
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
		v = merkle.AcceptAudit(signed.AuditCheckpoint, current, proof, s.now())
		return nil
	})
	return v, err
}

// Verify checks the whole log (leaves, payload hashes, chain, stored
// checkpoints, erasures) and every served table against it. It reports the
// first LSN, or served row, that does not verify.
func (s *Service) Verify(ctx context.Context) (memgov.VerifyReport, error) {
	rep, err := s.store.Verify(ctx)
	if err != nil || !rep.OK {
		return rep, err
	}
	return s.verifyCaches(ctx, rep)
}

// VerifyReplay is Verify with the served tables always compared with a fresh
// replay of the log.
func (s *Service) VerifyReplay(ctx context.Context) (memgov.VerifyReport, error) {
	rep, err := s.store.VerifyReplay(ctx)
	if err != nil || !rep.OK {
		return rep, err
	}
	return s.verifyCaches(ctx, rep)
}

// verifyCaches checks the cached snapshot hashes and counts the versions
// whose judge-derived features are stale. A stale index is not a failure: the
// features are a cache of what a judge said, rebuilt by Reindex, and the log
// verified without them.
func (s *Service) verifyCaches(ctx context.Context, rep memgov.VerifyReport) (memgov.VerifyReport, error) {
	rep, err := s.verifyStateCaches(ctx, rep)
	if err != nil {
		return rep, err
	}
	st, err := s.caches.IndexStatus(ctx)
	if err != nil {
		return rep, err
	}
	rep.Index = &st
	return rep, nil
}

// verifyStateCaches checks the cached snapshot hashes that `memgov verify`
// is served from while nothing changed: each cache still in use must be the
// hash of its memoryRef's map, recomputed now from the verified tables.
func (s *Service) verifyStateCaches(ctx context.Context, rep memgov.VerifyReport) (memgov.VerifyReport, error) {
	now := s.now()
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		refs, err := tx.Refs(ctx)
		if err != nil {
			return err
		}
		for _, r := range refs {
			c, ok, err := tx.StateCache(ctx, r.MemoryRef)
			if err != nil || !ok {
				return err
			}
			head, err := tx.MemHead(ctx, r.MemoryRef)
			if err != nil {
				return err
			}
			if c.TreeSize != head.TreeSize || c.NextExpiry != nil && !now.Before(*c.NextExpiry) {
				continue // stale: never served
			}
			hash, err := s.caches.StateHash(ctx, tx, r.MemoryRef, now, c.Alg)
			if err != nil {
				return err
			}
			if hash != c.Hash {
				d := memgov.RowDifference{Table: "mem_state_cache", Row: r.MemoryRef,
					Problem: fmt.Sprintf("mem_state_cache row %s holds %s, but the map it caches hashes to %s", r.MemoryRef, c.Hash, hash)}
				rep.OK, rep.Table, rep.Row, rep.BadLSN, rep.Problem = false, d.Table, d.Row, 0, d.Problem
				rep.Differences = append(rep.Differences, d)
				return nil
			}
		}
		return nil
	})
	return rep, err
}

// Rebuild rebuilds every derived table from the log. The store refuses a log
// that does not verify.
func (s *Service) Rebuild(ctx context.Context) (memgov.RebuildReport, error) {
	return s.store.Rebuild(ctx)
}

// RebuildDryRun reports what Rebuild would change without changing anything:
// the log is replayed into scratch tables and compared with the served ones.
// A log that does not verify is refused as Rebuild refuses it.
func (s *Service) RebuildDryRun(ctx context.Context) (memgov.RebuildReport, error) {
	rep, err := s.store.VerifyReplay(ctx)
	if err != nil {
		return memgov.RebuildReport{}, err
	}
	if !rep.OK && rep.Table == "" {
		return memgov.RebuildReport{}, fmt.Errorf("%w at LSN %d: %s; the log does not verify, so it is not replayed", memgov.ErrTampered, rep.BadLSN, rep.Problem)
	}
	out := memgov.RebuildReport{Entries: rep.TreeSize, Tables: rep.Rows, Differences: []string{}}
	if out.Tables == nil {
		out.Tables = map[string]int64{}
	}
	for _, d := range rep.Differences {
		out.Differences = append(out.Differences, d.Problem)
	}
	return out, nil
}
