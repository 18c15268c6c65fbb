package postgres_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/memgov/memgov/internal/pgtest"
	"github.com/memgov/memgov/store/postgres"
)

var (
	server   *pgtest.Server
	template string // a database with memgov's schema, copied by open
	noServer error  // why there is no server: the tests skip (or fail in CI)
)

// TestMain starts one PostgreSQL server for the whole test binary (a
// throwaway cluster, or MEMGOV_TEST_PG_URL) and makes a template database
// with memgov's schema that each test's fresh database is copied from.
func TestMain(m *testing.M) {
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	flag.Parse()
	if testing.Short() {
		// -short (CI's run under the race detector) checks the replay
		// property on 20 random histories instead of rapid's 100: each
		// history is a fresh database, about a second of the server's
		// time. The full run checks 100.
		if err := flag.Set("rapid.checks", "20"); err != nil {
			panic(err)
		}
	}
	code := func() int {
		var err error
		server, err = pgtest.Start()
		if err != nil {
			if errors.Is(err, pgtest.ErrNoServer) && !pgtest.Required() {
				noServer = err
				return m.Run()
			}
			fmt.Fprintln(os.Stderr, "postgres tests:", err)
			return 1
		}
		defer server.Stop()
		u, err := server.NewTemplate("template")
		if err != nil {
			fmt.Fprintln(os.Stderr, "postgres tests: template:", err)
			return 1
		}
		s, err := postgres.Open(context.Background(), u, postgres.Options{Key: testKey, Create: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, "postgres tests: template:", err)
			return 1
		}
		s.Close()
		template = pgtest.TemplateName(u)
		defer server.DropDatabase(u)
		return m.Run()
	}()
	os.Exit(code)
}

// needServer skips the test when there is no PostgreSQL to run it on.
func needServer(t testing.TB) {
	t.Helper()
	if noServer != nil {
		t.Skipf("skipped: %v (CI sets MEMGOV_TEST_PG_REQUIRED=1, which fails instead)", noServer)
	}
}

// newURL creates a fresh database for t, with memgov's schema when schema is
// true, and drops it when t ends.
func newURL(t testing.TB, schema bool) string {
	t.Helper()
	needServer(t)
	tmpl := ""
	if schema {
		tmpl = template
	}
	u, err := server.NewDatabase(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.DropDatabase(u) })
	return u
}
