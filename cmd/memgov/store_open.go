package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/postgres"
	"github.com/memgov/memgov/store/sqlite"
)

// This file is where memgov chooses its store: every command, the doors, the
// demo and the migration open a database through openStore. A --db (or
// MEMGOV_DB) that is a postgres:// or postgresql:// URL opens PostgreSQL;
// anything else is the path of a SQLite file.

// isDatabaseURL reports whether db names a PostgreSQL database rather than a
// SQLite file.
func isDatabaseURL(db string) bool { return postgres.IsURL(db) }

// storeOptions says how a store is opened.
type storeOptions struct {
	Key    []byte
	Create bool // create the database (or its schema) when it does not exist
}

// openStore opens the store db names.
func openStore(ctx context.Context, db string, o storeOptions) (memgov.Store, error) {
	if isDatabaseURL(db) {
		s, err := openPostgres(ctx, db, o)
		if err != nil {
			return nil, openHint(err, "run `memgov init --db URL` first")
		}
		return s, nil
	}
	s, err := sqlite.Open(ctx, db, sqlite.Options{Key: o.Key, Create: o.Create})
	if err != nil {
		return nil, openHint(err, "run `memgov init` first, or pass --db")
	}
	return s, nil
}

// openHint adds to a store's refusal to open what to do on the command
// line: initHint for a database memgov has not initialised.
func openHint(err error, initHint string) error {
	switch {
	case errors.Is(err, memgov.ErrNotInit):
		return fmt.Errorf("%w (%s)", err, initHint)
	case errors.Is(err, sqlite.ErrCorrupt):
		return fmt.Errorf("%w (restore it from a backup, or point --db at another file)", err)
	}
	return err
}

// displayDB is db as memgov prints it: a URL without its password.
func displayDB(db string) string {
	if !isDatabaseURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "a PostgreSQL database (unparsable URL)"
	}
	return u.Redacted()
}

// dataDir is memgov's directory in the user's data directory.
func dataDir() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "."
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "memgov")
}

// sideBase is the path the files kept beside a database start with (its key
// DB.key, its policy DB.policy.yaml, the SSH host key, the webhook cursor).
// For a SQLite file that is the file itself; a PostgreSQL database has no
// file, so its files live in memgov's data directory under a name made of the
// server, port and database (never the user or password):
// ~/.local/share/memgov/pg-HOST-PORT-DBNAME.
func sideBase(db string) string {
	if !isDatabaseURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return filepath.Join(dataDir(), "pg-invalid")
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		host = u.Query().Get("host")
	}
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = u.Query().Get("port")
	}
	if port == "" {
		port = "5432"
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" {
		name = u.Query().Get("dbname")
	}
	if name == "" {
		name = u.User.Username()
	}
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_':
				return r
			}
			return '_'
		}, s)
	}
	return filepath.Join(dataDir(), fmt.Sprintf("pg-%s-%s-%s", clean(host), clean(port), clean(name)))
}

// logSize is the number of entries in s's log.
func logSize(ctx context.Context, s memgov.Store) (int64, error) {
	var n int64
	err := s.View(ctx, func(tx memgov.ReadTx) (err error) {
		n, err = tx.LogSize(ctx)
		return err
	})
	return n, err
}

// dbName is the short name of db for titles: the file's name, or the
// PostgreSQL database's name.
func dbName(db string) string {
	if !isDatabaseURL(db) {
		return filepath.Base(db)
	}
	if u, err := url.Parse(db); err == nil && strings.TrimPrefix(u.Path, "/") != "" {
		return strings.TrimPrefix(u.Path, "/")
	}
	return "postgres"
}

// postgresVersion is what `memgov version` says when --db is a PostgreSQL
// URL: the store, the schema this binary migrates to, the database's schema
// and whether the pgvector extension is installed there (memgov compares
// vectors in Go either way). A database it cannot open is said, not fatal.
func (a *app) postgresVersion(ctx context.Context, v map[string]any) (map[string]any, string) {
	v["store"], v["schema"], v["database"] = postgres.Type, postgres.SchemaVersion(), displayDB(a.dbPath)
	line := fmt.Sprintf("memgov %s (%s schema %d)", v["version"], postgres.Type, postgres.SchemaVersion())
	s, _, err := openDB(ctx, a.dbPath, false)
	if err != nil {
		v["database_error"] = err.Error()
		return v, line + fmt.Sprintf("\ndatabase %s: not opened: %v", displayDB(a.dbPath), err)
	}
	defer s.Close()
	info := s.Info()
	pgv := false
	if p, ok := s.(interface{ HasPgvector() bool }); ok {
		pgv = p.HasPgvector()
	}
	v["database_schema"], v["pgvector"] = info.Version, pgv
	vec := "pgvector not installed: vectors are compared in memgov"
	if pgv {
		vec = "pgvector installed"
	}
	schema := strings.TrimSuffix(info.Version, " (pgvector installed)")
	v["database_schema"] = schema
	return v, line + fmt.Sprintf("\ndatabase %s: schema %s, %s", displayDB(a.dbPath), schema, vec)
}
