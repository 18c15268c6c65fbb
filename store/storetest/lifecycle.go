package storetest

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

var lifecycleTests = []test{
	{"GCScanAndCursor", testGCScan},
	{"LinkedAndDerived", testLinked},
	{"Purgeable", testPurgeable},
	{"EraseMatchesAndEntries", testEraseMatches},
	{"SecureDeleteInATransaction", testSecureDelete},
	{"ErasureResidueCarriesALog", testErasureResidue},
	{"Leases", testLeases},
}

// GCScan pages through a layer's live items with their usage; the cursor is
// kept per layer.
func testGCScan(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	episodic := func(p *memgov.PutRequest) { p.Layer = memgov.Episodic }
	e1 := fx.put(ref, "e1", "the deploy window is on tuesdays", episodic)
	e2 := fx.put(ref, "e2", "the staging cluster has four nodes", episodic)
	e3 := fx.put(ref, "e3", "the old runbook lives in the wiki", episodic)
	gone := fx.put(ref, "e4", "a note that was rolled back", episodic)
	fx.put(ref, "s1", "a semantic fact")
	if _, err := fx.e.Rollback(fx.ctx, gone.VersionID, curator, "wrong"); err != nil {
		t.Fatal(err)
	}
	now := fx.c.Now()
	fx.update(func(tx memgov.Tx) error {
		if err := tx.RecordAccess(fx.ctx, []string{e1.ItemID, e1.ItemID}, now.Add(-time.Hour)); err != nil {
			return err
		}
		if err := tx.RecordAccess(fx.ctx, []string{e2.ItemID}, now.Add(-10*24*time.Hour)); err != nil {
			return err
		}
		if err := tx.RecordRetrieval(fx.ctx, "ret-1", executor, ref, now, map[string]time.Duration{e1.ItemID: time.Second, e3.ItemID: time.Second}); err != nil {
			return err
		}
		_, err := tx.RecordFeedback(fx.ctx, "ret-1", []string{e1.ItemID}, now)
		return err
	})
	fx.view(func(tx memgov.ReadTx) error {
		gs, err := tx.GCScan(fx.ctx, memgov.Episodic, "", 10, now, 7*24*time.Hour)
		if err != nil {
			return err
		}
		want := []memgov.PutResult{e1, e2, e3}
		slices.SortFunc(want, func(a, b memgov.PutResult) int { return compare(a.ItemID, b.ItemID) })
		if len(gs) != 3 {
			t.Fatalf("GCScan = %d items, want 3 (live episodic items only)", len(gs))
		}
		byID := map[string]memgov.GCItem{}
		for i, g := range gs {
			if g.Item.ID != want[i].ItemID || g.Head.ID != want[i].VersionID || g.Head.State != memgov.Active || g.Item.Layer != memgov.Episodic {
				t.Errorf("GCScan item %d = %s (head %s), want %s (head %s), by id", i, g.Item.ID, g.Head.ID, want[i].ItemID, want[i].VersionID)
			}
			byID[g.Item.ID] = g
		}
		if g := byID[e1.ItemID]; g.Accesses != 2 || !g.LastAccess.Equal(now.Add(-time.Hour)) || g.Impact != 1 || g.Linked != "" {
			t.Errorf("e1 = accesses %d, last %v, impact %v, linked %q; want 2, an hour ago, 1, none", g.Accesses, g.LastAccess, g.Impact, g.Linked)
		}
		if g := byID[e2.ItemID]; g.Accesses != 0 || !g.LastAccess.Equal(now.Add(-10*24*time.Hour)) || g.Impact != 1 {
			t.Errorf("e2 = accesses %d, last %v, impact %v; want 0 in the window, read ten days ago, 1 without feedback", g.Accesses, g.LastAccess, g.Impact)
		}
		if g := byID[e3.ItemID]; g.Accesses != 0 || !g.LastAccess.IsZero() || g.Impact != 0 {
			t.Errorf("e3 = accesses %d, last %v, impact %v; want never read, impact 0 (retrieved, not used)", g.Accesses, g.LastAccess, g.Impact)
		}
		page, err := tx.GCScan(fx.ctx, memgov.Episodic, want[0].ItemID, 1, now, time.Hour)
		if err != nil || len(page) != 1 || page[0].Item.ID != want[1].ItemID {
			t.Errorf("GCScan after the first item, limit 1 = %v, %v; want %s", page, err, want[1].ItemID)
		}
		if none, err := tx.GCScan(fx.ctx, memgov.Episodic, want[2].ItemID, 10, now, time.Hour); err != nil || len(none) != 0 {
			t.Errorf("GCScan past the last item = %d items, %v", len(none), err)
		}
		if c, err := tx.GCCursor(fx.ctx, memgov.Episodic); err != nil || c != "" {
			t.Errorf("GCCursor before any scan = %q, %v", c, err)
		}
		return nil
	})
	fx.update(func(tx memgov.Tx) error { return tx.SetGCCursor(fx.ctx, memgov.Episodic, e2.ItemID) })
	fx.update(func(tx memgov.Tx) error { return tx.SetGCCursor(fx.ctx, memgov.Episodic, e3.ItemID) })
	fx.view(func(tx memgov.ReadTx) error {
		if c, err := tx.GCCursor(fx.ctx, memgov.Episodic); err != nil || c != e3.ItemID {
			t.Errorf("GCCursor = %q, %v; want %s", c, err, e3.ItemID)
		}
		if c, err := tx.GCCursor(fx.ctx, memgov.Semantic); err != nil || c != "" {
			t.Errorf("another layer's GCCursor = %q, %v; want none", c, err)
		}
		return nil
	})
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Linked names why an item is load-bearing; DerivedItems finds the items
// built on others.
func testLinked(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	a := fx.committed("fact/a", "Plan A includes phone support.")
	b := fx.cite("fact/b", "Plan B includes everything in plan A.", a.ItemID)
	d := fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	gone := fx.put(ref, "gone", "a note that was rolled back")
	if _, err := fx.e.Rollback(fx.ctx, gone.VersionID, curator, "wrong"); err != nil {
		t.Fatal(err)
	}
	based := fx.put("acme/based", "k", "part of a baseline")
	approve(t, fx, "acme/based", memgov.MemoryPersistent)
	fx.view(func(tx memgov.ReadTx) error {
		for what, id := range map[string]string{"a cited item": a.ItemID, "an item awaiting review": d.ItemID, "a rolled-back item": gone.ItemID,
			"an item in a baseline": based.ItemID} {
			if why, err := tx.Linked(fx.ctx, id); err != nil || why == "" {
				t.Errorf("Linked(%s) = %q, %v; want a reason", what, why, err)
			}
		}
		if why, err := tx.Linked(fx.ctx, b.ItemID); err != nil || why != "" {
			t.Errorf("Linked(an item nothing depends on) = %q, %v; want none", why, err)
		}
		if got, err := tx.DerivedItems(fx.ctx, []string{a.ItemID, d.ItemID}); err != nil || !slices.Equal(got, []string{b.ItemID}) {
			t.Errorf("DerivedItems(a) = %v, %v; want [%s]", got, err, b.ItemID)
		}
		if got, err := tx.DerivedItems(fx.ctx, []string{b.ItemID}); err != nil || len(got) != 0 {
			t.Errorf("DerivedItems(b) = %v, %v; want none", got, err)
		}
		if got, err := tx.DerivedItems(fx.ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("DerivedItems(nothing) = %v, %v; want none", got, err)
		}
		return nil
	})
}

// GCPurgeable lists items whose last version expired before a time until a
// purge removes them.
func testPurgeable(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	x := fx.put(ref, "x", "expires")
	fx.put(ref, "y", "stays")
	expiredAt := fx.c.Now()
	if _, err := fx.e.Expire(fx.ctx, x.ItemID, curator, "done"); err != nil {
		t.Fatal(err)
	}
	fx.c.Advance(time.Hour)
	fx.view(func(tx memgov.ReadTx) error {
		gs, err := tx.GCPurgeable(fx.ctx, expiredAt.Add(time.Second), 10)
		if err != nil || len(gs) != 1 || gs[0].Item.ID != x.ItemID || !gs[0].ExpiredAt.Equal(expiredAt) || gs[0].Item.Head != "" {
			t.Errorf("GCPurgeable = %+v, %v; want %s, expired at %v", gs, err, x.ItemID, expiredAt)
		}
		if gs, err := tx.GCPurgeable(fx.ctx, expiredAt.Add(-time.Second), 10); err != nil || len(gs) != 0 {
			t.Errorf("GCPurgeable before the expiry = %+v, %v; want none", gs, err)
		}
		if gs, err := tx.GCPurgeable(fx.ctx, expiredAt.Add(time.Second), 0); err != nil || len(gs) != 0 {
			t.Errorf("GCPurgeable(limit 0) = %+v, %v; want none", gs, err)
		}
		return nil
	})
	if _, err := fx.e.HardDelete(fx.ctx, x.ItemID, curator, "purge"); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if gs, err := tx.GCPurgeable(fx.ctx, fx.c.Now(), 10); err != nil || len(gs) != 0 {
			t.Errorf("GCPurgeable after the purge = %+v, %v; want none", gs, err)
		}
		return nil
	})
}

