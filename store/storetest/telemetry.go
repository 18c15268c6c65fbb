package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var telemetryTests = []test{
	{"MetricsData", testMetricsData},
	{"FeedbackErrors", testFeedbackErrors},
	{"TaskOutcomes", testTaskOutcomes},
	{"ComplianceData", testComplianceData},
}

// Every telemetry write shows in MetricsData for the window it falls in.
func testMetricsData(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	// The window starts after the fixture's own writes.
	fx.c.Advance(time.Hour)
	since := fx.c.Now()
	fx.c.Advance(time.Minute)
	a := fx.put(ref, "a", "alpha", func(p *memgov.PutRequest) { p.Layer = memgov.Episodic })
	b := fx.put(ref, "b", "beta")
	fx.put(ref, "w", "working note", func(p *memgov.PutRequest) { p.Layer = memgov.Working; p.TTL = time.Minute })
	fx.c.Advance(2 * time.Minute) // w is past its TTL; nothing has expired it
	now := fx.c.Now()
	fx.update(func(tx memgov.Tx) error {
		for _, o := range []memgov.Outcome{
			{At: since.Add(-time.Minute), Agent: "agent-a", Status: memgov.StatusCommitted}, // before the window
			{At: now, Agent: "agent-a", Layer: memgov.Episodic, Status: memgov.StatusCommitted, Latency: 1500 * time.Microsecond,
				Stages: map[string]time.Duration{"schema": 200 * time.Microsecond, "commit": time.Millisecond}},
			{At: now, Agent: "agent-a", Layer: memgov.Semantic, Status: memgov.StatusRejected, Reason: "SCHEMA_INVALID", Latency: 300 * time.Microsecond},
		} {
			if err := tx.RecordOutcome(fx.ctx, o); err != nil {
				return err
			}
		}
		if err := tx.RecordRetrieval(fx.ctx, "ret-old", executor, ref, since.Add(-time.Minute), map[string]time.Duration{a.ItemID: time.Second}); err != nil {
			return err
		}
		if err := tx.RecordRetrieval(fx.ctx, "ret-1", executor, ref, now, map[string]time.Duration{a.ItemID: 2 * time.Second, b.ItemID: 3 * time.Second}); err != nil {
			return err
		}
		if err := tx.RecordRetrieval(fx.ctx, "ret-2", executor, ref, now, map[string]time.Duration{b.ItemID: 4 * time.Second}); err != nil {
			return err
		}
		n, err := tx.RecordFeedback(fx.ctx, "ret-1", []string{a.ItemID, "not-returned"}, now)
		if err != nil || n != 1 {
			t.Errorf("RecordFeedback = %d, %v; want 1 (the item not returned is not counted)", n, err)
		}
		for _, g := range []bool{true, true, false} {
			if err := tx.CountLease(fx.ctx, now, g); err != nil {
				return err
			}
		}
		if err := tx.RecordRevalidation(fx.ctx, a.VersionID, now, true, 0.9); err != nil {
			return err
		}
		if err := tx.RecordRevalidation(fx.ctx, b.VersionID, now, true, 0.8); err != nil {
			return err
		}
		// A later revalidation of the same version replaces the earlier one.
		return tx.RecordRevalidation(fx.ctx, b.VersionID, now, false, 0.2)
	})
	fx.view(func(tx memgov.ReadTx) error {
		d, err := tx.MetricsData(fx.ctx, since, now)
		if err != nil {
			return err
		}
		// The fixture's puts recorded no outcomes (Put is not the governed path).
		if len(d.Outcomes) != 2 {
			t.Fatalf("Outcomes = %+v, want the 2 in the window", d.Outcomes)
		}
		o := d.Outcomes[0]
		if o.Status != memgov.StatusCommitted || o.Layer != string(memgov.Episodic) || o.LatencyUS != 1500 || o.Stages["schema"] != 200 || o.Stages["commit"] != 1000 {
			t.Errorf("first outcome = %+v", o)
		}
		if o := d.Outcomes[1]; o.Status != memgov.StatusRejected || o.Reason != "SCHEMA_INVALID" || o.LatencyUS != 300 {
			t.Errorf("second outcome = %+v", o)
		}
		if len(d.Retrievals) != 1 || d.Retrievals[0] != (memgov.RetrievalRow{N: 2, Used: 1}) || d.RetrievalsTotal != 2 {
			t.Errorf("Retrievals = %+v of %d; want one with feedback (2 returned, 1 used) of 2", d.Retrievals, d.RetrievalsTotal)
		}
		st := slices.Clone(d.StalenessMS)
		slices.Sort(st)
		if !slices.Equal(st, []int64{2000, 3000, 4000}) {
			t.Errorf("StalenessMS = %v, want 2000, 3000 and 4000", d.StalenessMS)
		}
		if d.LeaseGranted != 2 || d.LeaseDenied != 1 {
			t.Errorf("leases = %d granted, %d denied; want 2, 1", d.LeaseGranted, d.LeaseDenied)
		}
		if d.Revalidated != 2 || d.RevalidationFailed != 1 {
			t.Errorf("revalidations = %d, %d failed; want 2, 1", d.Revalidated, d.RevalidationFailed)
		}
		if d.PastTTL != 1 || d.GCExpired != 0 {
			t.Errorf("PastTTL = %d, GCExpired = %d; want 1, 0", d.PastTTL, d.GCExpired)
		}
		if d.LayerSizes[string(memgov.Episodic)] != 1 || d.LayerSizes[string(memgov.Semantic)] != 1 || d.LayerSizes[string(memgov.Working)] != 1 {
			t.Errorf("LayerSizes = %v", d.LayerSizes)
		}
		if len(d.Erasures) != 0 {
			t.Errorf("Erasures = %+v, want none", d.Erasures)
		}
		later, err := tx.MetricsData(fx.ctx, now.Add(time.Hour), now.Add(time.Hour))
		if err != nil || len(later.Outcomes) != 0 || later.RetrievalsTotal != 0 || later.Revalidated != 0 {
			t.Errorf("MetricsData of a later window = %+v, %v; want nothing", later, err)
		}
		return nil
	})
}

