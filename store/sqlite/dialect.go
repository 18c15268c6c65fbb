package sqlite

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// dialect is SQLite's side of the SQL the stores share.
var dialect = &sqlstore.Dialect{
	Blob:        `?`,
	Like:        `LIKE`, // case-insensitive for ASCII in SQLite
	TextLike:    func(col string) string { return `CAST(` + col + ` AS TEXT) LIKE` },
	JSONValues:  `json_each(?)`,
	TagFilter:   ` AND EXISTS (SELECT 1 FROM json_each(v.tags) WHERE json_each.value = ?)`,
	EventTenant: ` AND (substr(memory_ref, 1, ?) = ? OR (memory_ref = '' AND json_extract(data, '$.tenant') = ?))`,
	// SQLite takes the bare columns of an aggregate query with one MAX() from
	// the row that holds the maximum.
	FoldOps: `SELECT key, value, expires_at FROM (
		SELECT key, op, value, expires_at, MAX(idx) FROM mem_ops WHERE memory_ref = ?1 AND idx < ?2 GROUP BY key)
		WHERE op = 'PUT' AND (expires_at IS NULL OR expires_at > ?3) ORDER BY key`,
	RecordAccess: `INSERT INTO access_days (item_id, day, n, last_at) SELECT value, ?, 1, ? FROM json_each(?) WHERE true
		ON CONFLICT (item_id, day) DO UPDATE SET n = n + 1, last_at = MAX(last_at, excluded.last_at)`,
	FoldAccess: `INSERT INTO access_days (item_id, day, n, last_at)
			SELECT v.item_id, ?, 1, ? FROM json_each(?) j JOIN versions v ON v.id = j.value WHERE true
			ON CONFLICT (item_id, day) DO UPDATE SET n = n + 1, last_at = MAX(last_at, excluded.last_at)`,
	FoldRetrieval: `INSERT OR IGNORE INTO retrieval_items (retrieval_id, item_id, staleness_ms)
			SELECT ?, v.item_id, MAX(? - v.created_at, 0) FROM json_each(?) j JOIN versions v ON v.id = j.value`,
	// version_fts is an FTS5 table (migration 0016) ranked by BM25; each
	// memoryRef and layer owns a rowid range of it (migration 0032), which
	// confines the match inside the index: no other scope's row is scored
	// or read. ORDER BY rank sorts inside FTS5, by BM25.
	TopicSQL: `SELECT version_id FROM version_fts WHERE version_fts MATCH 'text : (' || ? || ')' AND rowid BETWEEN ? AND ?
			ORDER BY rank LIMIT ?`,
	RowidScopes: true,
	// A version's features in one statement: REPLACE deletes the row of the
	// same version and inserts the new one, which AUTOINCREMENT gives a new
	// seq, as a DELETE and an INSERT would.
	FeaturesUpsert: `INSERT OR REPLACE INTO version_features (version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding, bands, sketch)
		SELECT ?,?,?,?,?,?,?,?,?,?,? FROM version_index WHERE version_id = ? AND memory_ref = ? AND content_hash <> ''`,
	// The texts of the scope matching a query, counted up to a cap without
	// ranking: FTS5 walks the words' entries in the rowid range.
	TopicWordDocs: `SELECT count(*) FROM (SELECT 1 FROM version_fts WHERE version_fts MATCH 'text : (' || ? || ')' AND rowid BETWEEN ? AND ? LIMIT ?)`,
	// A word's texts in the scope, newest first, read from the word's
	// entries in the index alone: ranking them by BM25 (TopicSQL) reads
	// each one's length from the index's docsize table, and cost a governed
	// write at 100,000 items about three times what reading the postings
	// of its words and ranking them in the store's code does.
	TopicPostings: `SELECT rowid FROM version_fts WHERE version_fts MATCH 'text : (' || ? || ')' AND rowid BETWEEN ? AND ?
			ORDER BY rowid DESC LIMIT ?`,
	// The versions row holds what a candidate reads of version_index, so
	// it is not joined: one row less a candidate (each a page read at
	// 100,000 items).
	TopicRows: `FROM version_fts f JOIN versions v ON v.id = f.version_id
			LEFT JOIN version_features vf ON vf.version_id = v.id
			WHERE f.rowid IN (SELECT value FROM json_each(?)) AND v.state IN ('ACTIVE', 'DRAFT')`,
	// +memory_ref: read the rows by seq, never by scanning the ref's rows
	// through an index on memory_ref.
	FeaturesBySeq: `SELECT version_id FROM version_features WHERE seq IN (SELECT value FROM json_each(?)) AND +memory_ref = ? ORDER BY seq`,
	LightBySeq: `SELECT vf.seq, vi.version_id, vi.item_id, vi.key, vi.layer, vi.content_hash, vf.fingerprint, COALESCE(vf.subject, ''), vf.embedding
		FROM version_features vf JOIN version_index vi ON vi.version_id = vf.version_id
		WHERE vf.seq IN (SELECT value FROM json_each(?)) AND +vf.memory_ref = ?
		AND (vi.layer = ? OR CAST(? AS TEXT) = '' AND vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL'))`,
	MatchOr:         ` OR `,
	MatchAnd:        ` AND `,
	MatchWord:       func(w string) string { return `"` + w + `"` },
	ReviewText:      `review_fts`,
	ReviewTextMatch: reviewTextMatch,
	// Merging an FTS5 index's segments leaves no term of a deleted row in
	// an older one.
	AfterTextErase:   `INSERT INTO version_fts (version_fts) VALUES ('optimize')`,
	AfterReviewErase: `INSERT INTO review_fts (review_fts) VALUES ('optimize')`,
	SecureDelete:     `PRAGMA secure_delete = ON`,
	SaveTable: func(name string) string {
		return fmt.Sprintf(`DROP TABLE IF EXISTS temp.old_%s; CREATE TEMP TABLE old_%s AS SELECT * FROM main.%s`, name, name, name)
	},
	Saved: "temp.old_",
	Main:  "main.",
}

// The review queue's free-text filter is served by review_fts (migration
// 0030): a trigram index over each review's text, kept by triggers on the
// reviews and versions tables in the transaction that writes them, so a
// filter reads the reviews whose text holds every word instead of every
// open review.

// reviewTextMatch is the condition (and its arguments) that keeps the reviews
// whose text holds every word of text, ignoring case; "" when text has no
// word. Words of three characters or more are matched through the trigram
// index; shorter ones, which a trigram cannot hold, by LIKE on the rows the
// longer words selected (or on every row when there are none).
func reviewTextMatch(text string) (string, []any) {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return "", nil
	}
	var (
		match []string
		conds []string
		args  []any
	)
	for _, w := range words {
		if utf8.RuneCountInString(w) >= 3 {
			match = append(match, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
			continue
		}
		conds = append(conds, `body LIKE ? ESCAPE '\'`)
		args = append(args, "%"+sqlstore.EscapeLike(w)+"%")
	}
	if len(match) > 0 {
		conds = append([]string{`review_fts MATCH ?`}, conds...)
		args = append([]any{strings.Join(match, " AND ")}, args...)
	}
	return `created_lsn IN (SELECT rowid FROM review_fts WHERE ` + strings.Join(conds, " AND ") + `)`, args
}
