package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/internal/storeconf"
	"github.com/memgov/memgov/store/sqlite"
	"github.com/memgov/memgov/store/storetest"
)

// putText stores text under key of ref as the curator ops-jane.
func putText(t *testing.T, e storetest.Engine, clock *storetest.Clock, ref, key, text string) {
	t.Helper()
	c, _ := json.Marshal(map[string]string{"text": text})
	if _, err := e.Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: c, Actor: "ops-jane", Confidence: 0.9, Reason: "test"}); err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	clock.Advance(time.Second)
}

// topicIDs is a topic query's answer as its version ids, in order.
func topicIDs(cs []memgov.Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.VersionID
	}
	return out
}

// A topic query answered through the store's topic cache answers as one
// that reads every word's postings from the index: as texts are added one
// at a time past the postings budget, in two memoryRefs, for a snapshot
// older than what the cache has read, and after another process erased a
// text whose rowid the next text takes again.
func TestTopicCacheAnswersAsTheIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memgov.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clock := storetest.NewClock()
	e, err := storeconf.Engine(s, testKey, clock.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	const curator = "ops-jane"
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: curator, Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	put := func(ref, key, text string) {
		t.Helper()
		putText(t, e, clock, ref, key, text)
	}
	cached := func(tq memgov.TopicQuery) []string {
		t.Helper()
		var got []memgov.Candidate
		if err := s.View(ctx, func(tx memgov.ReadTx) error {
			var err error
			got, err = tx.TopicCandidates(ctx, tq)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return topicIDs(got)
	}
	uncached := func(tq memgov.TopicQuery) []string {
		t.Helper()
		got, err := sqlite.TopicCandidatesUncached(ctx, s, tq)
		if err != nil {
			t.Fatal(err)
		}
		return topicIDs(got)
	}
	check := func(what string, tq memgov.TopicQuery) {
		t.Helper()
		got, want := cached(tq), uncached(tq)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: topic query %q through the cache = %v, from the index = %v", what, tq.Text, got, want)
		}
	}

	// Common words that pass the budget of 1,000 postings, rarer ones,
	// and a number of each text's own.
	common := []string{"invoice", "shipment", "contract", "ticket", "refund"}
	rare := []string{"Lisbon", "Osaka", "Quito", "Tartu", "Bergen", "Pune", "Graz", "Leeds", "Porto", "Lagos", "Austin", "Accra"}
	people := []string{"Ana", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana"}
	rng := rand.New(rand.NewPCG(7, 24))
	sentence := func(i int) string {
		return fmt.Sprintf("%s approved %s %d for the %s office.", people[rng.IntN(len(people))], common[rng.IntN(len(common))], 5000+i, rare[rng.IntN(len(rare))])
	}
	query := func() memgov.TopicQuery {
		ref := "acme/bot"
		if rng.IntN(4) == 0 {
			ref = "acme/other"
		}
		text := fmt.Sprintf("Did %s approve the %s %d in %s?", people[rng.IntN(len(people))], common[rng.IntN(len(common))], 5000+rng.IntN(1400), rare[rng.IntN(len(rare))])
		return memgov.TopicQuery{MemoryRef: ref, Layer: memgov.Semantic, Text: text, Limit: 20}
	}
	for i := 0; i < 1400; i++ {
		ref := "acme/bot"
		if i%5 == 0 {
			ref = "acme/other"
		}
		put(ref, fmt.Sprintf("note/%04d", i), sentence(i))
		if i%7 == 0 || i > 1350 {
			check(fmt.Sprintf("after %d texts", i+1), query())
		}
	}

	// A snapshot taken before texts the cache has since read.
	old := query()
	old.MemoryRef = "acme/bot"
	want := uncached(old)
	if err := s.View(ctx, func(tx memgov.ReadTx) error {
		if _, err := tx.TopicCandidates(ctx, memgov.TopicQuery{MemoryRef: "acme/bot", Layer: memgov.Semantic, Text: "snapshot", Limit: 1}); err != nil {
			return err
		}
		for i := 0; i < 3; i++ {
			put("acme/bot", fmt.Sprintf("later/%d", i), strings.Replace(old.Text, "Did", "We know", 1))
		}
		check("after texts the old snapshot does not see", old)
		got, err := tx.TopicCandidates(ctx, old)
		if err != nil {
			return err
		}
		if !slices.Equal(topicIDs(got), want) {
			t.Errorf("the older snapshot through the cache = %v, want %v as before the texts it does not see", topicIDs(got), want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// An erasure of the newest text, by another process on the same
	// database: the next text takes its rowid.
	s2, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	e2, err := storeconf.Engine(s2, testKey, clock.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	put("acme/bot", "zebulon", "Zebulon approved refund 9999 for the Accra office.")
	check("before the erasure", memgov.TopicQuery{MemoryRef: "acme/bot", Layer: memgov.Semantic, Text: "Zebulon refund Accra", Limit: 20})
	if _, err := e2.Erase(ctx, memgov.EraseRequest{Subject: "Zebulon", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	putText(t, e2, clock, "acme/bot", "quokka", "Quokka approved contract 9998 for the Lisbon office.")
	for _, q := range []string{"Zebulon refund Accra", "Quokka contract Lisbon", "approved office"} {
		check("after the erasure", memgov.TopicQuery{MemoryRef: "acme/bot", Layer: memgov.Semantic, Text: q, Limit: 20})
	}
	if got := cached(memgov.TopicQuery{MemoryRef: "acme/bot", Layer: memgov.Semantic, Text: "Zebulon", Limit: 20}); len(got) != 0 {
		t.Errorf("the erased text is still a candidate: %v", got)
	}
}
