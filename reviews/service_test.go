package reviews_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/reviews"
	"github.com/memgov/memgov/store/sqlite"
)

var key = []byte("0123456789abcdef0123456789abcdef")

// fixture is a real SQLite store, an engine on it that writes the deferred
// writes a review service decides, and a clock the test moves.
type fixture struct {
	ctx   context.Context
	store memgov.Store
	eng   *engine.Engine
	pol   policy.Policy
	now   time.Time
}

func (f *fixture) clock() time.Time { return f.now }

func newFixture(t *testing.T, pol string) *fixture {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := policy.Parse([]byte(pol))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ctx: ctx, store: s, pol: p, now: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	f.eng = engine.New(s, key, engine.WithPolicy(p), engine.WithClock(f.clock))
	for _, pr := range []memgov.Principal{
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "jane", Role: memgov.Curator, Tenant: "*"},
		{ID: "globex-cur", Role: memgov.Curator, Tenant: "globex"},
	} {
		if _, err := f.eng.AddPrincipal(ctx, pr, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// deferred writes a memory the pipeline holds for review.
func (f *fixture) deferred(t *testing.T, key, text string) memgov.WriteResult {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": key, "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	req, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.eng.Writes().Write(f.ctx, req)
	if err != nil || res.Status != memgov.StatusDeferred || res.ReviewID == "" {
		t.Fatalf("want a deferred write: %+v, %v", res, err)
	}
	return res
}

func (f *fixture) lastEntry(t *testing.T) oplog.Entry {
	t.Helper()
	var le oplog.Entry
	err := f.store.View(f.ctx, func(tx memgov.ReadTx) error {
		n, err := tx.LogSize(f.ctx)
		if err != nil {
			return err
		}
		return tx.LogRange(f.ctx, n, n, func(e *oplog.Entry) error { le = *e; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	return le
}

// effects records what the service asks of the engine.
type effects struct {
	decided []string // review id and verdict of each WorkspaceDecided
}

func (e *effects) WorkspaceDecided(_ context.Context, _ memgov.Tx, r memgov.Review, approved bool, reviewer string) error {
	verdict := "rejected"
	if approved {
		verdict = "approved"
	}
	e.decided = append(e.decided, r.ID+" "+verdict+" by "+reviewer)
	return nil
}

func (e *effects) RestorePayload(v memgov.Version, reason string) oplog.Payload {
	return oplog.Payload{Reason: reason}
}

// A decision is the service's own log entry, then the engine's effects,
// asked through Effects; a decision authz refuses appends nothing and asks
// nothing of the engine.
func TestDecisionAppendsAndAsksTheEngine(t *testing.T) {
	f := newFixture(t, "")
	rec := &effects{}
	svc := reviews.New(f.store, f.clock, f.pol, authz.New(f.pol), rec)
	a := f.deferred(t, "c7/lang", "Customer 7 wants invoices in German.")
	b := f.deferred(t, "c8/lang", "Customer 8 wants invoices in French.")

	before := f.lastEntry(t).LSN
	for _, d := range []memgov.Decision{
		{ReviewID: a.ReviewID, Reviewer: "support-bot", Approve: true}, // the writer is no curator
		{ReviewID: a.ReviewID, Reviewer: "globex-cur", Approve: true},  // a curator of another tenant
		{ReviewID: a.ReviewID, Reviewer: "mallory", Approve: true},     // nobody memgov knows
		{ReviewID: b.ReviewID, Reviewer: "jane", Code: "BECAUSE"},      // no rejection code
	} {
		if _, err := svc.Decide(f.ctx, d); err == nil {
			t.Errorf("%+v was decided", d)
		}
	}
	if got := f.lastEntry(t).LSN; got != before || len(rec.decided) != 0 {
		t.Fatalf("refused decisions appended up to LSN %d (from %d) and asked the engine %v", got, before, rec.decided)
	}

	r, err := svc.Decide(f.ctx, memgov.Decision{ReviewID: a.ReviewID, Reviewer: "jane", Approve: true, Note: "checked"})
	if err != nil || r.Status != memgov.ReviewApproved || r.DecidedBy != "jane" {
		t.Fatalf("approve = %s by %s, %v", r.Status, r.DecidedBy, err)
	}
	if le := f.lastEntry(t); le.Op != oplog.Approve || le.Actor != "jane" || le.VersionID != a.VersionID {
		t.Fatalf("the approval's entry: %+v", le)
	}
	if _, err := svc.Decide(f.ctx, memgov.Decision{ReviewID: b.ReviewID, Reviewer: "jane", Code: reviews.RejectCodes[0], Note: "wrong"}); err != nil {
		t.Fatal(err)
	}
	want := []string{a.ReviewID + " approved by jane", b.ReviewID + " rejected by jane"}
	if len(rec.decided) != 2 || rec.decided[0] != want[0] || rec.decided[1] != want[1] {
		t.Fatalf("the engine was asked %v, want %v", rec.decided, want)
	}
	if _, err := svc.Decide(f.ctx, memgov.Decision{ReviewID: a.ReviewID, Reviewer: "jane", Approve: true}); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("deciding twice: %v", err)
	}
	if rs, total, err := svc.List(f.ctx, memgov.ReviewQuery{}); err != nil || total != 0 || len(rs) != 0 {
		t.Fatalf("open reviews after both decisions: %d %v", total, err)
	}
}

// A SYNC_BLOCK review past its deadline fails closed: FailClosed (a waiting
// writer) or the next decision rejects it with APPROVAL_TIMEOUT, by memgov,
// and nobody can approve it afterwards.
func TestSyncReviewFailsClosed(t *testing.T) {
	f := newFixture(t, "risk:\n  sync_from: 0.2\n  async_from: 0.1\n")
	svc := f.eng.Reviews()
	a := f.deferred(t, "c7/lang", "Customer 7 wants invoices in German.")
	b := f.deferred(t, "depot/day", "Orders ship from the Berlin depot on Fridays.")
	if a.Tier != memgov.TierSync || b.Tier != memgov.TierSync {
		t.Fatalf("want two SYNC_BLOCK reviews: %s, %s", a.Tier, b.Tier)
	}
	// before the deadline FailClosed leaves it open
	if err := svc.FailClosed(f.ctx, a.ReviewID); err != nil {
		t.Fatal(err)
	}
	r, err := svc.Review(f.ctx, a.ReviewID)
	if err != nil || !r.Open() {
		t.Fatalf("before its deadline: %s, %v", r.Status, err)
	}
	f.now = r.DueAt
	if err := svc.FailClosed(f.ctx, a.ReviewID); err != nil {
		t.Fatal(err)
	}
	if le := f.lastEntry(t); le.Op != oplog.Reject || le.Actor != "memgov" {
		t.Fatalf("the fail-closed entry: %+v", le)
	}
	r, err = svc.Decide(f.ctx, memgov.Decision{ReviewID: b.ReviewID, Reviewer: "jane", Approve: true})
	if !errors.Is(err, reviews.ErrApprovalTimeout) || r.Status != memgov.ReviewRejected || r.DecisionCode != memgov.ReasonApprovalTimeout {
		t.Fatalf("approving past the deadline = %s %s, %v", r.Status, r.DecisionCode, err)
	}
	for _, id := range []string{a.ReviewID, b.ReviewID} {
		if r, err := svc.Review(f.ctx, id); err != nil || r.Status != memgov.ReviewRejected || r.DecidedBy != "memgov" {
			t.Errorf("review %s: %s by %s, %v", id, r.Status, r.DecidedBy, err)
		}
	}
}
