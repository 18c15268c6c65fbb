package host

import (
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/memory"
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
// of the ref and the last erasure) is unchanged, so a search over an
// unchanged ref reads two rows and ranks in memory. After a write the index
// is caught up in place (the changed items' versions are read again,
// ReadTx.SearchChanges) and ranks exactly as one built afresh; an erasure,
// or a change to more than an eighth of the ref, rebuilds it. Expiry, the
// reader's visibility, tags and validity at the asked time are checked per
// query.

// MaxSearchIndex caps the versions of one memoryRef a search considers
// (the newest). At 10,000 short entries the index holds about 50 MB
// (BenchmarkSearch10k, index_MB).
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
	v         memgov.Version
	validAt   time.Time
	invalidAt *time.Time
	bids      []int32   // the embedding's buckets (dense ids of searchIndex.bucketOf)
	vals      []float32 // and their values
	norm      float64   // the idf-weighted embedding's length
	words     int       // keyword tokens in the text
	terms     []string  // its distinct keyword terms
	structs   []string  // its distinct structure words
	text      string    // normalised text, for the exact match
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
	mu        sync.RWMutex                                   // searches read-lock it; catchUp write-locks it
	features  func(json.RawMessage) (memory.Features, error) // the engine's indexer, for a version stored without a vector
	ref       string
	stamp     memgov.SearchStamp
	docs      []searchDoc
	dead      []bool             // documents of items changed since they were indexed
	deadCount int                //
	live      int                // documents not dead
	liveWords int                // keyword tokens of the live documents
	byItem    map[string][]int32 // item -> its documents
	// Document frequencies count live documents only, kept as documents
	// are added and dropped, so that a caught-up index ranks exactly as one
	// built afresh.
	wordDF    map[string]int32         // live documents holding a word
	bucketDF  []int32                  // live documents holding a bucket, by dense id
	structDF  map[string]int32         // live documents holding a structure word
	words     map[string][]wordPosting // keyword term -> documents
	bucketOf  map[uint32]int32         // embedding bucket -> dense id
	buckets   [][]bucketPosting        // dense bucket id -> documents
	structure map[string][]int32       // key, tag, subject, predicate, object word -> documents
	exact     map[string][]int32       // normalised text -> documents
}

// searchCache keeps the search index of the memoryRefs searched last.
type searchCache struct {
	mu   sync.Mutex
	refs map[string]*searchIndex
	lru  []string
	// builds and catchUps count full builds and in-place updates.
	builds, catchUps atomic.Int64
	// erased is the last erasure's LSN this cache has seen (SearchStamp):
	// an erasure by another process on the same database is noticed at the
	// next search, which drops every index and the judge's cached texts.
	erased int64
}

// sawErasure records the last erasure of the store as a search read it, and
// reports whether it is newer than the last one seen; then every index is
// dropped (those of other refs may hold the erased texts).
func (c *searchCache) sawErasure(lsn int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if lsn <= c.erased {
		return false
	}
	c.erased = lsn
	c.refs, c.lru = nil, nil
	return true
}

// ForgetSearches drops every search index: an erasure calls it, by this
// process or another, so that no erased text stays in the process's memory
// until a ref is next searched.
func (s *Service) ForgetSearches() { s.searches.forget() }

func (c *searchCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs, c.lru = nil, nil
}

// SearchCacheStats is what the search cache holds and has done.
type SearchCacheStats struct {
	Refs     int   // memoryRefs whose search index is in memory
	Builds   int64 // indexes built in full
	CatchUps int64 // indexes brought up to date in place after a write
}

// SearchCacheStats reports the search cache's memoryRefs and its builds.
func (s *Service) SearchCacheStats() SearchCacheStats {
	c := s.searches
	c.mu.Lock()
	defer c.mu.Unlock()
	return SearchCacheStats{Refs: len(c.refs), Builds: c.builds.Load(), CatchUps: c.catchUps.Load()}
}

// searchCacheRefs is how many memoryRefs' indexes stay in memory.
const searchCacheRefs = 8

func (c *searchCache) get(ref string) *searchIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refs[ref]
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

// searchIndexOf returns ref's search index as of tx: from the cache when
// the ref has not changed since, brought up to date in place when only a few
// of its items changed (no erasure since), else built anew. The index is
// returned read-locked; the caller unlocks it (RUnlock) when done ranking.
func (s *Service) searchIndexOf(ctx context.Context, tx memgov.ReadTx, ref string) (*searchIndex, error) {
	s.index.ListenErasures()
	stamp, err := tx.SearchStamp(ctx, ref)
	if err != nil {
		return nil, err
	}
	if s.searches.sawErasure(stamp.Erased) {
		// An erasure since the last search, by this process or another:
		// the words of the erased texts must not outlive them here.
		s.index.ForgetTexts()
	}
	x := s.searches.get(ref)
	if x != nil {
		x.mu.RLock()
		if x.stamp == stamp {
			return x, nil
		}
		x.mu.RUnlock()
		x.mu.Lock()
		ok, err := x.catchUp(ctx, tx, stamp)
		if err != nil {
			x.mu.Unlock()
			return nil, err
		}
		x.mu.Unlock()
		if ok {
			s.searches.catchUps.Add(1)
			x.mu.RLock()
			return x, nil
		}
	}
	cands, err := tx.IndexedVersions(ctx, ref, true, MaxSearchIndex)
	if err != nil {
		return nil, err
	}
	x = newSearchIndex(ref, stamp, s.index.Features)
	for _, c := range cands {
		if err := x.add(ctx, tx, c); err != nil {
			return nil, err
		}
	}
	x.stats()
	s.searches.builds.Add(1)
	s.searches.put(x)
	x.mu.RLock()
	return x, nil
}