// EraseMatches finds a subject's items; ItemEntries lists their entries
// until an erasure removes the payloads.
func testEraseMatches(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	k1 := fx.put(ref, "contact", "Reach Alice at alice@example.com.")
	fx.put(ref, "contact", "Reach Alice at alice@example.com or by phone.")
	k2 := fx.put(ref, "other", "The office opens at nine.")
	// A log entry without an item that names carol-bot.
	if _, err := fx.e.ApproveBaseline(fx.ctx, memgov.ApproveRequest{MemoryRef: "acme/other", By: operator, MemoryType: memgov.MemoryPersistent,
		TTLSeconds: 3600, DriftPolicy: "log-only", Level: 1, Reason: "requested by carol-bot"}); err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, id := range []string{k1.ItemID, k2.ItemID} {
		for _, e := range fx.entries() {
			if e.ItemID == id {
				want = append(want, e.LSN)
			}
		}
	}
	fx.view(func(tx memgov.ReadTx) error {
		items, unresolved, err := tx.EraseMatches(fx.ctx, []string{"ALICE@EXAMPLE.COM", "alice@"})
		if err != nil || !slices.Equal(items, []string{k1.ItemID}) || unresolved != 0 {
			t.Errorf("EraseMatches(alice) = %v, %d, %v; want [%s], 0", items, unresolved, err, k1.ItemID)
		}
		items, unresolved, err = tx.EraseMatches(fx.ctx, []string{"Carol-Bot"})
		if err != nil || len(items) != 0 || unresolved != 1 {
			t.Errorf("EraseMatches(carol-bot) = %v, %d, %v; want no item and the principal entry unresolved", items, unresolved, err)
		}
		if items, _, err := tx.EraseMatches(fx.ctx, []string{"nobody@example.com"}); err != nil || len(items) != 0 {
			t.Errorf("EraseMatches(nobody) = %v, %v", items, err)
		}
		got, err := tx.ItemEntries(fx.ctx, []string{k1.ItemID, k2.ItemID})
		if err != nil || !slices.Equal(got, want) || len(got) != 3 {
			t.Errorf("ItemEntries = %v, %v; want %v", got, err, want)
		}
		return nil
	})
	rep, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "alice@example.com", By: curator, Reason: "erasure request"})
	if err != nil || rep.Status != "COMPLETED" {
		t.Fatalf("erase = %+v, %v", rep, err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if items, _, err := tx.EraseMatches(fx.ctx, []string{"alice@example.com"}); err != nil || len(items) != 0 {
			t.Errorf("EraseMatches after the erasure = %v, %v; want none", items, err)
		}
		if got, err := tx.ItemEntries(fx.ctx, []string{k1.ItemID}); err != nil || len(got) != 0 {
			t.Errorf("ItemEntries of an erased item = %v, %v; want none", got, err)
		}
		if got, err := tx.ItemEntries(fx.ctx, []string{k2.ItemID}); err != nil || len(got) != 1 {
			t.Errorf("ItemEntries of another item = %v, %v; want its entry", got, err)
		}
		return nil
	})
}

