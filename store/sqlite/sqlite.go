// Package sqlite is memgov's embedded store: the append-only log and its derived
// tables in one SQLite file (modernc.org/sqlite, no cgo). One writer connection
// takes every mutation as a BEGIN IMMEDIATE transaction; a pool of read-only
// connections serves reads from WAL snapshots.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/memgov/memgov"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Type names this store in baselines (spec §3.2.6 `store`).
const Type = "memgov-sqlite"

// The one compile-time check of the whole contract: Store implements
// memgov.Store, and Update and View pass *Tx and *readTx as memgov.Tx and
// memgov.ReadTx, so the compiler checks every transaction method too.
var _ memgov.Store = (*Store)(nil)

// Store is the SQLite implementation of memgov.Store.
type Store struct {
	path   string
	writer *sql.DB
	reader *sql.DB
	key    []byte
	schema int
	stmts  *stmtCache // statements prepared on the writer connection
	bands  *bandCache // the near-duplicate band index (bands.go)
}

// Options configure Open.
type Options struct {
	// Key is the HMAC key that chains the log. Required.
	Key []byte
	// Create makes a new database when the file does not exist.
	Create bool
	// ReadOnly opens without migrating; used by read-only tools.
	ReadOnly bool
}

// Open opens (and with Options.Create, creates) the database at path and applies
// pending migrations.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if len(opts.Key) == 0 {
		return nil, errors.New("sqlite: open needs the log key")
	}
	if _, err := os.Stat(path); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("database %s: %w", path, err)
		}
		if !opts.Create {
			return nil, fmt.Errorf("%w: no database at %s (run `memgov init` first, or pass --db)", memgov.ErrNotInit, path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
		if err := createPrivate(path); err != nil {
			return nil, err
		}
	}
	s := &Store{path: path, key: opts.Key, bands: newBandCache()}
	var err error
	if s.writer, err = sql.Open("sqlite", dsn(path, true)); err != nil {
		return nil, err
	}
	s.writer.SetMaxOpenConns(1)
	s.writer.SetConnMaxIdleTime(0)
	if s.reader, err = sql.Open("sqlite", dsn(path, false)); err != nil {
		s.writer.Close()
		return nil, err
	}
	s.reader.SetMaxOpenConns(8)
	if err := s.checkKey(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		if err := s.recordKey(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := tightenModes(path); err != nil {
		s.Close()
		return nil, err
	}
	s.stmts = newStmtCache(s.writer)
	return s, nil
}

func dsn(path string, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if writer {
		// 8 MiB of page cache keeps the B-tree interior pages of a
		// million-item database between writes; a larger cache costs every
		// commit a walk over its hash table (SQLite truncates the page cache
		// at the end of each transaction).
		q.Add("_pragma", "cache_size(-8192)")
		q.Add("_pragma", "journal_mode(WAL)")
		// Checkpoint every 64 MiB of WAL rather than 4 MiB: a write dirties tens
		// of pages, mostly the same hot ones, so rarer checkpoints write and
		// fsync far fewer pages per write.
		q.Add("_pragma", "wal_autocheckpoint(16384)")
		q.Set("_txlock", "immediate")
	} else {
		// Readers scan: 64 MiB each.
		q.Add("_pragma", "cache_size(-65536)")
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Close closes both connection pools.
func (s *Store) Close() error {
	var errs []error
	if s.stmts != nil {
		s.stmts.close()
	}
	if s.reader != nil {
		errs = append(errs, s.reader.Close())
	}
	if s.writer != nil {
		errs = append(errs, s.writer.Close())
	}
	return errors.Join(errs...)
}

// Info describes the store.
func (s *Store) Info() memgov.StoreInfo {
	return memgov.StoreInfo{Type: Type, Version: strconv.Itoa(s.schema), Path: s.path}
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	ents, err := migrationFS.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range ents {
		n, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(n)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// SchemaVersion is the schema version this build migrates to.
func SchemaVersion() int {
	ms, _ := migrations()
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var cur int
	if err := s.writer.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
		return mapOpenErr(s.path, err)
	}
	latest := ms[len(ms)-1].version
	if cur > latest {
		return fmt.Errorf("%w: %s has schema %d, this memgov knows up to %d (upgrade memgov)", memgov.ErrSchemaNewer, s.path, cur, latest)
	}
	for _, m := range ms {
		if m.version <= cur {
			continue
		}
		tx, err := s.writer.BeginTx(ctx, nil)
		if err != nil {
			return mapOpenErr(s.path, err)
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, mapOpenErr(s.path, err))
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, mapOpenErr(s.path, err))
		}
	}
	s.schema = latest
	return nil
}

// ErrCorrupt reports a file that is not a usable SQLite database.
var ErrCorrupt = errors.New("database file is not a valid memgov database")

// ErrLocked reports a database held by another writer past the busy timeout.
var ErrLocked = errors.New("database is locked by another process")

func mapOpenErr(path string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("%w: %s (restore it from a backup, or point --db at another file)", ErrCorrupt, path)
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			return fmt.Errorf("%w: %s (wait for the other memgov process, then retry)", ErrLocked, path)
		case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
			return fmt.Errorf("cannot open %s for writing: %v (check the file's permissions)", path, err)
		}
	}
	return err
}

// Update runs fn in one BEGIN IMMEDIATE transaction.
func (s *Store) Update(ctx context.Context, fn func(memgov.Tx) error) error {
	return s.update(ctx, func(t *Tx) error { return fn(t) })
}

// update is Update for this package's code that needs the *Tx itself.
func (s *Store) update(ctx context.Context, fn func(*Tx) error) error {
	s.stmts.prepareWanted(ctx)
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return mapOpenErr(s.path, err)
	}
	t := &Tx{readTx: readTx{q: &stmtQuerier{tx: tx, cache: s.stmts}, bands: s.bands}, store: s}
	if err := fn(t); err != nil {
		tx.Rollback()
		// The band index may have absorbed what the transaction wrote or
		// deleted; it starts afresh.
		s.bands.reset()
		return err
	}
	if err := tx.Commit(); err != nil {
		s.bands.reset()
		return mapOpenErr(s.path, err)
	}
	if t.erased {
		s.bands.reset()
	}
	return nil
}

// View runs fn in a read transaction on a consistent snapshot.
func (s *Store) View(ctx context.Context, fn func(memgov.ReadTx) error) error {
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return mapOpenErr(s.path, err)
	}
	defer tx.Rollback()
	return fn(&readTx{q: tx, bands: s.bands})
}

// querier is what both *sql.Tx and *sql.DB offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// scanner is what *sql.Row and *sql.Rows offer.
type scanner interface{ Scan(...any) error }

// queryAll runs a query and scans every row with scan; it never returns a nil
// slice, so empty results encode as [] in JSON.
func queryAll[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
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
