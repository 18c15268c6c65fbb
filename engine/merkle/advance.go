package merkle

import (
	"fmt"
	"time"
)

// This file holds the pure spec §3.2.6.2 checkpoint arithmetic that a store applies
// for every memory operation it appends: it is deterministic in its inputs (the
// entry's time stands for "now"), so the checkpoints are a function of the log.

// ConsistencyProofFromFrontier returns the RFC 9162 consistency proof from the
// log of size m = f.Size(), whose compact range is f, to that log extended by
// added, together with the new root. Unlike ConsistencyProof it needs
// only the O(log m) frontier and the appended leaves, not the whole log: every
// node of such a proof is either a perfect subtree of the old log that the
// frontier holds, or a subtree of the appended leaves.
func ConsistencyProofFromFrontier(f *Frontier, added []Hash) ([]Hash, Hash, error) {
	m := f.Size()
	n := m + uint64(len(added))
	type span struct{ lo, hi uint64 }
	old := map[span]Hash{}
	var start uint64
	hs := f.Hashes()
	for i, b := 0, 63; b >= 0; b-- {
		if m&(1<<uint(b)) != 0 {
			old[span{start, start + 1<<uint(b)}] = hs[i]
			start += 1 << uint(b)
			i++
		}
	}
	var node func(lo, hi uint64) (Hash, error)
	node = func(lo, hi uint64) (Hash, error) {
		if h, ok := old[span{lo, hi}]; ok {
			return h, nil
		}
		if lo >= m {
			return Root(added[lo-m : hi-m]), nil
		}
		if hi-lo <= 1 {
			return Hash{}, fmt.Errorf("%w: leaf %d is not in the frontier", ErrOutOfRange, lo)
		}
		k := split(hi - lo)
		l, err := node(lo, lo+k)
		if err != nil {
			return l, err
		}
		r, err := node(lo+k, hi)
		if err != nil {
			return r, err
		}
		return NodeHash(l, r), nil
	}
	root, err := node(0, n)
	if n == 0 {
		root, err = EmptyRoot(), nil
	}
	if err != nil {
		return nil, root, err
	}
	if m == 0 || m == n {
		return nil, root, nil
	}
	// SUBPROOF(m, D[lo:hi], b) of RFC 9162 2.1.4.1.
	var proof []Hash
	var sub func(m, lo, hi uint64, b bool) error
	sub = func(m, lo, hi uint64, b bool) error {
		if m == hi-lo {
			if b {
				return nil
			}
			h, err := node(lo, hi)
			proof = append(proof, h)
			return err
		}
		k := split(hi - lo)
		if m <= k {
			if err := sub(m, lo, lo+k, b); err != nil {
				return err
			}
			h, err := node(lo+k, hi)
			proof = append(proof, h)
			return err
		}
		if err := sub(m-k, lo+k, hi, false); err != nil {
			return err
		}
		h, err := node(lo, lo+k)
		proof = append(proof, h)
		return err
	}
	if err := sub(m, 0, n, true); err != nil {
		return nil, root, err
	}
	return proof, root, nil
}

// CheckpointAdvance is the outcome of binding a grown memory op log.
type CheckpointAdvance struct {
	Next    MemoryCheckpoint
	Proof   []Hash
	Verdict Verdict
}

// AdvanceCheckpoint decides whether the memory op log, grown from the baseline
// checkpoint base (whose compact range is baseFrontier) by sinceBase leaves, may
// be bound as checkpoint seq. It proves the growth against the baseline rather
// than against the previous advance, so the delta budget counts every change
// since approval: AcceptAdvance checks the proof (drift), the sequence
// (rollback), the baseline's TTL at now (expired) and budget (budget), in order.
// A baseline without a TTL (memory_type none or session without one) never
// expires here. When the delta already exceeds the budget no proof is computed.
func AdvanceCheckpoint(base MemoryCheckpoint, baseFrontier *Frontier, sinceBase []Hash, seq uint64, now time.Time, budget int) CheckpointAdvance {
	next := MemoryCheckpoint{TreeSize: base.TreeSize + uint64(len(sinceBase)), Seq: seq,
		ApprovedAt: base.ApprovedAt, TTLSeconds: base.TTLSeconds}
	if budget > 0 && len(sinceBase) > budget {
		return CheckpointAdvance{Next: next, Verdict: Verdict{Code: CodeBudget,
			Detail: fmt.Sprintf("%d operations since the baseline exceed the delta budget of %d; re-approve the baseline", len(sinceBase), budget)}}
	}
	proof, root, err := ConsistencyProofFromFrontier(baseFrontier, sinceBase)
	if err != nil {
		return CheckpointAdvance{Next: next, Verdict: Verdict{Code: CodeDrift, Detail: err.Error()}}
	}
	next.Root = root
	if base.TTLSeconds == 0 {
		now = base.ApprovedAt
	}
	v := AcceptAdvance(base, next, proof, now, Budget{MaxOps: uint64(max(budget, 0))})
	return CheckpointAdvance{Next: next, Proof: proof, Verdict: v}
}