func newSearchIndex(ref string, stamp memgov.SearchStamp, features func(json.RawMessage) (memory.Features, error)) *searchIndex {
	return &searchIndex{ref: ref, stamp: stamp, features: features, byItem: map[string][]int32{}, words: map[string][]wordPosting{}, wordDF: map[string]int32{},
		bucketOf: map[uint32]int32{}, structure: map[string][]int32{}, structDF: map[string]int32{}, exact: map[string][]int32{}}
}

// catchUp brings the index from its stamp to stamp when no erasure happened
// in between and the change is small: every version of each item touched
// since is dropped and its ACTIVE and SUPERSEDED versions added again. It
// reports false when the index should be built anew instead. Postings of
// dropped versions stay, marked dead (the frequencies leave them out), until
// the next full build, which happens once a quarter of the documents are
// dead.
func (x *searchIndex) catchUp(ctx context.Context, tx memgov.ReadTx, stamp memgov.SearchStamp) (bool, error) {
	if x.stamp == stamp {
		return true, nil
	}
	if stamp.Erased != x.stamp.Erased || stamp.Ref < x.stamp.Ref {
		return false, nil
	}
	items, cands, err := tx.SearchChanges(ctx, x.ref, x.stamp.Ref, MaxSearchIndex)
	if err != nil {
		return false, err
	}
	if len(items) > len(x.docs)/8+64 || x.deadCount+len(items) > len(x.docs)/4+64 {
		return false, nil
	}
	for _, it := range items {
		for _, d := range x.byItem[it] {
			x.drop(d)
		}
		delete(x.byItem, it)
	}
	for _, c := range cands {
		if err := x.add(ctx, tx, c); err != nil {
			return false, err
		}
	}
	x.stats()
	x.stamp = stamp
	return true, nil
}

// add indexes one version (reserved keys aside).
func (x *searchIndex) add(ctx context.Context, tx memgov.ReadTx, c memgov.IndexedVersion) error {
	v := c.Version
	if memgov.Reserved(v.Key) || v.State != memgov.Active && v.State != memgov.Superseded {
		return nil
	}
	validAt, invalidAt, err := validity(ctx, tx, v)
	if err != nil {
		return err
	}
	vec, err := similar.UnmarshalVector(c.Embedding)
	if err != nil || c.Embedding == nil {
		f, err := x.features(v.Content)
		if err != nil {
			return fmt.Errorf("search index: version %s: %w", v.ID, err)
		}
		vec = f.Embedding
	}
	text := searchText(v)
	d := int32(len(x.docs))
	if len(vec.Val) < len(vec.Idx) {
		vec.Idx = vec.Idx[:len(vec.Val)]
	}
	doc := searchDoc{v: v, validAt: validAt, invalidAt: invalidAt, text: similar.Normalize(text), vals: vec.Val, bids: make([]int32, len(vec.Idx))}
	tf := map[string]int{}
	for _, t := range keywordTerms(text) {
		tf[t]++
		doc.words++
	}
	for _, t := range sortedKeys(tf) {
		x.words[t] = append(x.words[t], wordPosting{doc: d, tf: uint16(min(tf[t], math.MaxUint16))})
		x.wordDF[t]++
		doc.terms = append(doc.terms, t)
	}
	x.liveWords += doc.words
	for k, i := range vec.Idx {
		b, ok := x.bucketOf[i]
		if !ok {
			b = int32(len(x.buckets))
			x.bucketOf[i] = b
			x.buckets = append(x.buckets, nil)
			x.bucketDF = append(x.bucketDF, 0)
		}
		x.buckets[b] = append(x.buckets[b], bucketPosting{doc: d, val: vec.Val[k]})
		x.bucketDF[b]++
		doc.bids[k] = b
	}
	structure, err := structureWords(v)
	if err != nil {
		return err
	}
	for _, w := range sortedKeys(structure) {
		x.structure[w] = append(x.structure[w], d)
		x.structDF[w]++
		doc.structs = append(doc.structs, w)
	}
	if doc.text != "" {
		x.exact[doc.text] = append(x.exact[doc.text], d)
	}
	x.docs = append(x.docs, doc)
	x.dead = append(x.dead, false)
	x.byItem[v.ItemID] = append(x.byItem[v.ItemID], d)
	x.live++
	return nil
}

