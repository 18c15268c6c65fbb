package similar

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const sentence30 = "Alice from the platform team said on Monday that the nightly billing export should move to the new Postgres cluster in Berlin before the end of March this year"

func BenchmarkEmbed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Embed(sentence30)
	}
}

func BenchmarkSign(b *testing.B) {
	v := Embed(sentence30)
	for b.Loop() {
		Sign(v)
	}
	b.ReportMetric(float64(len(v.Idx)), "nnz")
}

func BenchmarkCosine(b *testing.B) {
	v := Embed(sentence30)
	for _, bb := range []struct {
		name string
		w    Vector
	}{
		{"similar", Embed(sentence30 + " and keep backups")},
		{"unrelated", Embed("The deployment pipeline for the billing service runs integration tests against a staging database every night before the release")},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				Cosine(v, bb.w)
			}
		})
	}
}

// benchIndex is the 1,000,000-item index of BenchmarkBandQuery, built once.
var benchIndex struct {
	once    sync.Once
	x       *BandIndex
	queries []Vector
}

func BenchmarkBandQuery(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 1,000,000-item index")
	}
	const items, nq = 1_000_000, 2000
	benchIndex.once.Do(func() {
		start := time.Now()
		x := new(BandIndex)
		r := newRand(42)
		texts := make(chan string, 1024)
		var wg sync.WaitGroup
		var next atomic.Uint64
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for s := range texts {
					x.Add(next.Add(1), Embed(s))
				}
			})
		}
		var queries []Vector
		for i := range items {
			s := sentence(r)
			texts <- s
			if i%(items/nq) == 0 {
				queries = append(queries, Embed(nearDuplicate(r, s, 1)))
			}
		}
		close(texts)
		wg.Wait()
		benchIndex.x, benchIndex.queries = x, queries
		b.Logf("built %d items in %v", x.Len(), time.Since(start))
	})
	x, queries := benchIndex.x, benchIndex.queries
	var lat []time.Duration
	var cand, checked, hits int
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		t := time.Now()
		m, c, k := x.query(q, 0.95, 10)
		lat = append(lat, time.Since(t))
		cand += c
		checked += k
		hits += len(m)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns/query")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns/query")
	b.ReportMetric(float64(cand)/float64(i), "candidates/query")
	b.ReportMetric(float64(checked)/float64(i), "cosines/query")
	b.ReportMetric(float64(hits)/float64(i), "matches/query")
}
