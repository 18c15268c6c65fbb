package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/postgres"
)

// Open creates the schema only when asked, applies it in one go, refuses a
// database whose schema is newer than this memgov, and refuses another key.
func TestOpenMigratesAndRefuses(t *testing.T) {
	ctx := context.Background()
	u := newURL(t, false)
	if _, err := postgres.Open(ctx, u, postgres.Options{Key: testKey}); !errors.Is(err, memgov.ErrNotInit) {
		t.Fatalf("Open of an empty database without Create = %v, want ErrNotInit", err)
	}
	// Two processes starting at once migrate once.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey, Create: true})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Open with Create: %v", err)
		}
	}
	s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Info(); got.Type != postgres.Type || got.Version == "" || got.Version == "0" {
		t.Errorf("Info = %+v", got)
	}
	s.Close()
	if _, err := postgres.Open(ctx, u, postgres.Options{Key: []byte("another-key-0123456789abcdef0123")}); !errors.Is(err, postgres.ErrKeyMismatch) {
		t.Errorf("Open with another key = %v, want ErrKeyMismatch", err)
	}
	db := rawDB(t, u)
	if _, err := db.Exec(`UPDATE memgov_schema SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.Open(ctx, u, postgres.Options{Key: testKey}); !errors.Is(err, memgov.ErrSchemaNewer) {
		t.Errorf("Open of a newer schema = %v, want ErrSchemaNewer", err)
	}
}

// rawDB connects to u as any PostgreSQL client would (not through a store).
func rawDB(t *testing.T, u string) *sql.DB {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	p.RawQuery = q.Encode()
	db, err := sql.Open("pgx", p.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	return db
}

// The log cannot be edited behind memgov's back, even by a client with
// write access to its tables: the triggers refuse it.
func TestLogIsAppendOnly(t *testing.T) {
	ctx := context.Background()
	u := newURL(t, true)
	s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := engineOver(s).AddPrincipal(ctx, memgov.Principal{ID: curator, Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, u)
	for _, stmt := range []string{`UPDATE log SET actor = 'mallory'`, `DELETE FROM log`, `UPDATE log_payload SET body = '{}'`, `DELETE FROM log_payload`} {
		if _, err := db.Exec(stmt); err == nil || !strings.Contains(err.Error(), "memgov: ") {
			t.Errorf("%s: %v, want the log's trigger to refuse it", stmt, err)
		}
	}
	rep, err := s.Verify(ctx)
	if err != nil || !rep.OK {
		t.Errorf("Verify after the refused edits = %+v, %v", rep, err)
	}
}
