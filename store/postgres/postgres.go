// Package postgres is memgov's store on PostgreSQL: the append-only log and
// its derived tables in one database, shared by any number of memgov
// processes. It is github.com/jackc/pgx/v5 underneath (a pgxpool pool, used
// through database/sql). Every write transaction takes one transaction-level
// advisory lock first, so the writers of every process append to one log one
// at a time: LSNs stay gapless and each entry's leaf, chain, log head and
// derived rows commit together or not at all. Reads run in REPEATABLE READ
// read-only transactions: one consistent snapshot each.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Type names this store in baselines (spec §3.2.6 `store`).
const Type = "memgov-postgres"

// appendLock is the advisory lock key every write transaction holds: the
// log's single-writer lock, across every process on the database.
const appendLock int64 = 0x6d656d676f76 // "memgov"

// The one compile-time check of the whole contract.
var _ memgov.Store = (*Store)(nil)

// Store is the PostgreSQL implementation of memgov.Store.
type Store struct {
	url    string // the URL without its password, for messages and Info
	pool   *pgxpool.Pool
	db     *sql.DB
	key    []byte
	schema int
	vector bool // the pgvector extension is installed in the database
	// bands is the near-duplicate band index (sqlstore's bands.go), which
	// catches up by seq with the rows any process wrote.
	bands *sqlstore.BandCache

	// statements counts the statements sent in transactions (BEGIN,
	// the append lock and COMMIT included): each is a round trip.
	statements atomic.Int64

	listen listenState // notify.go: LISTEN/NOTIFY across processes
}

// Statements is the number of statements the store has sent in its
// transactions, each a round trip to the server (BEGIN, the append lock and
// COMMIT or ROLLBACK included).
func (s *Store) Statements() int64 { return s.statements.Load() }

// Options configure Open.
type Options struct {
	// Key is the HMAC key that chains the log. Required.
	Key []byte
	// Create creates memgov's schema in a database that has none. Without
	// it, a database with no memgov schema is memgov.ErrNotInit.
	Create bool
	// ReadOnly opens without migrating; used by read-only tools.
	ReadOnly bool
}

