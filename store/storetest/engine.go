package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// engineTests drive a store through the engine's own operations.
var engineTests = []test{
	{"Principals", testPrincipals},
	{"WriteAndRead", testWriteAndRead},
	{"VersionsAndHistory", testVersions},
	{"Rollback", testRollback},
	{"RestoreVersion", testRestore},
	{"PinUnpin", testPin},
	{"PointInTime", testPointInTime},
	{"TTLNeverSurfaces", testTTL},
	{"AtomicUpdate", testAtomic},
	{"AuditRootAndProofs", testAudit},
	{"VerifyAndRebuildClean", testVerifyRebuild},
	{"ReplayProperty", testReplayProperty},
}

// setup returns an engine over a fresh store from f, its clock and the store.
func setup(t testing.TB, f Factory) (Engine, *Clock, memgov.Store) {
	s, key := f.Open(t)
	t.Cleanup(func() { s.Close() })
	c := NewClock()
	e, err := f.Engine(s, key, c.Now, nil)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	ctx := context.Background()
	for _, p := range []memgov.Principal{
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "ops-jane", Role: memgov.Curator, Tenant: "acme"},
	} {
		if _, err := e.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatalf("add principal %s: %v", p.ID, err)
		}
	}
	return e, c, s
}

func put(t testing.TB, e Engine, key, body string) memgov.PutResult {
	t.Helper()
	r, err := e.Put(context.Background(), memgov.PutRequest{MemoryRef: "acme/support-bot", Key: key, Layer: memgov.Semantic,
		Content: text(body), Actor: "support-bot", Confidence: 0.9, Reason: "test"})
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return r
}

func testPrincipals(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	ps, err := e.Principals(ctx)
	if err != nil || len(ps) != 2 {
		t.Fatalf("principals = %v, %v; want 2", ps, err)
	}
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "ops-jane", Role: memgov.Curator, Tenant: "acme"}, "admin"); err != nil {
		t.Fatalf("re-adding the same principal: %v", err)
	}
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "ops-jane", Role: memgov.Operator, Tenant: "acme"}, "admin"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("re-adding with another role: err = %v, want conflict", err)
	}
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "../x", Role: memgov.Curator, Tenant: "acme"}, "admin"); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("bad id: err = %v, want invalid", err)
	}
	if _, err := e.Principal(ctx, "nobody"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("unknown principal: err = %v, want not found", err)
	}
}

func testWriteAndRead(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r := put(t, e, "customer-42/channel", "Customer 42 prefers email.")
	v, err := e.Get(ctx, "acme/support-bot", "customer-42/channel")
	if err != nil {
		t.Fatal(err)
	}
	if v.ID != r.VersionID || v.Text() != "Customer 42 prefers email." || v.State != memgov.Active || v.Seq != 1 {
		t.Fatalf("get = %+v", v)
	}
	if _, err := e.Get(ctx, "acme/support-bot", "nope"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("missing key: %v", err)
	}
	if _, err := e.Get(ctx, "acme/../globex", "x"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("malformed ref must read as not found: %v", err)
	}
	snap, err := e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/other-bot"})
	if err != nil || len(snap.Versions) != 0 {
		t.Fatalf("unknown ref = %v, %v; want empty", snap.Versions, err)
	}
	// Paging by key.
	put(t, e, "a", "first")
	put(t, e, "b", "second")
	page, err := e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", Limit: 2})
	if err != nil || len(page.Versions) != 2 || page.Versions[0].Key != "a" || page.Versions[1].Key != "b" {
		t.Fatalf("page 1 = %v, %v", keys(page.Versions), err)
	}
	page, err = e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", Limit: 2, AfterKey: "b"})
	if err != nil || len(page.Versions) != 1 || page.Versions[0].Key != "customer-42/channel" {
		t.Fatalf("page 2 = %v, %v", keys(page.Versions), err)
	}
}

func keys(vs []memgov.Version) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Key
	}
	return out
}

