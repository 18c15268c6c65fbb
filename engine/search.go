package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/similar"
)

// Search limits. Candidate generation scans the memoryRef's versions (ACTIVE
// only unless superseded facts are asked for), newest first, up to
// MaxSearchCandidates: the cost is one indexed range read of that many rows
// plus one sparse cosine per row, O(candidates x query features). Entries
// beyond the cap (the oldest) are not considered; refs that large want an ANN
// index, which this build does not have.
const (
	DefaultSearchLimit  = 10
	MaxSearchLimit      = 100
	MaxSearchCandidates = 5000
	// MinSemantic is the cosine below which an entry with no structural
	// match is not a result.
	MinSemantic = 0.1
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
	State      State        `json:"state"`
	Score      float64      `json:"score"`
	RRF        float64      `json:"rrf"`
	Provenance float64      `json:"provenance"`
	Ranks      policy.Ranks `json:"ranks"`
	Cosine     float64      `json:"cosine"`
	Structure  int          `json:"structure"`
	ValidAt    string       `json:"valid_at"`
	InvalidAt  string       `json:"invalid_at,omitempty"`
}

// Search ranks the entries of a memoryRef the principal may read by hybrid
// reciprocal rank fusion (spec §13.5, k = policy rrf_k, 60 by
// default) of three lists — semantic similarity (cosine of the stored
// embeddings), structure match (query words found in the key, tags or the
// subject/predicate/object of the content, plus the asked tags) and recency —
// each weighted by the policy's signal weights, then weighted by provenance:
// score = RRF x (0.5 + 0.5 U) where U is the spec §12.4.6 utility over relevance
// (the cosine), confidence, freshness (1/(1 + age/30 days)) and authority (the
// version's validation score, which folds in its evidence).
//
// Semantic facts carry temporal validity: valid_at is content.valid_at or the
// version's creation; invalid_at is content.invalid_at or the time it stopped
// being ACTIVE (superseded). Facts not valid now are left out unless AsOf or
// IncludeSuperseded ask for them. Expired entries (TTL) never surface,
// retracted ones neither. Reserved keys (the distillation index and archives)
// are not searched. A malformed ref or one of another tenant returns [].
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
func (a *MemoryAdapter) search(ctx context.Context, q SearchQuery) ([]SearchHit, []Version, error) {
	hits := []SearchHit{}
	var found []Version
	if strings.TrimSpace(q.Query) == "" && len(q.Tags) == 0 {
		return hits, nil, fmt.Errorf("%w: search needs a query or a tag", ErrInvalid)
	}
	if q.Limit < 0 || q.Limit > MaxSearchLimit {
		return hits, nil, fmt.Errorf("%w: limit must be between 0 and %d", ErrInvalid, MaxSearchLimit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultSearchLimit
	}
	e := a.e
	err := e.store.View(ctx, func(tx ReadTx) error {
		p, ok, err := a.resolve(ctx, tx, q.MemoryRef)
		if err != nil || !ok {
			return err
		}
		all := q.IncludeSuperseded || !q.AsOf.IsZero()
		cands, err := tx.IndexedVersions(ctx, q.MemoryRef, all, MaxSearchCandidates)
		if err != nil {
			return err
		}
		if !a.local {
			kept := cands[:0]
			for _, c := range cands {
				if e.visible(p, c.Version) == nil {
					kept = append(kept, c)
				}
			}
			cands = kept
		}
		hits, err = e.rank(ctx, tx, q, cands)
		if err != nil {
			return err
		}
		byID := make(map[string]Version, len(cands))
		for _, c := range cands {
			byID[c.ID] = c.Version
		}
		for _, h := range hits {
			found = append(found, byID[h.VersionID])
		}
		return nil
	})
	if err != nil {
		return []SearchHit{}, nil, hideErr(err)
	}
	return hits, found, nil
}

type scoredHit struct {
	v         Version
	cos       float64
	structure int
	validAt   time.Time
	invalidAt *time.Time
	ranks     policy.Ranks
}

func (e *Engine) rank(ctx context.Context, tx ReadTx, q SearchQuery, cands []IndexedVersion) ([]SearchHit, error) {
	now := e.Now()
	at := now
	if !q.AsOf.IsZero() {
		at = q.AsOf.UTC()
	}
	qv := similar.Embed(q.Query)
	terms := queryTerms(q.Query)
	var pool []*scoredHit
	for _, c := range cands {
		v := c.Version
		if Reserved(v.Key) || v.ExpiredAt(now) {
			continue
		}
		if v.State != Active && v.State != Superseded {
			continue
		}
		if !hasTags(v.Tags, q.Tags) {
			continue
		}
		validAt, invalidAt, err := validity(ctx, tx, v)
		if err != nil {
			return nil, err
		}
		valid := !validAt.After(at) && (invalidAt == nil || at.Before(*invalidAt))
		if !valid && !(q.IncludeSuperseded && q.AsOf.IsZero() && !validAt.After(at)) {
			continue
		}
		h := &scoredHit{v: v, validAt: validAt, invalidAt: invalidAt}
		vec, err := similar.UnmarshalVector(c.Embedding)
		if err != nil || c.Embedding == nil {
			f, err := e.featuresOf(v.Content)
			if err != nil {
				return nil, fmt.Errorf("search: version %s: %w", v.ID, err)
			}
			vec = f.Embedding
		}
		h.cos = math.Max(0, similar.Cosine(qv, vec))
		h.structure = structureMatch(v, terms) + len(q.Tags)
		if h.cos < MinSemantic && h.structure == 0 {
			continue
		}
		pool = append(pool, h)
	}
	rankBy := func(less func(a, b *scoredHit) bool, set func(h *scoredHit, r int), include func(h *scoredHit) bool) {
		list := make([]*scoredHit, 0, len(pool))
		for _, h := range pool {
			if include(h) {
				list = append(list, h)
			}
		}
		sort.SliceStable(list, func(i, j int) bool {
			if less(list[i], list[j]) {
				return true
			}
			if less(list[j], list[i]) {
				return false
			}
			return list[i].v.Key < list[j].v.Key || list[i].v.Key == list[j].v.Key && list[i].v.ID < list[j].v.ID
		})
		for i, h := range list {
			set(h, i+1)
		}
	}
	rankBy(func(a, b *scoredHit) bool { return a.cos > b.cos }, func(h *scoredHit, r int) { h.ranks.Semantic = r },
		func(h *scoredHit) bool { return h.cos > 0 })
	rankBy(func(a, b *scoredHit) bool { return a.structure > b.structure }, func(h *scoredHit, r int) { h.ranks.Structure = r },
		func(h *scoredHit) bool { return h.structure > 0 })
	rankBy(func(a, b *scoredHit) bool { return a.v.CreatedLSN > b.v.CreatedLSN }, func(h *scoredHit, r int) { h.ranks.Recency = r },
		func(*scoredHit) bool { return true })
	out := make([]SearchHit, 0, len(pool))
	for _, h := range pool {
		fused := e.policy.HybridRRF(h.ranks)
		age := now.Sub(h.v.CreatedAt).Hours() / 24
		u := e.policy.ProvenanceWeight(policy.RetrievalSignals{Relevance: h.cos, Confidence: h.v.Confidence,
			Freshness: 1 / (1 + math.Max(0, age)/30), Authority: h.v.ValidationScore})
		hit := SearchHit{Entry: EntryOf(h.v), VersionID: h.v.ID, State: h.v.State, RRF: round9(fused), Provenance: u,
			Score: round9(fused * (0.5 + 0.5*u)), Ranks: h.ranks, Cosine: round9(h.cos), Structure: h.structure,
			ValidAt: h.validAt.Format(TimeFormat)}
		if h.invalidAt != nil {
			hit.InvalidAt = h.invalidAt.Format(TimeFormat)
		}
		out = append(out, hit)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Entry.ID != out[j].Entry.ID {
			return out[i].Entry.ID < out[j].Entry.ID
		}
		return out[i].VersionID < out[j].VersionID
	})
	if len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

func round9(f float64) float64 { return math.Round(f*1e9) / 1e9 }

// validity returns a fact's valid_at and invalid_at (spec §13.10):
// from content.valid_at / content.invalid_at (RFC 3339) when present, else
// the version's creation and the time it stopped being ACTIVE.
func validity(ctx context.Context, tx ReadTx, v Version) (time.Time, *time.Time, error) {
	var c struct {
		ValidAt   string `json:"valid_at"`
		InvalidAt string `json:"invalid_at"`
	}
	_ = json.Unmarshal(v.Content, &c)
	validAt := v.CreatedAt.UTC()
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
	if v.State != Active && v.ActiveTo > 0 {
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
		if !wordToken(t) || len(t) < 2 || stopWords[t] || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

var stopWords = map[string]bool{"the": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"is": true, "are": true, "for": true, "on": true, "with": true, "what": true, "which": true, "does": true, "do": true}

// structureMatch counts the query terms found among the words of the
// version's key, tags and content subject, predicate and object.
func structureMatch(v Version, terms []string) int {
	if len(terms) == 0 {
		return 0
	}
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
	n := 0
	for _, t := range terms {
		if words[t] {
			n++
		}
	}
	return n
}
