package host

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Search limits.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 100
)

// SearchQuery is a hybrid retrieval query over one memoryRef.
type SearchQuery struct {
	MemoryRef string
	Query     string
	Tags      []string // entries must carry every tag; each also counts as a structure match
	Limit     int      // 0: DefaultSearchLimit
	// AsOf returns the facts valid at that time (valid_at <= AsOf <
	// invalid_at), superseded ones included. Zero: now.
	AsOf time.Time
	// IncludeSuperseded also returns facts that are no longer valid.
	IncludeSuperseded bool
}

// SearchHit is one ranked result.
type SearchHit struct {
	Entry      Entry        `json:"entry"`
	VersionID  string       `json:"version_id"`
	State      memgov.State `json:"state"`
	Score      float64      `json:"score"`
	RRF        float64      `json:"rrf"`
	Provenance float64      `json:"provenance"`
	Ranks      policy.Ranks `json:"ranks"`
	Cosine     float64      `json:"cosine"`
	Structure  int          `json:"structure"`
	// Keyword is the Okapi BM25 of the query's words in the entry's text.
	Keyword float64 `json:"keyword"`
	// Exact is set when the query is the entry's text (case, spacing and
	// typographic variants aside): such an entry ranks first.
	Exact     bool   `json:"exact,omitempty"`
	ValidAt   string `json:"valid_at"`
	InvalidAt string `json:"invalid_at,omitempty"`
}

// Search ranks the entries of a memoryRef the principal may read by hybrid
// reciprocal rank fusion (spec §13.5, k = policy rrf_k, 60 by default) of
// ranked lists, each weighted by the policy's signal weights: keyword
// relevance (Okapi BM25 of the query's words in the entry's text: every
// entry holding a query word is in the list, and rare words weigh more),
// semantic similarity (cosine of the stored embeddings), structure match
// (query words found in the key, tags or the subject/predicate/object of the
// content, plus the asked tags) and recency (weight 0 by default: among equal
// scores the newer entry ranks first, so recency breaks ties rather than
// outvoting the text). The cosine weighs each embedding bucket by its idf
// in the ref. Each list goes listDepth (200) deep; there is no similarity
// cut-off. The fused score is weighted by provenance:
// score = RRF x (0.5 + 0.5 U) where U is the spec §12.4.6 utility over
// relevance (the mean of the cosine and the BM25 relative to the best
// candidate's), confidence, freshness (1/(1 + age/30 days)) and
// authority (the version's validation score, which folds in its evidence).
// An entry whose text is the query itself ranks first.
//
// Semantic facts carry temporal validity: valid_at is content.valid_at or the
// version's creation; invalid_at is content.invalid_at or the time it stopped
// being ACTIVE (superseded). Facts not valid now are left out unless AsOf or
// IncludeSuperseded ask for them. Expired entries (TTL) never surface,
// retracted, draft and quarantined ones neither. Reserved keys (the
// distillation index and archives) are not searched. A malformed ref or one
// of another tenant returns []. The ranking runs over the ref's search index
// (searchindex.go), kept in memory while the ref is unchanged. The
// reader's visibility is authz's (Visible), checked per entry.
//
// The read is recorded as a retrieval (SearchRead): each hit's entry carries
// the retrieval id and its read note.
func (a *MemoryAdapter) Search(ctx context.Context, q SearchQuery) ([]SearchHit, error) {
	hits, _, err := a.SearchRead(ctx, q)
	return hits, err
}

// SearchRead is Search that also returns the retrieval id ("" when nothing
// was found).
func (a *MemoryAdapter) SearchRead(ctx context.Context, q SearchQuery) ([]SearchHit, string, error) {
	hits, vs, err := a.search(ctx, q)
	if err != nil || len(hits) == 0 {
		return hits, "", err
	}
	r, err := a.retrieve(ctx, q.MemoryRef, vs)
	if err != nil {
		return []SearchHit{}, "", hideErr(err)
	}
	for i := range hits {
		hits[i].Entry.annotate(r.ID, r.Notes[i])
	}
	return hits, r.ID, nil
}

