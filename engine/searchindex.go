package engine

import (
	"container/heap"
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/memgov/memgov/engine/similar"
)

// The search index is what Search ranks with: for one memoryRef, every
// ACTIVE and SUPERSEDED version (newest first, up to MaxSearchIndex) with
// its validity interval, an inverted index of its words for Okapi BM25, an
// inverted index of its embedding's buckets for the cosine (each bucket
// weighted by its idf in the ref, so rare n-grams weigh more), the words of
// its key, tags, subject, predicate and object, and its normalised text.
// It is built from the store in the read transaction of a search and kept
// while the memoryRef's search stamp (ReadTx.SearchStamp: the last log entry
// of the ref, or a later erasure) is unchanged, so a search over an
// unchanged ref reads one row and ranks in memory. Expiry, the reader's
// visibility, tags and validity at the asked time are checked per query.

// MaxSearchIndex caps the versions of one memoryRef a search considers
// (the newest). At 10,000 entries the index holds about 20 MB.
const MaxSearchIndex = 100_000

// BM25 parameters (Robertson and Zaragoza's usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// listDepth is how deep each ranked list of the fusion goes: a version
// below this rank in every list is not a result.
const listDepth = 200

type searchDoc struct {
	v         Version
	validAt   time.Time
	invalidAt *time.Time
	norm      float64 // the idf-weighted embedding's length
	words     int     // keyword tokens in the text
	text      string  // normalised text, for the exact match
}

type wordPosting struct {
	doc int32
	tf  uint16
}

type bucketPosting struct {
	doc int32
	val float32
}

type searchIndex struct {
	ref       string
	stamp     int64
	docs      []searchDoc
	words     map[string][]wordPosting   // keyword term -> documents
	buckets   map[uint32][]bucketPosting // embedding bucket -> documents
	structure map[string][]int32         // key, tag, subject, predicate, object word -> documents
	exact     map[string][]int32         // normalised text -> documents
	avgWords  float64
}

// searchCache keeps the search index of the memoryRefs searched last.
type searchCache struct {
	mu   sync.Mutex
	refs map[string]*searchIndex
	lru  []string
}

// searchCacheRefs is how many memoryRefs' indexes stay in memory.
const searchCacheRefs = 8

func (c *searchCache) get(ref string, stamp int64) *searchIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x := c.refs[ref]; x != nil && x.stamp == stamp {
		return x
	}
	return nil
}

func (c *searchCache) put(x *searchIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refs == nil {
		c.refs = map[string]*searchIndex{}
	}
	if _, ok := c.refs[x.ref]; !ok {
		c.lru = append(c.lru, x.ref)
		if len(c.lru) > searchCacheRefs {
			delete(c.refs, c.lru[0])
			c.lru = c.lru[1:]
		}
	}
	c.refs[x.ref] = x
}

// searchIndexOf returns ref's search index as of tx, from the cache when
// the ref has not changed since it was built.
func (e *Engine) searchIndexOf(ctx context.Context, tx ReadTx, ref string) (*searchIndex, error) {
	stamp, err := tx.SearchStamp(ctx, ref)
	if err != nil {
		return nil, err
	}
	if x := e.searches.get(ref, stamp); x != nil {
		return x, nil
	}
	cands, err := tx.IndexedVersions(ctx, ref, true, MaxSearchIndex)
	if err != nil {
		return nil, err
	}
	x := &searchIndex{ref: ref, stamp: stamp, words: map[string][]wordPosting{}, buckets: map[uint32][]bucketPosting{},
		structure: map[string][]int32{}, exact: map[string][]int32{}}
	total := 0
	for _, c := range cands {
		v := c.Version
		if Reserved(v.Key) {
			continue
		}
		validAt, invalidAt, err := validity(ctx, tx, v)
		if err != nil {
			return nil, err
		}
		vec, err := similar.UnmarshalVector(c.Embedding)
		if err != nil || c.Embedding == nil {
			vec = FeaturesOf(v.Content).Embedding
		}
		text := searchText(v)
		d := int32(len(x.docs))
		doc := searchDoc{v: v, validAt: validAt, invalidAt: invalidAt, text: similar.Normalize(text)}
		tf := map[string]int{}
		for _, t := range keywordTerms(text) {
			tf[t]++
			doc.words++
		}
		for t, n := range tf {
			x.words[t] = append(x.words[t], wordPosting{doc: d, tf: uint16(min(n, math.MaxUint16))})
		}
		total += doc.words
		for k, i := range vec.Idx {
			if k >= len(vec.Val) {
				break
			}
			x.buckets[i] = append(x.buckets[i], bucketPosting{doc: d, val: vec.Val[k]})
		}
		for w := range structureWords(v) {
			x.structure[w] = append(x.structure[w], d)
		}
		if doc.text != "" {
			x.exact[doc.text] = append(x.exact[doc.text], d)
		}
		x.docs = append(x.docs, doc)
	}
	if len(x.docs) > 0 {
		x.avgWords = float64(total) / float64(len(x.docs))
	}
	// Each bucket weighs its idf in the ref (a rare n-gram tells more than a
	// common one), folded into the postings; the norms follow.
	n2 := make([]float64, len(x.docs))
	for _, ps := range x.buckets {
		w := math.Log(1 + float64(len(x.docs))/float64(len(ps)))
		for i := range ps {
			ps[i].val *= float32(w)
			n2[ps[i].doc] += float64(ps[i].val) * float64(ps[i].val)
		}
	}
	for d := range x.docs {
		x.docs[d].norm = math.Sqrt(n2[d])
	}
	e.searches.put(x)
	return x, nil
}

