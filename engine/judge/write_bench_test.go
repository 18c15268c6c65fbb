package judge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// benchPool builds n stored texts from the corpora (conversation turns,
// fact edits, evidence claims), each made distinct by a reference, as a
// store of n items holds.
func benchPool(b *testing.B, n int) []string {
	b.Helper()
	var base []string
	for _, name := range []string{"chat.jsonl", "factedit.jsonl", "evidence.jsonl", "contradiction.jsonl"} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "corpora", name))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r struct{ Text, A, B, Claim string }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				b.Fatal(err)
			}
			for _, t := range []string{r.Text, r.A, r.B, r.Claim} {
				if t != "" {
					base = append(base, t)
				}
			}
		}
		f.Close()
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s Ticket %d.", base[i%len(base)], i)
	}
	return out
}

// BenchmarkGovernedWriteJudge is the judge's share of one governed write in
// a store of 100,000 items: the dedup filter over the write's band
// candidates (bandCandidates), the contradiction rules over its topical
// neighbours (policy contradiction.candidates, 50 by default) and support
// of its evidence excerpt. "cold" draws the candidates at random from the
// whole store, so most are read for the first time (as after a restart);
// "warm" draws them from the 2,000 items a run of writes keeps meeting,
// read once before; "warm-contradiction-support" leaves out the dedup
// filter. It reports the median and 99th percentile per write.
func BenchmarkGovernedWriteJudge(b *testing.B) {
	const (
		items          = 100_000
		hot            = 2_000
		topical        = 50
		bandCandidates = 100
	)
	pool := benchPool(b, items)
	for _, v := range []struct {
		name string
		span int
		band int
	}{{"cold", items, bandCandidates}, {"warm", hot, bandCandidates}, {"warm-contradiction-support", hot, 0}} {
		b.Run(v.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			j := New(nil)
			if v.span < items {
				for _, t := range pool[:v.span] {
					SimilarAtLeast(t, pool[0], 0.5)
					j.Contradiction(t, pool[0])
				}
			}
			var took []time.Duration
			for b.Loop() {
				w := pool[r.IntN(items)] + " Updated."
				excerpt := pool[r.IntN(items)]
				start := time.Now()
				for k := 0; k < v.band; k++ {
					SimilarAtLeast(pool[r.IntN(v.span)], w, 0.5)
				}
				for k := 0; k < topical; k++ {
					j.Contradiction(pool[r.IntN(v.span)], w)
				}
				j.Support(w, excerpt)
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			if len(took) > 0 {
				b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms/write")
				b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms/write")
			}
		})
	}
}