// search ranks and returns the hits with the version of each.
func (a *MemoryAdapter) search(ctx context.Context, q SearchQuery) ([]SearchHit, []memgov.Version, error) {
	hits := []SearchHit{}
	var found []memgov.Version
	if strings.TrimSpace(q.Query) == "" && len(q.Tags) == 0 {
		return hits, nil, fmt.Errorf("%w: search needs a query or a tag", memgov.ErrInvalid)
	}
	if q.Limit < 0 || q.Limit > MaxSearchLimit {
		return hits, nil, fmt.Errorf("%w: limit must be between 0 and %d", memgov.ErrInvalid, MaxSearchLimit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultSearchLimit
	}
	s := a.s
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		rd, ok, err := a.resolve(ctx, tx, q.MemoryRef)
		if err != nil || !ok {
			return err
		}
		vis := func(v memgov.Version) bool { return s.authz.Visible(rd, v) == nil }
		hits, found, err = s.rank(ctx, tx, q, vis)
		return err
	})
	if err != nil {
		return []SearchHit{}, nil, hideErr(err)
	}
	return hits, found, nil
}

// rank ranks the eligible versions of q.MemoryRef for q; visible, when
// set, says which versions the reader may see.
func (s *Service) rank(ctx context.Context, tx memgov.ReadTx, q SearchQuery, visible func(memgov.Version) bool) ([]SearchHit, []memgov.Version, error) {
	x, err := s.searchIndexOf(ctx, tx, q.MemoryRef)
	if err != nil {
		return nil, nil, err
	}
	defer x.mu.RUnlock()
	now := s.now()
	at := now
	if !q.AsOf.IsZero() {
		at = q.AsOf.UTC()
	}
	sc := x.score(q.Query)
	// eligible: 1 yes, 2 no, 0 not asked yet.
	eligible := make([]uint8, len(x.docs))
	ok := func(d int32) bool {
		if eligible[d] == 0 {
			eligible[d] = 2
			if x.eligible(d, q, now, at, visible) {
				eligible[d] = 1
			}
		}
		return eligible[d] == 1
	}
	depth := max(listDepth, q.Limit)
	tags := float64(len(q.Tags))
	pool := map[int32]*policy.Ranks{}
	rankList := func(score func(int32) float64, set func(r *policy.Ranks, n int)) {
		ids, ranks := x.top(score, ok, depth)
		for i, d := range ids {
			r := pool[d]
			if r == nil {
				r = &policy.Ranks{}
				pool[d] = r
			}
			set(r, ranks[i])
		}
	}
	rankList(func(d int32) float64 { return sc.keyword[d] }, func(r *policy.Ranks, n int) { r.Keyword = n })
	rankList(func(d int32) float64 { return sc.cosine[d] }, func(r *policy.Ranks, n int) { r.Semantic = n })
	// Structure: the idf of the query words found in the key, tags, subject,
	// predicate and object (a word every key holds weighs nearly nothing),
	// and the asked tags.
	rankList(func(d int32) float64 { return sc.structIDF[d] + tags }, func(r *policy.Ranks, n int) { r.Structure = n })
	for d := range sc.exact {
		if ok(d) && pool[d] == nil {
			pool[d] = &policy.Ranks{}
		}
	}
	ids := make([]int32, 0, len(pool))
	for d := range pool {
		ids = append(ids, d)
	}
	sort.Slice(ids, func(i, j int) bool { return newer(x.docs[ids[i]].v, x.docs[ids[j]].v) })
	for i, d := range ids {
		pool[d].Recency = i + 1
	}
	maxKW := 0.0
	for _, d := range ids {
		maxKW = max(maxKW, sc.keyword[d])
	}
	out := make([]SearchHit, 0, len(pool))
	vs := make(map[string]memgov.Version, len(pool))
	for _, d := range ids {
		doc := &x.docs[d]
		v := doc.v
		fused := s.policy.HybridRRF(*pool[d])
		age := now.Sub(v.CreatedAt).Hours() / 24
		// Relevance is the mean of the cosine and the BM25 relative to the
		// best of the pool.
		rel := sc.cosine[d]
		if maxKW > 0 {
			rel = (rel + sc.keyword[d]/maxKW) / 2
		}
		u := s.policy.ProvenanceWeight(policy.RetrievalSignals{Relevance: rel, Confidence: v.Confidence,
			Freshness: 1 / (1 + math.Max(0, age)/30), Authority: v.ValidationScore})
		hit := SearchHit{VersionID: v.ID, State: v.State, RRF: round9(fused), Provenance: u,
			Score: round9(fused * (0.5 + 0.5*u)), Ranks: *pool[d], Cosine: round9(sc.cosine[d]), Structure: sc.structure[d] + len(q.Tags),
			Keyword: round9(sc.keyword[d]), Exact: sc.exact[d], ValidAt: doc.validAt.Format(oplog.TimeFormat)}
		if doc.invalidAt != nil {
			hit.InvalidAt = doc.invalidAt.Format(oplog.TimeFormat)
		}
		out = append(out, hit)
		vs[v.ID] = v
	}
	// ids is newest first: a stable sort leaves recency to break ties.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Exact != out[j].Exact {
			return out[i].Exact
		}
		return out[i].Score > out[j].Score
	})
	if len(out) > q.Limit {
		out = out[:q.Limit]
	}
	found := make([]memgov.Version, len(out))
	for i := range out {
		found[i] = vs[out[i].VersionID]
		out[i].Entry = EntryOf(found[i])
	}
	return out, found, nil
}

