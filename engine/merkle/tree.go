package merkle

import (
	"fmt"
	"math/bits"
)

// A Tree is an in-memory RFC 9162 Merkle log. It keeps every leaf hash and
// caches the hash of every complete (perfect) subtree, level by level, so
// that [Tree.Append] costs O(1) amortised and [Tree.Root], [Tree.RootAt],
// [Tree.InclusionProof] and [Tree.ConsistencyProof] cost O(log n) without
// rehashing the log. It holds about twice as many hashes as leaves.
//
// The zero Tree is an empty log ready to use. A Tree is not safe for
// concurrent use without external synchronisation.
type Tree struct {
	// levels[0] holds the leaves; levels[l][i] is the hash of the perfect
	// subtree over leaves [i<<l, (i+1)<<l).
	levels [][]Hash
}

// NewTree returns a Tree holding the given leaf hashes, in order.
func NewTree(leaves []Hash) *Tree {
	t := &Tree{}
	for _, l := range leaves {
		t.Append(l)
	}
	return t
}

// Size returns the number of leaves in the log.
func (t *Tree) Size() uint64 {
	if len(t.levels) == 0 {
		return 0
	}
	return uint64(len(t.levels[0]))
}

// Append adds a leaf hash at the end of the log.
func (t *Tree) Append(leaf Hash) {
	node := leaf
	for l := 0; ; l++ {
		if l == len(t.levels) {
			t.levels = append(t.levels, nil)
		}
		t.levels[l] = append(t.levels[l], node)
		n := len(t.levels[l])
		if n%2 == 1 {
			return
		}
		node = NodeHash(t.levels[l][n-2], t.levels[l][n-1])
	}
}

// Leaf returns the leaf hash at index.
func (t *Tree) Leaf(index uint64) (Hash, error) {
	if index >= t.Size() {
		return Hash{}, fmt.Errorf("%w: leaf index %d in a log of size %d", ErrOutOfRange, index, t.Size())
	}
	return t.levels[0][index], nil
}

// Root returns the Merkle Tree Hash of the whole log.
func (t *Tree) Root() Hash { return t.rangeHash(0, t.Size()) }

// RootAt returns the Merkle Tree Hash of the log's first size leaves, the
// root the log had at that size.
func (t *Tree) RootAt(size uint64) (Hash, error) {
	if size > t.Size() {
		return Hash{}, fmt.Errorf("%w: size %d exceeds log size %d", ErrOutOfRange, size, t.Size())
	}
	return t.rangeHash(0, size), nil
}

// rangeHash returns MTH(D[lo:hi]). lo must be a multiple of a power of two
// no smaller than hi-lo, as holds for every subtree in the RFC 9162
// recursion from [0, n); the range then splits into the cached perfect
// subtrees given by the binary digits of hi-lo, largest first.
func (t *Tree) rangeHash(lo, hi uint64) Hash {
	size := hi - lo
	if size == 0 {
		return EmptyRoot()
	}
	// Fold the perfect subtrees from the right: the smallest is rightmost.
	var r Hash
	first := true
	for l := 0; l < 64; l++ {
		if size&(1<<l) == 0 {
			continue
		}
		start := hi - (size & (1<<(l+1) - 1)) // start of the level-l piece
		node := t.levels[l][start>>l]
		if first {
			r, first = node, false
		} else {
			r = NodeHash(node, r)
		}
	}
	return r
}

// InclusionProof returns the RFC 9162 audit path of the leaf at index in the
// whole log, as [InclusionProof] does for the same leaves.
func (t *Tree) InclusionProof(index uint64) ([]Hash, error) {
	n := t.Size()
	if index >= n {
		return nil, fmt.Errorf("%w: leaf index %d in a log of size %d", ErrOutOfRange, index, n)
	}
	path := make([]Hash, 0, bits.Len64(n))
	lo, hi := uint64(0), n
	for hi-lo > 1 {
		k := split(hi - lo)
		if index-lo < k {
			path = append(path, t.rangeHash(lo+k, hi))
			hi = lo + k
		} else {
			path = append(path, t.rangeHash(lo, lo+k))
			lo += k
		}
	}
	reverse(path)
	return path, nil
}

// ConsistencyProof returns the RFC 9162 consistency proof between the log's
// first m leaves and the whole log, as [ConsistencyProof] does for the same
// leaves.
func (t *Tree) ConsistencyProof(m uint64) ([]Hash, error) {
	n := t.Size()
	if m > n {
		return nil, fmt.Errorf("%w: old size %d exceeds log size %d", ErrOutOfRange, m, n)
	}
	if m == 0 || m == n {
		return []Hash{}, nil
	}
	// SUBPROOF(m, D[n], true) unrolled: walk down from [0, n) towards the
	// subtree whose size equals the remaining m, collecting siblings.
	path := make([]Hash, 0, 2*bits.Len64(n))
	lo, hi := uint64(0), n
	b := true
	for hi-lo != m {
		k := split(hi - lo)
		if m <= k {
			path = append(path, t.rangeHash(lo+k, hi))
			hi = lo + k
		} else {
			path = append(path, t.rangeHash(lo, lo+k))
			m -= k
			lo += k
			b = false
		}
	}
	if !b {
		path = append(path, t.rangeHash(lo, hi))
	}
	reverse(path)
	return path, nil
}

// Frontier returns the compact range of the whole log.
func (t *Tree) Frontier() *Frontier {
	n := t.Size()
	f := &Frontier{size: n}
	for l := 63; l >= 0; l-- {
		if n&(1<<l) != 0 {
			f.hashes = append(f.hashes, t.levels[l][(n>>l)-1])
		}
	}
	return f
}

func reverse(s []Hash) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
