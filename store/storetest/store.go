package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
)

var storeTests = []test{
	{"UpdateCommitsOrRollsBack", testUpdate},
	{"ViewIsASnapshot", testViewSnapshot},
	{"InfoAndClose", testInfoClose},
	{"VerifyAndRebuild", testMaintenance},
	{"CompactKeepsEveryRow", testCompact},
}

// Update commits fn's changes when it returns nil and none of them when it
// returns an error, which Update returns.
func testUpdate(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r := fx.put(ref, "k", "v")
	size := int64(len(fx.entries()))
	boom := errors.New("boom")
	err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error {
		if err := tx.Append(fx.ctx, pinEntry(t, fx.c.Now(), r.ItemID)); err != nil {
			return err
		}
		if err := tx.RecordOutcome(fx.ctx, memgov.Outcome{At: fx.c.Now(), Agent: "agent-a", Status: memgov.StatusCommitted}); err != nil {
			return err
		}
		if it, err := tx.Item(fx.ctx, r.ItemID); err != nil || !it.Pinned {
			t.Errorf("a transaction does not read its own write: %+v, %v", it, err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if n, err := tx.LogSize(fx.ctx); err != nil || n != size {
			t.Errorf("LogSize after a rolled-back append = %d, %v; want %d", n, err, size)
		}
		if it, err := tx.Item(fx.ctx, r.ItemID); err != nil || it.Pinned {
			t.Errorf("a rolled-back PIN was applied: %+v, %v", it, err)
		}
		if n, err := tx.CountOutcomes(fx.ctx, "agent-a", "", fx.c.Now().AddDate(-1, 0, 0)); err != nil || n != 0 {
			t.Errorf("a rolled-back outcome was kept: %d, %v", n, err)
		}
		return nil
	})
	fx.update(func(tx memgov.Tx) error { return tx.Append(fx.ctx, pinEntry(t, fx.c.Now(), r.ItemID)) })
	fx.view(func(tx memgov.ReadTx) error {
		if n, err := tx.LogSize(fx.ctx); err != nil || n != size+1 {
			t.Errorf("LogSize after a committed append = %d, %v; want %d", n, err, size+1)
		}
		return nil
	})
}

// A View does not see what commits after it began.
func testViewSnapshot(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "alpha")
	stop := errors.New("stop")
	err := fx.s.View(fx.ctx, func(tx memgov.ReadTx) error {
		before, err := tx.LogSize(fx.ctx)
		if err != nil {
			return err
		}
		vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: ref})
		if err != nil || len(vs) != 1 {
			t.Fatalf("Active = %d, %v", len(vs), err)
		}
		fx.put(ref, "b", "beta") // commits while the view is open
		after, err := tx.LogSize(fx.ctx)
		if err != nil || after != before {
			t.Errorf("the view saw a later commit: LogSize %d, then %d (%v)", before, after, err)
		}
		if vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: ref}); err != nil || len(vs) != 1 {
			t.Errorf("the view saw a later commit: %d versions, %v", len(vs), err)
		}
		return stop
	})
	if !errors.Is(err, stop) {
		t.Fatalf("View returned %v, want fn's error", err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		if vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: ref}); err != nil || len(vs) != 2 {
			t.Errorf("a new view misses the commit: %d versions, %v", len(vs), err)
		}
		return nil
	})
}

