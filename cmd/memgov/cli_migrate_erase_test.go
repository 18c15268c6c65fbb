package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The subject an erasure removes, and a text that stays: the copies must hold
// the second and nothing of the first.
const (
	erasedEmail = "zelda.quartermain@example.org"
	erasedName  = "Quartermain"
	keptText    = "Preprints are cited with their arXiv identifier."
)

// writeErasable writes memory about one data subject (committed, updated and
// awaiting review) beside memory about nothing personal, erases the subject,
// and returns the log size.
func writeErasable(t *testing.T, c *cli) int64 {
	t.Helper()
	for _, w := range []struct{ agent, ref, key, text string }{
		{"billing-agent", "acme/billing-agent", "contact/escalation", "Escalate refunds to Zelda Quartermain at " + erasedEmail + "."},
		{"billing-agent", "acme/billing-agent", "contact/escalation", "Escalate refunds to Zelda Quartermain (" + erasedEmail + ") after 5pm."},
		{"billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."},
		{"support-bot", "acme/support-bot", "vip", "Zelda Quartermain is a VIP: write to " + erasedEmail + " first."},
		{"research-agent", "globex/research-agent", "sources", keptText},
	} {
		if r := c.write(writeReq(w.agent, w.ref, w.key, w.text)); r.Status != "COMMITTED" && r.Status != "DEFERRED" {
			t.Fatalf("write %s: %+v", w.key, r)
		}
	}
	out := c.ok("", "erase", "--subject", erasedEmail, "--id", "Zelda "+erasedName, "--by", "jane", "--json")
	if jsonField(out, "status") != "COMPLETED" || jsonInt(t, out, "items") != 2 {
		t.Fatalf("erase: %s", out)
	}
	return jsonInt(t, c.ok("", "audit", "root"), "tree_size")
}

// checkNoErasedText fails when any of a SQLite database's files holds the
// erased subject, and checks the search finds the text that was kept.
func checkNoErasedText(t *testing.T, db string) {
	t.Helper()
	var all []byte
	for _, suffix := range []string{"", "-wal", "-journal"} {
		b, err := os.ReadFile(db + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	if !bytes.Contains(all, []byte(keptText)) {
		t.Fatalf("%s does not hold the kept text: the search for the erased one would prove nothing", db)
	}
	low := bytes.ToLower(all)
	for _, s := range []string{erasedEmail, strings.ToLower(erasedName)} {
		if i := bytes.Index(low, []byte(s)); i >= 0 {
			t.Fatalf("%s holds the erased %q at byte %d", db, s, i)
		}
	}
}

// pgRowsWith counts the rows of every table of a PostgreSQL database whose
// text, or whose bytes (bytea columns read as hex), hold s.
func pgRowsWith(t *testing.T, u, s string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(ctx, `SELECT quote_ident(table_name) FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	if rows.Err() != nil || len(tables) < 10 {
		t.Fatalf("tables of %s: %v, %v", u, tables, rows.Err())
	}
	var total int64
	for _, tbl := range tables {
		var n int64
		q := `SELECT COUNT(*) FROM ` + tbl + ` r WHERE strpos(lower(CAST(r AS text)), lower($1)) > 0 OR strpos(CAST(r AS text), $2) > 0`
		if err := conn.QueryRow(ctx, q, s, hex.EncodeToString([]byte(s))).Scan(&n); err != nil {
			t.Fatalf("%s: %v", tbl, err)
		}
		total += n
	}
	return total
}

// TestCLIMigrateErasedSQLite copies a database whose log holds erased
// payloads to another SQLite file: the copy replays the erasures' skeletons,
// shows the same roots and snapshot hashes, verifies by a full replay, and
// holds nothing of the erased subject.
func TestCLIMigrateErasedSQLite(t *testing.T) {
	c := newCLI(t)
	c.setup()
	size := writeErasable(t, c)
	to := filepath.Join(t.TempDir(), "copy.db")
	m := c.migrate(c.db, to)
	c.checkMigrated(m, c.db, to, size, true)
	checkNoErasedText(t, to)
	// The copy lists the erasure, and finds nothing more of the subject.
	c2 := &cli{t: t, db: to, env: append(os.Environ(), "MEMGOV_DB="+to, "MEMGOV_KEY=", "NO_COLOR=1")}
	out := c2.ok("", "erase", "--subject", erasedEmail, "--by", "jane", "--dry-run", "--json")
	if jsonField(out, "status") != "NOTHING_FOUND" {
		t.Fatalf("the copy still finds the subject: %s", out)
	}
	// A copy of the copy is the same again.
	again := filepath.Join(t.TempDir(), "again.db")
	c.checkMigrated(c.migrate(to, again), to, again, size, false)

	// A source whose erased payload lost its skeleton does not verify, and is
	// refused before the target is touched.
	db, err := sql.Open("sqlite", to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM erased_skeleton WHERE lsn = (SELECT MIN(lsn) FROM erased_skeleton)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	refused := filepath.Join(t.TempDir(), "refused.db")
	if _, errOut, code := c.run("", "admin", "migrate", "--from", to, "--to", refused); code != 1 || !strings.Contains(errOut, "skeleton") {
		t.Fatalf("migrate of a source without a skeleton: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(refused); err == nil {
		t.Fatalf("a refused migrate created %s", refused)
	}
}

// TestCLIMigrateErasedToPostgresAndBack copies a database with erasures to
// PostgreSQL and back to SQLite: the same roots and snapshot hashes on all
// three, and the erased subject in no row of PostgreSQL and no byte of the
// SQLite copy.
func TestCLIMigrateErasedToPostgresAndBack(t *testing.T) {
	u := pgDatabase(t)
	dir := t.TempDir()
	c := &cli{t: t, db: filepath.Join(dir, "erased.db")}
	c.env = append(os.Environ(), "MEMGOV_DB="+c.db, "MEMGOV_KEY=", "NO_COLOR=1", "XDG_DATA_HOME="+filepath.Join(dir, "data"))
	c.setup()
	size := writeErasable(t, c)
	at := time.Now().UTC().Format(time.RFC3339Nano)
	there := c.migrate(c.db, u, "--at", at)
	if there.To.Store != "memgov-postgres" {
		t.Fatalf("target store %s", there.To.Store)
	}
	c.checkMigrated(there, c.db, u, size, true)
	if n := pgRowsWith(t, u, keptText); n == 0 {
		t.Fatal("no row of PostgreSQL holds the kept text: the search for the erased one would prove nothing")
	}
	for _, s := range []string{erasedEmail, erasedName} {
		if n := pgRowsWith(t, u, s); n != 0 {
			t.Fatalf("%d rows of PostgreSQL hold the erased %q", n, s)
		}
	}
	back := filepath.Join(dir, "back.db")
	again := c.migrate(u, back, "--at", at)
	c.checkMigrated(again, u, back, size, true)
	if there.From.LogHead != again.To.LogHead || there.From.AuditRoot != again.To.AuditRoot || there.From.HashChained != again.To.HashChained {
		t.Fatalf("the round trip changed the roots: %+v -> %+v", there.From, again.To)
	}
	for ref, h := range there.From.Snapshots {
		if again.To.Snapshots[ref] != h {
			t.Fatalf("the round trip changed the snapshot hash of %s: %s -> %s", ref, h, again.To.Snapshots[ref])
		}
	}
	checkNoErasedText(t, back)
}
