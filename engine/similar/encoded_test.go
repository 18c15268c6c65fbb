package similar

import (
	"bytes"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// sameCosine checks that Query.CosineEncoded of data gives what decoding it
// and calling Cosine gives, to the bit, or the same error.
func sameCosine(t interface {
	Helper()
	Fatalf(string, ...any)
}, q Vector, data []byte) {
	t.Helper()
	got, err := NewQuery(q).CosineEncoded(data)
	w, werr := UnmarshalVector(data)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("CosineEncoded(%x) error %v; UnmarshalVector's %v", data, err, werr)
	}
	if werr != nil {
		return
	}
	if want := Cosine(q, w); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("CosineEncoded(%x) = %v; Cosine of the decoded vector %v", data, got, want)
	}
}

func TestCosineEncodedMatchesCosine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := vectorGen().Draw(t, "a")
		b := vectorGen().Draw(t, "b")
		if rapid.Bool().Draw(t, "share") && len(a.Idx) > 0 {
			b = a // the same indices, as near texts have
		}
		data, err := b.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary: %v", err)
		}
		sameCosine(t, a, data)
	})
	texts := []string{"", "x", base20, "Customer 42 prefers email.", "Customer 42 prefers e-mail.", "The office opens at nine."}
	for _, s := range texts {
		data, err := Embed(s).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range texts {
			sameCosine(t, Embed(q), data)
		}
	}
}

func TestCosineEncodedMalformed(t *testing.T) {
	one := []byte{0, 0, 0x80, 0x3f}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	q := Embed(base20)
	for _, in := range [][]byte{
		nil, {2, 0}, {1}, {1, 0x80}, {1, 0x80, 0x00},
		cat([]byte{1}, bytes.Repeat([]byte{0xff}, 10), []byte{1}),
		{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 5},
		cat([]byte{1, 2, 5}, one), cat([]byte{1, 1, 0x80}, one[:3]), cat([]byte{1, 1, 0x85, 0x00}, one),
		cat([]byte{1, 2, 5, 0}, one, one), cat([]byte{1, 1, 0x80, 0x80, 0x80, 0x80, 0x10}, one),
		cat([]byte{1, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 1}, one, one), cat([]byte{1, 1, 5}, one[:3]),
		cat([]byte{1, 1, 5}, one, []byte{0}), cat([]byte{1, 1, 5}, []byte{0, 0, 0, 0}),
		cat([]byte{1, 1, 5}, []byte{0, 0, 0xc0, 0x7f}),
		// and valid ones
		{1, 0}, cat([]byte{1, 1, 5}, one), cat([]byte{1, 1, 0xff, 0xff, 0xff, 0xff, 0x0f}, one),
	} {
		sameCosine(t, q, in)
		sameCosine(t, Vector{Idx: []uint32{5, math.MaxUint32}, Val: []float32{1, 2}}, in)
	}
}

func FuzzCosineEncoded(f *testing.F) {
	for _, s := range []string{"", "x", base20, "Customer 42 prefers email"} {
		b, err := Embed(s).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0x80, 0x3f})
	q := Embed(base20)
	f.Fuzz(func(t *testing.T, data []byte) { sameCosine(t, q, data) })
}

func BenchmarkCosineEncoded(b *testing.B) {
	q, w := Embed(base20), Embed("Customer 42 prefers email, and says so in every message to the support desk.")
	data, err := w.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			v, _ := UnmarshalVector(data)
			_ = Cosine(q, v)
		}
	})
	b.Run("encoded", func(b *testing.B) {
		pq := NewQuery(q)
		for b.Loop() {
			_, _ = pq.CosineEncoded(data)
		}
	})
}