// SecureDelete leaves the transaction usable, and the erasure that relies on
// it leaves a log that verifies with the erased payloads gone.
func testSecureDelete(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r := fx.put(ref, "k", "Reach Bob at bob@example.com.")
	fx.update(func(tx memgov.Tx) error {
		if err := tx.SecureDelete(fx.ctx); err != nil {
			return err
		}
		return tx.Append(fx.ctx, pinEntry(t, fx.c.Now(), r.ItemID))
	})
	if it, err := fx.e.Item(fx.ctx, r.ItemID); err != nil || !it.Pinned {
		t.Fatalf("the entry appended after SecureDelete: %+v, %v", it, err)
	}
	if _, err := fx.e.Unpin(fx.ctx, r.ItemID, curator, "erase"); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "bob@example.com", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	inserts := 0
	for _, e := range fx.entries() {
		if e.ItemID == r.ItemID && e.Op == oplog.Insert {
			inserts++
			if e.Payload != nil {
				t.Errorf("entry %d still has its erased payload: %s", e.LSN, e.Payload)
			}
		}
	}
	if inserts != 1 {
		t.Errorf("found %d INSERT entries of the erased item, want 1", inserts)
	}
	if rep, err := fx.s.Verify(fx.ctx); err != nil || !rep.OK || rep.Erased == 0 {
		t.Fatalf("verify after the erasure = %+v, %v", rep, err)
	}
}

