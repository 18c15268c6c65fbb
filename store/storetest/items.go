package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var itemTests = []test{
	{"ItemsVersionsAndHistory", testItemLookup},
	{"ActiveNowAndAtLSN", testActive},
	{"Refs", testRefs},
	{"DueExpiries", testDueExpiries},
	{"IndexedVersions", testIndexedVersions},
	{"SearchStamp", testSearchStamp},
	{"SearchChanges", testSearchChanges},
}

// Item, ItemByKey, Version and History return what the log wrote, and
// ErrNotFound (or an empty history) for what it did not.
func testItemLookup(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r1 := fx.put(ref, "k", "one", func(p *memgov.PutRequest) { p.Tags = []string{"x"} })
	r2 := fx.put(ref, "k", "two")
	fx.view(func(tx memgov.ReadTx) error {
		it, err := tx.Item(fx.ctx, r1.ItemID)
		if err != nil {
			return err
		}
		if it.ID != r1.ItemID || it.MemoryRef != ref || it.Key != "k" || it.Layer != memgov.Semantic || it.Head != r2.VersionID ||
			it.Pinned || it.CreatedAt.IsZero() || it.UpdatedAt.Before(it.CreatedAt) {
			t.Errorf("Item = %+v", it)
		}
		byKey, err := tx.ItemByKey(fx.ctx, ref, "k")
		if err != nil || byKey.ID != it.ID || byKey.Head != it.Head {
			t.Errorf("ItemByKey = %+v, %v; want %+v", byKey, err, it)
		}
		v, err := tx.Version(fx.ctx, r2.VersionID)
		if err != nil {
			return err
		}
		if v.ID != r2.VersionID || v.ItemID != r1.ItemID || v.MemoryRef != ref || v.Key != "k" || v.Seq != 2 || v.Prev != r1.VersionID ||
			v.State != memgov.Active || v.Text() != "two" || v.CreatedLSN != r2.LSN || v.ActiveFrom != r2.LSN || v.ActiveTo != 0 || v.CreatedBy != curator {
			t.Errorf("Version = %+v", v)
		}
		old, err := tx.Version(fx.ctx, r1.VersionID)
		if err != nil || old.State != memgov.Superseded || old.ActiveTo != r2.LSN || len(old.Tags) != 1 || old.Tags[0] != "x" {
			t.Errorf("superseded Version = %+v, %v", old, err)
		}
		hist, err := tx.History(fx.ctx, r1.ItemID)
		if err != nil || len(hist) != 2 || hist[0].ID != r2.VersionID || hist[1].ID != r1.VersionID {
			t.Errorf("History = %v, %v; want newest first", ids(hist), err)
		}
		if h, err := tx.History(fx.ctx, "no-such-item"); err != nil || len(h) != 0 {
			t.Errorf("History of an unknown item = %v, %v; want empty", h, err)
		}
		for what, err := range map[string]error{
			"Item":                 second(tx.Item(fx.ctx, "no-such-item")),
			"ItemByKey (key)":      second(tx.ItemByKey(fx.ctx, ref, "nope")),
			"ItemByKey (ref)":      second(tx.ItemByKey(fx.ctx, "acme/other", "k")),
			"Version":              second(tx.Version(fx.ctx, "no-such-version")),
			"Version (an item id)": second(tx.Version(fx.ctx, r1.ItemID)),
		} {
			if !errors.Is(err, memgov.ErrNotFound) {
				t.Errorf("%s of something unknown: %v, want ErrNotFound", what, err)
			}
		}
		return nil
	})
}

func second[T any](_ T, err error) error { return err }

func ids(vs []memgov.Version) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

