package similar

import (
	"encoding/binary"
	"math"
)

// A Query is a vector prepared for scoring many stored vectors against it:
// its squared length is computed once, and [Query.CosineEncoded] reads each
// stored vector in its binary encoding without decoding it to a [Vector].
type Query struct {
	v Vector
	n float64 // norm2(v)
}

// NewQuery prepares v for scoring. The Query keeps v, which must not be
// modified while it is in use.
func NewQuery(v Vector) Query { return Query{v: v, n: norm2(v)} }

// CosineEncoded returns Cosine(v, w) for the vector v the Query was made of
// and the vector w that data encodes ([Vector.MarshalBinary]), to the last
// bit, without allocating. It fails, as [UnmarshalVector] does and with the
// same errors, on any data that is not the exact encoding of a valid Vector.
func (q Query) CosineEncoded(data []byte) (float64, error) {
	bad := func(format string, args ...any) (float64, error) {
		return 0, malformed(format, args...)
	}
	n, p, err := vectorHeader(data)
	if err != nil {
		return 0, err
	}
	// One pass over the indices checks them as UnmarshalVector does and
	// merges them with the query's, as cosine does: the components both
	// hold, in increasing index order, are kept to be multiplied once the
	// values are found (they follow the last index).
	na := min(len(q.v.Idx), len(q.v.Val))
	ai := q.v.Idx[:na]
	type pair struct{ i, k int }
	var buf [64]pair
	both := buf[:0]
	var cur uint64
	i := 0
	for k := 0; uint64(k) < n; k++ {
		var d uint64
		switch {
		case len(p) > 0 && p[0] < 0x80: // most deltas take one or two bytes
			d, p = uint64(p[0]), p[1:]
		case len(p) > 1 && p[1] < 0x80 && p[1] != 0:
			d, p = uint64(p[0]&0x7f)|uint64(p[1])<<7, p[2:]
		default:
			var err error
			if d, err = uvarint(p); err != nil {
				return bad("index %d: %v", k, err)
			}
			p = p[uvarintLen(d):]
		}
		if k > 0 && d == 0 {
			return bad("index %d repeats the one before it", k)
		}
		cur += d
		if d > math.MaxUint32 || cur > math.MaxUint32 {
			return bad("index %d exceeds 32 bits", k)
		}
		y := uint32(cur)
		for i < len(ai) && ai[i] < y {
			i++
		}
		if i < len(ai) && ai[i] == y {
			both = append(both, pair{i, k})
			i++
		}
	}
	if uint64(len(p)) != 4*n {
		return bad("%d value bytes for %d values", len(p), n)
	}
	vals := p
	// The squared length of w, summed in the order norm2 sums it.
	var sb float64
	for k := uint64(0); k < n; k++ {
		x := math.Float32frombits(binary.LittleEndian.Uint32(vals[4*k:]))
		if !finiteNonZero(x) {
			return bad("value %d is zero or not finite", k)
		}
		sb += float64(x) * float64(x)
	}
	if q.n == 0 || sb == 0 {
		return 0, nil
	}
	av := q.v.Val[:na]
	var dot float64
	for _, b := range both {
		dot += float64(av[b.i]) * float64(math.Float32frombits(binary.LittleEndian.Uint32(vals[4*b.k:])))
	}
	c := dot / math.Sqrt(q.n*sb)
	return max(-1, min(1, c)), nil
}
