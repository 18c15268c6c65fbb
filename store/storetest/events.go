package storetest

import (
	"encoding/json"
	"testing"

	"github.com/memgov/memgov"
)

var eventTests = []test{
	{"OutboxQueries", testEvents},
}

// Applying entries fills the outbox; Events pages it by id, type and tenant.
func testEvents(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	fx.put(ref, "a", "alpha")
	fx.put("globex/bot", "g", "globex memory")
	d := fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	if _, err := fx.e.CreateProposal(fx.ctx, memgov.ProposalInput{Kind: "prompt-template", Title: "t", Artifact: json.RawMessage(`{"template":"x"}`)}, curator); err != nil {
		t.Fatal(err)
	}
	log := fx.entries()
	fx.view(func(tx memgov.ReadTx) error {
		all, err := tx.Events(fx.ctx, memgov.EventQuery{})
		if err != nil {
			return err
		}
		types := map[string]int{}
		for i, ev := range all {
			types[ev.Type]++
			if i > 0 && ev.ID <= all[i-1].ID {
				t.Errorf("events out of id order: %d after %d", ev.ID, all[i-1].ID)
			}
			if ev.LSN < 1 || ev.LSN > int64(len(log)) || !ev.At.Equal(log[ev.LSN-1].Time) || ev.MemoryRef != log[ev.LSN-1].MemoryRef || !json.Valid(ev.Data) {
				t.Errorf("event %+v does not match its log entry", ev)
			}
		}
		if types["memory.written"] != 2 || types["review.created"] != 1 || types["proposal.created"] != 1 {
			t.Fatalf("event types = %v; want 2 memory.written, 1 review.created, 1 proposal.created", types)
		}
		rest, err := tx.Events(fx.ctx, memgov.EventQuery{AfterID: all[0].ID})
		if err != nil || len(rest) != len(all)-1 || rest[0].ID != all[1].ID {
			t.Errorf("Events after the first = %d, %v; want %d", len(rest), err, len(all)-1)
		}
		if two, err := tx.Events(fx.ctx, memgov.EventQuery{Limit: 2}); err != nil || len(two) != 2 || two[1].ID != all[1].ID {
			t.Errorf("Events(limit 2) = %+v, %v", two, err)
		}
		reviews, err := tx.Events(fx.ctx, memgov.EventQuery{Type: "review.created"})
		if err != nil || len(reviews) != 1 || reviews[0].MemoryRef != ref {
			t.Fatalf("review.created events = %+v, %v", reviews, err)
		}
		var data map[string]any
		if err := json.Unmarshal(reviews[0].Data, &data); err != nil || data["reviewId"] != d.ReviewID {
			t.Errorf("review.created data = %s, want reviewId %s", reviews[0].Data, d.ReviewID)
		}
		acme, err := tx.Events(fx.ctx, memgov.EventQuery{Tenant: "acme"})
		if err != nil {
			return err
		}
		for _, ev := range acme {
			if ev.MemoryRef == "globex/bot" {
				t.Errorf("a globex event in acme's events: %+v", ev)
			}
		}
		if len(acme) != len(all)-1 {
			t.Errorf("acme's events = %d, want %d (every event but globex's, with the tenant's proposal)", len(acme), len(all)-1)
		}
		if g, err := tx.Events(fx.ctx, memgov.EventQuery{Tenant: "globex"}); err != nil || len(g) != 1 || g[0].MemoryRef != "globex/bot" {
			t.Errorf("globex's events = %+v, %v", g, err)
		}
		if every, err := tx.Events(fx.ctx, memgov.EventQuery{Tenant: memgov.AllTenants}); err != nil || len(every) != len(all) {
			t.Errorf("every tenant's events = %d, %v; want %d", len(every), err, len(all))
		}
		return nil
	})
}
