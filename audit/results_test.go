package audit_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// The tests here drive the audit service alone over a real SQLite store,
// the log written with oplog as the engine writes it.

var testKey = []byte("audit-test-key-0123456789abcdef")

// caches stands in for the engine's caches: nothing to fold.
type caches struct{}

func (caches) StateHash(context.Context, memgov.ReadTx, string, time.Time, canon.Algorithm) (string, error) {
	return "", nil
}
func (caches) IndexStatus(context.Context) (memgov.IndexStatus, error) {
	return memgov.IndexStatus{}, nil
}
func (caches) FoldReads(context.Context) error { return nil }

func newAudit(t *testing.T, now time.Time) (*audit.Service, memgov.Store) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return audit.New(s, testKey, func() time.Time { return now }, policy.Default(), caches{}), s
}

// A finding or a missing metric says what settles it in memgov's terms:
// a phrase and a NextAction, never a command of one door.
func TestResultsNameTheirNextAction(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	svc, s := newAudit(t, now)
	c, err := canon.Canonicalize(json.RawMessage(`{"text":"The office opens at nine"}`))
	if err != nil {
		t.Fatal(err)
	}
	conf := 0.8
	p := oplog.Payload{Reason: "observed", Key: "hours", Layer: string(memgov.Episodic), Content: c, ContentHash: oplog.HashPayload(c),
		Confidence: &conf, ExpiresAt: now.Add(-time.Hour).Format(oplog.TimeFormat)}
	entry := &oplog.Entry{Time: now.Add(-2 * time.Hour), Op: oplog.Insert, MemoryRef: "acme/bot", ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bot"}
	if err := s.Update(ctx, func(tx memgov.Tx) error { return oplog.Append(ctx, tx, entry, p) }); err != nil {
		t.Fatal(err)
	}

	rep, err := svc.ComplianceReport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.PastTTL) != 1 || rep.PastTTL[0].NextAction != memgov.NextRunGC || !strings.HasSuffix(rep.PastTTL[0].Detail, "; garbage collection expires it") {
		t.Fatalf("past TTL: %+v, want one item settled by %s", rep.PastTTL, memgov.NextRunGC)
	}

	m, err := svc.Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]memgov.NextAction{"correctness_impact": memgov.NextRecordOutcomes, "induced_errors": memgov.NextRecordFailureCause,
		"retrieval_precision": memgov.NextRecordUsage, "hallucination_leakage": memgov.NextRevalidate, "write_acceptance": memgov.NextWrite}
	for _, u := range m.Unmeasured {
		if m.UnmeasuredNext[u] != want[u] || m.UnmeasuredWhy[u] == "" || strings.Contains(m.UnmeasuredWhy[u], "memgov ") || strings.Contains(m.UnmeasuredWhy[u], "--") {
			t.Errorf("unmeasured %s: next %q, why %q; want %q and domain words", u, m.UnmeasuredNext[u], m.UnmeasuredWhy[u], want[u])
		}
		delete(want, u)
	}
	if len(want) != 0 {
		t.Errorf("measured without data: %v (unmeasured: %v)", want, m.Unmeasured)
	}
}
