package storetest

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var commitmentTests = []test{
	{"CommitmentsAndFiring", testCommitments},
}

// Commitments and Commitment follow inferred commitments through firing.
func testCommitments(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	due := fx.c.Now().Add(time.Hour).UTC().Truncate(time.Second)
	timed := fx.put(ref, "follow-up", "", func(p *memgov.PutRequest) {
		p.Content, _ = json.Marshal(map[string]any{"text": "Follow up with ACME", "commit_at": due.Format(time.RFC3339)})
	})
	pred := fx.put(ref, "tell", "", func(p *memgov.PutRequest) {
		p.Content, _ = json.Marshal(map[string]any{"text": "Tell the customer when the invoice clears", "commit_when": map[string]string{"key": "invoice/cleared"}})
	})
	if _, err := fx.e.TickCommitments(fx.ctx, ref, curator); err != nil {
		t.Fatal(err)
	}
	var first memgov.Commitment
	fx.view(func(tx memgov.ReadTx) error {
		cs, err := tx.Commitments(fx.ctx, ref)
		if err != nil || len(cs) != 2 {
			t.Fatalf("Commitments = %+v, %v; want 2", cs, err)
		}
		first = cs[0]
		if first.SourceVersionID != timed.VersionID || first.SourceItemID != timed.ItemID || first.Kind != memgov.CommitTime || first.DueAt == nil ||
			!first.DueAt.Equal(due) || first.MemoryRef != ref || first.Tenant != "acme" || first.FiredCount != 0 || first.CreatedBy != curator {
			t.Errorf("time commitment = %+v", first)
		}
		if c := cs[1]; c.SourceVersionID != pred.VersionID || c.Kind != memgov.CommitPredicate || len(c.Predicate) == 0 || c.DueAt != nil {
			t.Errorf("predicate commitment = %+v", c)
		}
		got, err := tx.Commitment(fx.ctx, first.ID)
		if err != nil || got.ID != first.ID || got.SourceVersionID != first.SourceVersionID || !got.CreatedAt.Equal(first.CreatedAt) {
			t.Errorf("Commitment = %+v, %v; want %+v", got, err, first)
		}
		if _, err := tx.Commitment(fx.ctx, "no-such-commitment"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown commitment: %v, want ErrNotFound", err)
		}
		if cs, err := tx.Commitments(fx.ctx, "acme/nobody"); err != nil || len(cs) != 0 {
			t.Errorf("Commitments of another ref = %+v, %v", cs, err)
		}
		return nil
	})
	fx.c.Advance(2 * time.Hour)
	if _, err := fx.e.TickCommitments(fx.ctx, ref, curator); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		c, err := tx.Commitment(fx.ctx, first.ID)
		if err != nil || c.FiredCount != 1 || c.LastFiredAt == nil || c.LastFiredLSN < 1 {
			t.Errorf("fired commitment = %+v, %v", c, err)
		}
		return nil
	})
}
