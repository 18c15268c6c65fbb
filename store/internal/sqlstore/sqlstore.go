// Package sqlstore is the part of memgov's SQL stores that both SQLite
// (store/sqlite) and PostgreSQL (store/postgres) run: how a log entry is
// applied to the derived tables, and every read and write of the store
// contract, over the same tables. Statements are written with ? placeholders
// (a store turns them into its own) in the SQL both databases speak; where
// they differ (JSON arrays, full-text search, blob parameters, pattern
// matching) a store's Dialect says how.
package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Querier is what a store's transaction offers: *sql.Tx, or a wrapper of it
// that prepares statements or rewrites placeholders.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Drainer is a Querier that runs a query whose rows the caller reads to the
// end before it runs the same text again (SQLite's prepared statements).
type Drainer interface {
	QueryDrained(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Dialect is what differs between the SQL of two stores.
type Dialect struct {
	// Blob is a blob parameter in an expression ("?" or "CAST(? AS BYTEA)").
	Blob string
	// Like is the case-insensitive LIKE operator, TextLike(col) a text
	// column or the text of a blob column followed by it.
	Like     string
	TextLike func(col string) string
	// JSONValues is a FROM item of the values of the JSON array
	// parameter, as j(value).
	JSONValues string
	// TagFilter keeps the versions (v) whose tags hold the parameter.
	TagFilter string
	// EventTenant keeps the events of the memoryRefs under a prefix (first
	// two parameters: its length and itself) or, for events of no ref,
	// whose data names the tenant (third parameter).
	EventTenant string
	// FoldOps selects key, value and expires_at of the last PUT of each key
	// of ref (?1) before idx ?2 that has not expired at ?3, by key.
	FoldOps string
	// RecordAccess, FoldAccess and FoldRetrieval are RecordAccess's and
	// FoldReads's statements (reads.go).
	RecordAccess, FoldAccess, FoldRetrieval string
	// TopicSQL selects the version_id of the texts matching a query (first
	// parameter) within a memoryRef and layer, best first, up to a limit
	// (last parameter). With RowidScopes the scope is the rowid range of
	// the memoryRef and layer in version_fts (fts_scopes numbers the
	// ranges), and TopicSQL's middle parameters are the range's lowest and
	// highest rowids; without, they are the memoryRef and the layer.
	TopicSQL    string
	RowidScopes bool
	// TopicWordDocs counts the texts of a scope matching a query (first
	// parameter, words written by MatchWord joined by MatchOr; the middle
	// ones as TopicSQL's), up to a cap (last parameter), without ranking
	// them: what a topic query leaves out its commonest words by. Empty:
	// every word is queried.
	TopicWordDocs string
	// TopicPostings, where not empty (with RowidScopes), selects the rowids
	// of a scope's texts holding one word (first parameter, as MatchWord
	// writes it; then the scope's lowest and highest rowids), newest first,
	// up to a cap (last parameter), without ranking them; TopicRows is
	// the FROM and WHERE clauses that read, after the rowid (f.rowid),
	// the candidate columns (versionCandidateColumns: versions v,
	// version_features vf) of the rows whose rowids are in a JSON array and
	// whose versions are live (ACTIVE or DRAFT). With them the store ranks
	// a topic query itself, from its words' postings (rankPostings), and
	// TopicSQL is not used.
	TopicPostings, TopicRows string
	// FeaturesBySeq selects the version_id of the version_features rows
	// whose seq is in a JSON array (first parameter) and whose memory_ref is
	// the second parameter (the band index's candidates read back), by
	// ascending seq.
	FeaturesBySeq string
	// LightBySeq reads what a light candidate query returns of the same
	// rows as FeaturesBySeq (its parameters, then the layer twice, as
	// lightCandidates'), from their version_features rows and their
	// version_index rows: seq, version_id, item_id, key, layer,
	// content_hash, fingerprint, subject, embedding.
	LightBySeq string
	// FeaturesUpsert, where not empty, writes a version_features row in one
	// statement, a new row or a replaced one with a new seq, with the
	// parameters of PutFeatures' INSERT; empty, PutFeatures deletes the row
	// and inserts it again.
	FeaturesUpsert string
	// MatchOr and MatchAnd join the words of a full-text query; MatchWord
	// writes one word.
	MatchOr, MatchAnd string
	MatchWord         func(string) string
	// ReviewText is the table of the review queue's text, ReviewTextMatch
	// the condition on reviews that keeps those whose text holds every word.
	ReviewText      string
	ReviewTextMatch func(text string) (string, []any)
	// AfterTextErase and AfterReviewErase run after an erasure removed
	// text from the full-text indexes (merging their segments), if any.
	AfterTextErase, AfterReviewErase string
	// SaveTable is the statement that copies a derived table aside before a
	// rebuild empties it; Saved and Main prefix the copy's and the table's
	// names.
	SaveTable   func(name string) string
	Saved, Main string
	// SecureDelete makes deleted content unrecoverable for the rest of the
	// transaction's connection, if the database needs telling.
	SecureDelete string
}

// Bound is a Querier with the dialect of its store.
type Bound struct {
	Querier
	d *Dialect
}

// Bind binds q to its store's dialect.
func Bind(q Querier, d *Dialect) Bound { return Bound{Querier: q, d: d} }

func (b Bound) dialect() *Dialect { return b.d }

// querier is what this package's statements run on.
type querier interface {
	Querier
	dialect() *Dialect
}

// ReadTx is a read transaction: every reader of the store contract.
type ReadTx struct {
	q querier
	// bands is the store's band index (bands.go); nil in transactions
	// outside the store's Update and View, which read bands afresh.
	bands *BandCache
	// topics is the store's topic cache (topiccache.go); nil: topic
	// queries read every word's postings afresh.
	topics *TopicCache
}

// UseBands makes the transaction's near-duplicate lookups read the store's
// band index c.
func (r *ReadTx) UseBands(c *BandCache) { r.bands = c }

// UseTopics makes the transaction's topic queries read postings through the
// store's topic cache c.
func (r *ReadTx) UseTopics(c *TopicCache) { r.topics = c }

// NewReadTx reads through q.
func NewReadTx(q Bound) *ReadTx { return &ReadTx{q: q} }

// Querier is the transaction's querier, for a store's own statements.
func (r *ReadTx) Querier() Bound { return Bound{Querier: r.q, d: r.q.dialect()} }

// NewTx writes through q, chaining the log with key; onErase (if not nil)
// runs when an erasure is appended.
func NewTx(q Bound, key []byte, onErase func()) *Tx {
	return &Tx{ReadTx: ReadTx{q: q}, key: key, onErase: onErase}
}

// Apply applies a log entry to the derived tables (Append, a rebuild, a
// replay).
func Apply(ctx context.Context, q Bound, e *oplog.Entry) error { return apply(ctx, q, e) }

// DerivedTables are every table Rebuild empties and refills from the log, in
// the order their rows can be deleted (children before parents).
func DerivedTables(d *Dialect) []DerivedTable {
	out := make([]DerivedTable, len(derivedTables))
	for i, t := range derivedTables {
		if t.Name == "review_text" {
			t.Name = d.ReviewText
		}
		out[i] = t
	}
	return out
}

// ComparedTables are the tables compared after a replay: every derived table
// and erased_payload, which the replay of the ERASE entries reproduces (a
// payload recorded as erased that no ERASE entry lists is a forged erasure).
func ComparedTables(d *Dialect) []DerivedTable {
	return append(DerivedTables(d), DerivedTable{"erased_payload", "lsn"})
}

// Ms is t in unix milliseconds, as the tables store time.
func Ms(t time.Time) int64 { return ms(t) }

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// Scanner is what *sql.Row and *sql.Rows offer.
type Scanner interface{ Scan(...any) error }

// QueryAll runs a query and scans every row with scan; it never returns a nil
// slice, so empty results encode as [] in JSON.
func QueryAll[T any](ctx context.Context, q Querier, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	return queryAll(ctx, q, scan, query, args...)
}

func queryAll[T any](ctx context.Context, q Querier, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryDrained runs a query whose rows the caller reads to the end and closes
// before it runs the same text again (no nesting): a store that prepares
// statements prepares it once and reuses it.
func queryDrained(ctx context.Context, q querier, query string, args ...any) (*sql.Rows, error) {
	if b, ok := q.(Bound); ok {
		if d, ok := b.Querier.(Drainer); ok {
			return d.QueryDrained(ctx, query, args...)
		}
	}
	return q.QueryContext(ctx, query, args...)
}

// Ensure the transactions implement the contract.
var (
	_ memgov.ReadTx = (*ReadTx)(nil)
	_ memgov.Tx     = (*Tx)(nil)
)
