package similar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Dim is the number of buckets of the hashing embedder: every index [Embed]
// produces is below Dim.
const Dim = 1 << 20

// A Vector is a sparse vector: Val[k] is the component at index Idx[k]. A valid
// Vector has len(Idx) == len(Val), strictly increasing indices and finite,
// non-zero values; the zero Vector is valid and empty. Vectors made by [Embed] and
// [Dense] are valid and L2-normalised.
type Vector struct {
	Idx []uint32
	Val []float32
}

// Validate reports why v is not a valid Vector, or nil.
func (v Vector) Validate() error {
	if len(v.Idx) != len(v.Val) {
		return fmt.Errorf("similar: vector has %d indices but %d values", len(v.Idx), len(v.Val))
	}
	for k, x := range v.Val {
		if k > 0 && v.Idx[k] <= v.Idx[k-1] {
			return fmt.Errorf("similar: vector indices not strictly increasing at position %d", k)
		}
		if x == 0 || math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("similar: vector value %v at position %d is zero or not finite", x, k)
		}
	}
	return nil
}

// entry is one component while a vector is built.
type entry struct {
	idx uint32
	val float64
}

// Feature families of [Embed], each hashed with its own tag.
const (
	tagWord1 = 'w'
	tagWord2 = 'b'
	tagChar  = 'c' // followed by the n-gram length
)

// Embed returns the feature-hashed embedding of text. The features are the word
// tokens of Normalize(text) other than the articles a, an and the (1-grams and
// 2-grams) and the character 3-, 4- and 5-grams of those tokens joined by single
// spaces and padded by one space at each end, so punctuation and case do not
// change the vector. Each feature is hashed
// (FNV-1a 64 with a final mix) to one of [Dim] buckets and a sign. Each of the
// five families is normalised to unit length and weighted (1 for all but the
// word 2-grams, which weigh 0.5) before they are summed and the sum is
// L2-normalised, so up to hash collisions the [Cosine] of two embeddings is the
// mean of their five per-family cosines weighted by 1, 1/4, 1, 1, 1. In a 20-word
// sentence a one-letter typo or a plural keeps the cosine near 0.96,
// while a different content word (a changed fact) gives about 0.93. Text with no
// word tokens embeds to the empty Vector; text of articles alone keeps them.
func Embed(text string) Vector {
	toks := tokens(Normalize(text))
	if !slices.ContainsFunc(toks, isContent) {
		if len(toks) == 0 {
			return Vector{}
		}
	} else {
		toks = slices.DeleteFunc(toks, isArticle)
	}
	b := builder{
		keys: make([]uint64, 0, len(text)+2),
		ents: make([]entry, 0, 3*len(text)+2*len(toks)+8),
	}
	for _, t := range toks {
		b.add(hashFeature(tagWord1, t, ""))
	}
	b.family(1)
	for i := 1; i < len(toks); i++ {
		b.add(hashFeature(tagWord2, toks[i-1], toks[i]))
	}
	b.family(bigramWeight)

	padded := " " + strings.Join(toks, " ") + " "
	offs := make([]int, 0, len(padded)+1) // rune start offsets, then len(padded)
	for i := range padded {
		offs = append(offs, i)
	}
	offs = append(offs, len(padded))
	runes := len(offs) - 1
	for n := 3; n <= 5; n++ {
		tag := byte(tagChar + n)
		for i := 0; i+n <= runes; i++ {
			b.add(hashFeature(tag, padded[offs[i]:offs[i+n]], ""))
		}
		b.family(1)
	}
	return b.vector()
}

// bigramWeight scales the word 2-gram family. One changed word changes 1 of 20
// word 1-grams but 2 of 19 word 2-grams, so at full weight the 2-grams alone would
// pull a typo in a 20-word sentence below the 0.95 near-duplicate threshold.
const bigramWeight = 0.5

// isArticle reports whether a token is an English article. Articles carry
// almost nothing a memory asserts, yet swapping one changes a dozen character
// n-grams, so Embed ignores them.
func isArticle(t string) bool { return t == "a" || t == "an" || t == "the" }

func isContent(t string) bool { return !isArticle(t) }

// builder accumulates hashed features into a sparse vector.
type builder struct {
	keys []uint64 // the current family, one bucket<<1 | sign bit per feature
	ents []entry  // the finished families, each sorted by index
	ends []int    // family f is ents[ends[f-1]:ends[f]]
}

// add adds one feature of the current family given its hash: the low bits pick
// the bucket, the top bit the sign.
func (b *builder) add(h uint64) {
	b.keys = append(b.keys, uint64(uint32(h)&(Dim-1))<<1|h>>63)
}

