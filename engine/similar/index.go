package similar

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// A Match is an indexed item and its cosine similarity to a query.
type Match struct {
	ID     uint64
	Cosine float64
}

// A BandIndex finds near-duplicates in memory: candidates are the items that share
// at least one SimHash band with the query; those whose whole SimHash is
// implausibly far from the query's for the cosine asked (see [MaxHamming]) are
// dropped, and the rest are confirmed by exact cosine. It is the
// in-memory form of the lookup the SQLite store does with indexed band columns.
// The zero BandIndex is empty and ready to use; it is safe for concurrent use and
// must not be copied after first use.
type BandIndex struct {
	mu    sync.RWMutex
	ids   []uint64
	vecs  []Vector
	norms []float64            // squared lengths of vecs
	sigs  []SimHash            // SimHashes of vecs
	bands [NumBands][][]uint32 // bands[k][band value] lists item positions
}

// Add indexes v under id. The index keeps v, so v must not be modified after
// Add. Ids are not checked for uniqueness.
func (x *BandIndex) Add(id uint64, v Vector) {
	sig, n := Sign(v), norm2(v)
	b := sig.Bands()
	x.mu.Lock()
	defer x.mu.Unlock()
	pos := uint32(len(x.ids))
	x.ids = append(x.ids, id)
	x.vecs = append(x.vecs, v)
	x.norms = append(x.norms, n)
	x.sigs = append(x.sigs, sig)
	for k, bv := range b {
		if x.bands[k] == nil {
			x.bands[k] = make([][]uint32, 1<<16)
		}
		x.bands[k][bv] = append(x.bands[k][bv], pos)
	}
}

// Len returns the number of indexed items.
func (x *BandIndex) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// Query returns the indexed items that share a SimHash band with v and have
// cosine >= minCosine to it, by descending cosine (ties by ascending id), at most
// limit of them; limit <= 0 means no limit.
func (x *BandIndex) Query(v Vector, minCosine float64, limit int) []Match {
	m, _, _ := x.query(v, minCosine, limit)
	return m
}

// query is Query that also returns the number of band candidates (with
// repeats) and of distinct candidates whose cosine it computed.
func (x *BandIndex) query(v Vector, minCosine float64, limit int) (ms []Match, cands, checked int) {
	sig, n := Sign(v), norm2(v)
	maxHam := MaxHamming(minCosine)
	x.mu.RLock()
	defer x.mu.RUnlock()
	var keep []uint32
	for k, bv := range sig.Bands() {
		if x.bands[k] == nil {
			continue
		}
		for _, p := range x.bands[k][bv] {
			cands++
			if Hamming(sig, x.sigs[p]) <= maxHam {
				keep = append(keep, p)
			}
		}
	}
	slices.Sort(keep)
	keep = slices.Compact(keep)
	for _, p := range keep {
		if c := cosine(v, x.vecs[p], n, x.norms[p]); c >= minCosine {
			ms = append(ms, Match{ID: x.ids[p], Cosine: c})
		}
	}
	return top(ms, limit), cands, len(keep)
}

// MaxHamming returns the largest Hamming distance between the SimHashes of two
// vectors that [BandIndex.Query] treats as possibly having cosine >= minCosine:
// the expected distance 256*arccos(minCosine)/pi plus six binomial standard
// deviations and 8 bits, so a pair at the threshold is dropped with probability
// below 1e-9. The SQLite store applies the same bound to its band candidates.
func MaxHamming(minCosine float64) int {
	if !(minCosine > -1) { // also NaN
		return 256
	}
	p := math.Acos(min(1, minCosine)) / math.Pi
	d := 256*p + 6*math.Sqrt(256*p*(1-p)) + 8
	return int(min(256, math.Ceil(d)))
}

// BruteForce returns what Query would return if every item were a candidate: the
// exact answer that Query approximates, for measuring its recall.
func (x *BandIndex) BruteForce(v Vector, minCosine float64, limit int) []Match {
	n := norm2(v)
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []Match
	for p, w := range x.vecs {
		if c := cosine(v, w, n, x.norms[p]); c >= minCosine {
			out = append(out, Match{ID: x.ids[p], Cosine: c})
		}
	}
	return top(out, limit)
}

// top sorts ms by descending cosine, then ascending id, and keeps at most limit.
func top(ms []Match, limit int) []Match {
	slices.SortFunc(ms, func(a, b Match) int {
		if c := cmp.Compare(b.Cosine, a.Cosine); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if limit > 0 && len(ms) > limit {
		ms = ms[:limit]
	}
	return ms
}