// newer orders versions newest first (then by id).
func newer(a, b memgov.Version) bool {
	if a.CreatedLSN != b.CreatedLSN {
		return a.CreatedLSN > b.CreatedLSN
	}
	return a.ID < b.ID
}

// eligible reports whether document d may be a result of q: ACTIVE or
// SUPERSEDED, not expired, carrying q's tags, valid at the asked time (or
// superseded when those are asked for) and visible to the reader.
func (x *searchIndex) eligible(d int32, q SearchQuery, now, at time.Time, visible func(memgov.Version) bool) bool {
	if x.dead[d] {
		return false
	}
	doc := &x.docs[d]
	v := doc.v
	if v.ExpiredAt(now) || v.State != memgov.Active && v.State != memgov.Superseded || !hasTags(v.Tags, q.Tags) {
		return false
	}
	valid := !doc.validAt.After(at) && (doc.invalidAt == nil || at.Before(*doc.invalidAt))
	if !valid && !(q.IncludeSuperseded && q.AsOf.IsZero() && !doc.validAt.After(at)) {
		return false
	}
	return visible == nil || visible(v)
}

func round9(f float64) float64 { return math.Round(f*1e9) / 1e9 }

// validity returns a fact's valid_at and invalid_at (spec §13.10):
// from content.valid_at / content.invalid_at (RFC 3339) when present, else
// the version's creation and the time it stopped being ACTIVE.
func validity(ctx context.Context, tx memgov.ReadTx, v memgov.Version) (time.Time, *time.Time, error) {
	var c struct {
		ValidAt   string `json:"valid_at"`
		InvalidAt string `json:"invalid_at"`
	}
	validAt := v.CreatedAt.UTC()
	if err := v.DecodeContent(&c); err != nil {
		return validAt, nil, err
	}
	if v.ActiveFrom > 0 && v.ActiveFrom != v.CreatedLSN {
		// An approved draft became valid when it was approved.
		t, err := tx.TimeOf(ctx, v.ActiveFrom)
		if err != nil {
			return validAt, nil, err
		}
		validAt = t
	}
	if t, err := time.Parse(time.RFC3339Nano, c.ValidAt); err == nil {
		validAt = t.UTC().Truncate(time.Millisecond)
	}
	var invalidAt *time.Time
	if t, err := time.Parse(time.RFC3339Nano, c.InvalidAt); err == nil {
		t = t.UTC().Truncate(time.Millisecond)
		invalidAt = &t
	}
	if v.State != memgov.Active && v.ActiveTo > 0 {
		t, err := tx.TimeOf(ctx, v.ActiveTo)
		if err != nil {
			return validAt, nil, err
		}
		if invalidAt == nil || t.Before(*invalidAt) {
			invalidAt = &t
		}
	}
	return validAt, invalidAt, nil
}

func hasTags(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// queryTerms are the distinct lower-case word tokens of a query, stop words
// aside.
func queryTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range Tokens(strings.ToLower(q)) {
		if !WordToken(t) || len(t) < 2 || stopWords[t] || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

var stopWords = map[string]bool{"the": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"is": true, "are": true, "for": true, "on": true, "with": true, "what": true, "which": true, "does": true, "do": true}
