package writes_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// The store keeps the SimHash bands of the versions in memory, as a cache of
// the packed features rows. Two processes on one database (memgov serve and
// a memgov write beside it) each see what the other wrote; a transaction that
// stored features and rolled back leaves no trace in the lookups; replaced
// features move the lookups with them; an erasure, here or in the other
// process, leaves the erased item out.
func TestBandIndexFollowsTheDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memgov.db")
	type proc struct {
		s *sqlite.Store
		e *engine.Engine
	}
	open := func(create bool) proc {
		t.Helper()
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: create})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return proc{s, engine.New(s, testKey)}
	}
	server := open(true)
	setupAgents(t, server.e)
	cli := open(false)
	const ref = "acme/support-bot"
	put := func(p proc, key, text string) {
		t.Helper()
		if _, err := p.e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic,
			Content: json.RawMessage(`{"text":` + quote(text) + `}`), Actor: "jane", Confidence: 0.9, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	// has reports whether the band lookup alone (no content hash,
	// fingerprint or subject) finds key near text, and the near-duplicate
	// lookup agrees.
	has := func(p proc, text, key string) bool {
		t.Helper()
		feat, err := p.e.Writes().IndexFeatures(json.RawMessage(`{"text":` + quote(text) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		var byBands bool
		if err := p.s.View(ctx, func(tx memgov.ReadTx) error {
			cs, err := tx.Candidates(ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: feat.Bands})
			for _, c := range cs {
				byBands = byBands || c.Key == key
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if near := slices.Contains(nearKeys(t, p.e, ref, text), key); byBands && !near {
			t.Fatalf("the bands find %s near %q, the near-duplicate lookup does not", key, text)
		}
		return byBands
	}
	dana := "Dana's manager is Tomas, who joined the Lisbon office in 2019."
	danaNear := "Dana's manager is Tomas, who joined the Lisbon office in 2019!"
	put(server, "dana/manager", dana)
	// Both processes index the ref before the next writes.
	for name, p := range map[string]proc{"server": server, "cli": cli} {
		if !has(p, danaNear, "dana/manager") {
			t.Fatalf("%s: the near-duplicate lookup misses dana/manager", name)
		}
	}

	// A write by the other process is found by the one whose index was
	// built before it.
	oslo := "Alice grew up in Oslo and moved to Bergen for her studies in 2011."
	osloNear := "Alice grew up in Oslo and moved to Bergen for her studies in 2011!"
	put(cli, "alice/home", oslo)
	if !has(server, osloNear, "alice/home") {
		t.Fatal("the server's lookup misses the item the other process wrote after it indexed the ref")
	}

	// A transaction that stored a version and its features, looked them
	// up, and rolled back: no lookup finds them afterwards.
	hours := "The Lisbon office opens at nine and closes at six on weekdays."
	hoursNear := "The Lisbon office opens at nine and closes at six on weekdays!"
	errRollback := errors.New("roll back")
	var inside bool
	err := server.e.Writes().Store().Update(ctx, func(tx memgov.Tx) error {
		if _, err := server.e.Writes().PutTx(ctx, tx, memgov.PutRequest{MemoryRef: ref, Key: "office/hours", Layer: memgov.Semantic,
			Content: json.RawMessage(`{"text":` + quote(hours) + `}`), Actor: "jane", Confidence: 0.9, Reason: "test"}); err != nil {
			return err
		}
		feat, err := server.e.Writes().IndexFeatures(json.RawMessage(`{"text":` + quote(hoursNear) + `}`))
		if err != nil {
			return err
		}
		cs, err := tx.Candidates(ctx, memgov.CandidateQuery{MemoryRef: ref, Bands: feat.Bands})
		if err != nil {
			return err
		}
		for _, c := range cs {
			inside = inside || c.Key == "office/hours"
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("the rolled back transaction: %v", err)
	}
	if !inside {
		t.Fatal("inside its transaction, the lookup misses the version it stored")
	}
	for name, p := range map[string]proc{"server": server, "cli": cli} {
		if has(p, hoursNear, "office/hours") {
			t.Fatalf("%s: a rolled back version is a near-duplicate", name)
		}
	}
	// The version committed next takes the rolled back one's place in the
	// database, with other bands.
	porto := "The Porto warehouse ships parcels every Tuesday before noon."
	portoNear := "The Porto warehouse ships parcels every Tuesday before noon!"
	put(cli, "office/hours", porto)
	if !has(server, portoNear, "office/hours") {
		t.Fatal("after a rollback, the server misses the version the other process committed")
	}
	if has(server, hoursNear, "office/hours") {
		t.Fatal("after a rollback, the rolled back text is a near-duplicate")
	}

	// An erasure in the other process: the erased item is no candidate.
	if _, err := cli.e.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "Alice", By: "jane", Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	if has(server, osloNear, "alice/home") {
		t.Fatal("the item the other process erased is still a near-duplicate")
	}
	if !has(server, danaNear, "dana/manager") || !has(cli, portoNear, "office/hours") {
		t.Fatal("after an erasure, the lookups miss the items that were not erased")
	}
}
