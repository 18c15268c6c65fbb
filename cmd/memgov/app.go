package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/policy"
)

// app holds what every command shares: flags, streams and the open engine.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	dbPath     string
	policyPath string
	store      memgov.Store
	eng        *engine.Engine
}

func (a *app) close() {
	if a.store != nil {
		a.store.Close()
	}
}

// defaultDBPath is memgov.db under the user's data directory.
func defaultDBPath() string {
	if p := os.Getenv("MEMGOV_DB"); p != "" {
		return p
	}
	if os.Getenv("XDG_DATA_HOME") == "" {
		if _, err := os.UserHomeDir(); err != nil {
			return "memgov.db"
		}
	}
	return filepath.Join(dataDir(), "memgov.db")
}

// keyPath is where the log key of a database lives: beside it, mode 0600
// (for a PostgreSQL URL, in memgov's data directory: sideBase).
func keyPath(db string) string { return sideBase(db) + ".key" }

// loadKey returns the log key from MEMGOV_KEY or the key file.
func loadKey(db string, create bool) ([]byte, error) {
	if k := os.Getenv("MEMGOV_KEY"); k != "" {
		if len(k) < 16 {
			return nil, errors.New("MEMGOV_KEY must be at least 16 characters")
		}
		return []byte(k), nil
	}
	p := keyPath(db)
	b, err := os.ReadFile(p)
	if err == nil {
		k := strings.TrimSpace(string(b))
		if len(k) < 32 {
			return nil, fmt.Errorf("the key file %s is too short; restore it from a backup", p)
		}
		return []byte(k), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read key file: %w", err)
	}
	_, serr := os.Stat(db)
	if isDatabaseURL(db) {
		// A server's database cannot be looked at without a key: a new key
		// is refused by open when the database already holds a log.
		serr = fs.ErrNotExist
		if !create {
			return nil, fmt.Errorf("%w: no log key for %s (run `memgov init` for a new database; for an existing one set MEMGOV_KEY to the key of its log, or put it in %s)", memgov.ErrNotInit, displayDB(db), p)
		}
	}
	if serr == nil && create {
		return nil, fmt.Errorf("%s exists but its key file %s is missing: refusing to create a new key for an existing database (restore the key file or set MEMGOV_KEY)", db, p)
	}
	if !create {
		if serr == nil {
			return nil, fmt.Errorf("the key file %s is missing: set MEMGOV_KEY or restore the key file; without it the log cannot be verified or extended", p)
		}
		return nil, fmt.Errorf("%w: no database at %s (run `memgov init`, or pass --db / set MEMGOV_DB)", memgov.ErrNotInit, db)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, err
	}
	k := hex.EncodeToString(raw[:])
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("create database directory: %w", err)
	}
	if err := os.WriteFile(p, []byte(k+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write key file: %w", err)
	}
	return []byte(k), nil
}

// open opens the database (creating it when create is set) and the engine.
func (a *app) open(ctx context.Context, create bool) (*engine.Engine, error) {
	if a.eng != nil {
		return a.eng, nil
	}
	pol, _, err := a.loadPolicy()
	if err != nil {
		return nil, err
	}
	s, key, err := openDB(ctx, a.dbPath, create)
	if err != nil {
		return nil, err
	}
	opts := append([]engine.Option{engine.WithPolicy(pol)}, modelOptions(pol)...)
	if clock, err := envClock(); err != nil {
		s.Close()
		return nil, err
	} else if clock != nil {
		opts = append(opts, engine.WithClock(clock))
	}
	a.store, a.eng = s, engine.New(s, key, opts...)
	return a.eng, nil
}

// openDB loads the log key of db (making one when create is set and there is
// none) and opens its store. A key made now for a PostgreSQL database that
// already holds a log is refused and removed: it cannot be that log's key.
func openDB(ctx context.Context, db string, create bool) (memgov.Store, []byte, error) {
	_, keyErr := os.Stat(keyPath(db))
	newKey := create && isDatabaseURL(db) && os.Getenv("MEMGOV_KEY") == "" && errors.Is(keyErr, fs.ErrNotExist)
	key, err := loadKey(db, create)
	if err != nil {
		return nil, nil, err
	}
	s, err := openStore(ctx, db, storeOptions{Key: key, Create: create})
	if err != nil {
		if newKey {
			os.Remove(keyPath(db))
		}
		return nil, nil, err
	}
	if newKey {
		if n, err := logSize(ctx, s); err != nil || n > 0 {
			s.Close()
			os.Remove(keyPath(db))
			if err != nil {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf("%s already holds a log of %d entries but there is no key for it here: set MEMGOV_KEY to its key, or put the key in %s", displayDB(db), n, keyPath(db))
		}
	}
	return s, key, nil
}

// envClock is the clock MEMGOV_NOW sets: time starts at that instant
// (RFC 3339) and runs on from it. Operators use it to replay a scenario at a
// given time, tests to run a second process later than the first without
// waiting; nil when it is unset.
func envClock() (func() time.Time, error) {
	v := os.Getenv("MEMGOV_NOW")
	if v == "" {
		return nil, nil
	}
	base, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, fmt.Errorf("MEMGOV_NOW=%q is not an RFC 3339 time: %w", v, err)
	}
	start := time.Now()
	return func() time.Time { return base.Add(time.Since(start)) }, nil
}

// loadPolicy returns the effective policy and where it came from: --policy,
// else DB.policy.yaml beside the database, else the built-in defaults.
func (a *app) loadPolicy() (policy.Policy, string, error) { return a.loadPolicyFor(a.dbPath) }

// loadPolicyFor is loadPolicy for the database db.
func (a *app) loadPolicyFor(db string) (policy.Policy, string, error) {
	path := a.policyPath
	if path == "" {
		beside := sideBase(db) + ".policy.yaml"
		if _, err := os.Stat(beside); err == nil {
			path = beside
		}
	}
	if path == "" {
		return policy.Default(), "built-in defaults (docs/spec.md)", nil
	}
	p, err := policy.Load(path)
	if err != nil {
		return policy.Policy{}, "", fmt.Errorf("policy %s: %w", path, err)
	}
	return p, path + " over the built-in defaults", nil
}

// engine opens an existing database.
func (a *app) engine(cmd *cobra.Command) (*engine.Engine, error) {
	return a.open(cmd.Context(), false)
}

func (a *app) printJSON(v any) error { return a.encodeJSON(v, true) }

// table writes aligned columns; cells are sanitised because agent-written
// text is untrusted.
type table struct{ tw *tabwriter.Writer }

func (a *app) table(header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)}
	if len(header) > 0 {
		t.row(header...)
	}
	return t
}

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = guard.SanitizeLine(c)
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

func (t *table) flush() { t.tw.Flush() }

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// short abbreviates a UUID for tables.
func short(id string) string {
	if len(id) > 13 {
		return id[:8] + "…" + id[len(id)-4:]
	}
	return id
}

// printJSONLine writes v as one line of JSON (for results scripts read).
func (a *app) printJSONLine(v any) error { return a.encodeJSON(v, false) }
