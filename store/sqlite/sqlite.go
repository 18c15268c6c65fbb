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
	"strconv"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Type names this store in baselines (spec §3.2.6 `store`).
const Type = "memgov-sqlite"

// The one compile-time check of the whole contract: Store implements
// memgov.Store, and Update and View pass *sqlstore.Tx and *sqlstore.ReadTx as memgov.Tx and
// memgov.ReadTx, so the compiler checks every transaction method too.
var _ memgov.Store = (*Store)(nil)

// Store is the SQLite implementation of memgov.Store.
type Store struct {
	path   string
	writer *sql.DB
	reader *sql.DB
	key    []byte
	schema int
	stmts  *stmtCache           // statements prepared on the writer connection
	rstmts *stmtCache           // statements prepared on the read connections
	bands  *sqlstore.BandCache  // the near-duplicate band index
	topics *sqlstore.TopicCache // the topic queries' postings
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
			return nil, fmt.Errorf("%w: no database at %s", memgov.ErrNotInit, path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
		if err := createPrivate(path); err != nil {
			return nil, err
		}
	}
	s := &Store{path: path, key: opts.Key, bands: sqlstore.NewBandCache(), topics: sqlstore.NewTopicCache()}
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
	// Every reader stays open: concurrent writers judge on read snapshots,
	// and a connection reopened per read parses the schema again.
	s.reader.SetMaxIdleConns(8)
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
	s.rstmts = newStmtCache(s.reader)
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
		// 16 MiB a reader. A reader's cache starts afresh whenever it sees
		// a commit (SQLite drops a connection's pages once the log has
		// changed), so under writes a larger one holds pages it will not
		// read again; eight readers of 64 MiB made most of the resident
		// memory of a million-item store (bench write: 606 MB peak against
		// 460 MB with 16 MiB, and no slower lookups).
		q.Add("_pragma", "cache_size(-16384)")
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
	if s.rstmts != nil {
		s.rstmts.close()
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

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var cur int
	if err := s.writer.QueryRowContext(ctx, "PRAGMA user_version").Scan(&cur); err != nil {
		return mapOpenErr(s.path, err)
	}
	latest := ms[len(ms)-1].Version
	if cur > latest {
		return fmt.Errorf("%w: %s has schema %d, this memgov knows up to %d (upgrade memgov)", memgov.ErrSchemaNewer, s.path, cur, latest)
	}
	for _, m := range ms {
		if m.Version <= cur {
			continue
		}
		tx, err := s.writer.BeginTx(ctx, nil)
		if err != nil {
			return mapOpenErr(s.path, err)
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.Name, mapOpenErr(s.path, err))
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, mapOpenErr(s.path, err))
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
			return fmt.Errorf("%w: %s", ErrCorrupt, path)
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
	return s.update(ctx, func(t *sqlstore.Tx) error { return fn(t) })
}

// update is Update for this package's code that needs the *Tx itself.
func (s *Store) update(ctx context.Context, fn func(*sqlstore.Tx) error) error {
	s.stmts.prepareWanted(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	// The transaction is not bound to ctx: database/sql would roll it back
	// from another goroutine as soon as ctx ends, racing the statement the
	// transaction runs next. Its statements see ctx instead (stmtQuerier's
	// whole): the first one after ctx ends fails with ctx's error, and the
	// transaction rolls back here.
	tx, err := s.writer.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return mapOpenErr(s.path, err)
	}
	t := sqlstore.NewTx(sqlstore.Bind(&stmtQuerier{tx: tx, cache: s.stmts, whole: true}, dialect), s.key, s.dropSnapshot)
	t.UseBands(s.bands)
	t.UseTopics(s.topics)
	if err := fn(t); err != nil {
		tx.Rollback()
		// The band index and the topic cache may have absorbed what the
		// transaction wrote or deleted; they start afresh.
		s.bands.Reset()
		s.topics.Reset()
		return err
	}
	if err := tx.Commit(); err != nil {
		s.bands.Reset()
		s.topics.Reset()
		return mapOpenErr(s.path, err)
	}
	if t.Erased() {
		s.bands.Reset()
	}
	if t.Erased() || t.Rebuilt() {
		s.topics.Reset()
	}
	return nil
}

// View runs fn in a read transaction on a consistent snapshot. Its
// statements are prepared once on each read connection and kept, as the
// writer's are: concurrent writers judge on read snapshots, and compiling
// their statements afresh at every read cost as much as running them.
func (s *Store) View(ctx context.Context, fn func(memgov.ReadTx) error) error {
	s.rstmts.prepareWanted(ctx)
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return mapOpenErr(s.path, err)
	}
	defer tx.Rollback()
	r := sqlstore.NewReadTx(sqlstore.Bind(&stmtQuerier{tx: tx, cache: s.rstmts}, dialect))
	r.UseBands(s.bands)
	r.UseTopics(s.topics)
	return fn(r)
}

// SecureDelete and Compact: erased bytes leave the file.

// Compact moves every committed page into the database file, rewrites the file
// without free pages and truncates the WAL, so erased bytes are in neither.
func (s *Store) Compact(ctx context.Context) error {
	s.dropSnapshot() // a verify that raced the erasure may have kept one
	for _, stmt := range []string{`PRAGMA secure_delete = ON`, `PRAGMA wal_checkpoint(TRUNCATE)`, `VACUUM`, `PRAGMA wal_checkpoint(TRUNCATE)`, `PRAGMA secure_delete = OFF`} {
		if _, err := s.writer.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("compact: %s: %w", stmt, mapOpenErr(s.path, err))
		}
	}
	return nil
}