func testVersions(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r1 := put(t, e, "k", "v1")
	r2 := put(t, e, "k", "v2")
	if r1.ItemID != r2.ItemID {
		t.Fatalf("a second write to the same key must version the same item")
	}
	item, hist, err := e.History(ctx, r1.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	if item.Head != r2.VersionID || len(hist) != 2 {
		t.Fatalf("head %s, %d versions", item.Head, len(hist))
	}
	if hist[0].ID != r2.VersionID || hist[0].Prev != r1.VersionID || hist[0].State != memgov.Active || hist[1].State != memgov.Superseded {
		t.Fatalf("history = %+v", hist)
	}
	if _, err := e.Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: "k", Layer: memgov.Episodic, Content: text("x"), Actor: "support-bot"}); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("layer change: %v", err)
	}
	for _, bad := range []string{`{}`, `{"text":""}`, `[1]`, `{"text":1}`, `not json`} {
		if _, err := e.Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Layer: memgov.Semantic, Content: json.RawMessage(bad), Actor: "support-bot"}); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("content %s: err = %v, want invalid", bad, err)
		}
	}
}

func testRollback(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r1 := put(t, e, "refund/limit", "Refunds up to $1,000 need no second signature.")
	r2 := put(t, e, "refund/limit", "Refunds up to $50,000 need no second signature.")
	if _, err := e.Rollback(ctx, r2.VersionID, "stranger", "bad"); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("unknown actor: %v", err)
	}
	if _, err := e.Rollback(ctx, r2.VersionID, "ops-jane", ""); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("no reason: %v", err)
	}
	res, err := e.Rollback(ctx, r2.VersionID, "ops-jane", "limit was raised without approval")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "ROLLED_BACK_WITH_REACTIVATION" || res.RestoredFrom != r1.VersionID || res.NewVersionID == "" {
		t.Fatalf("rollback = %+v", res)
	}
	v, err := e.Get(ctx, "acme/support-bot", "refund/limit")
	if err != nil || v.Text() != "Refunds up to $1,000 need no second signature." || v.ID != res.NewVersionID || v.Prev != r1.VersionID {
		t.Fatalf("after rollback get = %+v, %v", v, err)
	}
	_, hist, _ := e.History(ctx, r1.ItemID)
	states := map[string]memgov.State{}
	for _, h := range hist {
		states[h.ID] = h.State
	}
	if states[r2.VersionID] != memgov.Retracted || states[r1.VersionID] != memgov.Superseded || states[res.NewVersionID] != memgov.Active {
		t.Fatalf("states = %v", states)
	}
	if _, err := e.Rollback(ctx, r2.VersionID, "ops-jane", "again"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("rolling back a retracted version: %v", err)
	}
	// A first version has no predecessor: the item disappears.
	only := put(t, e, "solo", "only version")
	res, err = e.Rollback(ctx, only.VersionID, "ops-jane", "wrong")
	if err != nil || res.Status != "ROLLED_BACK_NO_PREDECESSOR" {
		t.Fatalf("rollback solo = %+v, %v", res, err)
	}
	if _, err := e.Get(ctx, "acme/support-bot", "solo"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("retracted item still readable: %v", err)
	}
}

func testRestore(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r1 := put(t, e, "k", "one")
	put(t, e, "k", "two")
	r3 := put(t, e, "k", "three")
	res, err := e.RestoreVersion(ctx, r1.VersionID, "ops-jane", "back to the original")
	if err != nil {
		t.Fatal(err)
	}
	if res.RetractedID != r3.VersionID {
		t.Fatalf("restore retracted %s, want %s", res.RetractedID, r3.VersionID)
	}
	v, err := e.Get(ctx, "acme/support-bot", "k")
	if err != nil || v.Text() != "one" || v.Seq != 4 {
		t.Fatalf("after restore = %+v, %v", v, err)
	}
	if _, err := e.RestoreVersion(ctx, v.ID, "ops-jane", "noop"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("restoring the head: %v", err)
	}
}

