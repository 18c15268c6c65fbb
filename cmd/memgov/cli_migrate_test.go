package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// migrateOut is what `memgov admin migrate --json` prints.
type migrateOut struct {
	Copied int64 `json:"copied"`
	From   struct {
		Entries     int64             `json:"entries"`
		LogHead     string            `json:"log_head"`
		AuditRoot   string            `json:"audit_chain_root"`
		HashChained string            `json:"hash_chained_root"`
		Snapshots   map[string]string `json:"snapshot_hashes"`
		Store       string            `json:"store"`
	} `json:"from"`
	To struct {
		Entries     int64             `json:"entries"`
		LogHead     string            `json:"log_head"`
		AuditRoot   string            `json:"audit_chain_root"`
		HashChained string            `json:"hash_chained_root"`
		Snapshots   map[string]string `json:"snapshot_hashes"`
		Store       string            `json:"store"`
		Verified    *bool             `json:"verified"`
		Served      string            `json:"served_tables"`
	} `json:"to"`
	Same        bool     `json:"same"`
	Differences []string `json:"differences"`
}

// migrate runs `memgov admin migrate --json` and decodes its result.
func (c *cli) migrate(from, to string, args ...string) migrateOut {
	c.t.Helper()
	out := c.ok("", append([]string{"admin", "migrate", "--from", from, "--to", to, "--json"}, args...)...)
	var m migrateOut
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		c.t.Fatalf("migrate output %q: %v", out, err)
	}
	return m
}

// checkMigrated checks that a migration reported the same log, roots and
// snapshot hashes on both sides, a copy verified by a full replay, and that
// `memgov audit root` of both databases agrees with it; thorough adds
// `memgov snapshot hash` of every memoryRef and `audit verify --replay` of
// the copy, each its own process.
func (c *cli) checkMigrated(m migrateOut, from, to string, wantEntries int64, thorough bool) {
	c.t.Helper()
	if !m.Same || len(m.Differences) != 0 || m.To.Verified == nil || !*m.To.Verified || m.To.Served != "replay" {
		c.t.Fatalf("migrate %s -> %s: same %v, differences %v, verified %v", from, to, m.Same, m.Differences, m.To.Verified)
	}
	if m.Copied != wantEntries || m.From.Entries != wantEntries || m.To.Entries != wantEntries {
		c.t.Fatalf("copied %d, entries %d -> %d, want %d", m.Copied, m.From.Entries, m.To.Entries, wantEntries)
	}
	if m.From.LogHead == "" || m.From.LogHead != m.To.LogHead || m.From.AuditRoot != m.To.AuditRoot || m.From.HashChained != m.To.HashChained {
		c.t.Fatalf("roots differ: %+v", m)
	}
	if len(m.From.Snapshots) == 0 || len(m.From.Snapshots) != len(m.To.Snapshots) {
		c.t.Fatalf("snapshot hashes: %v -> %v", m.From.Snapshots, m.To.Snapshots)
	}
	for ref, h := range m.From.Snapshots {
		if m.To.Snapshots[ref] != h || !strings.HasPrefix(h, "sha256:") {
			c.t.Fatalf("snapshot hash of %s: %q -> %q", ref, h, m.To.Snapshots[ref])
		}
	}
	// What the migration printed is what each database says by itself.
	rootOf := func(db string) string {
		return jsonField(c.ok("", "--db", db, "audit", "root"), "audit_chain_root")
	}
	if rf, rt := rootOf(from), rootOf(to); rf != m.From.AuditRoot || rt != m.To.AuditRoot {
		c.t.Fatalf("audit root: %s and %s, migrate said %s", rf, rt, m.From.AuditRoot)
	}
	// (`snapshot hash` expires what is due first, so it is compared only
	// where nothing expires.)
	for ref, h := range m.To.Snapshots {
		if !thorough {
			break
		}
		got := strings.TrimSpace(c.ok("", "--db", to, "snapshot", "hash", ref))
		if got != h {
			c.t.Fatalf("memgov snapshot hash %s on %s: %s, migrate said %s", ref, to, got, h)
		}
	}
	if !thorough {
		return
	}
	out := c.ok("", "--db", to, "audit", "verify", "--replay", "--json")
	if jsonField(out, "served_tables") != "replay" || !strings.Contains(out, `"ok": true`) {
		c.t.Fatalf("audit verify --replay of %s: %s", to, out)
	}
}

