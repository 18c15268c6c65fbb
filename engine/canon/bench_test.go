package canon

import (
	"fmt"
	"io"
	"testing"
)

// benchEntries returns n entries with keys in order and canonical values of
// about 100 bytes, and the length of their canonical map.
func benchEntries(b *testing.B, n int) ([]Entry, int64) {
	b.Helper()
	entries := make([]Entry, n)
	for i := range entries {
		v, err := Marshal(map[string]any{
			"text":    fmt.Sprintf("note %d: the user prefers metric units and UTC", i),
			"source":  "agent",
			"score":   float64(i) / 7,
			"pinned":  i%3 == 0,
			"version": i,
		})
		if err != nil {
			b.Fatal(err)
		}
		entries[i] = Entry{Key: fmt.Sprintf("memory/%08d", i), Value: v}
	}
	n64, err := WriteMap(io.Discard, seqOf(entries))
	if err != nil {
		b.Fatal(err)
	}
	return entries, n64
}

func benchmarkHasher(b *testing.B, alg Algorithm) {
	entries, size := benchEntries(b, 100_000)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		h, err := NewHasher(alg)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			if err := h.Add(e.Key, e.Value); err != nil {
				b.Fatal(err)
			}
		}
		if h.Sum() == "" {
			b.Fatal(h.Err())
		}
	}
}

// BenchmarkHasher hashes a map of 100,000 entries of about 100 bytes;
// MB/s is of canonical map bytes.
func BenchmarkHasher(b *testing.B) { benchmarkHasher(b, SHA256) }

func BenchmarkHasherSHAKE256(b *testing.B) { benchmarkHasher(b, SHAKE256) }

func BenchmarkWriteMap(b *testing.B) {
	entries, size := benchEntries(b, 100_000)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WriteMap(io.Discard, seqOf(entries)); err != nil {
			b.Fatal(err)
		}
	}
}

// benchItem is a memory item of about 200 bytes, not in canonical form.
var benchItem = []byte(`{
  "text": "The user prefers metric units, writes in British English and works in UTC+1 (\u00e9t\u00e9).",
  "source": "agent", "version": 12, "score": 0.75E0,
  "tags": ["units", "locale"], "pinned": false
}`)

func BenchmarkCanonicalize(b *testing.B) {
	b.SetBytes(int64(len(benchItem)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Canonicalize(benchItem); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompareKeys(b *testing.B) {
	pairs := [][2]string{
		{"memory/00001234", "memory/00001235"},
		{"mémoire/été", "mémoire/\U0001F602"},
	}
	for _, p := range pairs {
		b.Run(fmt.Sprintf("%q", p[0][:7]), func(b *testing.B) {
			for b.Loop() {
				CompareKeys(p[0], p[1])
			}
		})
	}
}