// searchText is the text a version is searched by: content.text, or the
// string values of its content when it has none.
func searchText(v Version) string {
	if t := v.Text(); t != "" {
		return t
	}
	var m map[string]any
	if json.Unmarshal(v.Content, &m) != nil {
		return ""
	}
	var parts []string
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case string:
			parts = append(parts, y)
		case []any:
			for _, z := range y {
				walk(z)
			}
		case map[string]any:
			for _, k := range sortedKeys(y) {
				walk(y[k])
			}
		}
	}
	walk(m)
	return strings.Join(parts, " ")
}

// keywordTerms are the keyword tokens of text: runs of letters and digits,
// lower-cased, a plural folded ("zones" is "zone", "cities" is "city").
// Common words stay: BM25's idf gives them almost no weight.
func keywordTerms(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, foldPlural(w))
	}
	return out
}

func foldPlural(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		return w[:n-1]
	}
	return w
}

// structureWords are the words of a version's key, tags and content
// subject, predicate and object.
func structureWords(v Version) map[string]bool {
	var c struct {
		Subject   any `json:"subject"`
		Predicate any `json:"predicate"`
		Object    any `json:"object"`
	}
	_ = json.Unmarshal(v.Content, &c)
	words := map[string]bool{}
	add := func(s string) {
		for _, t := range Tokens(strings.ToLower(s)) {
			if wordToken(t) {
				words[t] = true
			}
		}
	}
	add(v.Key)
	for _, t := range v.Tags {
		add(t)
	}
	for _, f := range []any{c.Subject, c.Predicate, c.Object} {
		if s, ok := f.(string); ok {
			add(s)
		}
	}
	return words
}

// scores are one query's per-document signals over an index.
type scores struct {
	keyword   []float64
	cosine    []float64
	structure []int
	exact     map[int32]bool
}

// score computes the query's BM25, cosine and structure match of every
// document of the index; only documents sharing a word, a bucket or a
// structure word with the query are touched.
func (x *searchIndex) score(query string) scores {
	n := len(x.docs)
	s := scores{keyword: make([]float64, n), cosine: make([]float64, n), structure: make([]int, n), exact: map[int32]bool{}}
	seen := map[string]bool{}
	for _, t := range keywordTerms(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := x.words[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			dl := float64(x.docs[p.doc].words)
			s.keyword[p.doc] += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*dl/max(x.avgWords, 1)))
		}
	}
	qv := similar.Embed(query)
	var qn float64
	for k, i := range qv.Idx {
		q := float64(qv.Val[k])
		q *= math.Log(1 + float64(n)/float64(max(1, len(x.buckets[i]))))
		qn += q * q
		for _, p := range x.buckets[i] {
			s.cosine[p.doc] += q * float64(p.val)
		}
	}
	qn = math.Sqrt(qn)
	for d := range s.cosine {
		if s.cosine[d] != 0 {
			if qn == 0 || x.docs[d].norm == 0 {
				s.cosine[d] = 0
			} else {
				s.cosine[d] = max(0, min(1, s.cosine[d]/(qn*x.docs[d].norm)))
			}
		}
	}
	for _, t := range queryTerms(query) {
		for _, d := range x.structure[t] {
			s.structure[d]++
		}
	}
	if norm := similar.Normalize(query); norm != "" {
		for _, d := range x.exact[norm] {
			s.exact[d] = true
		}
	}
	return s
}

// top returns the documents with a positive score, best first (ties by
// newer first), at most depth, skipping those ok refuses. ok is asked only
// of documents that could enter the list.
func (x *searchIndex) top(score func(int32) float64, ok func(int32) bool, depth int) []int32 {
	h := &docHeap{x: x, score: score}
	for d := range x.docs {
		id := int32(d)
		sc := score(id)
		if sc <= 0 {
			continue
		}
		if h.Len() == depth && !h.better(id, h.ids[0]) {
			continue
		}
		if !ok(id) {
			continue
		}
		if h.Len() == depth {
			h.ids[0] = id
			heap.Fix(h, 0)
		} else {
			heap.Push(h, id)
		}
	}
	out := make([]int32, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(int32)
	}
	return out
}

// docHeap is a min-heap of documents by score (the worst on top).
type docHeap struct {
	x     *searchIndex
	score func(int32) float64
	ids   []int32
}

// better orders by score, then the newer version, then the version id.
func (h *docHeap) better(a, b int32) bool {
	sa, sb := h.score(a), h.score(b)
	if sa != sb {
		return sa > sb
	}
	va, vb := h.x.docs[a].v, h.x.docs[b].v
	if va.CreatedLSN != vb.CreatedLSN {
		return va.CreatedLSN > vb.CreatedLSN
	}
	return va.ID < vb.ID
}

func (h *docHeap) Len() int           { return len(h.ids) }
func (h *docHeap) Less(i, j int) bool { return h.better(h.ids[j], h.ids[i]) }
func (h *docHeap) Swap(i, j int)      { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *docHeap) Push(v any)         { h.ids = append(h.ids, v.(int32)) }
func (h *docHeap) Pop() any {
	v := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return v
}
