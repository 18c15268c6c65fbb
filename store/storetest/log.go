package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

var logTests = []test{
	{"EmptyLog", testEmptyLog},
	{"AppendAssignsLSNTimeAndChain", testAppend},
	{"AppendRefusesWhatCannotApply", testAppendRefuses},
	{"RangeLeavesAndTime", testLogRange},
	{"AuditCheckpoints", testAuditCheckpoints},
}

// A fresh store has an empty log.
func testEmptyLog(t *testing.T, f Factory) {
	s, _ := f.Open(t)
	t.Cleanup(func() { s.Close() })
	fx := &fixture{t: t, ctx: t.Context(), s: s, c: NewClock()}
	fx.view(func(tx memgov.ReadTx) error {
		if n, err := tx.LogSize(fx.ctx); err != nil || n != 0 {
			t.Errorf("LogSize = %d, %v; want 0", n, err)
		}
		calls := 0
		if err := tx.LogRange(fx.ctx, 1, 100, func(*oplog.Entry) error { calls++; return nil }); err != nil || calls != 0 {
			t.Errorf("LogRange on an empty log: %d calls, %v", calls, err)
		}
		if ls, err := tx.Leaves(fx.ctx, 10); err != nil || len(ls) != 0 {
			t.Errorf("Leaves = %v, %v; want none", ls, err)
		}
		if n, err := tx.LSNAt(fx.ctx, fx.c.Now()); err != nil || n != 0 {
			t.Errorf("LSNAt = %d, %v; want 0", n, err)
		}
		if _, err := tx.TimeOf(fx.ctx, 1); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("TimeOf(1) on an empty log: %v, want ErrNotFound", err)
		}
		if cps, err := tx.AuditCheckpoints(fx.ctx); err != nil || len(cps) != 0 {
			t.Errorf("AuditCheckpoints = %v, %v; want none", cps, err)
		}
		return nil
	})
}

// pinEntry is a sealed PIN entry for an item.
func pinEntry(t *testing.T, at time.Time, itemID string) *oplog.Entry {
	t.Helper()
	e := &oplog.Entry{Time: at, Op: oplog.Pin, ItemID: itemID, Actor: curator}
	if err := e.Seal(oplog.Payload{Reason: "conformance"}); err != nil {
		t.Fatal(err)
	}
	return e
}

// Append gives the entry the next LSN, a time no earlier than the previous
// entry's (in milliseconds), its leaf and chain, and applies it.
func testAppend(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r := fx.put(ref, "k", "one")
	before := fx.entries()
	last := before[len(before)-1]

	// An entry dated before the log's last entry takes the last entry's time.
	early := pinEntry(t, last.Time.Add(-time.Hour), r.ItemID)
	fx.update(func(tx memgov.Tx) error { return tx.Append(fx.ctx, early) })
	if early.LSN != last.LSN+1 {
		t.Fatalf("LSN = %d, want %d", early.LSN, last.LSN+1)
	}
	if !early.Time.Equal(last.Time) {
		t.Fatalf("an entry dated before its predecessor got time %v, want %v", early.Time, last.Time)
	}
	if early.Leaf == (merkle.Hash{}) || early.Chain == (oplog.Entry{}).Chain {
		t.Fatalf("Append left leaf or chain unset: %+v", early)
	}
	// The time is truncated to milliseconds, in UTC.
	at := fx.c.Now().Add(time.Minute + 1234567*time.Nanosecond).In(time.FixedZone("x", 3600))
	unpin := &oplog.Entry{Time: at, Op: oplog.Unpin, ItemID: r.ItemID, Actor: curator}
	if err := unpin.Seal(oplog.Payload{Reason: "conformance"}); err != nil {
		t.Fatal(err)
	}
	fx.update(func(tx memgov.Tx) error { return tx.Append(fx.ctx, unpin) })
	if want := at.UTC().Truncate(time.Millisecond); !unpin.Time.Equal(want) || unpin.Time.Location() != time.UTC || unpin.LSN != early.LSN+1 {
		t.Fatalf("appended time %v (LSN %d), want %v in UTC (LSN %d)", unpin.Time, unpin.LSN, want, early.LSN+1)
	}
	// What Append reported is what the log stores, and the entries were applied.
	after := fx.entries()
	if len(after) != len(before)+2 {
		t.Fatalf("%d entries after two appends to %d", len(after), len(before))
	}
	for _, want := range []*oplog.Entry{early, unpin} {
		got := after[want.LSN-1]
		if got.LSN != want.LSN || !got.Time.Equal(want.Time) || got.Op != want.Op || got.ItemID != want.ItemID || got.Actor != want.Actor ||
			got.PayloadHash != want.PayloadHash || got.Leaf != want.Leaf || got.Chain != want.Chain || string(got.Payload) != string(want.Payload) {
			t.Fatalf("stored entry %+v, appended %+v", got, want)
		}
	}
	if after[early.LSN-1].Chain == after[early.LSN-2].Chain || after[unpin.LSN-1].Chain == after[early.LSN-1].Chain {
		t.Fatal("consecutive entries share a chain value")
	}
	it, err := fx.e.Item(fx.ctx, r.ItemID)
	if err != nil || it.Pinned {
		t.Fatalf("after PIN then UNPIN the item is %+v, %v", it, err)
	}
	if rep, err := fx.s.Verify(fx.ctx); err != nil || !rep.OK || rep.TreeSize != int64(len(after)) {
		t.Fatalf("verify after appends: %+v, %v", rep, err)
	}
}

