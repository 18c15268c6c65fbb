package demo_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/cmd/memgov/demo"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// TestReenactAWeekLater seeds the demo, lets eight days pass on an injected
// clock (every SYNC_BLOCK deadline of the seeding is long gone), opens it
// again and finds the story live: SYNC_BLOCK reviews not yet due on both
// refs, an open drift episode of the deny-on-drift billing agent detected
// now, an escalated review. Opening it once more changes nothing.
func TestReenactAWeekLater(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "demo.db"), sqlite.Options{Key: []byte(testKey), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pol, _, err := demo.Policy(demo.FS)
	if err != nil {
		t.Fatal(err)
	}
	open := func(now func() time.Time) (*engine.Engine, error) {
		return engine.New(s, []byte(testKey), engine.WithClock(now), engine.WithPolicy(pol)), nil
	}
	if _, err := demo.Load(ctx, demo.FS, demo.Options{Open: open, Now: func() time.Time { return end }, Scale: 0.05}); err != nil {
		t.Fatal(err)
	}
	later := end.Add(8 * 24 * time.Hour)
	rep, err := demo.Reenact(ctx, demo.FS, demo.Options{Open: open, Now: func() time.Time { return later }})
	if err != nil {
		t.Fatal(err)
	}
	// The SYNC_BLOCK deadlines of the seeding are past: both arrivals play
	// again, and the escalation and the quarantined writer, which the story
	// leaves to the live scenes. The research drift was never settled, so it
	// is still live and stays as it is.
	if len(rep.Played) != 4 || len(rep.Skipped) != 1 || rep.Writes < 5 ||
		!slices.Contains(rep.Played, "sales pricing fact (SYNC_BLOCK)") ||
		!slices.Contains(rep.Played, "billing refund limit (SYNC_BLOCK) and a fresh deny-on-drift episode") {
		t.Fatalf("a week later: %+v", rep)
	}
	t.Logf("re-enacted: %+v", rep)
	eng := engine.New(s, []byte(testKey), engine.WithClock(func() time.Time { return later }), engine.WithPolicy(pol))
	rs, _, err := eng.Reviews().List(ctx, memgov.ReviewQuery{Tier: memgov.TierSync, Now: later})
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]bool{}
	for _, r := range rs {
		if r.Open() && r.DueAt.After(later) && r.DueAt.Before(later.Add(15*time.Minute)) {
			live[r.MemoryRef] = true
		}
	}
	if !live["acme/billing-agent"] || !live["initech/sales-agent"] {
		t.Fatalf("live SYNC_BLOCK reviews: %v of %d", live, len(rs))
	}
	ds, err := eng.Baselines().ListDrift(ctx, memgov.DriftQuery{MemoryRef: "acme/billing-agent", OpenOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Policy != "deny-on-drift" || ds[0].DetectedAt.Before(later) {
		t.Fatalf("billing drift: %+v", ds)
	}
	esc, _, err := eng.Reviews().List(ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewEscalated}, Now: later})
	if err != nil {
		t.Fatal(err)
	}
	if len(esc) == 0 {
		t.Fatal("no escalated review")
	}
	// Opening again at once: everything is still live, nothing is played.
	size, err := eng.Audit().LogSize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again, err := demo.Reenact(ctx, demo.FS, demo.Options{Open: open, Now: func() time.Time { return later.Add(time.Minute) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Played) != 0 || len(again.Skipped) != 5 {
		t.Fatalf("second opening: %+v", again)
	}
	if n, _ := eng.Audit().LogSize(ctx); n != size {
		t.Fatalf("the second opening appended %d entries", n-size)
	}
	if v, err := eng.Audit().Verify(ctx); err != nil || !v.OK {
		t.Fatalf("audit verify after re-enactment: %+v %v", v, err)
	}
}
