package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/store/postgres"
	"github.com/memgov/memgov/store/sqlite"
)

// Two memgov processes on one database: what one engine keeps in memory
// (the search index of a memoryRef) follows the other's writes and
// erasures, and what one revokes the other refuses. Each engine has its own
// store (its own connections), as two processes do.

func TestTwoEnginesSeeEachOthersWritesPostgres(t *testing.T) {
	u := newURL(t, true)
	ctx := context.Background()
	var engines [2]*engine.Engine
	for i := range engines {
		s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		engines[i] = engine.New(s, testKey)
	}
	twoEngines(t, engines[0], engines[1])
}

func TestTwoEnginesSeeEachOthersWritesSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memgov.db")
	var engines [2]*engine.Engine
	for i := range engines {
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: testKey, Create: i == 0})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		engines[i] = engine.New(s, testKey)
	}
	twoEngines(t, engines[0], engines[1])
}

func twoEngines(t *testing.T, a, b *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	addCurator(t, a)
	const ref = "acme/shared"
	put := func(key, body string) {
		t.Helper()
		if _, err := a.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: text(body), Actor: curator, Confidence: 0.9, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	found := func(query, key string) bool {
		t.Helper()
		hits, err := b.Host().Adapter(memgov.As(curator)).Search(ctx, host.SearchQuery{MemoryRef: ref, Query: query})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if h.Entry.ID == key {
				return true
			}
		}
		return false
	}
	put("lyon", "The warehouse of Zed Quirinal in Lyon ships on Tuesdays.")
	if !found("warehouse Lyon", "lyon") {
		t.Fatal("engine B does not find engine A's write")
	}
	// B now holds acme/shared's index; A's next write must reach it.
	put("oslo", "The Oslo office closes at noon on Fridays.")
	if !found("Oslo office noon", "oslo") {
		t.Fatal("engine B's search index missed engine A's second write")
	}
	rep, err := a.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: "zed quirinal", By: curator, Reason: "subject request"})
	if err != nil || rep.Items != 1 {
		t.Fatalf("erase through A: %+v, %v; want one item", rep, err)
	}
	if found("warehouse Lyon Tuesdays", "lyon") {
		t.Fatal("engine B still finds an item engine A erased")
	}
	if !found("Oslo office noon", "oslo") {
		t.Fatal("engine B lost an item the erasure did not touch")
	}

	secret, tok, err := a.CreateToken(ctx, curator, time.Hour, "admin", "test")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := b.Authenticate(ctx, secret); err != nil || p.ID != curator {
		t.Fatalf("engine B refuses engine A's new token: %+v, %v", p, err)
	}
	if _, err := a.RevokeToken(ctx, tok.ID, "admin", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Authenticate(ctx, secret); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("engine B accepts a token engine A revoked: %v", err)
	}
}

// A SYNC_BLOCK writer waiting in one process is woken by a decision taken
// in another, through PostgreSQL's NOTIFY (the engine notifies after its
// commit): the waiter polls once an hour
// here, so only the notification can wake it before the test's time runs
// out, and its counters say which woke it.
func TestSyncBlockWokenAcrossProcesses(t *testing.T) {
	u := newURL(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pol, err := policy.Parse([]byte("risk:\n  sync_from: 0.1\n  async_from: 0.05\nreview:\n  sync_max_wait: 10m\n"))
	if err != nil {
		t.Fatal(err)
	}
	var engines [2]*engine.Engine
	var stores [2]*postgres.Store
	for i := range engines {
		s, err := postgres.Open(ctx, u, postgres.Options{Key: testKey})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		engines[i], stores[i] = engine.New(s, testKey, engine.WithPolicy(pol)), s
	}
	waiter, decider, deciderStore := engines[0], engines[1], stores[1]
	for _, p := range []memgov.Principal{{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"}, {ID: curator, Role: memgov.Curator, Tenant: "acme"}} {
		if _, err := waiter.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := json.Marshal(map[string]any{"source_agent_id": "support-bot", "memory_ref": "acme/support-bot", "key": "tone", "target_layer": "EPISODIC",
		"observation_type": "user_stated_preference", "confidence": 0.9, "content": map[string]any{"text": "The customer prefers email."},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
	wr, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := waiter.Writes().Write(ctx, wr)
	if err != nil || res.Status != memgov.StatusDeferred || res.Tier != memgov.TierSync {
		t.Fatalf("want a SYNC_BLOCK deferral, got %+v, %v", res, err)
	}
	done := make(chan error, 1)
	var got memgov.WriteResult
	go func() {
		var err error
		got, err = waiter.Writes().WaitReview(ctx, res.ReviewID, time.Hour)
		done <- err
	}()
	// The waiter listens from before its first read. Until it does, a
	// notification reaches no one: notify (no decision) until one has
	// woken it, read its review still open, and sent it back to waiting.
	for waiter.Writes().SyncWaitStats().Notified == 0 {
		if err := deciderStore.Notify(ctx, memgov.ChannelReviews); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the waiter was never woken by a notification")
		case err := <-done:
			t.Fatalf("the waiter returned before its review was decided: %+v, %v", got, err)
		default:
		}
	}
	decided := time.Now()
	if _, err := decider.Reviews().Decide(ctx, memgov.Decision{ReviewID: res.ReviewID, Reviewer: curator, Approve: true}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Logf("the waiter returned %s after the other engine's Decide began", time.Since(decided).Round(time.Microsecond))
		if err != nil || got.Status != memgov.StatusCommitted {
			t.Fatalf("waiter got %+v, %v; want COMMITTED", got, err)
		}
	case <-ctx.Done():
		t.Fatal("the waiter was not woken by the approval in the other engine")
	}
	st := waiter.Writes().SyncWaitStats()
	if st.Notified < 2 || st.Polled != 0 {
		t.Errorf("waiter woke %+v; want at least two notified wakes (a bare notification, the approval) and no poll", st)
	}
}
