package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

var quarantineTests = []test{
	{"RecordReadAndFold", testRecordReadAndFold},
	{"QuarantineLifecycle", testQuarantineLifecycle},
}

// A packed read counts one access per item and a retrieval with each item's
// staleness once folded; folding twice changes nothing.
func testRecordReadAndFold(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	episodic := func(p *memgov.PutRequest) { p.Layer = memgov.Episodic }
	e1 := fx.put(ref, "e1", "the deploy window is on tuesdays", episodic)
	e2 := fx.put(ref, "e2", "the staging cluster has four nodes", episodic)
	now := fx.c.Now().Add(time.Hour)
	fx.update(func(tx memgov.Tx) error {
		if err := tx.RecordRead(fx.ctx, "read-1", executor, ref, now, []string{e1.VersionID, e2.VersionID}); err != nil {
			return err
		}
		if err := tx.RecordRead(fx.ctx, "read-2", executor, ref, now, []string{e1.VersionID}); err != nil {
			return err
		}
		if err := tx.FoldReads(fx.ctx); err != nil {
			return err
		}
		return tx.FoldReads(fx.ctx)
	})
	fx.update(func(tx memgov.Tx) error {
		n, err := tx.RecordFeedback(fx.ctx, "read-1", []string{e1.ItemID, "e2", "nope"}, now)
		if err != nil || n != 2 {
			t.Errorf("feedback by item id and by key = %d, %v; want 2", n, err)
		}
		return nil
	})
	fx.view(func(tx memgov.ReadTx) error {
		gs, err := tx.GCScan(fx.ctx, memgov.Episodic, "", 10, now, 24*time.Hour)
		if err != nil {
			return err
		}
		acc := map[string]int{}
		for _, g := range gs {
			acc[g.Item.ID] = g.Accesses
		}
		if acc[e1.ItemID] != 2 || acc[e2.ItemID] != 1 {
			t.Errorf("accesses after two reads = %v; want e1 2, e2 1", acc)
		}
		d, err := tx.MetricsData(fx.ctx, now.Add(-time.Minute), now)
		if err != nil {
			return err
		}
		if d.RetrievalsTotal != 2 || len(d.Retrievals) != 1 || d.Retrievals[0].N != 2 || d.Retrievals[0].Used != 2 || len(d.StalenessMS) != 3 {
			t.Errorf("retrievals = total %d, with feedback %+v, staleness %v", d.RetrievalsTotal, d.Retrievals, d.StalenessMS)
		}
		return nil
	})
}

// A QUARANTINE entry withholds the version (QUARANTINED, no longer the
// item's head) and lists it; outcome counts and an agent's ACTIVE writes
// decide a quarantine.
func testQuarantineLifecycle(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	w := fx.committed("fact", "the refund limit is 100 euros")
	since := fx.c.Now().Add(-time.Hour)
	fx.view(func(tx memgov.ReadTx) error {
		total, contra, err := tx.AgentOutcomes(fx.ctx, orch, since)
		if err != nil || total != 1 || contra != 0 {
			t.Errorf("AgentOutcomes = %d, %d, %v; want 1, 0", total, contra, err)
		}
		vs, err := tx.ActiveWrittenBy(fx.ctx, orch, since)
		if err != nil || len(vs) != 1 || vs[0].ID != w.VersionID {
			t.Errorf("ActiveWrittenBy = %v, %v; want the committed write", vs, err)
		}
		return nil
	})
	data, _ := json.Marshal(oplog.QuarantineData{Action: oplog.QuarantineHold, Agent: orch, Cause: "test"})
	fx.update(func(tx memgov.Tx) error {
		e := &oplog.Entry{Time: fx.c.Now(), Op: oplog.Quarantine, MemoryRef: "acme/" + orch, ItemID: w.ItemID, VersionID: w.VersionID, Actor: "memgov"}
		if err := e.Seal(oplog.Payload{Reason: "quarantine: test", Data: data}); err != nil {
			return err
		}
		return tx.Append(fx.ctx, e)
	})
	fx.view(func(tx memgov.ReadTx) error {
		qs, err := tx.Quarantined(fx.ctx, memgov.QuarantineQuery{Status: memgov.QuarantineOpen, Tenant: "acme"})
		if err != nil || len(qs) != 1 || qs[0].VersionID != w.VersionID || qs[0].Agent != orch || qs[0].Key != "fact" {
			t.Errorf("Quarantined = %+v, %v", qs, err)
		}
		if qs, _ := tx.Quarantined(fx.ctx, memgov.QuarantineQuery{Tenant: "globex"}); len(qs) != 0 {
			t.Errorf("another tenant's quarantine = %+v", qs)
		}
		v, err := tx.Version(fx.ctx, w.VersionID)
		if err != nil || v.State != memgov.Quarantined {
			t.Errorf("version state = %s, %v", v.State, err)
		}
		if vs, _ := tx.ActiveWrittenBy(fx.ctx, orch, since); len(vs) != 0 {
			t.Errorf("ActiveWrittenBy after the quarantine = %v", vs)
		}
		return nil
	})
	if _, err := fx.e.ReleaseQuarantine(fx.ctx, w.VersionID, curator, "checked"); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		qs, err := tx.Quarantined(fx.ctx, memgov.QuarantineQuery{VersionID: w.VersionID})
		if err != nil || len(qs) != 1 || qs[0].Status != memgov.QuarantineReleased || qs[0].ReleasedAs == "" || qs[0].DecidedBy != curator {
			t.Errorf("released = %+v, %v", qs, err)
		}
		return nil
	})
}