// LeaseOf returns a lease through grant and release.
func testLeases(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	granted := fx.c.Now()
	res, err := fx.e.AcquireLease(fx.ctx, ref, "k", executor, time.Minute)
	if err != nil || res.Lease.Token <= 0 {
		t.Fatalf("acquire = %+v, %v", res, err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		l, found, err := tx.LeaseOf(fx.ctx, ref+"#k")
		if err != nil || !found || l.Resource != ref+"#k" || l.MemoryRef != ref || l.Key != "k" || l.Holder != executor || l.Token != res.Lease.Token ||
			!l.GrantedAt.Equal(granted) || !l.ExpiresAt.Equal(granted.Add(time.Minute)) || l.Released {
			t.Errorf("LeaseOf = %+v, %v, %v; want %+v", l, found, err, res.Lease)
		}
		if l, found, err := tx.LeaseOf(fx.ctx, ref+"#other"); err != nil || found {
			t.Errorf("LeaseOf a key never leased = %+v, %v, %v", l, found, err)
		}
		return nil
	})
	if err := fx.e.ReleaseLease(fx.ctx, ref, "k", executor, res.Lease.Token); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if l, found, err := tx.LeaseOf(fx.ctx, ref+"#k"); err != nil || !found || !l.Released || l.Holder != executor {
			t.Errorf("LeaseOf a released lease = %+v, %v, %v", l, found, err)
		}
		return nil
	})
}