// IsURL reports whether a --db value names a PostgreSQL database rather
// than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Open connects to the database at url (postgres://user@host:port/db?...),
// creates memgov's schema with Options.Create, and applies pending
// migrations in one transaction.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	if len(opts.Key) == 0 {
		return nil, errors.New("postgres: open needs the log key")
	}
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w (want postgres://user@host:port/dbname)", err)
	}
	if cfg.MaxConns < 8 {
		cfg.MaxConns = 8
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", redact(rawURL), err)
	}
	s := &Store{url: redact(rawURL), pool: pool, db: stdlib.OpenDBFromPool(pool), key: opts.Key, bands: sqlstore.NewBandCache()}
	if err := s.pool.Ping(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connect to %s: %w (is PostgreSQL running, and the URL right?)", s.url, err)
	}
	if err := s.checkKey(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.migrate(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		if err := s.recordKey(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	_ = s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')`).Scan(&s.vector)
	return s, nil
}

// redact drops the password from a database URL.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the database URL"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	return u.String()
}

// Close closes the connection pool.
func (s *Store) Close() error {
	s.closeListener()
	var err error
	if s.db != nil {
		err = s.db.Close()
	}
	if s.pool != nil {
		s.pool.Close()
	}
	return err
}

// Info describes the store; Path is the database URL without its password.
// The version is the schema's alone: baselines record it (HasPgvector says
// whether pgvector is installed).
func (s *Store) Info() memgov.StoreInfo {
	return memgov.StoreInfo{Type: Type, Version: strconv.Itoa(s.schema), Path: s.url}
}

// Path returns the database URL without its password.
func (s *Store) Path() string { return s.url }

// HasPgvector reports whether the pgvector extension is installed in the
// database, for `memgov version` to say. memgov stores vectors as bytea and
// compares them by cosine in Go either way: the same vectors and scores on
// both stores.
func (s *Store) HasPgvector() bool { return s.vector }

func migrations() ([]sqlstore.Migration, error) {
	return sqlstore.LoadMigrations(migrationFS, "migrations")
}

// SchemaVersion is the schema version this build migrates to.
func SchemaVersion() int {
	ms, _ := migrations()
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}

// migrate applies the pending migrations in one transaction, under the
// append lock so that two processes starting at once migrate once. The
// schema version is the row of memgov_schema.
func (s *Store) migrate(ctx context.Context, opts Options) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	latest := ms[len(ms)-1].Version
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err)
	}
	defer tx.Rollback()
	if opts.ReadOnly {
		cur, err := schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		if cur == 0 {
			return fmt.Errorf("%w: no memgov schema in %s", memgov.ErrNotInit, s.url)
		}
		if cur > latest {
			return fmt.Errorf("%w: %s has schema %d, this memgov knows up to %d (upgrade memgov)", memgov.ErrSchemaNewer, s.url, cur, latest)
		}
		s.schema = cur
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, appendLock); err != nil {
		return mapErr(err)
	}
	cur, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if cur > latest {
		return fmt.Errorf("%w: %s has schema %d, this memgov knows up to %d (upgrade memgov)", memgov.ErrSchemaNewer, s.url, cur, latest)
	}
	if cur == 0 && !opts.Create {
		return fmt.Errorf("%w: no memgov schema in %s", memgov.ErrNotInit, s.url)
	}
	if cur < latest {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS memgov_schema (version BIGINT NOT NULL)`); err != nil {
			return mapErr(err)
		}
		for _, m := range ms {
			if m.Version <= cur {
				continue
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, mapErr(err))
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memgov_schema`); err != nil {
			return mapErr(err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memgov_schema (version) VALUES ($1)`, latest); err != nil {
			return mapErr(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return mapErr(err)
	}
	s.schema = latest
	return nil
}

// schemaVersion reads the schema version of the database (0: none).
func schemaVersion(ctx context.Context, q *sql.Tx) (int, error) {
	var exists bool
	if err := q.QueryRowContext(ctx, `SELECT to_regclass('memgov_schema') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, mapErr(err)
	}
	if !exists {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM memgov_schema`).Scan(&v); err != nil {
		return 0, mapErr(err)
	}
	return int(v.Int64), nil
}

// mapErr turns PostgreSQL's errors the engine tells apart into memgov's.
func mapErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
		return fmt.Errorf("%w: %s", memgov.ErrConflict, pe.Message)
	}
	return err
}

// Update runs fn in one write transaction that holds the append lock: the
// writers of every memgov process on the database run one at a time, as
// SQLite's single writer does.
func (s *Store) Update(ctx context.Context, fn func(memgov.Tx) error) error {
	return s.update(ctx, func(t *sqlstore.Tx) error { return fn(t) })
}

// update is Update for this package's code that needs the *Tx itself.
func (s *Store) update(ctx context.Context, fn func(*sqlstore.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err)
	}
	s.statements.Add(3) // BEGIN, the lock, COMMIT or ROLLBACK
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, appendLock); err != nil {
		tx.Rollback()
		return mapErr(err)
	}
	t := sqlstore.NewTx(sqlstore.Bind(&pgQuerier{tx: tx, n: &s.statements}, dialect), s.key, nil)
	t.UseBands(s.bands)
	if err := fn(t); err != nil {
		tx.Rollback()
		// The band index may have absorbed what the transaction wrote or
		// deleted; it starts afresh.
		s.bands.Reset()
		return err
	}
	if t.Erased() {
		// The verified snapshot holds what is erased: it goes with the
		// erasure, in the same transaction.
		if _, err := tx.ExecContext(ctx, dropSnapshotSQL); err != nil {
			tx.Rollback()
			s.bands.Reset()
			return mapErr(err)
		}
	}
	if err := tx.Commit(); err != nil {
		s.bands.Reset()
		return mapErr(err)
	}
	if t.Erased() {
		s.bands.Reset()
	}
	return nil
}

// View runs fn in a read-only REPEATABLE READ transaction: one snapshot.
func (s *Store) View(ctx context.Context, fn func(memgov.ReadTx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return mapErr(err)
	}
	defer tx.Rollback()
	s.statements.Add(2) // BEGIN, ROLLBACK
	r := sqlstore.NewReadTx(sqlstore.Bind(&pgQuerier{tx: tx, n: &s.statements}, dialect))
	r.UseBands(s.bands)
	return fn(r)
}

// pgQuerier runs statements written with ? placeholders (numbered ?N or in
// order) on a transaction, as PostgreSQL's $N.
type pgQuerier struct {
	tx *sql.Tx
	n  *atomic.Int64 // counts the statements; nil: not counted
}

func (p *pgQuerier) count() {
	if p.n != nil {
		p.n.Add(1)
	}
}

func (p *pgQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	p.count()
	query, args = rebind(query, args)
	r, err := p.tx.ExecContext(ctx, query, args...)
	return r, mapErr(err)
}

func (p *pgQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.count()
	query, args = rebind(query, args)
	r, err := p.tx.QueryContext(ctx, query, args...)
	return r, mapErr(err)
}

func (p *pgQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	p.count()
	query, args = rebind(query, args)
	return p.tx.QueryRowContext(ctx, query, args...)
}

// pgArgs passes Go booleans as the 0 and 1 the schema stores flags as.
func pgArgs(args []any) []any {
	copied := false
	for i, a := range args {
		if b, ok := a.(bool); ok {
			if !copied {
				args, copied = append([]any(nil), args...), true
			}
			if b {
				args[i] = int64(1)
			} else {
				args[i] = int64(0)
			}
		}
	}
	return args
}

// boundQuery is a statement in PostgreSQL's placeholders and how many it has.
type boundQuery struct {
	text  string
	order []int // the argument each $N takes, 0-based
}

var rebound sync.Map // query text -> boundQuery

// rebind turns ? and ?N placeholders outside string literals and quoted
// names into $N, numbered densely in the order they first appear, and passes
// each $N its argument: a statement with numbered placeholders may leave an
// argument unused, which PostgreSQL refuses (it cannot type the parameter).
func rebind(q string, args []any) (string, []any) {
	bq := bindQuery(q)
	out := make([]any, len(bq.order))
	for i, a := range bq.order {
		if a < len(args) {
			out[i] = args[a]
		}
	}
	return bq.text, pgArgs(out)
}

func bindQuery(q string) boundQuery {
	if v, ok := rebound.Load(q); ok {
		return v.(boundQuery)
	}
	var (
		b     strings.Builder
		next  int         // the number a bare ? takes
		order []int       // argument of each $N
		num   map[int]int // argument -> its $N
	)
	num = map[int]int{}
	var quot byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		if quot != 0 {
			b.WriteByte(c)
			if c == quot {
				quot = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quot = c
			b.WriteByte(c)
		case '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := next + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			next = max(next, n)
			p, ok := num[n-1]
			if !ok {
				order = append(order, n-1)
				p = len(order)
				num[n-1] = p
			}
			b.WriteString("$" + strconv.Itoa(p))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	out := boundQuery{text: b.String(), order: order}
	rebound.Store(q, out)
	return out
}

// contentTables hold memory content or text derived from it: Compact
// rewrites them so that no erased row stays in a dead tuple.
var contentTables = []string{"log_payload", "versions", "version_fts", "review_text", "reviews", "mem_ops", "mem_map",
	"model_vectors", "version_features", "version_index", "erased_skeleton", "read_pending", "proposals", "proposal_revisions"}

// Compact rewrites every table that held erased content (VACUUM FULL), so
// the erased bytes are in no dead tuple of the database's files. The server's
// write-ahead log keeps them until its checkpoints recycle its segments.
func (s *Store) Compact(ctx context.Context) error {
	for _, tbl := range contentTables {
		if _, err := s.db.ExecContext(ctx, `VACUUM FULL `+tbl); err != nil {
			return fmt.Errorf("compact: vacuum %s: %w", tbl, mapErr(err))
		}
	}
	return nil
}
