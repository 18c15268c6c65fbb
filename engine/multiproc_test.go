package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/internal/pgtest"
	"github.com/memgov/memgov/store/postgres"
	"github.com/memgov/memgov/store/sqlite"
)

// An erasure by another process on the same database empties this
// engine's search indexes at its next search, those of refs the erasure did
// not touch included: no erased text stays in its memory.
func TestSearchCacheDropsIndexesAfterAnotherEnginesErasure(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memgov.db")
	var engines [2]*engine.Engine
	for i := range engines {
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: i == 0})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		engines[i] = engine.New(s, testKey)
	}
	a, b := engines[0], engines[1]
	if _, err := a.AddPrincipal(ctx, memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: "*"}, "admin"); err != nil {
		t.Fatal(err)
	}
	enginetest.PutText(t, a, "acme/orch", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund", nil)
	enginetest.PutText(t, a, "acme/notes", "ship", memgov.Episodic, "Shipping to Lyon takes two days", nil)
	search := func(e *engine.Engine, ref, q string) int {
		t.Helper()
		hits, err := e.Host().Adapter(memgov.As("jane")).Search(ctx, host.SearchQuery{MemoryRef: ref, Query: q})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if search(b, "acme/orch", "refund Quirinal") != 1 || search(b, "acme/notes", "shipping Lyon") != 1 {
		t.Fatal("engine B does not find engine A's writes")
	}
	if n := b.SearchIndexesCached(); n != 2 {
		t.Fatalf("engine B caches %d indexes, want 2", n)
	}
	if _, err := a.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"}); err != nil {
		t.Fatal(err)
	}
	// A search of the untouched ref notices the erasure and drops the
	// index of acme/orch, which holds the erased text.
	if search(b, "acme/notes", "shipping Lyon") != 1 {
		t.Fatal("engine B lost an item the erasure did not touch")
	}
	if n := b.SearchIndexesCached(); n != 1 {
		t.Fatalf("after another engine's erasure, engine B caches %d indexes, want 1 (the ref just searched)", n)
	}
	if search(b, "acme/orch", "refund Quirinal") != 0 {
		t.Fatal("engine B finds an item engine A erased")
	}
}

// On PostgreSQL an erasure reaches the other processes' engines at once
// (NOTIFY): engine A empties its search indexes without searching again.
func TestErasureHeardAcrossProcessesPostgres(t *testing.T) {
	server, err := pgtest.Start()
	if err != nil {
		if errors.Is(err, pgtest.ErrNoServer) && !pgtest.Required() {
			t.Skipf("skipped: %v (CI sets MEMGOV_TEST_PG_REQUIRED=1, which fails instead)", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(server.Stop)
	u, err := server.NewDatabase("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.DropDatabase(u) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var engines [2]*engine.Engine
	heard := make(chan struct{}, 16)
	for i := range engines {
		s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey, Create: i == 0})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		engines[i] = engine.New(s, testKey)
	}
	a, b := engines[0], engines[1]
	a.Writes().OnErasureHeard(func() { heard <- struct{}{} })
	if _, err := b.AddPrincipal(ctx, memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: "*"}, "admin"); err != nil {
		t.Fatal(err)
	}
	enginetest.PutText(t, b, "acme/orch", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund", nil)
	hits, err := a.Host().Adapter(memgov.As("jane")).Search(ctx, host.SearchQuery{MemoryRef: "acme/orch", Query: "refund Quirinal"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("engine A's search: %d hits, %v", len(hits), err)
	}
	if n := a.SearchIndexesCached(); n != 1 {
		t.Fatalf("engine A caches %d indexes, want 1", n)
	}
	if _, err := b.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-heard:
	case <-ctx.Done():
		t.Fatal("engine A never heard of engine B's erasure")
	}
	if n := a.SearchIndexesCached(); n != 0 {
		t.Fatalf("engine A still caches %d search indexes after another process's erasure", n)
	}
}
