package postgres

import (
	"fmt"
	"strings"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// dialect is PostgreSQL's side of the SQL the stores share.
var dialect = &sqlstore.Dialect{
	Blob:     `CAST(? AS BYTEA)`,
	Like:     `ILIKE`,
	TextLike: func(col string) string { return `convert_from(` + col + `, 'UTF8') ILIKE` },
	// j(value), as SQLite's json_each names its column.
	JSONValues:  `jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value)`,
	TagFilter:   ` AND CAST(v.tags AS jsonb) @> jsonb_build_array(CAST(? AS text))`,
	EventTenant: ` AND (substr(memory_ref, 1, ?) = ? OR (memory_ref = '' AND CAST(data AS jsonb) ->> 'tenant' = ?))`,
	// DISTINCT ON keeps each key's row of the highest idx.
	FoldOps: `SELECT key, value, expires_at FROM (
		SELECT DISTINCT ON (key) key, op, value, expires_at FROM mem_ops WHERE memory_ref = ?1 AND idx < ?2 ORDER BY key, idx DESC) AS last
		WHERE op = 'PUT' AND (expires_at IS NULL OR expires_at > ?3) ORDER BY key`,
	// One row per item (an item read twice counts twice): PostgreSQL
	// refuses an upsert that touches a row twice.
	RecordAccess: `INSERT INTO access_days (item_id, day, n, last_at) SELECT value, ?, COUNT(*), ? FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value) GROUP BY value
		ON CONFLICT (item_id, day) DO UPDATE SET n = access_days.n + excluded.n, last_at = GREATEST(access_days.last_at, excluded.last_at)`,
	FoldAccess: `INSERT INTO access_days (item_id, day, n, last_at)
		SELECT v.item_id, ?, COUNT(*), ? FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value) JOIN versions v ON v.id = j.value GROUP BY v.item_id
		ON CONFLICT (item_id, day) DO UPDATE SET n = access_days.n + excluded.n, last_at = GREATEST(access_days.last_at, excluded.last_at)`,
	FoldRetrieval: `INSERT INTO retrieval_items (retrieval_id, item_id, staleness_ms)
		SELECT ?, v.item_id, GREATEST(CAST(? AS BIGINT) - v.created_at, 0) FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value) JOIN versions v ON v.id = j.value
		ON CONFLICT DO NOTHING`,
	// version_fts holds each text's tsvector under a GIN index (migration
	// 0003), with its memoryRef and layer's scope lexeme (migration 0004):
	// the query ANDed with the scope's lexeme is answered by the index from
	// that scope's rows. memory_ref and layer are compared as well, and a
	// query of stop words alone (no node) matches nothing. ts_rank of the
	// query's words orders the matches.
	TopicSQL: `SELECT version_id FROM version_fts, to_tsquery('english', ?1) AS query
		WHERE numnode(query) > 0 AND tsv @@ (query && CAST(quote_literal(memgov_fts_scope(?3, ?2)) AS tsquery))
		AND memory_ref = ?2 AND layer = ?3
		ORDER BY ts_rank(tsv, query) DESC, version_id LIMIT ?4`,
	// The texts of the scope matching a query, counted up to a cap without
	// ranking, through the same GIN index.
	TopicWordDocs: `SELECT count(*) FROM (SELECT 1 FROM version_fts, to_tsquery('english', ?1) AS query
		WHERE numnode(query) > 0 AND tsv @@ (query && CAST(quote_literal(memgov_fts_scope(?3, ?2)) AS tsquery))
		AND memory_ref = ?2 AND layer = ?3 LIMIT ?4) AS t`,
	// The band index's candidates, read back by seq (migration 0004): = ANY
	// of an array computed once reads each row through the seq index, where
	// IN (a set) may be planned as a scan of the whole table.
	FeaturesBySeq: `SELECT version_id FROM version_features
		WHERE seq = ANY (ARRAY(SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value))) AND memory_ref = ?
		ORDER BY seq`,
	LightBySeq: `SELECT vf.seq, vi.version_id, vi.item_id, vi.key, vi.layer, vi.content_hash, vf.fingerprint, COALESCE(vf.subject, ''), vf.embedding
		FROM version_features vf JOIN version_index vi ON vi.version_id = vf.version_id
		WHERE vf.seq = ANY (ARRAY(SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS j(value))) AND vf.memory_ref = ?
		AND (vi.layer = ? OR CAST(? AS TEXT) = '' AND vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL'))`,
	// A version's features in one statement: replacing a row updates it in
	// place with a new seq (SET seq = DEFAULT draws from its identity), where
	// a DELETE and an INSERT cost a round trip more and leave a dead row.
	FeaturesUpsert: `INSERT INTO version_features (version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding, bands, sketch)
		SELECT ?,?,?,?,?,?,?,?,?,?,? FROM version_index WHERE version_id = ? AND memory_ref = ? AND content_hash <> ''
		ON CONFLICT (version_id) DO UPDATE SET memory_ref = excluded.memory_ref, layer = excluded.layer, judge = excluded.judge,
		fingerprint = excluded.fingerprint, subject = excluded.subject, predicate = excluded.predicate, object = excluded.object,
		embedding = excluded.embedding, bands = excluded.bands, sketch = excluded.sketch, seq = DEFAULT`,
	MatchOr:         ` | `,
	MatchAnd:        ` & `,
	MatchWord:       func(w string) string { return w },
	ReviewText:      `review_text`,
	ReviewTextMatch: reviewTextMatch,
	SaveTable: func(name string) string {
		return fmt.Sprintf(`CREATE TEMP TABLE old_%s ON COMMIT DROP AS SELECT * FROM %s`, name, name)
	},
	Saved: "pg_temp.old_",
}

// reviewTextMatch is the condition (and its arguments) that keeps the reviews
// whose text (review_text, kept by triggers: migration 0003) holds every word
// of text as a part of a word, ignoring case; "" when text has no word.
func reviewTextMatch(text string) (string, []any) {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return "", nil
	}
	var (
		conds []string
		args  []any
	)
	for _, w := range words {
		conds = append(conds, `lower(body) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+sqlstore.EscapeLike(w)+"%")
	}
	return `created_lsn IN (SELECT lsn FROM review_text WHERE ` + strings.Join(conds, " AND ") + `)`, args
}