// Append refuses an unsealed entry and an entry that cannot be applied; a
// rolled-back transaction leaves the log as it was.
func testAppendRefuses(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r := fx.put(ref, "k", "one")
	size := int64(len(fx.entries()))
	unsealed := &oplog.Entry{Time: fx.c.Now(), Op: oplog.Pin, ItemID: r.ItemID, Actor: curator}
	if err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error { return tx.Append(fx.ctx, unsealed) }); err == nil {
		t.Fatal("an unsealed entry was appended")
	}
	missing := pinEntry(t, fx.c.Now(), "no-such-item")
	if err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error { return tx.Append(fx.ctx, missing) }); err == nil {
		t.Fatal("pinning a missing item was applied")
	}
	// The same in one transaction after a good append: nothing of it stays.
	good := pinEntry(t, fx.c.Now(), r.ItemID)
	err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error {
		if err := tx.Append(fx.ctx, good); err != nil {
			return err
		}
		if n, err := tx.LogSize(fx.ctx); err != nil || n != size+1 {
			t.Errorf("inside the transaction LogSize = %d, %v; want %d", n, err, size+1)
		}
		return tx.Append(fx.ctx, pinEntry(t, fx.c.Now(), "no-such-item"))
	})
	if err == nil {
		t.Fatal("a transaction whose second append failed committed")
	}
	fx.view(func(tx memgov.ReadTx) error {
		if n, err := tx.LogSize(fx.ctx); err != nil || n != size {
			t.Errorf("LogSize after refused appends = %d, %v; want %d", n, err, size)
		}
		it, err := tx.Item(fx.ctx, r.ItemID)
		if err != nil || it.Pinned {
			t.Errorf("a rolled-back PIN was applied: %+v, %v", it, err)
		}
		return nil
	})
}

