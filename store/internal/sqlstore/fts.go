package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// The full-text index (version_fts: SQLite's FTS5 table, or PostgreSQL's
// table of texts and their tsvectors under a GIN index) lets the
// contradiction gate compare a write with its same-topic neighbours ranked by
// relevance, however far below the duplicate threshold their cosine is. It is
// derived from the log like every index: indexText adds a version's text,
// Rebuild refills it, and an erasure removes the erased items' rows (and
// merges the index, Dialect.AfterTextErase, so that their terms leave the
// database file).

// indexText adds the text of a new durable version to the full-text index.
func indexText(ctx context.Context, q querier, e *oplog.Entry) error {
	p, err := e.DecodePayload()
	if err != nil || len(p.Content) == 0 {
		return err
	}
	layer := memgov.Layer(p.Layer)
	if !layer.Durable() {
		return nil
	}
	text, err := contentText(p.Content)
	if err != nil {
		return wrapApply(e, err)
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if !q.dialect().RowidScopes {
		if _, err := q.ExecContext(ctx, `INSERT INTO version_fts (text, version_id, memory_ref, layer) VALUES (?,?,?,?)`,
			text, e.VersionID, e.MemoryRef, string(layer)); err != nil {
			return wrapApply(e, err)
		}
		return nil
	}
	// Each scope (memoryRef and layer) owns a range of rowids: the row takes
	// the next one of its scope's.
	lo, hi, _, err := scopeRange(ctx, q, e.MemoryRef, layer, true)
	if err != nil {
		return wrapApply(e, err)
	}
	var last int64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), ?) FROM version_fts WHERE rowid BETWEEN ? AND ?`, lo, lo, hi).Scan(&last); err != nil {
		return wrapApply(e, err)
	}
	if last >= hi {
		return wrapApply(e, fmt.Errorf("the full-text rows of %s %s are full", e.MemoryRef, layer))
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO version_fts (rowid, text, version_id, memory_ref, layer) VALUES (?,?,?,?,?)`,
		last+1, text, e.VersionID, e.MemoryRef, string(layer)); err != nil {
		return wrapApply(e, err)
	}
	return nil
}

// scopeBits is how many low bits of a version_fts rowid number the rows of
// one scope (a memoryRef and layer); the bits above are the scope's id in
// fts_scopes.
const scopeBits = 40

// scopeRange returns the rowid range of a scope's rows in version_fts
// (Dialect.RowidScopes), ok false when the scope has none yet. With create, a scope without an id gets
// one.
func scopeRange(ctx context.Context, q querier, memoryRef string, layer memgov.Layer, create bool) (lo, hi int64, ok bool, err error) {
	if create {
		if _, err := q.ExecContext(ctx, `INSERT INTO fts_scopes (memory_ref, layer) VALUES (?,?) ON CONFLICT DO NOTHING`, memoryRef, string(layer)); err != nil {
			return 0, 0, false, err
		}
	}
	var id int64
	err = q.QueryRowContext(ctx, `SELECT id FROM fts_scopes WHERE memory_ref = ? AND layer = ?`, memoryRef, string(layer)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, err
	}
	if id <= 0 || id >= 1<<(63-scopeBits) {
		return 0, 0, false, fmt.Errorf("corrupt stored data: fts_scopes.id %d of %s %s is out of range", id, memoryRef, layer)
	}
	return id << scopeBits, id<<scopeBits | (1<<scopeBits - 1), true, nil
}

// contentText is the text field of a version's content (a content that is
// not an object, or has no text, or no content, has none); content that is
// not valid JSON is an error.
func contentText(content []byte) (string, error) {
	if content == nil {
		return "", nil
	}
	if !json.Valid(content) {
		return "", fmt.Errorf("content is not valid JSON")
	}
	var c struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &c) != nil {
		return "", nil // valid JSON of another type than an object with a text string
	}
	return c.Text, nil
}

// eraseText removes the erased items' versions from the full-text index (and
// their model vectors), then merges the index when the dialect says how.
func eraseText(ctx context.Context, q querier, e *oplog.Entry) error {
	rec, err := oplog.DecodeData[oplog.ErasureData](e)
	if err != nil {
		return err
	}
	if len(rec.Items) == 0 {
		return nil
	}
	for _, id := range rec.Items {
		if _, err := q.ExecContext(ctx, `DELETE FROM version_fts WHERE version_id IN (SELECT version_id FROM version_index WHERE item_id = ?)`, id); err != nil {
			return wrapApply(e, err)
		}
		// Model vectors are derived from the erased text too.
		if _, err := q.ExecContext(ctx, `DELETE FROM model_vectors WHERE version_id IN (SELECT version_id FROM version_index WHERE item_id = ?)`, id); err != nil {
			return wrapApply(e, err)
		}
	}
	if s := q.dialect().AfterTextErase; s != "" {
		if _, err := q.ExecContext(ctx, s); err != nil {
			return wrapApply(e, err)
		}
	}
	return nil
}