// Active selects by LSN, expiry, tag and key range, in key order.
func testActive(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a1 := fx.put(ref, "a", "alpha", func(p *memgov.PutRequest) { p.Tags = []string{"red"} })
	fx.put(ref, "c", "gamma")
	fx.put(ref, "b", "beta", func(p *memgov.PutRequest) {
		p.Tags = []string{"red", "blue"}
		p.Layer = memgov.Working
		p.TTL = time.Hour
	})
	a2 := fx.put(ref, "a", "alpha two", func(p *memgov.PutRequest) { p.Tags = []string{"red"} })
	fx.put("acme/other", "a", "elsewhere")
	now := fx.c.Now()
	fx.view(func(tx memgov.ReadTx) error {
		check := func(what string, q memgov.ActiveQuery, want ...string) {
			t.Helper()
			vs, err := tx.Active(fx.ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			got := keys(vs)
			if len(got) != len(want) {
				t.Errorf("%s = %v, want %v", what, got, want)
				return
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s = %v, want %v", what, got, want)
					return
				}
			}
			for _, v := range vs {
				if v.MemoryRef != ref {
					t.Errorf("%s returned %s of %s", what, v.Key, v.MemoryRef)
				}
			}
		}
		check("now", memgov.ActiveQuery{MemoryRef: ref}, "a", "b", "c")
		check("now, unexpired", memgov.ActiveQuery{MemoryRef: ref, Now: now}, "a", "b", "c")
		check("an hour on", memgov.ActiveQuery{MemoryRef: ref, Now: now.Add(time.Hour)}, "a", "c")
		check("tag red", memgov.ActiveQuery{MemoryRef: ref, Tag: "red"}, "a", "b")
		check("tag blue", memgov.ActiveQuery{MemoryRef: ref, Tag: "blue"}, "b")
		check("after a", memgov.ActiveQuery{MemoryRef: ref, AfterKey: "a"}, "b", "c")
		check("limit 2", memgov.ActiveQuery{MemoryRef: ref, Limit: 2}, "a", "b")
		check("after a, limit 1", memgov.ActiveQuery{MemoryRef: ref, AfterKey: "a", Limit: 1}, "b")
		check("at the first write", memgov.ActiveQuery{MemoryRef: ref, AtLSN: a1.LSN}, "a")
		check("before the first write", memgov.ActiveQuery{MemoryRef: ref, AtLSN: a1.LSN - 1})
		check("unknown ref", memgov.ActiveQuery{MemoryRef: "acme/nobody"})
		// At LSN a1 the first version of a is visible; from a2 on, the second.
		if vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: ref, AtLSN: a2.LSN - 1}); err != nil || len(vs) == 0 || vs[0].ID != a1.VersionID {
			t.Errorf("at LSN %d, a = %v, %v; want %s", a2.LSN-1, ids(vs), err, a1.VersionID)
		}
		if vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: ref, AtLSN: a2.LSN}); err != nil || len(vs) == 0 || vs[0].ID != a2.VersionID || vs[0].Text() != "alpha two" {
			t.Errorf("at LSN %d, a = %v, %v; want %s", a2.LSN, ids(vs), err, a2.VersionID)
		}
		return nil
	})
}

// Refs counts items and items with a head version per memoryRef.
func testRefs(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "alpha")
	solo := fx.put(ref, "b", "beta")
	fx.put("acme/analyst", "x", "x")
	if _, err := fx.e.Rollback(fx.ctx, solo.VersionID, curator, "wrong"); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		rs, err := tx.Refs(fx.ctx)
		if err != nil {
			return err
		}
		want := []memgov.RefSummary{{MemoryRef: "acme/analyst", Items: 1, Active: 1}, {MemoryRef: ref, Items: 2, Active: 1}}
		if len(rs) != len(want) || rs[0] != want[0] || rs[1] != want[1] {
			t.Errorf("Refs = %+v, want %+v", rs, want)
		}
		return nil
	})
}

// IndexedVersions returns ACTIVE (or ACTIVE and SUPERSEDED) versions with
// their embeddings, newest first, at most limit.
func testIndexedVersions(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a1 := fx.put(ref, "a", "the deploy window is on tuesdays")
	b := fx.put(ref, "b", "the staging cluster has four nodes")
	a2 := fx.put(ref, "a", "the deploy window is on wednesdays")
	fx.put("acme/other", "a", "elsewhere")
	fx.view(func(tx memgov.ReadTx) error {
		vs, err := tx.IndexedVersions(fx.ctx, ref, false, 10)
		if err != nil {
			return err
		}
		if len(vs) != 2 || vs[0].ID != a2.VersionID || vs[1].ID != b.VersionID {
			t.Errorf("IndexedVersions(ACTIVE) = %v, want [%s %s]", indexedIDs(vs), a2.VersionID, b.VersionID)
		}
		for _, v := range vs {
			if len(v.Embedding) == 0 || v.State != memgov.Active || v.Text() == "" {
				t.Errorf("indexed version %s: state %s, %d embedding bytes", v.ID, v.State, len(v.Embedding))
			}
		}
		all, err := tx.IndexedVersions(fx.ctx, ref, true, 10)
		if err != nil || len(all) != 3 || all[2].ID != a1.VersionID || all[2].State != memgov.Superseded {
			t.Errorf("IndexedVersions(all) = %v, %v; want the superseded version last", indexedIDs(all), err)
		}
		if one, err := tx.IndexedVersions(fx.ctx, ref, true, 1); err != nil || len(one) != 1 || one[0].ID != a2.VersionID {
			t.Errorf("IndexedVersions(limit 1) = %v, %v", indexedIDs(one), err)
		}
		if none, err := tx.IndexedVersions(fx.ctx, "acme/nobody", true, 10); err != nil || len(none) != 0 {
			t.Errorf("IndexedVersions of an unknown ref = %v, %v", indexedIDs(none), err)
		}
		return nil
	})
}

