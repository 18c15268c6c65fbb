package sqlite_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// grow appends n more writes (log entries 13 onwards on a seeded log).
func grow(t *testing.T, path string, n int) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, testKey)
	for i := range n {
		body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("later fact %d", i)})
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: fmt.Sprintf("n%d", i%3), Layer: memgov.Semantic,
			Content: body, Actor: "bot"}); err != nil {
			t.Fatal(err)
		}
	}
}

// verifiedThenGrown is a seeded log verified once (a replay, which keeps the
// verified snapshot) and then grown by 6 entries (LSNs 13 to 18).
func verifiedThenGrown(t *testing.T) string {
	t.Helper()
	path := seeded(t)
	if rep := verify(t, path); !rep.OK || rep.Served != "replay" {
		t.Fatalf("first verify: %+v", rep)
	}
	if _, err := os.Stat(path + "-verified"); err != nil {
		t.Fatalf("the replay kept no verified snapshot: %v", err)
	}
	grow(t, path, 6)
	return path
}

func itemOf(t *testing.T, path, key string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id string
	if err := db.QueryRow(`SELECT id FROM items WHERE key = ?`, key).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// After new appends, verify replays only the new entries on the verified
// snapshot: a clean log verifies so, again after more appends, and --replay
// still replays the whole log.
func TestIncrementalVerifyOfACleanLog(t *testing.T) {
	path := verifiedThenGrown(t)
	rep := verify(t, path)
	if !rep.OK || rep.Served != "incremental" || rep.TreeSize != 18 {
		t.Fatalf("verify after appends: %+v, want an incremental verify of 18 entries", rep)
	}
	if rep := verify(t, path); !rep.OK || rep.Served != "digest" {
		t.Fatalf("verify of the unchanged log: %+v", rep)
	}
	grow(t, path, 3)
	if rep := verify(t, path); !rep.OK || rep.Served != "incremental" || rep.TreeSize != 21 {
		t.Fatalf("second incremental verify: %+v", rep)
	}
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep, err := s.VerifyReplay(context.Background()); err != nil || !rep.OK || rep.Served != "replay" {
		t.Fatalf("verify --replay: %+v %v", rep, err)
	}
}

// Tampering anywhere is caught by the default verify after appends: a log
// row or payload before or after the verified size, a served row written
// before or after it, and an edit made in both the live tables and the
// snapshot, or behind a forged record of the snapshot.
func TestIncrementalVerifyCatchesTampering(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stmts    func(path string) []string
		snapshot []string // run on the snapshot file too
		lsn      int64    // the bad LSN, for a log edit
		table    string   // the table named, for a served row
	}{
		{name: "old log row", stmts: func(string) []string { return []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 5"} }, lsn: 5},
		{name: "old payload", stmts: func(string) []string {
			return []string{`UPDATE log_payload SET body = CAST(replace(CAST(body AS TEXT), 'fact 6', 'fact 9') AS BLOB) WHERE lsn = 8`}
		}, lsn: 8},
		{name: "new log row", stmts: func(string) []string { return []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 15"} }, lsn: 15},
		{name: "new payload", stmts: func(string) []string {
			return []string{`UPDATE log_payload SET body = CAST(replace(CAST(body AS TEXT), 'later fact 4', 'later fact 7') AS BLOB) WHERE lsn = 17`}
		}, lsn: 17},
		{name: "old served row", stmts: func(p string) []string {
			return []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE id = '" + itemOf(t, p, "k1") + "'"}
		}, table: "items"},
		{name: "new served row", stmts: func(p string) []string {
			return []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE id = '" + itemOf(t, p, "n1") + "'"}
		}, table: "items"},
		{name: "old served row in the snapshot too", stmts: func(p string) []string {
			return []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k2'"}
		}, snapshot: []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k2'"}, table: "items"},
		{name: "snapshot and its record forged", stmts: func(p string) []string {
			return []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k3'"}
		}, snapshot: []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k3'"}, table: "items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := verifiedThenGrown(t)
			stmts := tc.stmts(path)
			if tc.snapshot != nil {
				snap := path + "-verified"
				db, err := sql.Open("sqlite", "file:"+snap)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range tc.snapshot {
					if res, err := db.Exec(q); err != nil {
						t.Fatalf("snapshot: %s: %v", q, err)
					} else if n, _ := res.RowsAffected(); n != 1 {
						t.Fatalf("snapshot: %s changed %d rows", q, n)
					}
				}
				db.Close()
				if tc.name == "snapshot and its record forged" {
					// The record names the forged file's hash; without the key its
					// MAC cannot follow.
					b, err := os.ReadFile(snap)
					if err != nil {
						t.Fatal(err)
					}
					stmts = append(stmts, "UPDATE verify_state SET snapshot = x'"+sha256Hex(b)+"'")
				}
			}
			tamper(t, path, stmts...)
			rep := verify(t, path)
			if rep.OK {
				t.Fatalf("tampering not detected: %+v", rep)
			}
			if tc.lsn != 0 && rep.BadLSN != tc.lsn {
				t.Fatalf("bad LSN = %d (%s), want %d", rep.BadLSN, rep.Problem, tc.lsn)
			}
			if tc.table != "" && (rep.Table != tc.table || rep.Served != "replay") {
				t.Fatalf("served row: %+v, want %s named by a replay", rep, tc.table)
			}
		})
	}
}

// An erasure removes the verified snapshot, which holds the erased text; the
// next verify replays the whole log.
func TestErasureDropsTheVerifiedSnapshot(t *testing.T) {
	path := seeded(t)
	if rep := verify(t, path); !rep.OK {
		t.Fatalf("verify: %+v", rep)
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(s, testKey)
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}, "admin"); err != nil {
		t.Fatal(err)
	}
	if rep, err := e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "fact 3", By: "cur", Reason: "test"}); err != nil || rep.Items == 0 {
		t.Fatalf("erase: %+v %v", rep, err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Clean(path + "-verified")); !os.IsNotExist(err) {
		t.Fatalf("the verified snapshot outlived an erasure: %v", err)
	}
	if rep := verify(t, path); !rep.OK || rep.Served != "replay" {
		t.Fatalf("verify after the erasure: %+v", rep)
	}
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// logMarked runs the log check of verify on path.
func logMarked(t *testing.T, path string) (memgov.VerifyReport, int64) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, marked, err := sqlite.VerifyLogMarked(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return rep, marked
}

// After new appends, the entries a verify checked are stood for by its mark
// and only the new ones are checked in full; the mark then moves on. The
// new entries include an audit checkpoint (its root comes from the mark's
// frontier), a retraction and an update of an item written before the mark.
func TestVerifyChecksOnlyTheNewEntriesOfTheLog(t *testing.T) {
	path := verifiedThenGrown(t)
	full := func() memgov.VerifyReport {
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		rep, err := s.VerifyReplay(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep, marked := logMarked(t, path)
	if !rep.OK || marked != 12 || rep.TreeSize != 18 {
		t.Fatalf("log check after appends: %+v, marked %d; want 18 entries of which the mark stands for 12", rep, marked)
	}
	if want := full(); want.Root != rep.Root || !want.OK {
		t.Fatalf("root from the mark %x, from every leaf %x", rep.Root, want.Root)
	}
	// More entries of other kinds: a checkpoint, a retraction, an update.
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(s, testKey)
	if _, err := e.Audit().Checkpoint(ctx, 3600, "bot"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}, "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Host().Forget(ctx, "acme/bot", "fact 1", "cur", "test"); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"text": "fact 2, corrected"})
	if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: "k2", Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	if err := db.QueryRow(`SELECT MAX(lsn) FROM log`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	db.Close()
	rep = verify(t, path)
	if !rep.OK || rep.Served != "incremental" || rep.TreeSize != size {
		t.Fatalf("verify after a checkpoint, a retraction and an update: %+v, want an incremental verify of %d entries", rep, size)
	}
	rep, marked = logMarked(t, path)
	if !rep.OK || marked != size {
		t.Fatalf("the mark did not move on: %+v, marked %d, want %d", rep, marked, size)
	}
	if want := full(); want.Root != rep.Root {
		t.Fatalf("root from the mark %x, from every leaf %x", rep.Root, want.Root)
	}
}

// A mark stands only for the rows it digested, under the log key: an old
// entry altered, removed or re-chained after the mark was recorded, or a
// mark moved on without the key, sends verify back to checking every
// entry, which names the one that does not verify.
func TestLogMarkCannotHideAnOldEdit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string
		lsn   int64
	}{
		{"old log row", []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 3"}, 3},
		{"old log time", []string{"UPDATE log SET ts = ts + 1 WHERE lsn = 9"}, 9},
		{"old payload", []string{`UPDATE log_payload SET body = CAST(replace(CAST(body AS TEXT), 'fact 3', 'fact 8') AS BLOB) WHERE lsn = 5`}, 5},
		{"old entry removed", []string{"DELETE FROM log_payload WHERE lsn = 4", "DELETE FROM log WHERE lsn = 4"}, 4},
		{"old payload removed", []string{"DELETE FROM log_payload WHERE lsn = 6"}, 6},
		{"old leaf and chain rewritten", []string{"UPDATE log SET leaf = (SELECT leaf FROM log WHERE lsn = 8), chain = (SELECT chain FROM log WHERE lsn = 8) WHERE lsn = 7"}, 7},
		{"mark moved without the key", []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 2", "UPDATE verify_log SET size = 18"}, 2},
		{"mark's sum taken from nowhere", []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 10", "UPDATE verify_log SET sum = zeroblob(32)"}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := verifiedThenGrown(t)
			tamper(t, path, tc.stmts...)
			rep, marked := logMarked(t, path)
			if rep.OK || rep.BadLSN != tc.lsn || marked != 0 {
				t.Fatalf("log check: %+v, marked %d; want LSN %d named by a check of every entry", rep, marked, tc.lsn)
			}
			if rep := verify(t, path); rep.OK || rep.BadLSN != tc.lsn {
				t.Fatalf("verify: %+v, want LSN %d", rep, tc.lsn)
			}
		})
	}
}
