package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/postgres"
)

// pgVerified is a database with a principal and 10 puts (LSNs 1 to 11),
// verified once (a replay, which keeps the verified snapshot), then grown
// by 6 puts (LSNs 12 to 17): a log whose next verify is incremental.
func pgVerified(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	u := newURL(t, true)
	s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, testKey)
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	put := func(key, text string) {
		body, _ := json.Marshal(map[string]string{"text": text})
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: key, Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 10 {
		put(fmt.Sprintf("k%d", i%4), fmt.Sprintf("fact %d", i))
	}
	if rep, err := s.Verify(ctx); err != nil || !rep.OK || rep.Served != "replay" {
		t.Fatalf("first verify: %+v %v", rep, err)
	}
	if rep, err := s.Verify(ctx); err != nil || !rep.OK || rep.Served != "digest" {
		t.Fatalf("verify of the unchanged log: %+v %v", rep, err)
	}
	for i := range 6 {
		put(fmt.Sprintf("n%d", i%3), fmt.Sprintf("later fact %d", i))
	}
	return u
}

func pgVerify(t *testing.T, u string) memgov.VerifyReport {
	t.Helper()
	s, err := postgres.Open(context.Background(), u, postgres.Options{Key: testKey})
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

// pgTamper runs statements on the database as someone with its password
// but not the log key would, the log's guards dropped first.
func pgTamper(t *testing.T, u string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	p, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, q := range append([]string{
		"DROP TRIGGER log_append_only_update ON log", "DROP TRIGGER log_append_only_delete ON log",
		"DROP TRIGGER log_payload_no_update ON log_payload", "DROP TRIGGER log_payload_no_delete ON log_payload",
	}, stmts...) {
		if _, err := p.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// After new appends, verify on PostgreSQL applies only the new entries to
// the verified snapshot and checks only them in the log; the unchanged log
// is served by the digest again and --replay still replays everything.
func TestIncrementalVerifyPostgres(t *testing.T) {
	u := pgVerified(t)
	if rep := pgVerify(t, u); !rep.OK || rep.Served != "incremental" || rep.TreeSize != 17 {
		t.Fatalf("verify after appends: %+v, want an incremental verify of 17 entries", rep)
	}
	// The log's mark moved on with it: the next verify checks in full only
	// what is appended after entry 17.
	p, err := pgxpool.New(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	var marked int64
	if err := p.QueryRow(context.Background(), `SELECT size FROM verify_log WHERE id = 1`).Scan(&marked); err != nil || marked != 17 {
		t.Fatalf("the log's mark stands for %d entries (%v), want 17", marked, err)
	}
	p.Close()
	if rep := pgVerify(t, u); !rep.OK || rep.Served != "digest" {
		t.Fatalf("verify of the unchanged log: %+v", rep)
	}
	ctx := context.Background()
	s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(s, testKey)
	body, _ := json.Marshal(map[string]string{"text": "fact 3, corrected"})
	if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: "k3", Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
		t.Fatal(err)
	}
	if rep, err := s.Verify(ctx); err != nil || !rep.OK || rep.Served != "incremental" || rep.TreeSize != 18 {
		t.Fatalf("second incremental verify: %+v %v", rep, err)
	}
	if rep, err := s.VerifyReplay(ctx); err != nil || !rep.OK || rep.Served != "replay" {
		t.Fatalf("verify --replay: %+v %v", rep, err)
	}
	s.Close()
}

// Tampering anywhere is caught by the default verify after appends on
// PostgreSQL: a log row before or after the verified size (or removed, or
// behind a mark moved without the key), a served row written before it, an
// edit made in both the live tables and the snapshot, and one behind a
// forged record of the snapshot. (The SQLite store's tests cover the same
// with every kind of row; the checks are shared.)
func TestIncrementalVerifyCatchesTamperingPostgres(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string
		lsn   int64  // the bad LSN, for a log edit
		table string // the table named, for a served row
	}{
		{name: "old log row", stmts: []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 5"}, lsn: 5},
		{name: "old entry removed", stmts: []string{"DELETE FROM log_payload WHERE lsn = 4", "DELETE FROM log WHERE lsn = 4"}, lsn: 4},
		{name: "log mark moved without the key", stmts: []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 3", "UPDATE verify_log SET size = 17"}, lsn: 3},
		{name: "new log row", stmts: []string{"UPDATE log SET actor = 'mallory' WHERE lsn = 15"}, lsn: 15},
		{name: "old served row", stmts: []string{"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k1'"}, table: "items"},
		{name: "old served row in the snapshot too", stmts: []string{
			"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k2'",
			"ALTER TABLE public_verified.items DISABLE TRIGGER USER",
			"UPDATE public_verified.items SET layer = 'PROCEDURAL' WHERE key = 'k2'"}, table: "items"},
		{name: "snapshot and its record forged", stmts: []string{
			"UPDATE items SET layer = 'PROCEDURAL' WHERE key = 'k3'",
			"ALTER TABLE public_verified.items DISABLE TRIGGER USER",
			"UPDATE public_verified.items SET layer = 'PROCEDURAL' WHERE key = 'k3'",
			"UPDATE verify_state SET snapshot = sha256(snapshot)"}, table: "items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := pgVerified(t)
			pgTamper(t, u, tc.stmts...)
			rep := pgVerify(t, u)
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

// An erasure drops the verified snapshot, which holds the erased text, in
// its own transaction; the next verify replays the whole log.
func TestErasureDropsTheVerifiedSnapshotPostgres(t *testing.T) {
	u := pgVerified(t)
	ctx := context.Background()
	snapshots := func() int {
		p, err := pgxpool.New(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var n int
		if err := p.QueryRow(ctx, `SELECT COUNT(*) FROM pg_namespace WHERE nspname = 'public_verified'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if snapshots() != 1 {
		t.Fatal("the replay kept no verified snapshot")
	}
	s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
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
	if snapshots() != 0 {
		t.Fatal("the verified snapshot outlived an erasure")
	}
	if rep := pgVerify(t, u); !rep.OK || rep.Served != "replay" {
		t.Fatalf("verify after the erasure: %+v", rep)
	}
}