// family finishes the current family: it counts the signed features per bucket
// and scales the counts to length weight.
func (b *builder) family(weight float64) {
	slices.Sort(b.keys)
	start := len(b.ents)
	var sum float64
	for i := 0; i < len(b.keys); {
		bucket := b.keys[i] >> 1
		c := 0
		for ; i < len(b.keys) && b.keys[i]>>1 == bucket; i++ {
			c += 1 - 2*int(b.keys[i]&1)
		}
		if c != 0 {
			b.ents = append(b.ents, entry{idx: uint32(bucket), val: float64(c)})
			sum += float64(c * c)
		}
	}
	b.keys = b.keys[:0]
	if sum > 0 {
		f := weight / math.Sqrt(sum)
		for i := start; i < len(b.ents); i++ {
			b.ents[i].val *= f
		}
	}
	b.ends = append(b.ends, len(b.ents))
}

// vector merges the families, summing components that share a bucket, and
// returns the L2-normalised result.
func (b *builder) vector() Vector {
	var lists [][]entry
	start := 0
	for _, end := range b.ends {
		if end > start {
			lists = append(lists, b.ents[start:end])
		}
		start = end
	}
	merged := make([]entry, 0, len(b.ents))
	var sum float64
	for {
		next, ok := uint32(0), false
		for _, l := range lists {
			if len(l) > 0 && (!ok || l[0].idx < next) {
				next, ok = l[0].idx, true
			}
		}
		if !ok {
			break
		}
		var x float64
		for k, l := range lists {
			if len(l) > 0 && l[0].idx == next {
				x += l[0].val
				lists[k] = l[1:]
			}
		}
		if x != 0 {
			merged = append(merged, entry{idx: next, val: x})
			sum += x * x
		}
	}
	if sum == 0 {
		return Vector{}
	}
	inv := 1 / math.Sqrt(sum)
	v := Vector{Idx: make([]uint32, 0, len(merged)), Val: make([]float32, 0, len(merged))}
	for _, e := range merged {
		if x := float32(e.val * inv); x != 0 {
			v.Idx = append(v.Idx, e.idx)
			v.Val = append(v.Val, x)
		}
	}
	return v
}

// FNV-1a 64 parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashFeature hashes a tagged feature of one or two strings.
func hashFeature(tag byte, a, b string) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(tag)) * fnvPrime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * fnvPrime
	}
	if b != "" {
		h *= fnvPrime // separator: a NUL byte (h ^ 0 is h); tokens never contain NUL
		for i := 0; i < len(b); i++ {
			h = (h ^ uint64(b[i])) * fnvPrime
		}
	}
	return mix64(h)
}

// mix64 is the SplitMix64 finaliser; it spreads every input bit over every output
// bit, which FNV-1a alone does not do for the low bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Dense wraps a dense embedding, such as one from an external embedder, as an
// L2-normalised Vector whose indices are the positions of the non-zero
// components. Non-finite components count as zero. An all-zero v gives the empty
// Vector.
func Dense(v []float32) Vector {
	var sum float64
	n := 0
	for _, x := range v {
		if finiteNonZero(x) {
			sum += float64(x) * float64(x)
			n++
		}
	}
	if sum == 0 {
		return Vector{}
	}
	inv := 1 / math.Sqrt(sum)
	out := Vector{Idx: make([]uint32, 0, n), Val: make([]float32, 0, n)}
	for i, x := range v {
		if !finiteNonZero(x) || uint64(i) > math.MaxUint32 {
			continue
		}
		if y := float32(float64(x) * inv); y != 0 {
			out.Idx = append(out.Idx, uint32(i))
			out.Val = append(out.Val, y)
		}
	}
	return out
}

func finiteNonZero(x float32) bool {
	return x != 0 && !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
}

// Cosine returns the cosine similarity of a and b, in [-1, 1], computed in float64
// by merging their sorted indices. It is 0 when either vector is empty. The
// result is meaningless, but Cosine does not panic, for invalid vectors.
func Cosine(a, b Vector) float64 {
	return cosine(a, b, norm2(a), norm2(b))
}

// norm2 returns the squared length of v.
func norm2(v Vector) float64 {
	var s float64
	for _, x := range v.Val[:min(len(v.Idx), len(v.Val))] {
		s += float64(x) * float64(x)
	}
	return s
}

// cosine is Cosine given the squared lengths of a and b.
func cosine(a, b Vector, sa, sb float64) float64 {
	if sa == 0 || sb == 0 {
		return 0
	}
	na, nb := min(len(a.Idx), len(a.Val)), min(len(b.Idx), len(b.Val))
	ai, av := a.Idx[:na], a.Val[:na]
	bi, bv := b.Idx[:nb], b.Val[:nb]
	var dot float64
	i, j := 0, 0
	for i < len(ai) && j < len(bi) {
		switch x, y := ai[i], bi[j]; {
		case x < y:
			i++
		case x > y:
			j++
		default:
			dot += float64(av[i]) * float64(bv[j])
			i++
			j++
		}
	}
	c := dot / math.Sqrt(sa*sb)
	return max(-1, min(1, c))
}

