package similar

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

const base20 = "The deployment pipeline for the billing service runs integration tests against a staging database every night before the release"

func TestEmbedSelf(t *testing.T) {
	for _, s := range []string{"a", "Customer 42 prefers email", base20, "東京 tower 3.14", "x y"} {
		v := Embed(s)
		if err := v.Validate(); err != nil {
			t.Fatalf("Embed(%q): %v", s, err)
		}
		if c := Cosine(v, v); math.Abs(c-1) > 1e-6 {
			t.Errorf("Cosine(Embed(%q), itself) = %v, want 1", s, c)
		}
		if n := norm(v); math.Abs(n-1) > 1e-6 {
			t.Errorf("|Embed(%q)| = %v, want 1", s, n)
		}
		for _, i := range v.Idx {
			if i >= Dim {
				t.Fatalf("Embed(%q) index %d >= Dim", s, i)
			}
		}
	}
}

func TestEmbedEmpty(t *testing.T) {
	for _, s := range []string{"", "   ", "!!! ... ---", "\u200B"} {
		v := Embed(s)
		if len(v.Idx) != 0 || len(v.Val) != 0 {
			t.Errorf("Embed(%q) has %d components, want none", s, len(v.Idx))
		}
		if c := Cosine(v, Embed("hello")); c != 0 {
			t.Errorf("Cosine(Embed(%q), Embed(hello)) = %v, want 0", s, c)
		}
	}
}

func TestEmbedSimilarity(t *testing.T) {
	tests := []struct {
		name     string
		a, b     string
		min, max float64
	}{
		{"case and punctuation", "Customer 42 prefers email", "customer 42, prefers e-mail!", 0.999, 1},
		{"whitespace and quotes", base20, "  the deployment pipeline for the ‘billing’ service runs\nintegration tests against a staging database every night before the release.  ", 0.999, 1},
		{"typo in one word of 20", base20, "The deployment pipline for the billing service runs integration tests against a staging database every night before the release", 0.95, 1},
		{"plural of one word of 20", base20, "The deployment pipeline for the billing service runs integration tests against a staging database every night before the releases", 0.95, 1},
		{"article changed", base20, "The deployment pipeline for the billing service runs integration tests against the staging database every night before the release", 0.95, 1},
		{"word dropped", base20, "The deployment pipeline for the billing service runs integration tests against a staging database every night before release", 0.95, 1},
		// A different content word can be a changed fact: below the duplicate
		// threshold, above the topic threshold of contradiction search.
		{"content word replaced", base20, "The deployment pipeline for the billing service runs integration tests against a production database every night before the release", 0.5, 0.95},
		{"negated", "Customer 42 prefers email contact", "Customer 42 does not prefer email contact", 0.5, 0.95},
		{"other number", "Customer 42 prefers email", "Customer 43 prefers email", 0.5, 0.95},
		{"paraphrase", base20, "The billing service deployment pipeline runs nightly integration tests on staging", 0.3, 0.95},
		{"unrelated", base20, "Alice moved to the Berlin office in March and now leads the data platform team with two new hires", -1, 0.3},
		{"unrelated short", "Customer 42 prefers email", "The cache is flushed every hour", -1, 0.3},
		{"unrelated scripts", "東京の天気は晴れです", "Customer 42 prefers email", -1, 0.3},
	}
	for _, tt := range tests {
		c := Cosine(Embed(tt.a), Embed(tt.b))
		if c < tt.min || c > tt.max {
			t.Errorf("%s: cosine = %.4f, want in [%v, %v]", tt.name, c, tt.min, tt.max)
		}
		if d := Cosine(Embed(tt.b), Embed(tt.a)); d != c {
			t.Errorf("%s: cosine not symmetric: %v and %v", tt.name, c, d)
		}
	}
}

