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
	"github.com/memgov/memgov/store/sqlite"
)

// app holds what every command shares: flags, streams and the open engine.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	dbPath     string
	policyPath string
	store      *sqlite.Store
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
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "memgov.db"
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "memgov", "memgov.db")
}

// keyPath is where the log key of a database lives: beside it, mode 0600.
func keyPath(db string) string { return db + ".key" }

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
	if _, serr := os.Stat(db); serr == nil && create {
		return nil, fmt.Errorf("%s exists but its key file %s is missing: refusing to create a new key for an existing database (restore the key file or set MEMGOV_KEY)", db, p)
	}
	if !create {
		if _, serr := os.Stat(db); serr == nil {
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
	key, err := loadKey(a.dbPath, create)
	if err != nil {
		return nil, err
	}
	pol, _, err := a.loadPolicy()
	if err != nil {
		return nil, err
	}
	s, err := sqlite.Open(ctx, a.dbPath, sqlite.Options{Key: key, Create: create})
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
func (a *app) loadPolicy() (policy.Policy, string, error) {
	path := a.policyPath
	if path == "" {
		beside := a.dbPath + ".policy.yaml"
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
