package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// seeded builds a database with a dozen log entries and returns its path.
func seeded(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memgov.db")
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(s, testKey)
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact %d", i)})
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: fmt.Sprintf("k%d", i%4), Layer: memgov.Semantic,
			Content: body, Actor: "bot"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Audit().Checkpoint(ctx, 3600, "bot"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// tamper edits the database with a plain SQLite connection, as another client
// would, after dropping memgov's append-only triggers.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range append([]string{
		"DROP TRIGGER log_append_only_update", "DROP TRIGGER log_append_only_delete", "DROP TRIGGER log_payload_no_update",
		"DROP TRIGGER log_payload_no_delete",
	}, stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func verify(t *testing.T, path string) memgov.VerifyReport {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyDetectsTampering(t *testing.T) {
	tests := []struct {
		name  string
		stmts []string
		lsn   int64
	}{
		{"edited log row", []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 5"}, 5},
		{"edited log time", []string{"UPDATE log SET ts = ts + 1 WHERE lsn = 7"}, 7},
		{"deleted log row", []string{"DELETE FROM log_payload WHERE lsn = 4", "DELETE FROM log WHERE lsn = 4"}, 4},
		{"reordered rows", []string{
			"CREATE TEMP TABLE r AS SELECT * FROM log WHERE lsn IN (3, 4)",
			`UPDATE log SET (ts, op, memory_ref, item_id, version_id, prev_version_id, actor, payload_hash, leaf, chain) =
			 (SELECT ts, op, memory_ref, item_id, version_id, prev_version_id, actor, payload_hash, leaf, chain FROM r WHERE r.lsn = 7 - log.lsn)
			 WHERE lsn IN (3, 4)`,
		}, 3},
		{"edited content row", []string{`UPDATE log_payload SET body = CAST(replace(CAST(body AS TEXT), 'fact 6', 'fact 9') AS BLOB) WHERE lsn = 8`}, 8},
		{"deleted content row", []string{"DELETE FROM log_payload WHERE lsn = 6"}, 6},
		{"faked erasure", []string{"DELETE FROM log_payload WHERE lsn = 6", "INSERT INTO erased_payload (lsn, erased_by) VALUES (6, 9)"}, 6},
		{"recomputed leaf without the key", []string{"UPDATE log SET leaf = zeroblob(32) WHERE lsn = 9"}, 9},
		{"truncated tail", []string{"DELETE FROM log_payload WHERE lsn = 12", "DELETE FROM log WHERE lsn = 12"}, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := seeded(t)
			if rep := verify(t, path); !rep.OK || rep.TreeSize != 12 {
				t.Fatalf("untouched database: %+v", rep)
			}
			tamper(t, path, tc.stmts...)
			rep := verify(t, path)
			if rep.OK {
				t.Fatalf("tampering not detected: %+v", rep)
			}
			if rep.BadLSN != tc.lsn {
				t.Fatalf("bad LSN = %d (%s), want %d", rep.BadLSN, rep.Problem, tc.lsn)
			}
		})
	}
}

func TestTriggersRefuseEdits(t *testing.T) {
	path := seeded(t)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{"UPDATE log SET actor = 'x' WHERE lsn = 1", "DELETE FROM log WHERE lsn = 1", "UPDATE log_payload SET body = x'00' WHERE lsn = 1",
		"DELETE FROM log_payload WHERE lsn = 1"} {
		if _, err := db.Exec(stmt); err == nil {
			t.Errorf("%s: the trigger did not refuse it", stmt)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := sqlite.Open(ctx, filepath.Join(dir, "missing.db"), sqlite.Options{Key: testKey}); err == nil {
		t.Error("opening a missing database without Create succeeded")
	}
	junk := filepath.Join(dir, "junk.db")
	if err := writeFile(junk, "this is not a database, just some text padded out to be long enough to look like a header......"); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.Open(ctx, junk, sqlite.Options{Key: testKey}); err == nil || !isErr(err, sqlite.ErrCorrupt) {
		t.Errorf("junk file: err = %v, want ErrCorrupt", err)
	}
	newer := seeded(t)
	db, _ := sql.Open("sqlite", "file:"+newer)
	if _, err := db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := sqlite.Open(ctx, newer, sqlite.Options{Key: testKey}); !isErr(err, memgov.ErrSchemaNewer) {
		t.Errorf("newer schema: err = %v", err)
	}
}

// The served tables are compared with the recorded digest only while the log
// is unchanged and the record's MAC verifies: a forged record, or an edit
// behind it, sends verification back to a replay that names the row.
func TestVerifyStateCannotBeForged(t *testing.T) {
	path := seeded(t)
	if rep := verify(t, path); !rep.OK || rep.Served != "replay" {
		t.Fatalf("first verify: %+v", rep)
	}
	if rep := verify(t, path); !rep.OK || rep.Served != "digest" {
		t.Fatalf("second verify: %+v", rep)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	if err := db.QueryRow(`SELECT id FROM items ORDER BY id LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, forge := range []string{
		"UPDATE verify_state SET mac = zeroblob(32)",
		"UPDATE verify_state SET size = size - 1",
		"DELETE FROM verify_state",
	} {
		t.Run(forge, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "copy.db")
			if err := copyFile(path, p); err != nil {
				t.Fatal(err)
			}
			tamper(t, p, "UPDATE items SET layer = 'PROCEDURAL' WHERE id = '"+id+"'", forge)
			rep := verify(t, p)
			if rep.OK || rep.Served != "replay" || rep.Table != "items" || rep.Row != id || rep.BadLSN == 0 {
				t.Fatalf("edit behind a forged record: %+v", rep)
			}
		})
	}
	// The edit alone, behind an intact record, is caught by the digest.
	p := filepath.Join(t.TempDir(), "copy.db")
	if err := copyFile(path, p); err != nil {
		t.Fatal(err)
	}
	tamper(t, p, "UPDATE items SET layer = 'PROCEDURAL' WHERE id = '"+id+"'")
	if rep := verify(t, p); rep.OK || rep.Table != "items" {
		t.Fatalf("edit behind an intact record: %+v", rep)
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if _, err := os.Stat(from + "-wal"); err == nil {
		return fmt.Errorf("%s has a WAL; close it first", from)
	}
	return os.WriteFile(to, b, 0o600)
}