// SearchStamp changes with every log entry of its ref and with every
// erasure, and not with another ref's writes.
func testSearchStamp(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	stamp := func(r string) memgov.SearchStamp {
		var st memgov.SearchStamp
		fx.view(func(tx memgov.ReadTx) (err error) {
			st, err = tx.SearchStamp(fx.ctx, r)
			return err
		})
		return st
	}
	if st := stamp(ref); st != (memgov.SearchStamp{}) {
		t.Fatalf("SearchStamp of an empty store = %+v, want zero", st)
	}
	fx.put(ref, "a", "the deploy window is on tuesdays")
	s1 := stamp(ref)
	if s1.Ref == 0 {
		t.Fatal("SearchStamp did not change with a write to the ref")
	}
	fx.put("acme/other", "b", "carol@example.com likes tea")
	if s := stamp(ref); s != s1 {
		t.Fatalf("SearchStamp changed with another ref's write: %+v, then %+v", s1, s)
	}
	fx.put(ref, "a", "the deploy window is on wednesdays")
	s2 := stamp(ref)
	if s2.Ref <= s1.Ref || s2.Erased != 0 {
		t.Fatalf("SearchStamp after an update = %+v, after %+v", s2, s1)
	}
	if _, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "carol@example.com", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	if s := stamp(ref); s.Erased <= s2.Ref || s.Ref != s2.Ref {
		t.Fatalf("SearchStamp after another ref's erasure = %+v, want the erasure's LSN and the same ref LSN as %+v", s, s2)
	}
}

// SearchChanges names the items of a ref changed after an LSN (written,
// updated, retracted, or superseded by a merge into another item) and
// returns their ACTIVE and SUPERSEDED versions.
func testSearchChanges(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a := fx.put(ref, "a", "the deploy window is on tuesdays")
	b := fx.put(ref, "b", "the staging cluster has four nodes")
	fx.put("acme/other", "x", "elsewhere")
	var since int64
	fx.view(func(tx memgov.ReadTx) error {
		st, err := tx.SearchStamp(fx.ctx, ref)
		since = st.Ref
		return err
	})
	a2 := fx.put(ref, "a", "the deploy window is on wednesdays")
	c := fx.put(ref, "c", "the canary runs for thirty minutes")
	fx.put("acme/other", "y", "elsewhere again")
	fx.view(func(tx memgov.ReadTx) error {
		items, vs, err := tx.SearchChanges(fx.ctx, ref, since, 100)
		if err != nil {
			return err
		}
		got := map[string]bool{}
		for _, it := range items {
			got[it] = true
		}
		if len(items) != 2 || !got[a.ItemID] || !got[c.ItemID] || got[b.ItemID] {
			t.Errorf("SearchChanges items = %v, want a's and c's", items)
		}
		ids := map[string]memgov.State{}
		for _, v := range vs {
			ids[v.ID] = v.State
			if len(v.Embedding) == 0 {
				t.Errorf("version %s without its embedding", v.ID)
			}
		}
		if len(vs) != 3 || ids[a.VersionID] != memgov.Superseded || ids[a2.VersionID] != memgov.Active || ids[c.VersionID] != memgov.Active {
			t.Errorf("SearchChanges versions = %v", ids)
		}
		if items, vs, err := tx.SearchChanges(fx.ctx, ref, 1<<40, 100); err != nil || len(items) != 0 || len(vs) != 0 {
			t.Errorf("SearchChanges after the last entry = %v %v %v", items, vs, err)
		}
		return nil
	})
}

func indexedIDs(vs []memgov.IndexedVersion) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

// DueExpiries returns the ACTIVE versions of a memoryRef whose TTL has passed,
// by key, at most limit; none once they are expired by a log entry.
func testDueExpiries(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	ttl := func(d time.Duration) func(*memgov.PutRequest) { return func(r *memgov.PutRequest) { r.TTL = d } }
	fx.put(ref, "b", "beta", ttl(time.Hour))
	a := fx.put(ref, "a", "alpha", ttl(time.Hour))
	fx.put(ref, "c", "gamma", ttl(48*time.Hour))
	fx.put(ref, "d", "delta")
	fx.put("acme/analyst", "x", "x", ttl(time.Hour))
	due := func(limit int) []string {
		var keys []string
		fx.view(func(tx memgov.ReadTx) error {
			vs, err := tx.DueExpiries(fx.ctx, ref, fx.c.Now(), limit)
			for _, v := range vs {
				keys = append(keys, v.Key)
			}
			return err
		})
		return keys
	}
	if got := due(0); len(got) != 0 {
		t.Fatalf("DueExpiries before any TTL passed = %v", got)
	}
	fx.c.Advance(2 * time.Hour)
	if got := due(0); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("DueExpiries = %v, want [a b]", got)
	}
	if got := due(1); len(got) != 1 || got[0] != "a" {
		t.Fatalf("DueExpiries limit 1 = %v, want [a]", got)
	}
	if _, err := fx.e.Expire(fx.ctx, a.ItemID, curator, "expired"); err != nil {
		t.Fatal(err)
	}
	if got := due(0); len(got) != 1 || got[0] != "b" {
		t.Fatalf("DueExpiries after expiring a = %v, want [b]", got)
	}
}