// drop marks document d dead and takes it out of the frequencies.
func (x *searchIndex) drop(d int32) {
	if x.dead[d] {
		return
	}
	x.dead[d] = true
	x.deadCount++
	x.live--
	doc := &x.docs[d]
	x.liveWords -= doc.words
	for _, t := range doc.terms {
		x.wordDF[t]--
	}
	for _, b := range doc.bids {
		x.bucketDF[b]--
	}
	for _, w := range doc.structs {
		x.structDF[w]--
	}
}

// stats computes every live document's idf-weighted embedding length: each
// bucket weighs its idf in the ref (a rare n-gram tells more than a common
// one). The weights change with every document added or dropped, so the
// lengths are all computed again (one pass over the documents' buckets, in
// each document's order: the result does not depend on map order).
func (x *searchIndex) stats() {
	w := make([]float64, len(x.bucketDF))
	for b, df := range x.bucketDF {
		w[b] = x.idf(int(df))
	}
	for d := range x.docs {
		if x.dead[d] {
			continue
		}
		doc := &x.docs[d]
		var n2 float64
		for k, b := range doc.bids {
			f := float64(doc.vals[k]) * w[b]
			n2 += f * f
		}
		doc.norm = math.Sqrt(n2)
	}
}

// idf is the weight of an embedding bucket held by df live documents.
func (x *searchIndex) idf(df int) float64 {
	return math.Log(1 + float64(x.live)/float64(max(df, 1)))
}

// searchText is the text a version is searched by: content.text, or the
// string values of its content when it has none.
func searchText(v memgov.Version) string {
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
func structureWords(v memgov.Version) (map[string]bool, error) {
	var c struct {
		Subject   any `json:"subject"`
		Predicate any `json:"predicate"`
		Object    any `json:"object"`
	}
	if err := v.DecodeContent(&c); err != nil {
		return nil, err
	}
	words := map[string]bool{}
	add := func(s string) {
		for _, t := range Tokens(strings.ToLower(s)) {
			if WordToken(t) {
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
	return words, nil
}

// scores are one query's per-document signals over an index.
type scores struct {
	keyword   []float64
	cosine    []float64
	structure []int     // query words found in the structure fields
	structIDF []float64 // their idf sum
	exact     map[int32]bool
}

// score computes the query's BM25, cosine and structure match of every
// document of the index; only documents sharing a word, a bucket or a
// structure word with the query are touched.
func (x *searchIndex) score(query string) scores {
	n := len(x.docs)
	live := float64(max(x.live, 1))
	avgWords := max(float64(x.liveWords)/live, 1)
	s := scores{keyword: make([]float64, n), cosine: make([]float64, n), structure: make([]int, n), structIDF: make([]float64, n), exact: map[int32]bool{}}
	seen := map[string]bool{}
	for _, t := range keywordTerms(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := x.words[t]
		df := float64(x.wordDF[t])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (live-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			dl := float64(x.docs[p.doc].words)
			s.keyword[p.doc] += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*dl/avgWords))
		}
	}
	qv := similar.Embed(query)
	var qn float64
	for k, i := range qv.Idx {
		b, ok := x.bucketOf[i]
		if !ok {
			// A bucket no document holds still counts in the query's length.
			q := float64(qv.Val[k]) * x.idf(0)
			qn += q * q
			continue
		}
		ps := x.buckets[b]
		w := x.idf(int(x.bucketDF[b]))
		q := float64(qv.Val[k]) * w
		qn += q * q
		for _, p := range ps {
			s.cosine[p.doc] += q * float64(p.val) * w
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
		df := float64(x.structDF[t])
		idf := math.Log(1 + (live-df+0.5)/(df+0.5))
		for _, d := range x.structure[t] {
			s.structure[d]++
			s.structIDF[d] += idf
		}
	}
	if norm := similar.Normalize(query); norm != "" {
		for _, d := range x.exact[norm] {
			s.exact[d] = true
		}
	}
	return s
}

// top returns the documents with a positive score, best first, at most
// depth, skipping those ok refuses (ok is asked only of documents that could
// enter the list), with each one's rank: documents of equal score share the
// best rank of their group (1, 2, 2, 4), since the list cannot order them.
// A group of equal scores that the depth would cut is left out whole (which
// of its documents made the list would be arbitrary), unless it is the whole
// list: then its newest documents stay.
func (x *searchIndex) top(score func(int32) float64, ok func(int32) bool, depth int) ([]int32, []int) {
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
	if len(out) == depth && depth > 0 {
		last := score(out[depth-1])
		in, all := 0, 0
		for _, d := range out {
			if score(d) == last {
				in++
			}
		}
		for d := range x.docs {
			if !x.dead[d] && score(int32(d)) == last {
				all++
			}
		}
		if all > in && in < len(out) {
			out = out[:depth-in]
		}
	}
	ranks := make([]int, len(out))
	for i, d := range out {
		ranks[i] = i + 1
		if i > 0 && score(d) == score(out[i-1]) {
			ranks[i] = ranks[i-1]
		}
	}
	return out, ranks
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

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
