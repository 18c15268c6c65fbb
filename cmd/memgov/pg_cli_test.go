package main

import (
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/memgov/memgov/internal/pgtest"
)

// The PostgreSQL server of the CLI tests: one throwaway cluster for the
// whole test binary, started by the first test that needs it and stopped by
// TestMain (stopPostgres).
var (
	pgOnce   sync.Once
	pgServer *pgtest.Server
	pgErr    error
)

// pgDatabase returns the URL of a fresh, empty PostgreSQL database for t,
// dropped when t ends. Without PostgreSQL the test is skipped, unless
// MEMGOV_TEST_PG_REQUIRED=1 (CI), which fails it.
func pgDatabase(t *testing.T) string {
	t.Helper()
	pgOnce.Do(func() { pgServer, pgErr = pgtest.Start() })
	if pgErr != nil {
		if errors.Is(pgErr, pgtest.ErrNoServer) && !pgtest.Required() {
			t.Skipf("skipped: %v (CI sets MEMGOV_TEST_PG_REQUIRED=1, which fails instead)", pgErr)
		}
		t.Fatal(pgErr)
	}
	u, err := pgServer.NewDatabase("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pgServer.DropDatabase(u) })
	return u
}

// stopPostgres stops the cluster pgDatabase started, if any.
func stopPostgres() {
	if pgServer != nil {
		pgServer.Stop()
	}
}

// newPGCLI is newCLI on a fresh PostgreSQL database, with memgov's data
// directory (where the key of a URL's database is kept) in a temporary one.
func newPGCLI(t *testing.T) *cli {
	c := &cli{t: t, db: pgDatabase(t)}
	c.env = append(os.Environ(), "MEMGOV_DB="+c.db, "MEMGOV_KEY=", "NO_COLOR=1", "XDG_DATA_HOME="+t.TempDir())
	return c
}
