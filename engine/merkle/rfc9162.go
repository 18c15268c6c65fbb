package merkle

import (
	"errors"
	"fmt"
	"math/bits"
)

var (
	// ErrOutOfRange is returned when a leaf index or tree size lies outside
	// the log.
	ErrOutOfRange = errors.New("merkle: index or size out of range")

	// ErrInvalidProof is returned when an inclusion or consistency proof
	// does not verify, including when it is malformed.
	ErrInvalidProof = errors.New("merkle: invalid proof")
)

// split returns the largest power of two smaller than n, for n > 1: the k of
// RFC 9162 section 2.1.1.
func split(n uint64) uint64 {
	return 1 << (bits.Len64(n-1) - 1)
}

// Root returns the RFC 9162 Merkle Tree Hash of leaves, the hashes of the
// log's entries in order. The root of no leaves is [EmptyRoot]; the root of
// one leaf is that leaf hash.
//
// Root runs in O(n) time and allocates one copy of leaves.
func Root(leaves []Hash) Hash {
	switch len(leaves) {
	case 0:
		return EmptyRoot()
	case 1:
		return leaves[0]
	}
	// Hash level by level, promoting an unpaired last node unchanged; the
	// result equals the recursive definition of RFC 9162 section 2.1.1.
	level := make([]Hash, len(leaves))
	copy(level, leaves)
	for n := len(level); n > 1; n = (n + 1) / 2 {
		for i := 0; i+1 < n; i += 2 {
			level[i/2] = NodeHash(level[i], level[i+1])
		}
		if n%2 == 1 {
			level[n/2] = level[n-1]
		}
	}
	return level[0]
}

// InclusionProof returns the RFC 9162 section 2.1.3.1 audit path of the leaf
// at index in the log of the given leaves, lowest level first.
func InclusionProof(leaves []Hash, index uint64) ([]Hash, error) {
	n := uint64(len(leaves))
	if index >= n {
		return nil, fmt.Errorf("%w: leaf index %d in a log of size %d", ErrOutOfRange, index, n)
	}
	lo, hi := uint64(0), n // the subtree leaves[lo:hi] holding index
	var siblings []Hash    // top-down; reversed into the path below
	for hi-lo > 1 {
		k := split(hi - lo)
		if index-lo < k {
			siblings = append(siblings, Root(leaves[lo+k:hi]))
			hi = lo + k
		} else {
			siblings = append(siblings, Root(leaves[lo:lo+k]))
			lo += k
		}
	}
	path := make([]Hash, len(siblings))
	for i, s := range siblings {
		path[len(siblings)-1-i] = s
	}
	return path, nil
}

// VerifyInclusion checks, per RFC 9162 section 2.1.3.2, that proof shows the
// leaf hash leaf at index is in the log of the given size and root. It
// returns an error wrapping [ErrInvalidProof] or [ErrOutOfRange] if not.
func VerifyInclusion(leaf Hash, index, size uint64, root Hash, proof []Hash) error {
	if index >= size {
		return fmt.Errorf("%w: leaf index %d in a log of size %d", ErrOutOfRange, index, size)
	}
	fn, sn := index, size-1
	r := leaf
	for _, p := range proof {
		if sn == 0 {
			return fmt.Errorf("%w: inclusion proof has %d nodes, too many for index %d of %d", ErrInvalidProof, len(proof), index, size)
		}
		if fn&1 == 1 || fn == sn {
			r = NodeHash(p, r)
			for fn&1 == 0 && fn != 0 {
				fn >>= 1
				sn >>= 1
			}
		} else {
			r = NodeHash(r, p)
		}
		fn >>= 1
		sn >>= 1
	}
	if sn != 0 {
		return fmt.Errorf("%w: inclusion proof has %d nodes, too few for index %d of %d", ErrInvalidProof, len(proof), index, size)
	}
	if r != root {
		return fmt.Errorf("%w: inclusion proof of leaf %d does not lead to root %s", ErrInvalidProof, index, root)
	}
	return nil
}