// Info names the implementation; Close succeeds.
func testInfoClose(t *testing.T, f Factory) {
	s, _ := f.Open(t)
	info := s.Info()
	if info.Type == "" || info.Version == "" {
		t.Errorf("Info = %+v; want a type and a schema version", info)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// Verify reports a sound log with its size and root; Rebuild replays it and
// finds nothing to change.
func testMaintenance(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	r := fx.put(ref, "k", "one")
	fx.put(ref, "k", "two")
	fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	approve(t, fx, ref, memgov.MemoryPersistent)
	if _, err := fx.e.Pin(fx.ctx, r.ItemID, curator, ""); err != nil {
		t.Fatal(err)
	}
	var leaves []merkle.Hash
	var size int64
	fx.view(func(tx memgov.ReadTx) (err error) {
		if size, err = tx.LogSize(fx.ctx); err != nil {
			return err
		}
		leaves, err = tx.Leaves(fx.ctx, size)
		return err
	})
	rep, err := fx.s.Verify(fx.ctx)
	if err != nil || !rep.OK || rep.TreeSize != size || rep.Root != merkle.Root(leaves) || rep.BadLSN != 0 || rep.Problem != "" {
		t.Fatalf("Verify = %+v, %v; want OK over %d entries", rep, err, size)
	}
	// VerifyReplay always replays the log and compares every served table.
	rep, err = fx.s.VerifyReplay(fx.ctx)
	if err != nil || !rep.OK || rep.TreeSize != size || rep.Served != "replay" || len(rep.Differences) != 0 || rep.Table != "" {
		t.Fatalf("VerifyReplay = %+v, %v; want OK by a replay of %d entries", rep, err, size)
	}
	before := snapshot(t, fx)
	rb, err := fx.s.Rebuild(fx.ctx)
	if err != nil || rb.Entries != size || len(rb.Differences) != 0 || len(rb.Tables) == 0 {
		t.Fatalf("Rebuild = %+v, %v; want %d entries and no differences", rb, err, size)
	}
	if after := snapshot(t, fx); !slices.Equal(before, after) {
		t.Fatalf("Rebuild changed what the store returns:\n%v\n%v", before, after)
	}
}

// snapshot renders what several concerns return, to compare a store before
// and after an operation that must not change it.
func snapshot(t *testing.T, fx *fixture) []string {
	t.Helper()
	var out []string
	add := func(v ...any) {
		for _, x := range v {
			out = append(out, fmtValue(x))
		}
	}
	fx.view(func(tx memgov.ReadTx) error {
		refs, err := tx.Refs(fx.ctx)
		if err != nil {
			return err
		}
		add(refs)
		for _, r := range refs {
			vs, err := tx.Active(fx.ctx, memgov.ActiveQuery{MemoryRef: r.MemoryRef})
			if err != nil {
				return err
			}
			for _, v := range vs {
				it, err := tx.Item(fx.ctx, v.ItemID)
				if err != nil {
					return err
				}
				h, err := tx.History(fx.ctx, v.ItemID)
				if err != nil {
					return err
				}
				add(it, h)
			}
			head, err := tx.MemHead(fx.ctx, r.MemoryRef)
			if err != nil {
				return err
			}
			add(head)
			if b, err := tx.Baseline(fx.ctx, r.MemoryRef); err == nil {
				add(b)
			}
		}
		rs, _, err := tx.Reviews(fx.ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewPending, memgov.ReviewApproved, memgov.ReviewRejected}})
		if err != nil {
			return err
		}
		ps, err := tx.Principals(fx.ctx)
		if err != nil {
			return err
		}
		evs, err := tx.Events(fx.ctx, memgov.EventQuery{})
		if err != nil {
			return err
		}
		add(rs, ps, len(evs))
		return nil
	})
	return out
}

// Compact changes no row.
func testCompact(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "k", "Reach Erin at erin@example.com.")
	fx.put(ref, "other", "The office opens at nine.")
	if _, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "erin@example.com", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, fx)
	rep, err := fx.s.Verify(fx.ctx)
	if err != nil || !rep.OK {
		t.Fatalf("Verify = %+v, %v", rep, err)
	}
	if err := fx.s.Compact(fx.ctx); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if after := snapshot(t, fx); !slices.Equal(before, after) {
		t.Fatalf("Compact changed what the store returns:\n%v\n%v", before, after)
	}
	if again, err := fx.s.Verify(fx.ctx); err != nil || !again.OK || again.TreeSize != rep.TreeSize || again.Root != rep.Root || again.Erased != rep.Erased {
		t.Fatalf("Verify after Compact = %+v, %v; want %+v", again, err, rep)
	}
	// The store stays usable.
	fx.put(ref, "after", "written after compaction")
}

// fmtValue renders v as JSON, which follows pointers (unlike %v).
func fmtValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unrenderable %T: %v", v, err)
	}
	return string(b)
}