// LogRange, Leaves, LSNAt and TimeOf agree with each other and with the
// engine's audit root.
func testLogRange(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "alpha")
	fx.c.Advance(time.Minute)
	mid := fx.c.Now()
	fx.c.Advance(time.Minute)
	fx.put(ref, "b", "beta")
	fx.put(ref, "a", "alpha two")
	all := fx.entries()
	n := int64(len(all))
	for i, e := range all {
		if e.LSN != int64(i+1) {
			t.Fatalf("entry %d has LSN %d: LSNs start at 1 without gaps", i, e.LSN)
		}
		if i > 0 && e.Time.Before(all[i-1].Time) {
			t.Fatalf("entry %d is earlier than entry %d", e.LSN, e.LSN-1)
		}
		if _, err := e.DecodePayload(); err != nil || len(e.Payload) == 0 {
			t.Fatalf("entry %d payload: %v", e.LSN, err)
		}
	}
	fx.view(func(tx memgov.ReadTx) error {
		if size, err := tx.LogSize(fx.ctx); err != nil || size != n {
			t.Errorf("LogSize = %d, %v; want %d", size, err, n)
		}
		var got []int64
		if err := tx.LogRange(fx.ctx, 2, 4, func(e *oplog.Entry) error { got = append(got, e.LSN); return nil }); err != nil {
			return err
		}
		if len(got) != 3 || got[0] != 2 || got[2] != 4 {
			t.Errorf("LogRange(2, 4) = %v; want [2 3 4]", got)
		}
		stop := errors.New("stop")
		calls := 0
		if err := tx.LogRange(fx.ctx, 1, n, func(*oplog.Entry) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
			t.Errorf("LogRange must stop at fn's first error: %d calls, %v", calls, err)
		}
		leaves, err := tx.Leaves(fx.ctx, n)
		if err != nil || int64(len(leaves)) != n {
			t.Fatalf("Leaves(%d) = %d leaves, %v", n, len(leaves), err)
		}
		for i, l := range leaves {
			if l != all[i].Leaf {
				t.Errorf("leaf %d differs from the entry's leaf", i+1)
			}
		}
		if short, err := tx.Leaves(fx.ctx, 2); err != nil || len(short) != 2 || short[1] != all[1].Leaf {
			t.Errorf("Leaves(2) = %v, %v", short, err)
		}
		if long, err := tx.Leaves(fx.ctx, n+10); err != nil || int64(len(long)) != n {
			t.Errorf("Leaves past the end = %d leaves, %v; want %d", len(long), err, n)
		}
		root, err := fx.e.AuditRoot(fx.ctx)
		if err != nil || root.Root != merkle.Root(leaves).Prefixed() {
			t.Errorf("the audit root %v is not the Merkle root of Leaves (%v)", root.Root, err)
		}
		for _, e := range all {
			at, err := tx.TimeOf(fx.ctx, e.LSN)
			if err != nil || !at.Equal(e.Time) {
				t.Errorf("TimeOf(%d) = %v, %v; want %v", e.LSN, at, err, e.Time)
			}
		}
		if _, err := tx.TimeOf(fx.ctx, n+1); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("TimeOf past the end: %v, want ErrNotFound", err)
		}
		var beforeMid int64
		for _, e := range all {
			if !e.Time.After(mid) {
				beforeMid = e.LSN
			}
		}
		if got, err := tx.LSNAt(fx.ctx, mid); err != nil || got != beforeMid || got == 0 || got == n {
			t.Errorf("LSNAt(mid) = %d, %v; want %d", got, err, beforeMid)
		}
		if got, err := tx.LSNAt(fx.ctx, all[n-1].Time); err != nil || got != n {
			t.Errorf("LSNAt(last entry's time) = %d, %v; want %d", got, err, n)
		}
		if got, err := tx.LSNAt(fx.ctx, all[0].Time.Add(-time.Hour)); err != nil || got != 0 {
			t.Errorf("LSNAt(before the log) = %d, %v; want 0", got, err)
		}
		return nil
	})
}

// AuditCheckpoints returns the signed checkpoints in sequence order with the
// LSN of the entry that recorded each.
func testAuditCheckpoints(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "alpha")
	cp1, err := fx.e.Checkpoint(fx.ctx, 3600, curator)
	if err != nil {
		t.Fatal(err)
	}
	fx.put(ref, "b", "beta")
	cp2, err := fx.e.Checkpoint(fx.ctx, 60, curator)
	if err != nil {
		t.Fatal(err)
	}
	all := fx.entries()
	fx.view(func(tx memgov.ReadTx) error {
		cps, err := tx.AuditCheckpoints(fx.ctx)
		if err != nil {
			return err
		}
		if len(cps) != 2 {
			t.Fatalf("AuditCheckpoints = %d, want 2", len(cps))
		}
		for i, want := range []oplog.AuditCheckpointRecord{cp1, cp2} {
			got := cps[i]
			if got.Seq != uint64(i+1) || got.Seq != want.Seq || got.TreeSize != want.TreeSize || got.Root != want.Root ||
				got.TTLSeconds != want.TTLSeconds || got.Signature != want.Signature || got.Signature == "" || !got.ObservedAt.Equal(want.ObservedAt) {
				t.Errorf("checkpoint %d = %+v, want %+v", i+1, got, want)
			}
			if got.LSN < 1 || got.LSN > int64(len(all)) || all[got.LSN-1].Op != oplog.AuditCP {
				t.Errorf("checkpoint %d names LSN %d, which is not its CHECKPOINT entry", i+1, got.LSN)
			}
		}
		return nil
	})
}
