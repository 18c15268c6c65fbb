package merkle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// ErrFull is returned by [Frontier.Append] when the log already holds the
// largest number of leaves a uint64 can count.
var ErrFull = errors.New("merkle: log is full")

// frontierVersion is the first byte of a marshalled Frontier.
const frontierVersion = 1

// A Frontier is the compact range of a log: the roots of the perfect
// subtrees that together cover all its leaves, left to right (largest
// first), one for each bit set in the log's size, so at most 64. It is
// enough to compute the log's root and the root after any further appends,
// so a store can persist it and advance the root without reading the
// leaves. It cannot produce proofs; that needs a [Tree] or the leaves.
//
// The zero Frontier is the empty log.
type Frontier struct {
	size   uint64
	hashes []Hash // len(hashes) == bits.OnesCount64(size)
}

// Size returns the number of leaves in the log.
func (f *Frontier) Size() uint64 { return f.size }

// Append adds a leaf hash at the end of the log. It merges the new leaf
// with the perfect subtrees of equal size, so it costs O(log n) hashes at
// worst and O(1) amortised.
func (f *Frontier) Append(leaf Hash) error {
	if f.size == math.MaxUint64 {
		return ErrFull
	}
	node := leaf
	for s := f.size; s&1 == 1; s >>= 1 {
		last := len(f.hashes) - 1
		node = NodeHash(f.hashes[last], node)
		f.hashes = f.hashes[:last]
	}
	f.hashes = append(f.hashes, node)
	f.size++
	return nil
}

// Root returns the Merkle Tree Hash of the log: [EmptyRoot] when it is
// empty, else the perfect subtree roots folded from the right.
func (f *Frontier) Root() Hash {
	if len(f.hashes) == 0 {
		return EmptyRoot()
	}
	r := f.hashes[len(f.hashes)-1]
	for i := len(f.hashes) - 2; i >= 0; i-- {
		r = NodeHash(f.hashes[i], r)
	}
	return r
}

// Hashes returns a copy of the perfect subtree roots, left to right.
func (f *Frontier) Hashes() []Hash {
	return append([]Hash(nil), f.hashes...)
}

// MarshalBinary encodes the frontier as a version byte (1), the size as
// 8 bytes big-endian, then the 32-byte subtree roots left to right.
func (f *Frontier) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 1+8+Size*len(f.hashes))
	b = append(b, frontierVersion)
	b = binary.BigEndian.AppendUint64(b, f.size)
	for _, h := range f.hashes {
		b = append(b, h[:]...)
	}
	return b, nil
}

// UnmarshalBinary decodes the form written by [Frontier.MarshalBinary],
// replacing f. It rejects an unknown version or a length that does not
// match the size.
func (f *Frontier) UnmarshalBinary(data []byte) error {
	if len(data) < 1+8 {
		return fmt.Errorf("merkle: frontier: %d bytes is too short", len(data))
	}
	if data[0] != frontierVersion {
		return fmt.Errorf("merkle: frontier: unknown version %d", data[0])
	}
	size := binary.BigEndian.Uint64(data[1:9])
	count := bits.OnesCount64(size)
	if want := 1 + 8 + Size*count; len(data) != want {
		return fmt.Errorf("merkle: frontier: size %d needs %d bytes, got %d", size, want, len(data))
	}
	hashes := make([]Hash, count)
	for i := range hashes {
		copy(hashes[i][:], data[9+Size*i:])
	}
	f.size, f.hashes = size, hashes
	return nil
}
