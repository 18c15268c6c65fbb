package host_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/store/sqlite"
)

// TestCorruptStoredContentNamesTheRow: a version whose stored content is
// no longer JSON (its row edited with another SQLite client, as anyone
// with access to the file could) makes every read of it fail with an error
// naming the version, never an entry read as empty text; a forget by
// subject over it fails the same way rather than passing over it.
func TestCorruptStoredContentNamesTheRow(t *testing.T) {
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	e := engine.New(s, key, engine.WithClock(func() time.Time { now = now.Add(time.Second); return now }))
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}, ""); err != nil {
		t.Fatal(err)
	}
	const ref = "acme/support-bot"
	c, _ := json.Marshal(map[string]string{"text": "Customer 42 prefers email.", "subject": "customer 42"})
	r, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: "pref", Layer: memgov.Semantic, Content: c, Actor: "cur"})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, ref, "pref"); err != nil || v.Text() != "Customer 42 prefers email." {
		t.Fatalf("before: %q, %v", v.Text(), err)
	}

	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.ExecContext(ctx, `UPDATE versions SET content = CAST(? AS BLOB) WHERE id = ?`, `{"text": "Customer 42 pre`, r.VersionID)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("corrupted %d rows", n)
	}

	namesRow := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error for a corrupt row", what)
		}
		if !strings.Contains(err.Error(), "corrupt stored data") || !strings.Contains(err.Error(), r.VersionID) {
			t.Fatalf("%s: %v does not name the corrupt row %s", what, err, r.VersionID)
		}
	}
	v, err := e.Host().Get(ctx, memgov.Owner, ref, "pref")
	namesRow("get", err)
	if v.Text() != "" && v.ID != "" {
		t.Fatalf("get returned %+v beside its error", v)
	}
	_, err = e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: ref})
	namesRow("read", err)
	_, err = e.Host().Read(ctx, memgov.As("cur"), memgov.ReadQuery{MemoryRef: ref})
	namesRow("read as a principal", err)
	_, _, err = e.Host().History(ctx, memgov.Owner, r.ItemID)
	namesRow("history", err)
	_, err = e.Host().Version(ctx, memgov.Owner, r.VersionID)
	namesRow("version", err)
	_, err = e.Host().ActivePage(ctx, memgov.Owner, ref, "", 10)
	namesRow("active page", err)
	// The MemoryAdapter answers agents "memory is unavailable"; the cause it
	// wraps names the row.
	en, err := e.Host().Adapter(memgov.Owner).Get(ctx, ref, "pref")
	if en != nil || !errors.Is(err, host.ErrMemoryUnavailable) {
		t.Fatalf("adapter get: %+v, %v", en, err)
	}
	var detail []string
	for _, u := range err.(interface{ Unwrap() []error }).Unwrap() {
		detail = append(detail, u.Error())
	}
	namesRow("adapter get (wrapped)", errors.New(strings.Join(detail, "; ")))
	_, err = e.Host().Forget(ctx, ref, "customer 42", "cur", "")
	namesRow("forget by subject", err)
}