// TestCLIMigrateSQLite copies a database to another SQLite file by
// replaying its log, refuses to copy into a database that is not empty, and
// checks the copy's roots, snapshot hashes and replay.
func TestCLIMigrateSQLite(t *testing.T) {
	c := newCLI(t)
	c.setup()
	for _, w := range []struct{ agent, ref, key, text string }{
		{"billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."},
		{"billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $2,000 need no second signature."},
		{"support-bot", "acme/support-bot", "greeting", "Customers are greeted by their first name."},
		{"research-agent", "globex/research-agent", "sources", "Preprints are cited with their arXiv identifier."},
	} {
		// The executor's write waits for review: the copy carries the queue.
		if r := c.write(writeReq(w.agent, w.ref, w.key, w.text)); r.Status != "COMMITTED" && r.Status != "DEFERRED" {
			t.Fatalf("write %s: %+v", w.key, r)
		}
	}
	size := jsonInt(t, c.ok("", "audit", "root"), "tree_size")
	dir := t.TempDir()
	to := filepath.Join(dir, "copy.db")
	m := c.migrate(c.db, to)
	if m.From.Store != "memgov-sqlite" || m.To.Store != "memgov-sqlite" {
		t.Fatalf("stores %s -> %s", m.From.Store, m.To.Store)
	}
	c.checkMigrated(m, c.db, to, size, true)
	// The copy is chained with the source's key, written beside it.
	k1, _ := os.ReadFile(c.db + ".key")
	k2, err := os.ReadFile(to + ".key")
	if err != nil || string(k1) != string(k2) {
		t.Fatalf("target key file: %v (same as the source's: %v)", err, string(k1) == string(k2))
	}
	// The copy is a working database: a new write lands on it.
	if r := c.write(writeReq("billing-agent", "acme/billing-agent", "closing", "Invoices close after a day of silence.")); r.Status != "COMMITTED" {
		t.Fatalf("write to the source: %+v", r)
	}
	c2 := &cli{t: t, db: to, env: append(os.Environ(), "MEMGOV_DB="+to, "MEMGOV_KEY=", "NO_COLOR=1")}
	if r := c2.write(writeReq("billing-agent", "acme/billing-agent", "closing", "Invoices close after a week of silence.")); r.Status != "COMMITTED" {
		t.Fatalf("write to the copy: %+v", r)
	}

	// A target that is not empty is refused and left as it was.
	before := c.ok("", "--db", to, "audit", "root")
	out, errOut, code := c.run("", "admin", "migrate", "--from", c.db, "--to", to)
	if code != 1 || !strings.Contains(errOut, "not empty") || !strings.Contains(errOut, "new SQLite file") || out != "" {
		t.Fatalf("migrate into a non-empty target: exit %d, %q %q", code, out, errOut)
	}
	if after := c.ok("", "--db", to, "audit", "root"); after != before {
		t.Fatalf("a refused migrate changed the target: %s -> %s", before, after)
	}
	// A target with another key is refused before anything is written.
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other+".key", []byte(strings.Repeat("b", 64)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := c.run("", "admin", "migrate", "--from", c.db, "--to", other); code != 1 || !strings.Contains(errOut, "not the source's") {
		t.Fatalf("migrate to a target with another key: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(other); err == nil {
		t.Fatalf("a refused migrate created %s", other)
	}
	// Usage mistakes exit 2 and say what to do.
	for _, args := range [][]string{
		{"admin", "migrate", "--from", c.db},
		{"admin", "migrate", "--to", to},
		{"admin", "migrate", "--from", c.db, "--to", c.db},
	} {
		if _, errOut, code := c.run("", args...); code != 2 || !strings.Contains(errOut, "--") {
			t.Errorf("memgov %s: exit %d, %q", strings.Join(args, " "), code, errOut)
		}
	}
	// A missing source is an error naming memgov init.
	if _, errOut, code := c.run("", "admin", "migrate", "--from", filepath.Join(dir, "none.db"), "--to", filepath.Join(dir, "x.db")); code != 1 || !strings.Contains(errOut, "memgov init") {
		t.Fatalf("missing source: exit %d, %q", code, errOut)
	}
	if out := c.ok("", "admin", "migrate", "--help"); !strings.Contains(out, "Examples:") || !strings.Contains(out, "postgres://") {
		t.Fatalf("migrate --help: %s", out)
	}
	// A log with erased payloads is copied with their skeletons.
	c.ok("", "erase", "--subject", "arXiv", "--by", "jane")
	erased := filepath.Join(dir, "erased.db")
	c.checkMigrated(c.migrate(c.db, erased), c.db, erased, jsonInt(t, c.ok("", "audit", "root"), "tree_size"), false)
}

func jsonInt(t *testing.T, s, name string) int64 {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	v, ok := m[name].(float64)
	if !ok {
		t.Fatalf("%s has no number %s", s, name)
	}
	return int64(v)
}

// TestCLIPostgresBasics runs init, principal add, a write, audit verify and
// version on a PostgreSQL database chosen by MEMGOV_DB.
func TestCLIPostgresBasics(t *testing.T) {
	c := newPGCLI(t)
	c.setup()
	if r := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature.")); r.Status != "COMMITTED" {
		t.Fatalf("write: %+v", r)
	}
	out := c.ok("", "audit", "verify", "--replay", "--json")
	if !strings.Contains(out, `"ok": true`) {
		t.Fatalf("verify: %s", out)
	}
	v := c.ok("", "version", "--json")
	if jsonField(v, "store") != "memgov-postgres" || !strings.Contains(v, `"pgvector"`) || jsonField(v, "database_error") != "" {
		t.Fatalf("version: %s", v)
	}
	// Another host without the key: refused, saying where the key goes.
	other := &cli{t: t, db: c.db}
	data := t.TempDir()
	other.env = append(os.Environ(), "MEMGOV_DB="+c.db, "MEMGOV_KEY=", "NO_COLOR=1", "XDG_DATA_HOME="+data)
	if _, errOut, code := other.run("", "list", "acme/billing-agent", "--as", "jane"); code != 1 || !strings.Contains(errOut, "MEMGOV_KEY") || !strings.Contains(errOut, "pg-") {
		t.Fatalf("no key: exit %d, %q", code, errOut)
	}
	// init there makes no new key for a database that holds a log.
	if _, errOut, code := other.run("", "init"); code != 1 || !strings.Contains(errOut, "key") {
		t.Fatalf("init with a new key on a database with a log: exit %d, %q", code, errOut)
	}
	if keys, _ := filepath.Glob(filepath.Join(data, "memgov", "*.key")); len(keys) != 0 {
		t.Fatalf("a refused init left a key file: %v", keys)
	}
	// With the key in MEMGOV_KEY it reads.
	key, err := os.ReadFile(keyPathIn(t, c))
	if err != nil {
		t.Fatal(err)
	}
	other.env = append(other.env, "MEMGOV_KEY="+strings.TrimSpace(string(key)))
	other.ok("", "audit", "verify")
}

// keyPathIn is the key file of c's PostgreSQL database in c's data directory.
func keyPathIn(t *testing.T, c *cli) string {
	t.Helper()
	for _, kv := range c.env {
		if d, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			keys, _ := filepath.Glob(filepath.Join(d, "memgov", "pg-*.key"))
			if len(keys) == 1 {
				return keys[0]
			}
			t.Fatalf("key files in %s: %v", d, keys)
		}
	}
	t.Fatal("no XDG_DATA_HOME in the test's environment")
	return ""
}