func testPin(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r := put(t, e, "k", "v")
	if _, err := e.Pin(ctx, r.ItemID, "ops-jane", ""); err != nil {
		t.Fatal(err)
	}
	if it, _ := e.Item(ctx, r.ItemID); !it.Pinned {
		t.Fatal("not pinned")
	}
	if _, err := e.Pin(ctx, r.ItemID, "ops-jane", ""); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("double pin: %v", err)
	}
	if _, err := e.Unpin(ctx, r.ItemID, "ops-jane", "no longer needed"); err != nil {
		t.Fatal(err)
	}
	if it, _ := e.Item(ctx, r.ItemID); it.Pinned {
		t.Fatal("still pinned")
	}
	if _, err := e.Pin(ctx, "no-such-item", "ops-jane", ""); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("pin unknown: %v", err)
	}
}

func testPointInTime(t *testing.T, f Factory) {
	e, c, _ := setup(t, f)
	ctx := context.Background()
	r1 := put(t, e, "k", "one")
	t1 := c.Now()
	c.Advance(time.Minute)
	put(t, e, "k", "two")
	put(t, e, "other", "x")
	c.Advance(time.Minute)
	snap, err := e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", AtLSN: r1.LSN})
	if err != nil || len(snap.Versions) != 1 || snap.Versions[0].Text() != "one" {
		t.Fatalf("at lsn %d = %v, %v", r1.LSN, snap.Versions, err)
	}
	snap, err = e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", AtTime: t1.Add(30 * time.Second)})
	if err != nil || len(snap.Versions) != 1 || snap.Versions[0].Text() != "one" || snap.LSN != r1.LSN {
		t.Fatalf("at time = %+v, %v", snap, err)
	}
	snap, err = e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", AtTime: t1.Add(-time.Hour)})
	if err != nil || len(snap.Versions) != 0 {
		t.Fatalf("before the log = %v, %v", snap.Versions, err)
	}
	if _, err := e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot", AtLSN: 1 << 40}); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("LSN past the end: %v", err)
	}
}

func testTTL(t *testing.T, f Factory) {
	e, c, _ := setup(t, f)
	ctx := context.Background()
	_, err := e.Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: "short", Layer: memgov.Working,
		Content: text("ephemeral"), Actor: "support-bot", TTL: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(1499 * time.Millisecond)
	if _, err := e.Get(ctx, "acme/support-bot", "short"); err != nil {
		t.Fatalf("1 ms before expiry: %v", err)
	}
	c.Advance(time.Millisecond)
	if _, err := e.Get(ctx, "acme/support-bot", "short"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("at expiry: %v", err)
	}
	snap, _ := e.Read(ctx, memgov.ReadQuery{MemoryRef: "acme/support-bot"})
	if len(snap.Versions) != 0 {
		t.Fatalf("expired entry listed: %v", keys(snap.Versions))
	}
}

func testAtomic(t *testing.T, f Factory) {
	e, _, s := setup(t, f)
	ctx := context.Background()
	before, _ := e.AuditRoot(ctx)
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx memgov.Tx) error {
		entry := &oplog.Entry{Time: time.Now(), Op: oplog.Pin, ItemID: "x", Actor: "ops-jane"}
		_ = entry.Seal(oplog.Payload{Reason: "will fail"})
		_ = tx.Append(ctx, entry) // fails: no such item; either way we abort
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("update err = %v", err)
	}
	after, _ := e.AuditRoot(ctx)
	if after != before {
		t.Fatalf("an aborted transaction changed the log: %v -> %v", before, after)
	}
	// An entry whose apply fails is not appended.
	err = s.Update(ctx, func(tx memgov.Tx) error {
		entry := &oplog.Entry{Time: time.Now(), Op: oplog.Pin, ItemID: "missing", Actor: "ops-jane"}
		if err := entry.Seal(oplog.Payload{Reason: "x"}); err != nil {
			return err
		}
		return tx.Append(ctx, entry)
	})
	if err == nil {
		t.Fatal("pinning a missing item applied")
	}
	if after2, _ := e.AuditRoot(ctx); after2 != before {
		t.Fatal("a failed apply left a log entry")
	}
}