func TestNearDuplicateCorpus(t *testing.T) {
	// One small edit of a corpus sentence (16 to 20 words) almost always leaves a
	// near-duplicate; two edits often do not.
	tests := []struct {
		edits   int
		minFrac float64
	}{{1, 0.95}, {2, 0.7}}
	for _, tt := range tests {
		r := newRand(7)
		n, dup := 2000, 0
		for range n {
			s := sentence(r)
			if Cosine(Embed(s), Embed(nearDuplicate(r, s, tt.edits))) >= 0.95 {
				dup++
			}
		}
		frac := float64(dup) / float64(n)
		t.Logf("%d edits: %.3f of pairs reach cosine 0.95", tt.edits, frac)
		if frac < tt.minFrac {
			t.Errorf("%d edits: %.3f of pairs reach cosine 0.95, want >= %v", tt.edits, frac, tt.minFrac)
		}
	}
}

func norm(v Vector) float64 {
	var s float64
	for _, x := range v.Val {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestDense(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	tests := []struct {
		in      []float32
		wantIdx []uint32
		wantVal []float32
	}{
		{nil, nil, nil},
		{[]float32{0, 0}, nil, nil},
		{[]float32{3, 0, -4}, []uint32{0, 2}, []float32{0.6, -0.8}},
		{[]float32{0, 2}, []uint32{1}, []float32{1}},
		{[]float32{nan, 1, inf}, []uint32{1}, []float32{1}},
	}
	for _, tt := range tests {
		v := Dense(tt.in)
		if err := v.Validate(); err != nil {
			t.Errorf("Dense(%v): %v", tt.in, err)
		}
		if !slices.Equal(v.Idx, tt.wantIdx) || len(v.Val) != len(tt.wantVal) {
			t.Errorf("Dense(%v) = %v, want indices %v values %v", tt.in, v, tt.wantIdx, tt.wantVal)
			continue
		}
		for k := range v.Val {
			if math.Abs(float64(v.Val[k]-tt.wantVal[k])) > 1e-6 {
				t.Errorf("Dense(%v) = %v, want values %v", tt.in, v.Val, tt.wantVal)
			}
		}
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b Vector
		want float64
	}{
		{"empty", Vector{}, Vector{}, 0},
		{"one empty", Dense([]float32{1}), Vector{}, 0},
		{"orthogonal", Dense([]float32{1, 0}), Dense([]float32{0, 1}), 0},
		{"opposite", Dense([]float32{1, 2}), Dense([]float32{-1, -2}), -1},
		{"45 degrees", Dense([]float32{1, 0}), Dense([]float32{1, 1}), math.Sqrt2 / 2},
		{"unnormalised", Vector{Idx: []uint32{1, 5}, Val: []float32{3, 4}}, Vector{Idx: []uint32{5, 9}, Val: []float32{2, 2}}, 8 / (5 * math.Sqrt(8))},
		{"length mismatch is tolerated", Vector{Idx: []uint32{1, 2}, Val: []float32{1}}, Vector{Idx: []uint32{1}, Val: []float32{1, 7}}, 1},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("%s: Cosine = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// vectorGen draws valid vectors.
func vectorGen() *rapid.Generator[Vector] {
	return rapid.Custom(func(t *rapid.T) Vector {
		idx := rapid.SliceOfDistinct(rapid.Uint32(), rapid.ID[uint32]).Draw(t, "idx")
		slices.Sort(idx)
		v := Vector{Idx: idx, Val: make([]float32, len(idx))}
		for k := range v.Val {
			v.Val[k] = rapid.Float32().Filter(finiteNonZero).Draw(t, "val")
		}
		return v
	})
}

func TestMarshalRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := vectorGen().Draw(t, "v")
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary: %v", err)
		}
		w, err := UnmarshalVector(b)
		if err != nil {
			t.Fatalf("UnmarshalVector: %v", err)
		}
		if !slices.Equal(v.Idx, w.Idx) || !slices.Equal(v.Val, w.Val) {
			t.Fatalf("round trip changed %v to %v", v, w)
		}
		var u Vector
		if err := u.UnmarshalBinary(b); err != nil || !slices.Equal(u.Idx, v.Idx) {
			t.Fatalf("UnmarshalBinary: %v, %v", u, err)
		}
	})
}

func TestMarshalEmbedSize(t *testing.T) {
	v := Embed(base20)
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if per := float64(len(b)) / float64(len(v.Idx)); per > 7 {
		t.Errorf("%d bytes for %d components (%.2f each), want <= 7 each", len(b), len(v.Idx), per)
	}
	t.Logf("%d components in %d bytes", len(v.Idx), len(b))
}

func TestMarshalInvalid(t *testing.T) {
	for _, v := range []Vector{
		{Idx: []uint32{1}, Val: nil},
		{Idx: []uint32{2, 1}, Val: []float32{1, 1}},
		{Idx: []uint32{1, 1}, Val: []float32{1, 1}},
		{Idx: []uint32{1}, Val: []float32{0}},
		{Idx: []uint32{1}, Val: []float32{float32(math.NaN())}},
	} {
		if _, err := v.MarshalBinary(); err == nil {
			t.Errorf("MarshalBinary(%v) succeeded, want error", v)
		}
	}
}

func TestUnmarshalMalformed(t *testing.T) {
	one := []byte{0, 0, 0x80, 0x3f} // float32 1.0
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"unknown format", []byte{2, 0}},
		{"no count", []byte{1}},
		{"truncated count", []byte{1, 0x80}},
		{"non-minimal count", []byte{1, 0x80, 0x00}},
		{"overflowing count", cat([]byte{1}, bytes.Repeat([]byte{0xff}, 10), []byte{1})},
		{"count too large", []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 5}},
		{"count larger than data", cat([]byte{1, 2, 5}, one)},
		{"truncated index", cat([]byte{1, 1, 0x80}, one[:3])},
		{"non-minimal index", cat([]byte{1, 1, 0x85, 0x00}, one)},
		{"repeated index", cat([]byte{1, 2, 5, 0}, one, one)},
		{"index over 32 bits", cat([]byte{1, 1, 0x80, 0x80, 0x80, 0x80, 0x10}, one)},
		{"sum over 32 bits", cat([]byte{1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 1}, one, one)},
		{"short values", cat([]byte{1, 1, 5}, one[:3])},
		{"trailing bytes", cat([]byte{1, 1, 5}, one, []byte{0})},
		{"zero value", cat([]byte{1, 1, 5}, []byte{0, 0, 0, 0})},
		{"negative zero", cat([]byte{1, 1, 5}, []byte{0, 0, 0, 0x80})},
		{"NaN", cat([]byte{1, 1, 5}, []byte{0, 0, 0xc0, 0x7f})},
		{"infinity", cat([]byte{1, 1, 5}, []byte{0, 0, 0x80, 0x7f})},
	}
	for _, tt := range tests {
		v, err := UnmarshalVector(tt.in)
		if err == nil {
			t.Errorf("%s: UnmarshalVector(%x) = %v, want error", tt.name, tt.in, v)
		} else if !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: error %v does not wrap ErrMalformed", tt.name, err)
		}
	}
	// The valid neighbours of those inputs decode.
	for _, in := range [][]byte{
		{1, 0},
		cat([]byte{1, 1, 5}, one),
		cat([]byte{1, 1, 0xff, 0xff, 0xff, 0xff, 0x0f}, one), // index MaxUint32
	} {
		if _, err := UnmarshalVector(in); err != nil {
			t.Errorf("UnmarshalVector(%x): %v", in, err)
		}
	}
}

func FuzzUnmarshalVector(f *testing.F) {
	for _, s := range []string{"", "x", base20, "Customer 42 prefers email"} {
		b, err := Embed(s).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 0x80, 0x00})
	f.Add([]byte{1, 1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0x80, 0x3f})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := UnmarshalVector(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("decoded an invalid vector: %v", err)
		}
		// The encoding is unique, so decoding then encoding gives the input back.
		b, err := v.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary: %v", err)
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("re-encoding %x gives %x", data, b)
		}
		_ = Cosine(v, v)
		_ = Sign(v)
	})
}