// topicTermLimit caps the terms of one full-text query. A query costs in
// proportion to the documents its terms match across the whole index (the
// memoryRef and layer are filtered after the match), so it keeps the most
// telling words: the longest, which are the rarest in practice. Eight rather
// than four: a write that extends a text with a clause of its own ("With the
// scandal hanging over the company, revenue ...") must still find the text
// it extends by the words they share; at 5,000 items the four extra terms
// cost a governed write about 5% (memgov bench write).
const topicTermLimit = 8

// stopWords are left out of a full-text query: they match everything.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "were": true, "be": true, "been": true,
	"of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "and": true, "or": true, "but": true,
	"it": true, "its": true, "this": true, "that": true, "with": true, "as": true, "by": true, "from": true,
	"has": true, "have": true, "had": true, "do": true, "does": true, "did": true, "s": true, "i": true,
}

// topicDocBudget bounds the documents one full-text query ranks. Ranking a
// match costs a read of its document's length (BM25), so a query of common
// words costs in proportion to the store: when the write's query words
// together match more documents of the scope than this, the commonest are
// left out, the rarest kept (at least topicMinTerms of them). A word's
// documents are counted up to topicDocBudget+1, each count a walk of the
// word's entries in the index, without ranking; the words together are
// counted first, and a query within the budget is every word, as if no
// budget were set. The subject's words are
// always kept. Words that are rare in the scope weigh the most in BM25
// anyway: a text sharing only the commonest words with the write ranks
// below those sharing a rare one.
const (
	topicDocBudget = 1000
	topicMinTerms  = 3
)

// topicReadRounds bounds how many times rankPostings reads a limit's
// worth of its best texts to find that many live ones.
const topicReadRounds = 4

// topicWords is the pool of a write's full-text query: the text's
// topicTermLimit longest distinct words.
func topicWords(text string) []string {
	ws := matchWords(text)
	sort.SliceStable(ws, func(i, j int) bool { return len([]rune(ws[i])) > len([]rune(ws[j])) })
	if len(ws) > topicTermLimit {
		ws = ws[:topicTermLimit]
	}
	return ws
}

// rarestWords keeps the words of ws (each with its document count in
// docs) the rarest first while their counts add up to topicDocBudget or
// fewer, and at least topicMinTerms of them, in the order of ws.
func rarestWords(ws []string, docs []int) []string {
	if len(ws) <= topicMinTerms {
		return ws
	}
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return docs[order[a]] < docs[order[b]] })
	keep := make([]bool, len(ws))
	total, kept := 0, 0
	for _, i := range order {
		if kept >= topicMinTerms && total+docs[i] > topicDocBudget {
			break
		}
		keep[i] = true
		total += docs[i]
		kept++
	}
	out := make([]string, 0, kept)
	for i, w := range ws {
		if keep[i] {
			out = append(out, w)
		}
	}
	return out
}

// matchQuery turns a write into a full-text query for its same-topic
// neighbours: the words ws ORed, so the ranking puts the texts sharing the
// most of them first, and, with an extracted subject, the subject's words
// ANDed ("dana" AND "manager": the texts about that subject, whatever value
// they state). It is empty when nothing is worth matching. The words hold
// only letters and digits.
func matchQuery(d *Dialect, ws []string, subject string) string {
	terms := quoted(d, ws)
	if sw := matchWords(subject); len(sw) > 1 {
		terms = append(terms, "("+strings.Join(quoted(d, sw), d.MatchAnd)+")")
	} else if len(sw) == 1 && !slices.Contains(ws, sw[0]) {
		terms = append(terms, quoted(d, sw)...)
	}
	return strings.Join(terms, d.MatchOr)
}

// matchWords is text's distinct words that are not stop words, lower-case, in order.
func matchWords(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

func quoted(d *Dialect, ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = d.MatchWord(w)
	}
	return out
}