// ConsistencyProof returns the RFC 9162 section 2.1.4.1 consistency proof
// PROOF(m, D[n]) between the log of the first m leaves and the log of all
// n = len(leaves) leaves.
//
// RFC 9162 defines the proof for 0 < m < n. For m == n the proof is empty
// (SUBPROOF(n, D[n], true) is empty). For m == 0 the proof is also empty:
// the empty log is a prefix of every log, and [VerifyConsistency] checks
// only that the old root is [EmptyRoot].
func ConsistencyProof(leaves []Hash, m uint64) ([]Hash, error) {
	n := uint64(len(leaves))
	if m > n {
		return nil, fmt.Errorf("%w: old size %d exceeds log size %d", ErrOutOfRange, m, n)
	}
	if m == 0 || m == n {
		return []Hash{}, nil
	}
	return subproof(m, leaves, true, nil), nil
}

// subproof appends SUBPROOF(m, d, b) of RFC 9162 section 2.1.4.1 to out.
func subproof(m uint64, d []Hash, b bool, out []Hash) []Hash {
	n := uint64(len(d))
	if m == n {
		if !b {
			out = append(out, Root(d))
		}
		return out
	}
	k := split(n)
	if m <= k {
		out = subproof(m, d[:k], b, out)
		return append(out, Root(d[k:]))
	}
	out = subproof(m-k, d[k:], false, out)
	return append(out, Root(d[:k]))
}

// VerifyConsistency checks, per RFC 9162 section 2.1.4.2, that proof shows
// the log of size m and root oldRoot is a prefix of the log of size n and
// root newRoot. It returns an error wrapping [ErrInvalidProof] (or
// [ErrOutOfRange] when m > n) if not; a malformed proof is an error, never a
// panic.
//
// Beyond 0 < m < n, which RFC 9162 covers: for m == n the proof must be
// empty and the roots equal; for m == 0 the proof must be empty and oldRoot
// must be [EmptyRoot], the root of the empty log, which every log extends.
func VerifyConsistency(m, n uint64, oldRoot, newRoot Hash, proof []Hash) error {
	switch {
	case m > n:
		return fmt.Errorf("%w: old size %d exceeds new size %d", ErrOutOfRange, m, n)
	case m == 0:
		if len(proof) != 0 {
			return fmt.Errorf("%w: proof from the empty log must be empty, got %d nodes", ErrInvalidProof, len(proof))
		}
		if oldRoot != EmptyRoot() {
			return fmt.Errorf("%w: old root %s is not the empty log's root", ErrInvalidProof, oldRoot)
		}
		return nil
	case m == n:
		if len(proof) != 0 {
			return fmt.Errorf("%w: proof between equal sizes must be empty, got %d nodes", ErrInvalidProof, len(proof))
		}
		if oldRoot != newRoot {
			return fmt.Errorf("%w: roots %s and %s of size %d differ", ErrInvalidProof, oldRoot, newRoot, m)
		}
		return nil
	}
	// Step 1.
	if len(proof) == 0 {
		return fmt.Errorf("%w: empty consistency proof from %d to %d", ErrInvalidProof, m, n)
	}
	// Step 2: if m is a power of two, the path is oldRoot followed by the
	// proof; otherwise it is the proof itself.
	first, rest := proof[0], proof[1:]
	if m&(m-1) == 0 {
		first, rest = oldRoot, proof
	}
	// Steps 3 and 4.
	fn, sn := m-1, n-1
	for fn&1 == 1 {
		fn >>= 1
		sn >>= 1
	}
	// Step 5.
	fr, sr := first, first
	// Step 6.
	for _, c := range rest {
		if sn == 0 {
			return fmt.Errorf("%w: consistency proof from %d to %d has too many nodes (%d)", ErrInvalidProof, m, n, len(proof))
		}
		if fn&1 == 1 || fn == sn {
			fr = NodeHash(c, fr)
			sr = NodeHash(c, sr)
			for fn&1 == 0 && fn != 0 {
				fn >>= 1
				sn >>= 1
			}
		} else {
			sr = NodeHash(sr, c)
		}
		fn >>= 1
		sn >>= 1
	}
	// Step 7.
	if sn != 0 {
		return fmt.Errorf("%w: consistency proof from %d to %d has too few nodes (%d)", ErrInvalidProof, m, n, len(proof))
	}
	if fr != oldRoot {
		return fmt.Errorf("%w: consistency proof does not lead to old root %s of size %d", ErrInvalidProof, oldRoot, m)
	}
	if sr != newRoot {
		return fmt.Errorf("%w: consistency proof does not lead to new root %s of size %d", ErrInvalidProof, newRoot, n)
	}
	return nil
}
