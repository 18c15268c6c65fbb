package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
)

// queueFixture: three deferred writes of an executor, on a clock the test
// moves by hand.
type queueFixture struct {
	ctx     context.Context
	eng     *engine.Engine
	now     *time.Time
	reviews map[string]string // key -> review id
}

func newQueueFixture(t *testing.T) *queueFixture {
	t.Helper()
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "q.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	f := &queueFixture{ctx: ctx, now: &now, reviews: map[string]string{}}
	f.eng = engine.New(s, key, engine.WithClock(func() time.Time { return now }))
	for _, p := range []memgov.Principal{
		{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "jane", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
	} {
		if _, err := f.eng.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range [][2]string{{"c7/lang", "Customer 7 wants invoices in German."}, {"c8/lang", "Customer 8 wants invoices in Klingon."}, {"c9/channel", "Customer 9 prefers letters."}} {
		now = now.Add(time.Minute)
		raw, _ := json.Marshal(map[string]any{"source_agent_id": "support-bot", "memory_ref": ref, "key": kv[0], "target_layer": "EPISODIC",
			"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": kv[1]},
			"evidence_refs": []map[string]any{{"source_type": "HUMAN_INPUT", "source_uri": "chat://s-1", "authority": 1}}})
		req, err := memgov.DecodeWriteRequest(raw)
		if err != nil {
			t.Fatal(err)
		}
		res, err := f.eng.Writes().Write(ctx, req)
		if err != nil || res.Status != memgov.StatusDeferred {
			t.Fatalf("write %s: %+v %v", kv[0], res, err)
		}
		f.reviews[kv[0]] = res.ReviewID
	}
	return f
}

// A decision carrying a fencing token that lapsed, or that someone else's
// claim replaced, is refused by the service, not only by a screen.
func TestApproveRefusesAStaleFencingToken(t *testing.T) {
	f := newQueueFixture(t)
	q := review.New(f.eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}).Queue()
	id := f.reviews["c7/lang"]
	o, err := q.Open(f.ctx, id)
	if err != nil || !o.Mine {
		t.Fatalf("open: %+v %v", o, err)
	}
	tok := o.Review.ClaimToken

	*f.now = f.now.Add(2 * time.Hour) // the lease lapses; nobody else claims
	_, err = q.Approve(f.ctx, id, tok, "late")
	if !errors.Is(err, memgov.ErrConflict) || !strings.Contains(err.Error(), "stale claim") || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("approve on a lapsed lease: %v", err)
	}
	if _, err := q.Renew(f.ctx, id, tok); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("renewing a lapsed lease: %v", err)
	}
	if _, err := q.Reject(f.ctx, id, tok, "OTHER", "late"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("reject on a lapsed lease: %v", err)
	}

	// Claimed again and renewed: the renewal's token decides; the old one
	// is stale even though the claim is live and the person's own.
	o, _ = q.Open(f.ctx, id)
	*f.now = f.now.Add(40 * time.Second)
	r, err := q.Renew(f.ctx, id, o.Review.ClaimToken)
	if err != nil || r.ClaimToken != o.Review.ClaimToken+1 || !r.ClaimExpires.After(o.Review.ClaimExpires) {
		t.Fatalf("renew: %+v %v", r, err)
	}
	if _, err := q.Approve(f.ctx, id, o.Review.ClaimToken, "old token"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("approve with the token the renewal replaced: %v", err)
	}
	if rv, err := q.Approve(f.ctx, id, r.ClaimToken, "checked"); err != nil || rv.Status != memgov.ReviewApproved {
		t.Fatalf("approve with the live token: %+v %v", rv, err)
	}

	// Another curator's claim replaces ours: our token is refused.
	id8 := f.reviews["c8/lang"]
	o8, _ := q.Open(f.ctx, id8)
	*f.now = f.now.Add(2 * time.Hour)
	if _, err := f.eng.Reviews().Claim(f.ctx, id8, "jane"); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.Reviews().Release(f.ctx, id8, "jane"); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Approve(f.ctx, id8, o8.Review.ClaimToken, "mine?"); !errors.Is(err, memgov.ErrConflict) || !strings.Contains(err.Error(), "no longer yours") {
		t.Fatalf("approve on a token another claim replaced: %v", err)
	}
	if rv, _ := f.eng.Reviews().Review(f.ctx, id8); rv.Status != memgov.ReviewPending {
		t.Fatalf("a stale decision went through: %+v", rv)
	}
}

func TestQueueFreeTextAndSort(t *testing.T) {
	f := newQueueFixture(t)
	q := review.New(f.eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}).Queue()
	fl, err := review.ParseQueueFilter("Klingon layer=episodic")
	if err != nil || fl.Text != "Klingon" || fl.Layer != memgov.Episodic {
		t.Fatalf("parse: %+v %v", fl, err)
	}
	p, err := q.Page(f.ctx, fl, 0, 10)
	if err != nil || p.Total != 1 || p.Rows[0].Key != "c8/lang" {
		t.Fatalf("free text: %+v %v", p, err)
	}
	if p, _ := q.Page(f.ctx, review.QueueFilter{Text: "c9/ch"}, 0, 10); p.Total != 1 || p.Rows[0].Key != "c9/channel" {
		t.Fatalf("a key's words: %+v", p)
	}
	if p, _ := q.Page(f.ctx, review.QueueFilter{Text: "acme/support german"}, 0, 10); p.Total != 1 || p.Rows[0].Key != "c7/lang" {
		t.Fatalf("ref and text words together: %+v", p)
	}
	p, err = q.Page(f.ctx, review.QueueFilter{Sort: review.SortAge}, 0, 10)
	if err != nil || p.Total != 3 || p.Rows[0].Key != "c7/lang" || p.Rows[2].Key != "c9/channel" {
		t.Fatalf("oldest first: %+v %v", p, err)
	}
	if p, _ := q.Page(f.ctx, review.QueueFilter{Sort: review.SortAge}, 2, 10); p.Offset != 2 || len(p.Rows) != 1 || p.Rows[0].Key != "c9/channel" {
		t.Fatalf("a page of the sorted queue: %+v", p)
	}
	if g, err := review.ParseQueueFilter(fl.String()); err != nil || g != fl {
		t.Fatalf("round trip %q: %+v %v", fl.String(), g, err)
	}
}
