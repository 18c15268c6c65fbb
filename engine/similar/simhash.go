package similar

import "math/bits"

// A SimHash is a 256-bit random-hyperplane signature of a [Vector]. The fraction
// of bits in which the signatures of two vectors differ estimates the angle
// between them divided by pi, so vectors with cosine 0.95 disagree in about 10%
// of bits.
type SimHash [4]uint64

// simSeed keys the hyperplanes; changing it changes every stored signature.
const simSeed = 0x6d656d676f762d31 // "memgov-1"

// Sign returns the SimHash of v. Bit b (bit b%64 of word b/64) is set when
// sum over k of v.Val[k] * r_b(v.Idx[k]) is positive, where r_b(i) is +1 if bit
// b%64 of mix64((i<<2 | b/64) ^ seed) is set and -1 otherwise: one hash call gives
// the hyperplane signs of 64 bits, so no random matrix is stored. The empty Vector
// signs to zero.
func Sign(v Vector) SimHash {
	// cnt[p][x] sums the values whose hash has nibble x at nibble position p
	// (16 positions per word, 4 words); the signed sums per bit are resolved from
	// these at the end, so each component costs 64 additions instead of 256.
	var cnt [64][16]float64
	n := min(len(v.Idx), len(v.Val))
	for k := 0; k < n; k++ {
		x := float64(v.Val[k])
		base := uint64(v.Idx[k]) << 2
		for w := uint64(0); w < 4; w++ {
			h := mix64((base | w) ^ simSeed)
			row := cnt[w*16 : w*16+16 : w*16+16]
			for p := range row {
				row[p][h&15] += x
				h >>= 4
			}
		}
	}
	var s SimHash
	for p := range cnt {
		c := &cnt[p]
		for j := 0; j < 4; j++ {
			var sum float64
			for x, t := range c {
				if x>>j&1 != 0 {
					sum += t
				} else {
					sum -= t
				}
			}
			if sum > 0 {
				b := p*4 + j
				s[b/64] |= 1 << (b % 64)
			}
		}
	}
	return s
}

// NumBands is the number of bands of a SimHash.
const NumBands = 16

// Bands splits s into 16 bands of 16 bits: band k is bits 16k to 16k+15. Two
// vectors with cosine c share at least one band with probability about
// 1-(1-(1-p)^16)^16 where p = arccos(c)/pi: 0.96 at c = 0.95.
func (s SimHash) Bands() [NumBands]uint16 {
	var b [NumBands]uint16
	for k := range b {
		b[k] = uint16(s[k/4] >> (16 * (k % 4)))
	}
	return b
}

// Hamming returns the number of bits in which a and b differ.
func Hamming(a, b SimHash) int {
	n := 0
	for i := range a {
		n += bits.OnesCount64(a[i] ^ b[i])
	}
	return n
}
