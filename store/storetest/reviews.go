package storetest

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/memgov/memgov"
)

var reviewTests = []test{
	{"QueueDecisionsAndRecord", testReviews},
}

// syncReviews is a policy under which every deferred write blocks for a
// person, so a review past its deadline is rejected with APPROVAL_TIMEOUT.
func syncReviews(t *testing.T) []byte {
	t.Helper()
	return []byte("risk:\n  async_from: 0.01\n  sync_from: 0.02\n")
}

// Review, Reviews, OpenReviewOf and AgentRecord follow deferred writes
// through approval, rejection and timeout.
func testReviews(t *testing.T, f Factory) {
	fx := newFixture(t, f, syncReviews(t))
	d1 := fx.deferred("c1/lang", "Customer 1 wants invoices in German.")
	d2 := fx.deferred("c2/lang", "Customer 2 wants invoices in French.")
	d3 := fx.deferred("c3/lang", "Customer 3 wants invoices in Dutch.")
	now := fx.c.Now()
	fx.view(func(tx memgov.ReadTx) error {
		r, err := tx.Review(fx.ctx, d1.ReviewID)
		if err != nil {
			return err
		}
		if r.ID != d1.ReviewID || r.VersionID != d1.VersionID || r.ItemID != d1.ItemID || r.MemoryRef != ref || r.Tenant != "acme" ||
			r.Layer != memgov.Episodic || r.Agent != executor || r.Status != memgov.ReviewPending || r.Tier != memgov.TierSync ||
			r.Reason == "" || !r.DueAt.After(r.CreatedAt) || r.DecidedAt != nil || r.DecidedBy != "" || !json.Valid(r.Detail) {
			t.Errorf("Review = %+v", r)
		}
		if _, err := tx.Review(fx.ctx, "no-such-review"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown review: %v, want ErrNotFound", err)
		}
		rs, total, err := tx.Reviews(fx.ctx, memgov.ReviewQuery{})
		if err != nil || total != 3 || len(rs) != 3 {
			t.Fatalf("Reviews = %d of %d, %v; want the 3 open reviews", len(rs), total, err)
		}
		for i := 1; i < len(rs); i++ {
			a, b := rs[i-1], rs[i]
			if a.Tier < b.Tier || a.Tier == b.Tier && (a.Risk < b.Risk || a.Risk == b.Risk && (a.CreatedAt.After(b.CreatedAt) ||
				a.CreatedAt.Equal(b.CreatedAt) && a.ID > b.ID)) {
				t.Errorf("Reviews out of order at %d: %+v before %+v", i, a, b)
			}
		}
		page, total, err := tx.Reviews(fx.ctx, memgov.ReviewQuery{Limit: 2})
		if err != nil || total != 3 || len(page) != 2 || page[0].ID != rs[0].ID || page[1].ID != rs[1].ID {
			t.Errorf("first page = %d of %d, %v", len(page), total, err)
		}
		page, total, err = tx.Reviews(fx.ctx, memgov.ReviewQuery{Limit: 2, Offset: 2})
		if err != nil || total != 3 || len(page) != 1 || page[0].ID != rs[2].ID {
			t.Errorf("second page = %d of %d, %v", len(page), total, err)
		}
		for what, c := range map[string]struct {
			q    memgov.ReviewQuery
			want int
		}{
			"of the agent":         {memgov.ReviewQuery{Agent: executor}, 3},
			"of another agent":     {memgov.ReviewQuery{Agent: orch}, 0},
			"of the tenant":        {memgov.ReviewQuery{Tenant: "acme"}, 3},
			"of every tenant":      {memgov.ReviewQuery{Tenant: memgov.AllTenants}, 3},
			"of another tenant":    {memgov.ReviewQuery{Tenant: "globex"}, 0},
			"of the layer":         {memgov.ReviewQuery{Layer: memgov.Episodic}, 3},
			"of another layer":     {memgov.ReviewQuery{Layer: memgov.Semantic}, 0},
			"of the tier":          {memgov.ReviewQuery{Tier: memgov.TierSync}, 3},
			"of the reason":        {memgov.ReviewQuery{Reason: r.Reason}, 3},
			"of another reason":    {memgov.ReviewQuery{Reason: "NO_SUCH_REASON"}, 0},
			"breached now":         {memgov.ReviewQuery{Breached: true, Now: now}, 0},
			"breached in a week":   {memgov.ReviewQuery{Breached: true, Now: now.Add(7 * 24 * time.Hour)}, 3},
			"an hour old now":      {memgov.ReviewQuery{MinAge: time.Hour, Now: now}, 0},
			"an hour old later":    {memgov.ReviewQuery{MinAge: time.Hour, Now: now.Add(2 * time.Hour)}, 3},
			"approved or rejected": {memgov.ReviewQuery{Statuses: []string{memgov.ReviewApproved, memgov.ReviewRejected}}, 0},
		} {
			if _, n, err := tx.Reviews(fx.ctx, c.q); err != nil || n != c.want {
				t.Errorf("Reviews %s = %d, %v; want %d", what, n, err, c.want)
			}
		}
		if id, err := tx.OpenReviewOf(fx.ctx, d1.VersionID); err != nil || id != d1.ReviewID {
			t.Errorf("OpenReviewOf = %q, %v; want %s", id, err, d1.ReviewID)
		}
		if a, r, err := tx.AgentRecord(fx.ctx, executor); err != nil || a != 0 || r != 0 {
			t.Errorf("AgentRecord before decisions = %d, %d, %v", a, r, err)
		}
		return nil
	})
	if _, err := fx.e.Decide(fx.ctx, memgov.Decision{ReviewID: d1.ReviewID, Reviewer: curator, Approve: true, Note: "confirmed"}); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.e.Decide(fx.ctx, memgov.Decision{ReviewID: d2.ReviewID, Reviewer: curator, Code: "FACTUAL_ERROR", Note: "no"}); err != nil {
		t.Fatal(err)
	}
	fx.c.Advance(7 * 24 * time.Hour)
	if res, err := fx.e.SweepReviews(fx.ctx); err != nil || res.TimedOut != 1 {
		t.Fatalf("sweep = %+v, %v; want one timeout", res, err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		r, err := tx.Review(fx.ctx, d1.ReviewID)
		if err != nil || r.Status != memgov.ReviewApproved || r.DecidedBy != curator || r.DecidedAt == nil || r.Note != "confirmed" {
			t.Errorf("approved review = %+v, %v", r, err)
		}
		r, err = tx.Review(fx.ctx, d3.ReviewID)
		if err != nil || r.Status != memgov.ReviewRejected || r.DecisionCode != memgov.ReasonApprovalTimeout {
			t.Errorf("timed-out review = %+v, %v", r, err)
		}
		for _, v := range []string{d1.VersionID, d2.VersionID, d3.VersionID} {
			if id, err := tx.OpenReviewOf(fx.ctx, v); err != nil || id != "" {
				t.Errorf("OpenReviewOf a decided version = %q, %v; want none", id, err)
			}
		}
		if _, n, err := tx.Reviews(fx.ctx, memgov.ReviewQuery{}); err != nil || n != 0 {
			t.Errorf("open reviews after the decisions = %d, %v", n, err)
		}
		if _, n, err := tx.Reviews(fx.ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewRejected}}); err != nil || n != 2 {
			t.Errorf("rejected reviews = %d, %v; want 2", n, err)
		}
		// The timeout is not held against the agent.
		if a, r, err := tx.AgentRecord(fx.ctx, executor); err != nil || a != 1 || r != 1 {
			t.Errorf("AgentRecord = %d approved, %d rejected, %v; want 1, 1", a, r, err)
		}
		if a, r, err := tx.AgentRecord(fx.ctx, orch); err != nil || a != 0 || r != 0 {
			t.Errorf("AgentRecord of an agent without reviews = %d, %d, %v", a, r, err)
		}
		return nil
	})
}
