package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
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
	lcPut(t, a, "acme/orch", "cust", memgov.Episodic, "Customer Zed Quirinal asked for a refund", nil)
	lcPut(t, a, "acme/notes", "ship", memgov.Episodic, "Shipping to Lyon takes two days", nil)
	search := func(e *engine.Engine, ref, q string) int {
		t.Helper()
		hits, err := e.Adapter("jane").Search(ctx, engine.SearchQuery{MemoryRef: ref, Query: q})
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
	if _, err := a.Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: "jane"}); err != nil {
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