// TestCLIMigrateDemoToPostgresAndBack copies the demo database to
// PostgreSQL and back to a SQLite file: the same log head, audit root,
// hash-chained root and snapshot hashes on all three, each copy verifying by
// a full replay; a second copy into the PostgreSQL database is refused.
func TestCLIMigrateDemoToPostgresAndBack(t *testing.T) {
	u := pgDatabase(t)
	dir := t.TempDir()
	c := &cli{t: t, db: filepath.Join(dir, "demo.db")}
	c.env = append(os.Environ(), "MEMGOV_DB="+c.db, "MEMGOV_KEY=", "NO_COLOR=1", "XDG_DATA_HOME="+filepath.Join(dir, "data"))
	c.ok("", "demo", "--no-tui")
	size := jsonInt(t, c.ok("", "audit", "root"), "tree_size")

	// Both copies hash the memory maps at one time, so that nothing that
	// expires between the two runs tells them apart.
	at := time.Now().UTC().Format(time.RFC3339Nano)
	there := c.migrate(c.db, u, "--at", at)
	if there.To.Store != "memgov-postgres" {
		t.Fatalf("target store %s", there.To.Store)
	}
	c.checkMigrated(there, c.db, u, size, false)
	back := filepath.Join(dir, "back.db")
	again := c.migrate(u, back, "--at", at)
	if again.From.Store != "memgov-postgres" || again.To.Store != "memgov-sqlite" {
		t.Fatalf("stores %s -> %s", again.From.Store, again.To.Store)
	}
	c.checkMigrated(again, u, back, size, false)
	if there.From.LogHead != again.To.LogHead || there.From.AuditRoot != again.To.AuditRoot || there.From.HashChained != again.To.HashChained {
		t.Fatalf("the round trip changed the roots: %+v -> %+v", there.From, again.To)
	}
	for ref, h := range there.From.Snapshots {
		if again.To.Snapshots[ref] != h {
			t.Fatalf("the round trip changed the snapshot hash of %s: %s -> %s", ref, h, again.To.Snapshots[ref])
		}
	}
	// The PostgreSQL copy is not empty now: a second copy into it is refused.
	if _, errOut, code := c.run("", "admin", "migrate", "--from", c.db, "--to", u); code != 1 || !strings.Contains(errOut, "not empty") || !strings.Contains(errOut, "createdb") {
		t.Fatalf("migrate into the non-empty PostgreSQL database: exit %d, %q", code, errOut)
	}
}