// vectorFormat is the first byte of the binary encoding.
const vectorFormat = 1

// MarshalBinary encodes v compactly: a format byte (1), the number of components
// as a uvarint, the indices as uvarint deltas (the first index, then each index
// minus the one before it) and the values as little-endian float32. The encoding
// of a valid Vector is unique. MarshalBinary fails if v is not valid.
func (v Vector) MarshalBinary() ([]byte, error) {
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("marshal vector: %w", err)
	}
	out := make([]byte, 0, 1+binary.MaxVarintLen64+len(v.Idx)*(3+4))
	out = append(out, vectorFormat)
	out = binary.AppendUvarint(out, uint64(len(v.Idx)))
	prev := uint32(0)
	for k, i := range v.Idx {
		d := i
		if k > 0 {
			d = i - prev
		}
		out = binary.AppendUvarint(out, uint64(d))
		prev = i
	}
	for _, x := range v.Val {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out, nil
}

// ErrMalformed is wrapped by every error of [UnmarshalVector] about its input.
var ErrMalformed = errors.New("malformed vector encoding")

// malformed is the error about an encoding that is no valid Vector's.
func malformed(format string, args ...any) error {
	return fmt.Errorf("unmarshal vector: %w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// vectorHeader reads the format byte and the component count n of an
// encoded vector, and returns the bytes after them, p, which hold n
// components when the encoding is valid.
func vectorHeader(data []byte) (n uint64, p []byte, err error) {
	if len(data) == 0 {
		return 0, nil, malformed("empty input")
	}
	if data[0] != vectorFormat {
		return 0, nil, malformed("unknown format %d", data[0])
	}
	p = data[1:]
	if n, err = uvarint(p); err != nil {
		return 0, nil, malformed("count: %v", err)
	}
	p = p[uvarintLen(n):]
	if n > uint64(len(p)/5) { // each component takes at least 1+4 bytes
		return 0, nil, malformed("count %d too large for %d bytes", n, len(p))
	}
	return n, p, nil
}

// UnmarshalVector decodes the encoding of [Vector.MarshalBinary]. It rejects,
// without panicking and before allocating more than the input justifies, any
// input that is not the exact encoding of a valid Vector: an unknown format byte,
// a truncated or over-long count, non-minimal or overflowing varints, indices that
// do not strictly increase or exceed 32 bits, zero or non-finite values, and
// trailing bytes.
func UnmarshalVector(data []byte) (Vector, error) {
	bad := func(format string, args ...any) (Vector, error) {
		return Vector{}, malformed(format, args...)
	}
	n, p, err := vectorHeader(data)
	if err != nil {
		return Vector{}, err
	}
	v := Vector{Idx: make([]uint32, n), Val: make([]float32, n)}
	if n == 0 {
		v = Vector{}
	}
	var cur uint64
	for k := range v.Idx {
		d, err := uvarint(p)
		if err != nil {
			return bad("index %d: %v", k, err)
		}
		p = p[uvarintLen(d):]
		if k > 0 && d == 0 {
			return bad("index %d repeats the one before it", k)
		}
		cur += d
		if d > math.MaxUint32 || cur > math.MaxUint32 {
			return bad("index %d exceeds 32 bits", k)
		}
		v.Idx[k] = uint32(cur)
	}
	if uint64(len(p)) != 4*n {
		return bad("%d value bytes for %d values", len(p), n)
	}
	for k := range v.Val {
		x := math.Float32frombits(binary.LittleEndian.Uint32(p[4*k:]))
		if !finiteNonZero(x) {
			return bad("value %d is zero or not finite", k)
		}
		v.Val[k] = x
	}
	return v, nil
}

// UnmarshalBinary decodes data into v as [UnmarshalVector] does.
func (v *Vector) UnmarshalBinary(data []byte) error {
	w, err := UnmarshalVector(data)
	if err != nil {
		return err
	}
	*v = w
	return nil
}

// uvarint decodes a minimal uvarint from the start of p.
func uvarint(p []byte) (uint64, error) {
	x, n := binary.Uvarint(p)
	switch {
	case n == 0:
		return 0, errors.New("truncated varint")
	case n < 0:
		return 0, errors.New("varint overflows 64 bits")
	case n != uvarintLen(x):
		return 0, errors.New("non-minimal varint")
	}
	return x, nil
}

// uvarintLen is the length of the minimal uvarint encoding of x.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}
