package merkle

import "crypto/sha256"

// NextChain returns SHA-256(0x02 || prev || leaf), the hash-chained value
// after appending leaf to a chain whose value is prev (spec §3.2.7.1
// hash-chained mode). The first entry of a chain is not chained: its value
// is its own leaf hash, chain_0 = leaf_0.
func NextChain(prev, leaf Hash) Hash {
	var buf [1 + 2*Size]byte
	buf[0] = 0x02
	copy(buf[1:], prev[:])
	copy(buf[1+Size:], leaf[:])
	return sha256.Sum256(buf[:])
}

// ChainRoot returns the hash-chained root of leaves: [EmptyRoot] for no
// leaves, leaf_0 for one, and NextChain(chain_{i-1}, leaf_i) after that.
// Unlike the Merkle root, it proves continuity only by replaying the chain,
// in O(n).
func ChainRoot(leaves []Hash) Hash {
	if len(leaves) == 0 {
		return EmptyRoot()
	}
	c := leaves[0]
	for _, l := range leaves[1:] {
		c = NextChain(c, l)
	}
	return c
}
