package judge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchNotes are notes of invented words as `memgov bench write` seeds its
// store: 12 to 25 words of 2 to 4 syllables drawn from 4,000, and a
// reference number.
func benchNotes(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "pi", "da", "zu", "re", "fa", "go", "hi", "ju", "ba", "ce", "do", "xi"}
	var vocab []string
	for len(vocab) < 4000 {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		vocab = append(vocab, b.String())
	}
	out := make([]string, n)
	for i := range out {
		ws := make([]string, 12+r.IntN(14))
		for k := range ws {
			ws[k] = vocab[r.IntN(len(vocab))]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		out[i] = strings.Join(ws, " ") + fmt.Sprintf(" (ref %d).", r.IntN(1_000_000))
	}
	return out
}

// topicalOf returns the k texts of pool that share the most words with w,
// as the topic query hands the gates a write's neighbours.
func topicalOf(w string, pool []string, index map[string][]int, k int) []string {
	shared := map[int]int{}
	for _, x := range strings.Fields(strings.ToLower(w)) {
		for _, i := range index[x] {
			shared[i]++
		}
	}
	ids := make([]int, 0, len(shared))
	for i := range shared {
		ids = append(ids, i)
	}
	slices.SortFunc(ids, func(a, b int) int {
		if shared[a] != shared[b] {
			return shared[b] - shared[a]
		}
		return a - b
	})
	out := make([]string, 0, k)
	for _, i := range ids[:min(k, len(ids))] {
		out = append(out, pool[i])
	}
	return out
}

// BenchmarkTopicalJudge is the judge's work in one governed write as the
// gates do it on a store of 100,000 invented-word notes: reading the
// stored sketches of the write's 50 topical neighbours (Remember), then
// the contradiction rules and the dedup gate's lexical filter (threshold
// 0.5) over them, answered from the sketches where those prove the
// answer. Each of a thousand writes has neighbours of its own, so most
// sketches are read for the first time, as at 100,000 items. It reports
// the median and 99th percentile per write.
func BenchmarkTopicalJudge(b *testing.B) {
	const (
		stored  = 100_000
		topical = 50
	)
	pool := benchNotes(stored, 7)
	index := map[string][]int{}
	sketches := make([][]byte, len(pool))
	for i, t := range pool {
		for _, x := range strings.Fields(strings.ToLower(t)) {
			index[x] = append(index[x], i)
		}
		sketches[i] = Sketch(t)
	}
	sketchOf := map[string][]byte{}
	for i, t := range pool {
		sketchOf[t] = sketches[i]
	}
	writes := benchNotes(1000, 8)
	cands := make([][]string, len(writes))
	for i, w := range writes {
		cands[i] = topicalOf(w, pool, index, topical)
	}
	j := New(nil)
	var took []time.Duration
	i := 0
	for b.Loop() {
		w, cs := writes[i%len(writes)]+fmt.Sprintf(" Run %d.", i), cands[i%len(writes)]
		i++
		start := time.Now()
		for _, c := range cs {
			j.Remember(c, sketchOf[c])
		}
		for _, c := range cs {
			j.Contradiction(c, w)
		}
		sim := j.SimilarTo(w)
		for _, c := range cs {
			sim(c, 0.5)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	if len(took) > 0 {
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms/write")
		b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms/write")
	}
}
