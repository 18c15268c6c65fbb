package review_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// logSize is the number of log entries.
func (f *fixture) logSize(t *testing.T) int64 {
	t.Helper()
	n, err := f.eng.Audit().LogSize(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) as(t *testing.T, id string) *review.Service {
	t.Helper()
	p, err := review.Identify(f.ctx, f.eng, id)
	if err != nil {
		t.Fatal(err)
	}
	return review.New(f.eng, p)
}

// TestDecisionsNeedTheirReasons: every door refuses incomplete decisions
// before anything is logged.
func TestDecisionsNeedTheirReasons(t *testing.T) {
	f := setup(t)
	if _, err := f.eng.AddPrincipal(f.ctx, memgov.Principal{ID: "checker", Role: memgov.Verifier, Tenant: "acme"}, ""); err != nil {
		t.Fatal(err)
	}
	cur := f.as(t, "cur")
	before := f.logSize(t)
	for name, act := range map[string]func() error{
		"rollback":      func() error { _, err := cur.Rollback(f.ctx, f.vers[2], " "); return err },
		"rollback to":   func() error { _, err := cur.RollBackTo(f.ctx, f.vers[0], ""); return err },
		"expire":        func() error { _, err := cur.ForceExpire(f.ctx, f.item, ""); return err },
		"reclassify":    func() error { _, err := cur.Reclassify(f.ctx, f.item, memgov.Procedural, ""); return err },
		"reclassify to": func() error { _, err := cur.Reclassify(f.ctx, f.item, "NOWHERE", "x"); return err },
		"annotate":      func() error { _, err := f.as(t, "checker").Annotate(f.ctx, f.item, "validation", "\t"); return err },
	} {
		if err := act(); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if n := f.logSize(t); n != before {
		t.Fatalf("refused decisions grew the log from %d to %d", before, n)
	}

	// Verifiers annotate (the RBAC matrix's annotate right); they roll nothing back.
	checker := f.as(t, "checker")
	if _, err := checker.Annotate(f.ctx, f.item, "validation", "matches the CRM"); err != nil {
		t.Fatal(err)
	}
	if _, err := checker.Rollback(f.ctx, f.vers[2], "x"); !review.IsForbidden(err) {
		t.Fatalf("a verifier rolling back: %v", err)
	}
	res, err := cur.Rollback(f.ctx, f.vers[2], "the SMS note was about another customer")
	if err != nil || res.RestoredFrom != f.vers[1] {
		t.Fatalf("rollback: %+v %v", res, err)
	}
	if _, err := cur.Rollback(f.ctx, f.vers[2], "again"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("rolling back a retracted version: %v", err)
	}
}

// TestReleaseSaysWhetherThereWasAClaim: giving back a claim one does not hold
// changes and logs nothing.
func TestReleaseSaysWhetherThereWasAClaim(t *testing.T) {
	// A clock that stands still, so the claim (60 seconds by default) holds.
	f := setupClock(t, func() time.Time { return time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC) })
	req, err := memgov.DecodeWriteRequest([]byte(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang",
		"target_layer":"EPISODIC","observation_type":"user_stated_preference","confidence":0.9,
		"content":{"text":"Customer 7 wants invoices in German."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.eng.Writes().Write(f.ctx, req)
	if err != nil || res.Status != memgov.StatusDeferred {
		t.Fatalf("write: %+v %v", res, err)
	}
	q := f.as(t, "cur").Queue()
	before := f.logSize(t)
	if ok, err := q.Release(f.ctx, res.ReviewID); ok || err != nil {
		t.Fatalf("release without a claim: %v %v", ok, err)
	}
	if f.logSize(t) != before {
		t.Fatal("a release without a claim was logged")
	}
	if _, err := q.Claim(f.ctx, res.ReviewID); err != nil {
		t.Fatal(err)
	}
	if ok, err := q.Release(f.ctx, res.ReviewID); !ok || err != nil {
		t.Fatalf("release: %v %v", ok, err)
	}
	if n := f.logSize(t); n != before+2 {
		t.Fatalf("claim and release logged %d entries, want 2", n-before)
	}
	if _, err := f.as(t, "support-bot").Queue().Release(f.ctx, res.ReviewID); !review.IsForbidden(err) {
		t.Fatalf("an agent releasing: %v", err)
	}
	if _, err := q.Reject(f.ctx, res.ReviewID, 0, "FACTUAL_ERROR", ""); !errors.Is(err, memgov.ErrInvalid) || !strings.Contains(err.Error(), "needs a note") {
		t.Fatalf("reject without a note: %v", err)
	}
}
