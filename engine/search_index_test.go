package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/store/sqlite"
)

// The search index a serving process keeps follows every change of its ref
// (writes, updates, merges, approvals, retractions, reclassification, expiry
// and erasure): after each, a search through the warm index returns what a
// search through an index built afresh returns.
func TestSearchIndexFollowsChanges(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := enginetest.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	warm := engine.New(s, testKey, engine.WithClock(c.Now))
	for _, p := range []memgov.Principal{{ID: "jane", Role: memgov.Curator, Tenant: "*"}, {ID: "bot", Role: memgov.Executor, Tenant: "acme"}} {
		if _, err := warm.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	const ref = "acme/bot"
	put := func(key, text string, mod func(*memgov.PutRequest)) memgov.PutResult {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"text": text})
		r := memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Episodic, Content: body, Confidence: 0.8, Actor: "jane"}
		if mod != nil {
			mod(&r)
		}
		res, err := warm.Writes().Put(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		c.Add(time.Minute)
		return res
	}
	for i := 0; i < 300; i++ {
		put(fmt.Sprintf("k%03d", i), enginetest.CorpusText(i), nil)
	}
	queries := []string{"time zone", "Berlin", "email follow-up refund", "warehouse Oslo", "customer 42", "password reset", "Zed Quirinal", "Lisbon"}
	check := func(step string) {
		t.Helper()
		fresh := engine.New(s, testKey, engine.WithClock(c.Now))
		for _, q := range queries {
			for _, sup := range []bool{false, true} {
				sq := host.SearchQuery{MemoryRef: ref, Query: q, IncludeSuperseded: sup}
				a, err := warm.Host().Adapter(memgov.As("bot")).Search(ctx, sq)
				if err != nil {
					t.Fatal(err)
				}
				b, err := fresh.Host().Adapter(memgov.As("bot")).Search(ctx, sq)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := hitKeys(a), hitKeys(b); !slices.Equal(got, want) {
					t.Errorf("%s: search %q (superseded %v): the warm index returns %v, a fresh one %v", step, q, sup, got, want)
				}
			}
		}
	}
	check("first")
	put("tz", "Customer 42 is in the Europe/Lisbon time zone.", nil)
	check("a new entry")
	put("k001", "Customer 1 moved to the Asia/Tokyo time zone and resets the password weekly.", nil)
	check("an update")
	put("promo", "The Lisbon discount ends tonight.", func(r *memgov.PutRequest) { r.TTL = time.Hour })
	check("an entry with a TTL")
	c.Add(2 * time.Hour)
	check("the TTL passed")
	if _, err := warm.Host().Adapter(memgov.As("jane")).Delete(ctx, ref, "k002", "wrong"); err != nil {
		t.Fatal(err)
	}
	check("a retraction")
	// Reclassified to a layer the executor may not read.
	k3 := put("k003", "Customer 3 is in the Europe/Berlin time zone, per the CRM.", nil)
	check("before a reclassification")
	if _, err := warm.Lifecycle().Reclassify(ctx, k3.ItemID, memgov.Procedural, "jane", "a procedure now"); err != nil {
		t.Fatal(err)
	}
	check("a reclassification")
	if n := warm.SearchIndexesCached(); n != 1 {
		t.Fatalf("before the erasure %d search indexes are in memory, want 1", n)
	}
	if _, err := warm.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "Customer 42", By: "jane"}); err != nil {
		t.Fatal(err)
	}
	// No erased text stays in memory until the ref is next searched.
	if n := warm.SearchIndexesCached(); n != 0 {
		t.Fatalf("after the erasure %d search indexes are still in memory", n)
	}
	check("an erasure")
	full, caught := warm.SearchIndexBuilds()
	for i := 0; i < 20; i++ {
		put(fmt.Sprintf("z%02d", i), fmt.Sprintf("Zed Quirinal note %d about the Oslo warehouse.", i), nil)
		check(fmt.Sprintf("write %d of a burst", i))
	}
	// A write is caught up with, not rebuilt for.
	if f, c := warm.SearchIndexBuilds(); f != full || c != caught+20 || caught < 4 {
		t.Errorf("index builds: %d full and %d caught up before the burst, %d and %d after; want the burst caught up in place", full, caught, f, c)
	}
}

func hitKeys(hs []host.SearchHit) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.Entry.ID)
	}
	return out
}

// Searches run concurrently with writes to the same ref: the shared index is
// caught up under its lock (run with -race).
func TestSearchIndexConcurrentReadersAndWriter(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "")
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		enginetest.PutText(t, e, "acme/bot", fmt.Sprintf("k%02d", i), memgov.Episodic, enginetest.CorpusText(i), nil)
	}
	done := make(chan error, 4)
	for g := 0; g < 3; g++ {
		go func() {
			for i := 0; i < 30; i++ {
				if _, err := e.Host().Adapter(memgov.As("jane")).Search(ctx, host.SearchQuery{MemoryRef: "acme/bot", Query: "time zone Berlin"}); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	go func() {
		for i := 0; i < 20; i++ {
			body, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Customer %d is in the Europe/Berlin time zone.", 900+i)})
			if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: fmt.Sprintf("w%02d", i), Layer: memgov.Episodic, Content: body, Confidence: 0.8, Actor: "jane"}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := 0; i < 4; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	hits, err := e.Host().Adapter(memgov.As("jane")).Search(ctx, host.SearchQuery{MemoryRef: "acme/bot", Query: "Customer 919 is in the Europe/Berlin time zone."})
	if err != nil || len(hits) == 0 || hits[0].Entry.ID != "w19" {
		t.Fatalf("after the writes: %+v %v", hits, err)
	}
}