func testAudit(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	put(t, e, "a", "1")
	r, err := e.AuditRoot(ctx)
	if err != nil || r.TreeSize != 3 || len(r.Root) != len("sha256:")+64 {
		t.Fatalf("root = %+v, %v", r, err)
	}
	cp, err := e.Checkpoint(ctx, 3600, "ops-jane")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Seq != 1 || cp.TreeSize != 3 {
		t.Fatalf("checkpoint = %+v", cp)
	}
	put(t, e, "b", "2")
	p, err := e.Prove(ctx, 3)
	if err != nil || p.FromSize != 3 || p.ToSize != 5 || len(p.Proof) == 0 {
		t.Fatalf("proof = %+v, %v", p, err)
	}
	v, err := e.AcceptCheckpoint(ctx, cp)
	if err != nil || !v.Accepted() {
		t.Fatalf("accept own checkpoint = %v, %v", v, err)
	}
	forged := cp
	forged.TreeSize = 2
	if v, _ := e.AcceptCheckpoint(ctx, forged); v.Accepted() {
		t.Fatal("a checkpoint with a bad signature was accepted")
	}
	if _, err := e.Prove(ctx, 0); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("prove from 0: %v", err)
	}
}

func testVerifyRebuild(t *testing.T, f Factory) {
	e, _, _ := setup(t, f)
	ctx := context.Background()
	r := put(t, e, "k", "one")
	put(t, e, "k", "two")
	if _, err := e.Pin(ctx, r.ItemID, "ops-jane", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Checkpoint(ctx, 3600, "ops-jane"); err != nil {
		t.Fatal(err)
	}
	rep, err := e.Verify(ctx)
	if err != nil || !rep.OK || rep.TreeSize != 6 {
		t.Fatalf("verify = %+v, %v", rep, err)
	}
	rb, err := e.Rebuild(ctx)
	if err != nil || len(rb.Differences) != 0 || rb.Entries != 6 {
		t.Fatalf("rebuild = %+v, %v", rb, err)
	}
}

// fataler is what both *testing.T and *rapid.T offer.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// state is the model of visible memory: key -> text.
type state map[string]string

func visible(t fataler, e Engine, at int64) state {
	t.Helper()
	snap, err := e.Read(context.Background(), memgov.ReadQuery{MemoryRef: "acme/support-bot", AtLSN: at})
	if err != nil {
		t.Fatalf("read at %d: %v", at, err)
	}
	s := state{}
	for _, v := range snap.Versions {
		s[v.Key] = v.Text()
	}
	return s
}

// testReplayProperty: any random sequence of writes, rollbacks, pins and
// unpins, replayed from the log, rebuilds exactly the same tables, and
// point-in-time reads at every LSN equal the state the sequence had then.
func testReplayProperty(t *testing.T, f Factory) {
	rapid.Check(t, func(rt *rapid.T) {
		e, c, s := setup(t, f)
		ctx := context.Background()
		model := state{}
		history := map[int64]state{} // LSN -> model after that entry
		snapshotAt := func() {
			root, err := e.AuditRoot(ctx)
			if err != nil {
				rt.Fatal(err)
			}
			history[root.TreeSize] = clone(model)
		}
		snapshotAt()
		keySet := []string{"a", "b", "c", "d"}
		steps := rapid.IntRange(1, 25).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			c.Advance(time.Duration(rapid.IntRange(0, 3).Draw(rt, "tick")) * time.Second)
			key := rapid.SampledFrom(keySet).Draw(rt, "key")
			switch rapid.IntRange(0, 3).Draw(rt, "op") {
			case 0, 1:
				body := fmt.Sprintf("%s-%d", key, i)
				if _, err := e.Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: key, Layer: memgov.Semantic,
					Content: text(body), Actor: "support-bot"}); err != nil {
					rt.Fatal(err)
				}
				model[key] = body
			case 2:
				v, err := e.Get(ctx, "acme/support-bot", key)
				if errors.Is(err, memgov.ErrNotFound) {
					continue
				}
				if err != nil {
					rt.Fatal(err)
				}
				res, err := e.Rollback(ctx, v.ID, "ops-jane", "property")
				if err != nil {
					rt.Fatal(err)
				}
				if res.RestoredFrom != "" {
					pred, err := versionText(ctx, s, res.RestoredFrom)
					if err != nil {
						rt.Fatal(err)
					}
					// The retract entry is its own LSN: record the state between.
					delete(model, key)
					history[res.RetractLSN] = clone(model)
					model[key] = pred
				} else {
					delete(model, key)
				}
			case 3:
				it, err := findItem(ctx, s, key)
				if err != nil {
					continue
				}
				if it.Pinned {
					_, err = e.Unpin(ctx, it.ID, "ops-jane", "")
				} else {
					_, err = e.Pin(ctx, it.ID, "ops-jane", "")
				}
				if err != nil {
					rt.Fatal(err)
				}
			}
			snapshotAt()
		}
		root, _ := e.AuditRoot(ctx)
		want := clone(model)
		for lsn := int64(1); lsn <= root.TreeSize; lsn++ {
			if s, ok := history[lsn]; ok {
				want = s
			} else if lsn < root.TreeSize {
				// Entries without a recorded state are principals and pins: the
				// state is that of the nearest earlier recorded LSN.
				want = nearest(history, lsn)
			}
			if got := visible(rt, e, lsn); !equal(got, want) {
				rt.Fatalf("at LSN %d: got %v, want %v", lsn, got, want)
			}
		}
		beforeTables := dump(rt, s)
		rb, err := e.Rebuild(ctx)
		if err != nil {
			rt.Fatal(err)
		}
		if len(rb.Differences) != 0 {
			rt.Fatalf("rebuild differences: %v", rb.Differences)
		}
		if after := dump(rt, s); !slices.Equal(beforeTables, after) {
			rt.Fatalf("tables changed by rebuild:\n%v\n%v", beforeTables, after)
		}
		if rep, err := e.Verify(ctx); err != nil || !rep.OK {
			rt.Fatalf("verify after sequence: %+v, %v", rep, err)
		}
	})
}

