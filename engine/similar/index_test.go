package similar

import (
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
)

func TestBandIndexQuery(t *testing.T) {
	var x BandIndex
	if got := x.Query(Embed("anything"), 0, 0); len(got) != 0 {
		t.Errorf("empty index returned %v", got)
	}
	texts := []string{
		base20,
		"The deployment pipline for the billing service runs integration tests against a staging database every night before the release",
		"the deployment pipeline for the billing service runs integration tests against a staging database every night before the release.",
		"The deployment pipeline for the billing service runs integration tests against a production database every night before the release",
		"Alice moved to the Berlin office in March and now leads the data platform team with two new hires",
	}
	for i, s := range texts {
		x.Add(uint64(100+i), Embed(s))
	}
	if x.Len() != len(texts) {
		t.Fatalf("Len = %d, want %d", x.Len(), len(texts))
	}
	q := Embed(base20)

	tests := []struct {
		name      string
		minCosine float64
		limit     int
		wantIDs   []uint64
	}{
		{"near-duplicates", 0.95, 0, []uint64{100, 102, 101}},
		{"limited", 0.95, 2, []uint64{100, 102}},
		{"exact only", 0.999999, 0, []uint64{100, 102}},
		{"nothing that similar", 1.1, 0, nil},
	}
	for _, tt := range tests {
		got := x.Query(q, tt.minCosine, tt.limit)
		var ids []uint64
		for _, m := range got {
			ids = append(ids, m.ID)
		}
		// 100 and 102 normalise to the same text: equal cosine, ordered by id.
		if !slices.Equal(ids, tt.wantIDs) {
			t.Errorf("%s: Query ids = %v, want %v (%v)", tt.name, ids, tt.wantIDs, got)
		}
		if bf := x.BruteForce(q, tt.minCosine, tt.limit); !slices.Equal(bf, got) {
			t.Errorf("%s: BruteForce = %v, Query = %v", tt.name, bf, got)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Cosine > got[i-1].Cosine {
				t.Errorf("%s: results not by descending cosine: %v", tt.name, got)
			}
		}
	}
	// BruteForce also returns items that share no band.
	if all := x.BruteForce(q, -1, 0); len(all) != len(texts) {
		t.Errorf("BruteForce(-1) returned %d items, want %d", len(all), len(texts))
	}
}

func TestBandIndexConcurrent(t *testing.T) {
	var x BandIndex
	r := newRand(3)
	texts := make([]string, 200)
	for i := range texts {
		texts[i] = sentence(r)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(texts); i += 4 {
				v := Embed(texts[i])
				x.Add(uint64(i), v)
				if got := x.Query(v, 0.999, 0); !slices.ContainsFunc(got, func(m Match) bool { return m.ID == uint64(i) }) {
					t.Errorf("item %d not found right after Add", i)
				}
			}
		})
	}
	wg.Wait()
	if x.Len() != len(texts) {
		t.Errorf("Len = %d, want %d", x.Len(), len(texts))
	}
}

// TestBandIndexRecall measures how many of the pairs with cosine >= 0.95 that a
// brute-force scan finds the band lookup finds too, on a synthetic corpus with
// near-duplicates added. The corpus is deterministic (a seeded generator), so
// the figure is the same on every run; MEMGOV_RECALL_FULL=1 runs it at 20,000
// items and 500 queries (a brute-force scan per query: minutes on a loaded
// machine).
func TestBandIndexRecall(t *testing.T) {
	n, dups := 8000, 250
	if testing.Short() {
		n, dups = 4000, 200
	}
	if os.Getenv("MEMGOV_RECALL_FULL") != "" {
		n, dups = 20000, 500
	}
	const minCosine = 0.95
	r := newRand(1)
	var x BandIndex
	texts := make([]string, n)
	for i := range texts {
		texts[i] = sentence(r)
		x.Add(uint64(i), Embed(texts[i]))
	}
	queries := make([]Vector, dups)
	for j := range queries {
		src := r.IntN(n)
		queries[j] = Embed(nearDuplicate(r, texts[src], 1+r.IntN(2)))
		x.Add(uint64(n+j), queries[j])
	}

	type result struct{ truth, found, candidates, checked int }
	results := make([]result, dups)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for j := w; j < dups; j += workers {
				self := uint64(n + j)
				truth := x.BruteForce(queries[j], minCosine, 0)
				got, cand, checked := x.query(queries[j], minCosine, 0)
				res := result{candidates: cand, checked: checked}
				for _, m := range truth {
					if m.ID == self {
						continue
					}
					res.truth++
					if slices.ContainsFunc(got, func(g Match) bool { return g.ID == m.ID }) {
						res.found++
					}
				}
				results[j] = res
			}
		})
	}
	wg.Wait()

	var truth, found, cand, checked int
	for _, res := range results {
		truth += res.truth
		found += res.found
		cand += res.candidates
		checked += res.checked
	}
	if truth < dups/2 {
		t.Fatalf("only %d pairs with cosine >= %v; the corpus does not test recall", truth, minCosine)
	}
	recall := float64(found) / float64(truth)
	t.Logf("%d items, %d queries: recall %.4f (%d of %d pairs with cosine >= %v); per query %.1f band candidates, %.1f cosines after the Hamming bound",
		x.Len(), dups, recall, found, truth, minCosine, float64(cand)/float64(dups), float64(checked)/float64(dups))
	if recall < 0.95 {
		t.Errorf("recall %.4f, want >= 0.95", recall)
	}
}

func TestMaxHamming(t *testing.T) {
	tests := []struct {
		minCosine float64
		want      int
	}{
		{math.NaN(), 256},
		{-2, 256},
		{-1, 256},
		{0, 184}, // 128 + 6*8 + 8
		{0.5, 139},
		{0.95, 63},
		{1, 8},
		{2, 8},
	}
	for _, tt := range tests {
		if got := MaxHamming(tt.minCosine); got != tt.want {
			t.Errorf("MaxHamming(%v) = %d, want %d", tt.minCosine, got, tt.want)
		}
	}
	for c := -1.0; c < 1; c += 0.01 {
		if MaxHamming(c) < MaxHamming(c+0.01) {
			t.Fatalf("MaxHamming not decreasing at %v", c)
		}
	}
}
