package similar

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// signNaive is Sign written as its definition: one signed sum per bit. It
// also returns the sums and a bound on the rounding error of any order of
// adding the same terms, Sign's included, so a caller can tell the bits whose
// sign the definition fixes from those it leaves to rounding.
func signNaive(v Vector) (s SimHash, acc [256]float64, errBound float64) {
	var abs float64
	for k, i := range v.Idx {
		abs += math.Abs(float64(v.Val[k]))
		for b := range 256 {
			h := mix64((uint64(i)<<2 | uint64(b/64)) ^ simSeed)
			if h>>(b%64)&1 != 0 {
				acc[b] += float64(v.Val[k])
			} else {
				acc[b] -= float64(v.Val[k])
			}
		}
	}
	for b, x := range acc {
		if x > 0 {
			s[b/64] |= 1 << (b % 64)
		}
	}
	// With unit roundoff u = 2^-53, a float64 sum of terms added along a tree
	// of depth d is within 2*d*u*sum|x| of the exact sum (Higham, Accuracy and
	// Stability of Numerical Algorithms, 4.2; float32 terms are exact in
	// float64 and their sums never underflow). The definition adds in index
	// order, depth n; Sign adds each term into one of 16 nibble sums and then
	// the 16 sums, depth at most n+16. So where |acc| exceeds both errors,
	// 2u(2n+16)*sum|x|, the exact projection, acc and Sign's sum have one sign.
	// The bound is twice that, which also covers the rounding of sum|x|.
	n := float64(len(v.Idx))
	errBound = 8 * (n + 16) * 0x1p-53 * abs
	return s, acc, errBound
}

// checkSign fails unless Sign(v) agrees with the definition in every bit whose
// exact projection is farther from zero than rounding can move it. Bits with a
// projection within the bound are undefined by floating point: an exact zero
// (1 + 3e38 - 3e38 in one order, 0 in another) may round either way.
func checkSign(v Vector) (compared int, msg string) {
	got := Sign(v)
	want, acc, bound := signNaive(v)
	differ := 0
	for b, x := range acc {
		if math.Abs(x) <= bound {
			continue
		}
		compared++
		if got[b/64]>>(b%64)&1 != want[b/64]>>(b%64)&1 {
			differ++
		}
	}
	if differ > 0 {
		return compared, fmt.Sprintf("Sign = %x, definition gives %x: %d of %d defined bits differ", got, want, differ, compared)
	}
	return compared, ""
}

func TestSignMatchesDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := vectorGen().Draw(t, "v")
		compared, msg := checkSign(v)
		if msg != "" {
			t.Fatal(msg)
		}
		if len(v.Idx) > 0 && compared == 0 {
			t.Fatalf("no bit of %v is defined", v)
		}
	})
	for _, s := range []string{"Customer 42 prefers email", base20} {
		v := Embed(s)
		if compared, msg := checkSign(v); msg != "" || compared != 256 {
			t.Errorf("Sign(Embed(%q)): %d defined bits compared. %s", s, compared, msg)
		}
	}
}

func TestSignEmpty(t *testing.T) {
	if s := Sign(Vector{}); s != (SimHash{}) {
		t.Errorf("Sign(empty) = %x, want zero", s)
	}
}

func TestSignScaleInvariant(t *testing.T) {
	v := Embed(base20)
	w := Vector{Idx: v.Idx, Val: make([]float32, len(v.Val))}
	for k, x := range v.Val {
		w.Val[k] = 4 * x
	}
	if Sign(v) != Sign(w) {
		t.Error("scaling a vector changed its SimHash")
	}
	for k, x := range v.Val {
		w.Val[k] = -x
	}
	if h := Hamming(Sign(v), Sign(w)); h != 256 {
		t.Errorf("negating a vector changed %d bits, want 256", h)
	}
}

// TestSignAngle checks that the fraction of differing bits tracks the angle:
// E[Hamming/256] = arccos(cosine)/pi.
func TestSignAngle(t *testing.T) {
	r := newRand(11)
	var sumErr float64
	n := 400
	for range n {
		s := sentence(r)
		a, b := Embed(s), Embed(nearDuplicate(r, s, 1+r.IntN(4)))
		want := math.Acos(Cosine(a, b)) / math.Pi
		got := float64(Hamming(Sign(a), Sign(b))) / 256
		sumErr += got - want
	}
	// Each estimate has a standard deviation of at most 0.5/sqrt(256) = 0.031, so
	// the mean over 400 pairs has one below 0.002.
	if bias := sumErr / float64(n); math.Abs(bias) > 0.01 {
		t.Errorf("mean of Hamming/256 - arccos(cos)/pi = %.4f, want near 0", bias)
	}
}

func TestBands(t *testing.T) {
	s := SimHash{0x0004000300020001, 0x0008000700060005, 0x000c000b000a0009, 0x0010000f000e000d}
	b := s.Bands()
	for k, x := range b {
		if x != uint16(k+1) {
			t.Errorf("band %d = %#x, want %#x", k, x, k+1)
		}
	}
}

func TestHamming(t *testing.T) {
	tests := []struct {
		a, b SimHash
		want int
	}{
		{SimHash{}, SimHash{}, 0},
		{SimHash{}, SimHash{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}, 256},
		{SimHash{1}, SimHash{0, 1}, 2},
		{SimHash{0xff, 0, 0, 1 << 63}, SimHash{0x0f, 0, 0, 0}, 5},
	}
	for _, tt := range tests {
		if got := Hamming(tt.a, tt.b); got != tt.want {
			t.Errorf("Hamming(%x, %x) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