func versionText(ctx context.Context, s memgov.Store, id string) (string, error) {
	var v memgov.Version
	err := s.View(ctx, func(tx memgov.ReadTx) (err error) {
		v, err = tx.Version(ctx, id)
		return err
	})
	return v.Text(), err
}

func findItem(ctx context.Context, s memgov.Store, key string) (memgov.Item, error) {
	var it memgov.Item
	err := s.View(ctx, func(tx memgov.ReadTx) (err error) {
		it, err = tx.ItemByKey(ctx, "acme/support-bot", key)
		return err
	})
	return it, err
}

// dump renders the visible state and every item's history, for comparing the
// tables before and after a rebuild.
func dump(t fataler, s memgov.Store) []string {
	ctx := context.Background()
	var out []string
	err := s.View(ctx, func(tx memgov.ReadTx) error {
		for _, k := range []string{"a", "b", "c", "d"} {
			it, err := tx.ItemByKey(ctx, "acme/support-bot", k)
			if errors.Is(err, memgov.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("%s head=%s pinned=%v", it.Key, it.Head, it.Pinned))
			hist, err := tx.History(ctx, it.ID)
			if err != nil {
				return err
			}
			for _, v := range hist {
				out = append(out, fmt.Sprintf("  %s #%d %s prev=%s from=%d to=%d %s", v.ID, v.Seq, v.State, v.Prev, v.ActiveFrom, v.ActiveTo, v.Text()))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func clone(s state) state {
	c := make(state, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

func equal(a, b state) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func nearest(h map[int64]state, lsn int64) state {
	var ks []int64
	for k := range h {
		if k <= lsn {
			ks = append(ks, k)
		}
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	if len(ks) == 0 {
		return state{}
	}
	return h[ks[len(ks)-1]]
}