// ErasureResidue returns what erasures left for replay, and a fresh store
// that restores it takes the erased log entry by entry: the same leaves, the
// same served memory, a replay that matches, and none of the erased text.
func testErasureResidue(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.view(func(tx memgov.ReadTx) error {
		res, err := tx.ErasureResidue(fx.ctx)
		if err != nil || len(res.Skeletons) != 0 || len(res.Leaves) != 0 {
			t.Errorf("ErasureResidue before any erasure = %+v, %v; want nothing", res, err)
		}
		return nil
	})
	fx.put(ref, "contact", "Reach Alice at alice@example.com.")
	fx.put(ref, "contact", "Reach Alice at alice@example.com or by phone.")
	fx.put(ref, "other", "The office opens at nine.")
	if rep, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "alice@example.com", By: curator, Reason: "erasure request"}); err != nil || rep.Status != "COMPLETED" {
		t.Fatalf("erase = %+v, %v", rep, err)
	}
	src := fx.entries()
	var erased []int64
	for _, e := range src {
		if e.Payload == nil {
			erased = append(erased, e.LSN)
		}
	}
	var res memgov.ErasureResidue
	fx.view(func(tx memgov.ReadTx) (err error) {
		res, err = tx.ErasureResidue(fx.ctx)
		return err
	})
	var lsns []int64
	for _, k := range res.Skeletons {
		lsns = append(lsns, k.LSN)
		if bytes.Contains(bytes.ToLower(k.Body), []byte("alice")) {
			t.Errorf("the skeleton of LSN %d holds the erased text: %s", k.LSN, k.Body)
		}
	}
	if len(erased) < 2 || !slices.Equal(lsns, erased) {
		t.Fatalf("ErasureResidue skeletons at %v; want one per erased payload, at %v", lsns, erased)
	}
	if len(res.Leaves) < 2 {
		t.Fatalf("ErasureResidue leaves = %+v; want the two kept leaves of the erased key's memory ops", res.Leaves)
	}
	for _, l := range res.Leaves {
		if l.MemoryRef != ref || l.Leaf == (merkle.Hash{}) {
			t.Errorf("erased leaf %+v; want a leaf of %s", l, ref)
		}
	}

	dst, _ := f.Open(t)
	t.Cleanup(func() { dst.Close() })
	cp := func(e *oplog.Entry) *oplog.Entry {
		return &oplog.Entry{Time: e.Time, Op: e.Op, MemoryRef: e.MemoryRef, ItemID: e.ItemID, VersionID: e.VersionID,
			PrevVersionID: e.PrevVersionID, Actor: e.Actor, Payload: e.Payload, PayloadHash: e.PayloadHash}
	}
	// Without the residue an entry without its payload is refused.
	var first *oplog.Entry
	for _, e := range src {
		if e.Payload == nil {
			first = e
			break
		}
	}
	if err := dst.Update(fx.ctx, func(tx memgov.Tx) error { return tx.Append(fx.ctx, cp(first)) }); err == nil {
		t.Fatal("an entry without a payload was appended where no skeleton stands for it")
	}
	if err := dst.Update(fx.ctx, func(tx memgov.Tx) error {
		if err := tx.RestoreErasureResidue(fx.ctx, res); err != nil {
			return err
		}
		for _, e := range src {
			c := cp(e)
			if err := tx.Append(fx.ctx, c); err != nil {
				return err
			}
			if c.LSN != e.LSN || c.Leaf != e.Leaf {
				t.Errorf("entry %d became entry %d with another leaf", e.LSN, c.LSN)
			}
		}
		return nil
	}); err != nil {
		t.Fatalf("restoring the residue and appending the erased log: %v", err)
	}
	size := int64(len(src))
	rep, err := dst.VerifyReplay(fx.ctx)
	if err != nil || !rep.OK || rep.TreeSize != size || rep.Erased != int64(len(erased)) || len(rep.Differences) != 0 {
		t.Fatalf("VerifyReplay of the copy = %+v, %v; want OK over %d entries, %d erased", rep, err, size, len(erased))
	}
	var srcLeaves []merkle.Hash
	fx.view(func(tx memgov.ReadTx) (err error) {
		srcLeaves, err = tx.Leaves(fx.ctx, size)
		return err
	})
	to := &fixture{t: t, ctx: fx.ctx, s: dst, c: fx.c}
	to.view(func(tx memgov.ReadTx) error {
		leaves, err := tx.Leaves(fx.ctx, size)
		if err != nil || !slices.Equal(leaves, srcLeaves) {
			t.Errorf("the copy's leaves differ from the source's (%v)", err)
		}
		got, err := tx.ErasureResidue(fx.ctx)
		if err != nil || fmtValue(got) != fmtValue(res) {
			t.Errorf("the copy's residue = %+v, %v; want the source's", got, err)
		}
		if items, _, err := tx.EraseMatches(fx.ctx, []string{"alice"}); err != nil || len(items) != 0 {
			t.Errorf("EraseMatches(alice) on the copy = %v, %v; want none", items, err)
		}
		return tx.LogRange(fx.ctx, 1, size, func(e *oplog.Entry) error {
			if (e.Payload == nil) != slices.Contains(erased, e.LSN) {
				t.Errorf("entry %d of the copy: payload %q", e.LSN, e.Payload)
			}
			return nil
		})
	})
	if a, b := snapshot(t, fx), snapshot(t, to); !slices.Equal(a, b) {
		t.Fatalf("the copy serves other memory:\n%v\n%v", a, b)
	}
	// A residue is restored into an empty log only.
	err = dst.Update(fx.ctx, func(tx memgov.Tx) error { return tx.RestoreErasureResidue(fx.ctx, res) })
	if !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("RestoreErasureResidue into a log of %d entries = %v; want ErrConflict", size, err)
	}
}