// RecordFeedback on an unknown retrieval is ErrNotFound.
func testFeedbackErrors(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	err := fx.s.Update(fx.ctx, func(tx memgov.Tx) error {
		_, err := tx.RecordFeedback(fx.ctx, "no-such-retrieval", []string{"x"}, fx.c.Now())
		return err
	})
	if !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("feedback on an unknown retrieval: %v, want ErrNotFound", err)
	}
}

// ComplianceData lists ACTIVE versions, erasures and residency refusals.
func testComplianceData(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put("acme/b-bot", "z", "zed")
	fx.put(ref, "b", "beta")
	fx.put(ref, "a", "alpha", func(p *memgov.PutRequest) { p.TTL = time.Minute })
	fx.put(ref, "gone", "Reach Dan at dan@example.com.")
	fx.c.Advance(time.Hour) // a has expired; it is still ACTIVE until GC runs
	if _, err := fx.e.Erase(fx.ctx, memgov.EraseRequest{Subject: "dan@example.com", By: curator, Reason: "erasure request"}); err != nil {
		t.Fatal(err)
	}
	fx.update(func(tx memgov.Tx) error {
		for _, reason := range []string{memgov.ReasonResidency, memgov.ReasonResidency, "SCHEMA_INVALID"} {
			if err := tx.RecordOutcome(fx.ctx, memgov.Outcome{At: fx.c.Now(), Agent: "agent-a", Status: memgov.StatusRejected, Reason: reason}); err != nil {
				return err
			}
		}
		return nil
	})
	fx.view(func(tx memgov.ReadTx) error {
		d, err := tx.ComplianceData(fx.ctx)
		if err != nil {
			return err
		}
		var got []string
		for _, v := range d.Active {
			got = append(got, v.MemoryRef+"#"+v.Key)
		}
		if want := []string{"acme/b-bot#z", ref + "#a", ref + "#b"}; !slices.Equal(got, want) {
			t.Errorf("Active = %v, want %v (by memoryRef and key, expired included)", got, want)
		}
		if len(d.Erasures) != 1 || d.Erasures[0].Kind != memgov.EraseSubject || d.Erasures[0].Items != 1 || d.Erasures[0].Actor != curator || d.Erasures[0].LSN < 1 {
			t.Errorf("Erasures = %+v", d.Erasures)
		}
		if d.ResidencyRejections != 2 {
			t.Errorf("ResidencyRejections = %d, want 2", d.ResidencyRejections)
		}
		m, err := tx.MetricsData(fx.ctx, time.Time{}, fx.c.Now())
		if err != nil || len(m.Erasures) != 1 || m.Erasures[0].RequestID != d.Erasures[0].RequestID {
			t.Errorf("MetricsData erasures = %+v, %v", m.Erasures, err)
		}
		return nil
	})
}

// RecordTaskOutcome keeps one outcome per retrieval (the last reported),
// any number of ablated tasks, refuses an unknown retrieval, and MetricsData
// returns the outcomes of its window.
func testTaskOutcomes(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.c.Advance(time.Hour)
	since := fx.c.Now()
	now := since.Add(time.Minute)
	a := fx.put(ref, "a", "alpha")
	fx.update(func(tx memgov.Tx) error {
		if err := tx.RecordRetrieval(fx.ctx, "ret-1", executor, ref, now, map[string]time.Duration{a.ItemID: time.Second}); err != nil {
			return err
		}
		for _, o := range []memgov.TaskOutcomeRow{
			{ID: "old", At: since.Add(-time.Minute), Principal: executor, Success: true}, // before the window
			{RetrievalID: "ret-1", At: now, Principal: executor, Success: true},
			{RetrievalID: "ret-1", At: now, Principal: executor, Success: false, MemoryCaused: true, Note: "stale address"}, // replaces
			{ID: "abl-1", At: now, Principal: executor, Success: true},
			{ID: "abl-2", At: now, Principal: executor, Success: false},
		} {
			if err := tx.RecordTaskOutcome(fx.ctx, o); err != nil {
				return err
			}
		}
		if err := tx.RecordTaskOutcome(fx.ctx, memgov.TaskOutcomeRow{RetrievalID: "no-such", At: now, Principal: executor}); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("an unknown retrieval: %v, want ErrNotFound", err)
		}
		return nil
	})
	fx.view(func(tx memgov.ReadTx) error {
		d, err := tx.MetricsData(fx.ctx, since, now)
		if err != nil {
			return err
		}
		got := map[string]memgov.TaskOutcomeRow{}
		for _, o := range d.Tasks {
			got[o.ID] = o
		}
		r := got["ret-1"]
		if len(d.Tasks) != 3 || r.RetrievalID != "ret-1" || r.Success || !r.MemoryCaused || r.Note != "stale address" || !r.At.Equal(now) ||
			got["abl-1"].RetrievalID != "" || !got["abl-1"].Success || got["abl-2"].Success {
			t.Errorf("MetricsData.Tasks = %+v", d.Tasks)
		}
		return nil
	})
}