func (r *ReadTx) TopicCandidates(ctx context.Context, tq memgov.TopicQuery) ([]memgov.Candidate, error) {
	limit := tq.Limit
	if limit <= 0 {
		limit = 20
	}
	var set idSet
	collect := func(query string, args ...any) error { return set.collect(ctx, r.q, query, args...) }
	read := map[string]memgov.Candidate{} // the candidates read with their postings
	d := r.q.dialect()
	// scope is the query's middle parameters: the scope's rowid range, or
	// its memoryRef and layer.
	scope, scoped := []any{tq.MemoryRef, string(tq.Layer)}, true
	// small is a scope that has never held as many texts as the budget:
	// any query's texts there are within it, uncounted.
	small := false
	// size is about how many texts the scope holds (with RowidScopes).
	var size, lo int64
	if d.RowidScopes {
		// The scope's rowid range confines the match to the ref and
		// layer inside the index: no other scope's row is scored or read.
		var hi int64
		var ok bool
		var err error
		lo, hi, ok, err = scopeRange(ctx, r.q, tq.MemoryRef, tq.Layer, false)
		if err != nil {
			return nil, err
		}
		scope, scoped = []any{lo, hi}, ok
		if ok {
			// A scope's rows take its rowids one after the other, so the
			// last one bounds how many it holds.
			var last int64
			if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(rowid), ?) FROM version_fts WHERE rowid BETWEEN ? AND ?`, lo, lo, hi).Scan(&last); err != nil {
				return nil, fmt.Errorf("size the scope of a topic query: %w", err)
			}
			size = last - lo
			small = size < topicDocBudget
		}
	}
	if ws := topicWords(tq.Text); scoped && (len(ws) > 0 || tq.Subject != "") {
		if d.TopicPostings != "" && d.RowidScopes {
			ranked, err := r.rankPostings(ctx, ws, tq.Subject, lo, lo+size, size, small, limit)
			if err != nil {
				return nil, err
			}
			for _, c := range ranked {
				set.add(c.VersionID)
				read[c.VersionID] = c
			}
		} else {
			if d.TopicWordDocs != "" && len(ws) > topicMinTerms && !small {
				// count is the scope's texts holding any of words, up to the
				// budget and one.
				count := func(words ...string) (int, error) {
					var n int
					args := append(append([]any{strings.Join(quoted(d, words), d.MatchOr)}, scope...), topicDocBudget+1)
					if err := r.q.QueryRowContext(ctx, d.TopicWordDocs, args...).Scan(&n); err != nil {
						return 0, fmt.Errorf("count the texts of a topic query: %w", err)
					}
					return n, nil
				}
				// Within the budget the query is every word; past it, the
				// rarest are kept. Each word's texts are counted first: one
				// word past the budget puts the words together past it, and
				// counts that add up to the budget or less keep them within
				// it; only between the two are the words' texts together
				// counted.
				docs := make([]int, len(ws))
				sum, over := 0, false
				for i, w := range ws {
					var err error
					if docs[i], err = count(w); err != nil {
						return nil, err
					}
					sum += docs[i]
					over = over || docs[i] > topicDocBudget
				}
				if !over && sum > topicDocBudget {
					all, err := count(ws...)
					if err != nil {
						return nil, err
					}
					over = all > topicDocBudget
				}
				if over {
					ws = rarestWords(ws, docs)
				}
			}
			if m := matchQuery(d, ws, tq.Subject); m != "" {
				if err := collect(d.TopicSQL, append(append([]any{m}, scope...), limit)...); err != nil {
					return nil, err
				}
			}
		}
	}
	if tq.Subject != "" {
		if err := collect(`SELECT version_id FROM version_features WHERE memory_ref = ? AND subject = ? AND layer = ? LIMIT ?`,
			tq.MemoryRef, tq.Subject, string(tq.Layer), limit); err != nil {
			return nil, err
		}
	}
	for _, id := range tq.VersionIDs {
		set.add(id)
	}
	// The ranked texts were read in full with their postings; the rest
	// are read now.
	var rest []string
	for _, id := range set.ids {
		if _, ok := read[id]; !ok {
			rest = append(rest, id)
		}
	}
	cs, err := r.candidatesByID(ctx, rest, len(rest))
	if err != nil {
		return nil, err
	}
	for _, id := range set.ids {
		if c, ok := read[id]; ok {
			cs = append(cs, c)
		}
	}
	// VersionIDs are confined to the ref and layer like the rest.
	kept := cs[:0]
	for _, c := range cs {
		if c.Layer == tq.Layer {
			kept = append(kept, c)
		}
	}
	cs = kept
	// Keep the rank order, then the subject matches.
	rank := make(map[string]int, len(set.ids))
	for i, id := range set.ids {
		rank[id] = i
	}
	sort.SliceStable(cs, func(i, j int) bool { return rank[cs[i].VersionID] < rank[cs[j].VersionID] })
	return cs, nil
}

// rankPostings ranks a scope's texts for a topic query of the words ws
// and subject, best first, at most limit of them, read in full; lo and
// last are the scope's lowest rowid and its highest in the snapshot, size
// about how many texts it holds, small whether it never held
// topicDocBudget texts.
//
// It reads each word's postings (Dialect.TopicPostings), the newest
// topicDocBudget+1 of them, through the store's topic cache
// (topiccache.go), and never the texts or their lengths. The
// postings count each word's texts as Dialect.TopicWordDocs does: past
// the budget the commonest words are left out (rarestWords). A text
// matches when it holds one of the words kept (or the subject's one
// word), or every word of a subject of several, as matchQuery's query
// matches. Its score is the sum of the inverse document frequencies
// (BM25's) of the query's words it holds, and ties go to the newest
// text. The score leaves out BM25's length and repetition terms: they
// weigh little among texts that share the same words with the write,
// and cost a read of each match's length, which at 100,000 items made
// ranking the costliest read of a governed write.
func (r *ReadTx) rankPostings(ctx context.Context, ws []string, subject string, lo, last, size int64, small bool, limit int) ([]memgov.Candidate, error) {
	d := r.q.dialect()
	sw := matchWords(subject)
	words := slices.Clone(ws)
	for _, w := range sw {
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	// The topic cache is kept only where an erasure is seen as it happens.
	var erasure int64
	if r.topics != nil {
		if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM erasures`).Scan(&erasure); err != nil {
			return nil, fmt.Errorf("read the postings of a topic query: %w", err)
		}
	}
	postings := make(map[string][]int64, len(words))
	for _, w := range words {
		ids, err := r.topics.postings(ctx, r.q, lo, last, erasure, d.MatchWord(w), topicDocBudget+1)
		if err != nil {
			return nil, err
		}
		postings[w] = ids
	}
	// Within the budget the query is every word; past it, the rarest are
	// kept (as the counting of Dialect.TopicWordDocs keeps them).
	if len(ws) > topicMinTerms && !small {
		docs := make([]int, len(ws))
		sum := 0
		for i, w := range ws {
			docs[i] = len(postings[w])
			sum += docs[i]
		}
		if sum > topicDocBudget && distinctOver(postings, ws, topicDocBudget) {
			ws = rarestWords(ws, docs)
		}
	}
	or := slices.Clone(ws)
	var and []string
	if len(sw) > 1 {
		and = sw
	} else if len(sw) == 1 && !slices.Contains(ws, sw[0]) {
		or = append(or, sw[0])
	}
	type doc struct {
		score     float64
		ors, ands int
	}
	docs := map[int64]*doc{}
	for _, w := range words {
		inOr, inAnd := slices.Contains(or, w), slices.Contains(and, w)
		ids := postings[w]
		if len(ids) == 0 || !inOr && !inAnd {
			continue
		}
		n, df := float64(max(size, int64(len(ids)))), float64(len(ids))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, id := range ids {
			c := docs[id]
			if c == nil {
				c = &doc{}
				docs[id] = c
			}
			c.score += idf
			if inOr {
				c.ors++
			}
			if inAnd {
				c.ands++
			}
		}
	}
	type ranked struct {
		rowid int64
		score float64
	}
	var best []ranked
	for id, c := range docs {
		if c.ors > 0 || len(and) > 0 && c.ands == len(and) {
			best = append(best, ranked{id, c.score})
		}
	}
	slices.SortFunc(best, func(a, b ranked) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(b.rowid, a.rowid)
	})
	// The best texts are read limit at a time, keeping the live ones
	// (ACTIVE or DRAFT): the index holds every durable version, and the
	// superseded versions of an item share its words. At most
	// topicReadRounds times: an item rewritten a thousand times does not
	// make a query read a thousand rows.
	out := make([]memgov.Candidate, 0, limit)
	for round := 0; round < topicReadRounds && len(best) > 0 && len(out) < limit; round++ {
		chunk := best[:min(limit, len(best))]
		best = best[len(chunk):]
		list := make([]int64, len(chunk))
		for i, b := range chunk {
			list[i] = b.rowid
		}
		js, err := json.Marshal(list)
		if err != nil {
			return nil, err
		}
		rows, err := queryDrained(ctx, r.q, `SELECT f.rowid, `+versionCandidateColumns+` `+d.TopicRows, string(js))
		if err != nil {
			return nil, fmt.Errorf("read the texts of a topic query: %w", err)
		}
		live := make(map[int64]memgov.Candidate, len(chunk))
		for rows.Next() {
			var rowid int64
			c, err := scanCandidate(rows, &rowid)
			if err != nil {
				rows.Close()
				return nil, err
			}
			live[rowid] = c
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
		for _, b := range chunk {
			if c, ok := live[b.rowid]; ok && len(out) < limit {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// distinctOver reports whether the postings of ws hold more than n
// distinct rowids.
func distinctOver(postings map[string][]int64, ws []string, n int) bool {
	var all []int64
	for _, w := range ws {
		if len(postings[w]) > n {
			return true
		}
		all = append(all, postings[w]...)
	}
	slices.Sort(all)
	return len(slices.Compact(all)) > n
}
