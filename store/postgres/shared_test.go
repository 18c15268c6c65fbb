package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/postgres"
	"github.com/memgov/memgov/store/sqlite"
	"github.com/memgov/memgov/store/storetest"
)

const curator = "ops-jane"

func text(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"text": s})
	return b
}

func addCurator(t *testing.T, e *engine.Engine) {
	t.Helper()
	if _, err := e.AddPrincipal(context.Background(), memgov.Principal{ID: curator, Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
}

// entries reads the whole log of s.
func entries(t *testing.T, s memgov.Store) []*oplog.Entry {
	t.Helper()
	var out []*oplog.Entry
	err := s.View(context.Background(), func(tx memgov.ReadTx) error {
		n, err := tx.LogSize(context.Background())
		if err != nil {
			return err
		}
		return tx.LogRange(context.Background(), 1, n, func(e *oplog.Entry) error {
			out = append(out, e)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Several memgov processes append to one log: two stores (two connection
// pools, as two processes have) on one database, four writers each, append
// at once. Every write is on the log exactly once, the LSNs are 1..n without
// a gap, each entry chains to the one before, and a replay of the log gives
// the served tables.
func TestTwoStoresOneLog(t *testing.T) {
	u := newURL(t, true)
	ctx := context.Background()
	var stores [2]*postgres.Store
	var engines [2]*engine.Engine
	for i := range stores {
		s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i], engines[i] = s, engine.New(s, testKey)
	}
	addCurator(t, engines[0])
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for p := range engines {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					key := fmt.Sprintf("p%d-w%d-%d", p, w, i)
					if _, err := engines[p].Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/shared", Key: key, Layer: memgov.Semantic,
						Content: text("fact " + key), Actor: curator, Confidence: 0.9, Reason: "test"}); err != nil {
						errs <- fmt.Errorf("put %s: %w", key, err)
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	log := entries(t, stores[1])
	puts := map[string]int{}
	var prev merkle.Hash
	for i, e := range log {
		if e.LSN != int64(i+1) {
			t.Fatalf("entry %d has LSN %d: the log has a gap", i+1, e.LSN)
		}
		if want := oplog.ChainNext(testKey, prev, e.Leaf); want != e.Chain {
			t.Fatalf("entry %d does not chain to entry %d", e.LSN, e.LSN-1)
		}
		prev = e.Chain
		if e.MemoryRef == "acme/shared" {
			puts[e.ItemID]++
		}
	}
	if len(puts) != 2*writers*each {
		t.Errorf("%d items written on the log, want %d", len(puts), 2*writers*each)
	}
	for id, n := range puts {
		if n != 1 {
			t.Errorf("item %s has %d entries, want 1", id, n)
		}
	}
	for i, s := range stores {
		rep, err := s.VerifyReplay(ctx)
		if err != nil || !rep.OK || rep.TreeSize != int64(len(log)) {
			t.Errorf("store %d: VerifyReplay = %+v, %v; want OK at size %d", i, rep, err, len(log))
		}
	}
	r0, err0 := engines[0].Audit().AuditRoot(ctx)
	r1, err1 := engines[1].Audit().AuditRoot(ctx)
	if err0 != nil || err1 != nil || r0 != r1 {
		t.Errorf("the two processes see other roots: %+v %v / %+v %v", r0, err0, r1, err1)
	}
}

// A review claimed through one store is seen claimed through another.
func TestClaimSeenAcrossStores(t *testing.T) {
	u := newURL(t, true)
	ctx := context.Background()
	a, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ea := engine.New(a, testKey)
	for _, p := range []memgov.Principal{{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"}, {ID: curator, Role: memgov.Curator, Tenant: "acme"}} {
		if _, err := ea.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := json.Marshal(map[string]any{"source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": "tone", "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": "The customer prefers email."},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	wr, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ea.Writes().Write(ctx, wr)
	if err != nil || res.ReviewID == "" {
		t.Fatalf("want a deferred write, got %+v, %v", res, err)
	}
	eb := engine.New(b, testKey)
	if _, err := eb.AddPrincipal(ctx, memgov.Principal{ID: "ops-other", Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := ea.Reviews().Claim(ctx, res.ReviewID, curator); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.Reviews().Claim(ctx, res.ReviewID, "ops-other"); !errors.Is(err, memgov.ErrConflict) {
		t.Errorf("a second claim through the other store = %v, want ErrConflict naming %s", err, curator)
	}
	var holder string
	if err := b.View(ctx, func(tx memgov.ReadTx) error {
		r, err := tx.Review(ctx, res.ReviewID)
		holder = r.ClaimHolder
		return err
	}); err != nil || holder != curator {
		t.Errorf("claim holder seen through the other store = %q, %v; want %s", holder, err, curator)
	}
}

// The same log gives the same hashes on both stores: a log made on SQLite,
// appended entry by entry to PostgreSQL, has the same leaves, chain values,
// Merkle root, memory op log roots and memory maps there.
func TestSameLogSameHashesAsSQLite(t *testing.T) {
	ctx := context.Background()
	lite, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	clock := storetest.NewClock()
	el := engine.New(lite, testKey, engine.WithClock(clock.Now))
	addCurator(t, el)
	const ref = "acme/support-bot"
	for i, body := range []string{"The customer prefers email.", "Refunds take five days.", "The customer prefers phone calls."} {
		key := fmt.Sprintf("k%d", i%2)
		if _, err := el.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: text(body), Actor: curator,
			Confidence: 0.9, Reason: "test", TTL: time.Duration(i) * time.Hour}); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
	}
	if _, err := el.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: ref, By: curator, MemoryType: memgov.MemoryType("persistent"),
		TTLSeconds: 86400, DriftPolicy: "alert-on-drift", Level: 1, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := el.Audit().Checkpoint(ctx, 3600, curator); err != nil {
		t.Fatal(err)
	}
	src := entries(t, lite)

	pg := open(t)
	for _, e := range src {
		c := *e
		c.LSN, c.Leaf, c.Chain = 0, merkle.Hash{}, merkle.Hash{}
		if err := pg.Update(ctx, func(tx memgov.Tx) error { return tx.Append(ctx, &c) }); err != nil {
			t.Fatalf("append entry %d (%s): %v", e.LSN, e.Op, err)
		}
	}
	dst := entries(t, pg)
	if len(dst) != len(src) {
		t.Fatalf("%d entries on PostgreSQL, %d on SQLite", len(dst), len(src))
	}
	for i := range src {
		if src[i].Leaf != dst[i].Leaf || src[i].Chain != dst[i].Chain || !src[i].Time.Equal(dst[i].Time) {
			t.Fatalf("entry %d: leaf, chain or time differ between the stores", src[i].LSN)
		}
	}
	vl, err := lite.VerifyReplay(ctx)
	if err != nil || !vl.OK {
		t.Fatalf("SQLite verify: %+v %v", vl, err)
	}
	vp, err := pg.VerifyReplay(ctx)
	if err != nil || !vp.OK {
		t.Fatalf("PostgreSQL verify: %+v %v", vp, err)
	}
	if vl.Root != vp.Root || vl.TreeSize != vp.TreeSize {
		t.Errorf("Merkle roots differ: SQLite %x at %d, PostgreSQL %x at %d", vl.Root, vl.TreeSize, vp.Root, vp.TreeSize)
	}
	ep := engine.New(pg, testKey, engine.WithClock(clock.Now))
	al, _ := el.Audit().AuditRoot(ctx)
	ap, _ := ep.Audit().AuditRoot(ctx)
	if al != ap {
		t.Errorf("audit roots differ: SQLite %+v, PostgreSQL %+v", al, ap)
	}
	memState := func(s memgov.Store) (memgov.MemHead, string) {
		var (
			h memgov.MemHead
			m bytes.Buffer
		)
		err := s.View(ctx, func(tx memgov.ReadTx) error {
			var err error
			if h, err = tx.MemHead(ctx, ref); err != nil {
				return err
			}
			return tx.MemoryMap(ctx, ref, clock.Now(), func(r memgov.MapRow) error {
				fmt.Fprintf(&m, "%s=%s;", r.Key, r.Value)
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return h, m.String()
	}
	hl, ml := memState(lite)
	hp, mp := memState(pg)
	if fmt.Sprint(hl) != fmt.Sprint(hp) || ml != mp {
		t.Errorf("memory state differs:\nSQLite     %+v %s\nPostgreSQL %+v %s", hl, ml, hp, mp)
	}
	if ml == "" {
		t.Error("the memory map is empty: the test compares nothing")
	}
}

func engineOver(s memgov.Store) *engine.Engine { return engine.New(s, testKey) }
