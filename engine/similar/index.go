package similar

import (
	"cmp"
	"slices"
	"sync"
)

// A Match is an indexed item and its cosine similarity to a query.
type Match struct {
	ID     uint64
	Cosine float64
}

// A BandIndex finds near-duplicates in memory: candidates are the items that share
// at least one SimHash band with the query, confirmed by exact cosine. It is the
// in-memory form of the lookup the SQLite store does with indexed band columns.
// The zero BandIndex is empty and ready to use; it is safe for concurrent use.
type BandIndex struct {
	mu    sync.RWMutex
	ids   []uint64
	vecs  []Vector
	bands [NumBands][][]uint32 // bands[k][band value] lists item positions
}

// Add indexes v under id. The index keeps v, so v must not be modified after
// Add. Ids are not checked for uniqueness.
func (x *BandIndex) Add(id uint64, v Vector) {
	b := Sign(v).Bands()
	x.mu.Lock()
	defer x.mu.Unlock()
	pos := uint32(len(x.ids))
	x.ids = append(x.ids, id)
	x.vecs = append(x.vecs, v)
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
	m, _ := x.query(v, minCosine, limit)
	return m
}

// query is Query that also returns the number of distinct candidates.
func (x *BandIndex) query(v Vector, minCosine float64, limit int) ([]Match, int) {
	b := Sign(v).Bands()
	x.mu.RLock()
	defer x.mu.RUnlock()
	var cand []uint32
	for k, bv := range b {
		if x.bands[k] != nil {
			cand = append(cand, x.bands[k][bv]...)
		}
	}
	slices.Sort(cand)
	cand = slices.Compact(cand)
	var out []Match
	for _, p := range cand {
		if c := Cosine(v, x.vecs[p]); c >= minCosine {
			out = append(out, Match{ID: x.ids[p], Cosine: c})
		}
	}
	return top(out, limit), len(cand)
}

// BruteForce returns what Query would return if every item were a candidate: the
// exact answer that Query approximates, for measuring its recall.
func (x *BandIndex) BruteForce(v Vector, minCosine float64, limit int) []Match {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []Match
	for p, w := range x.vecs {
		if c := Cosine(v, w); c >= minCosine {
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
