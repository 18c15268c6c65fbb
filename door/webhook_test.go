package door

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
)

func TestWebhooksAreSignedRetriedAndContentFree(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{})
	ctx := context.Background()
	secret := []byte("webhook-secret-0123456789")
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

	var (
		mu       sync.Mutex
		received []Notification
		bodies   []string
		calls    int
	)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 { // the first delivery fails once and is retried
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if err := VerifySignature(secret, r.Header.Get(HeaderTimestamp), r.Header.Get(HeaderSignature), body, now, 5*time.Minute); err != nil {
			t.Errorf("signature: %v", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var n Notification
		if err := json.Unmarshal(body, &n); err != nil {
			t.Errorf("body: %v", err)
		}
		if r.Header.Get(HeaderEvent) != n.Type {
			t.Errorf("event header %q for %q", r.Header.Get(HeaderEvent), n.Type)
		}
		received, bodies = append(received, n), append(bodies, string(body))
	}))
	defer recv.Close()

	var backoffs []time.Duration
	d := &Dispatcher{Engine: e.eng, Hooks: []Webhook{{URL: recv.URL, Secret: secret}}, Now: func() time.Time { return now },
		Backoff: time.Second, Sleep: func(_ context.Context, d time.Duration) error { backoffs = append(backoffs, d); return nil }}
	// Events before Start are history and are not sent.
	if code, _ := e.do("bot2", "POST", "/v1/memories?wait=false", writeReq("acme/bot2", "plan/q4", "The Q4 plan ships on Friday.")); code != 202 {
		t.Fatalf("history write = %d", code)
	}
	if err := d.Start(ctx); err != nil {
		t.Fatal(err)
	}

	// A SYNC_BLOCK write, its escalation, and a drift episode.
	const secretText = "Refunds up to 500 need no second signature."
	code, res := e.do("bot", "POST", "/v1/memories?wait=false", writeReq("acme/bot", "refund/limit", secretText))
	if code != 202 || str(res, "tier") != memgov.TierSync {
		t.Fatalf("sync write = %d %v", code, res)
	}
	if code, res := e.do("jane", "POST", "/v1/reviews/"+str(res, "review_id")+"/escalate", map[string]any{"note": "needs finance: " + secretText}); code != 200 {
		t.Fatalf("escalate = %d %v", code, res)
	}
	if _, err := e.eng.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: "acme/planner", By: "jane", MemoryType: memgov.MemoryPersistent,
		TTLSeconds: 3600, DriftPolicy: policy.DenyOnDrift, Level: 2}); err != nil {
		t.Fatal(err)
	}
	_, err := e.eng.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: "acme/planner", State: json.RawMessage(`{"plan/q4":{"text":"The Q4 plan was cancelled."}}`)})
	if err != nil {
		t.Fatal(err)
	}

	n, err := d.Tick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range received {
		types = append(types, r.Type)
	}
	if got := strings.Join(types, " "); got != "review.created review.escalated MEMORY_DRIFT_DETECTED" || n != 3 {
		t.Fatalf("delivered %d: %s", n, got)
	}
	if len(backoffs) != 1 || backoffs[0] != time.Second {
		t.Errorf("back-off = %v, want one retry after 1s", backoffs)
	}
	for _, b := range bodies {
		if strings.Contains(b, "Refunds") || strings.Contains(b, "cancelled") || strings.Contains(b, "finance") {
			t.Errorf("a notification carries content: %s", b)
		}
	}
	if received[0].MemoryRef != "acme/bot" || received[0].Data["tier"] != memgov.TierSync || received[0].Data["reviewId"] == "" {
		t.Errorf("review.created = %+v", received[0])
	}
	// Nothing is sent twice.
	if n, err := d.Tick(ctx); err != nil || n != 0 {
		t.Fatalf("second tick = %d %v", n, err)
	}
	// A tampered body or an old timestamp does not verify.
	ts := "1795000000"
	sig := Sign(secret, ts, []byte("{}"))
	if VerifySignature(secret, ts, sig, []byte("{ }"), time.Unix(1795000000, 0), time.Minute) == nil {
		t.Error("a changed body verified")
	}
	if VerifySignature(secret, ts, sig, []byte("{}"), time.Unix(1795000000, 0).Add(time.Hour), time.Minute) == nil {
		t.Error("a replayed delivery verified")
	}
}

func TestWebhookGivesUpOnA4xxAndMovesOn(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{})
	ctx := context.Background()
	calls := 0
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.WriteHeader(http.StatusGone)
	}))
	defer recv.Close()
	d := &Dispatcher{Engine: e.eng, Hooks: []Webhook{{URL: recv.URL, Secret: []byte("s")}},
		Sleep: func(context.Context, time.Duration) error { t.Error("a 4xx was retried"); return nil }}
	if err := d.Start(ctx); err != nil {
		t.Fatal(err)
	}
	e.do("bot", "POST", "/v1/memories?wait=false", writeReq("acme/bot", "refund/limit", "Refunds up to 500 need no second signature."))
	if n, err := d.Tick(ctx); err != nil || n != 0 || calls != 1 {
		t.Fatalf("tick = %d %v after %d calls", n, err, calls)
	}
}

// A receiver that fails every attempt does not lose the event: it is kept
// as a dead letter (URL, attempts, last error, the notification) and the
// dispatcher moves on to the next receiver and event.
func TestWebhookFailingEveryRetryIsKeptAsADeadLetter(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{})
	ctx := context.Background()
	var mu sync.Mutex
	down, up := 0, 0
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		down++
		mu.Unlock()
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer dead.Close()
	alive := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		up++
		mu.Unlock()
	}))
	defer alive.Close()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	var backoffs []time.Duration
	d := &Dispatcher{Engine: e.eng, Hooks: []Webhook{{URL: dead.URL, Secret: []byte("s")}, {URL: alive.URL, Secret: []byte("s")}},
		Attempts: 3, Backoff: time.Second, Now: func() time.Time { return now },
		Sleep: func(_ context.Context, d time.Duration) error { backoffs = append(backoffs, d); return nil }}
	if err := d.Start(ctx); err != nil {
		t.Fatal(err)
	}
	code, res := e.do("bot", "POST", "/v1/memories?wait=false", writeReq("acme/bot", "refund/limit", "Refunds up to 500 need no second signature."))
	if code != http.StatusAccepted {
		t.Fatalf("write = %d %v", code, res)
	}
	if n, err := d.Tick(ctx); err != nil || n != 1 || down != 3 || up != 1 {
		t.Fatalf("tick = %d %v; dead receiver called %d times, live one %d", n, err, down, up)
	}
	ds, err := e.eng.DeadLetters(ctx, memgov.DeadLetterQuery{})
	if err != nil || len(ds) != 1 {
		t.Fatalf("dead letters = %v %v, want 1", ds, err)
	}
	dl := ds[0]
	var n Notification
	if err := json.Unmarshal(dl.Body, &n); err != nil || n.Type != "review.created" || n.Data["reviewId"] != str(res, "review_id") {
		t.Errorf("dead letter body = %s %v", dl.Body, err)
	}
	if dl.URL != dead.URL || dl.Attempts != 3 || dl.EventType != "review.created" || dl.EventID != n.ID ||
		!strings.Contains(dl.Error, "502") || !dl.At.Equal(now) || strings.Contains(string(dl.Body), "Refunds") {
		t.Errorf("dead letter = %+v", dl)
	}
	// Nothing is sent twice: the next tick has nothing to do.
	if n, err := d.Tick(ctx); err != nil || n != 0 || down != 3 {
		t.Fatalf("second tick = %d %v, dead receiver called %d times", n, err, down)
	}
}

// TestNotificationOfCorruptEventData: stored event data that is not JSON
// is an error naming the event and its log entry, not a notification with
// empty fields; valid data of another shape is no error.
func TestNotificationOfCorruptEventData(t *testing.T) {
	_, ok, err := notification(memgov.Event{ID: 7, LSN: 12, Type: "review.created", Data: json.RawMessage(`{"tier": "SYNC`)})
	if ok || err == nil || !strings.Contains(err.Error(), "event 7") || !strings.Contains(err.Error(), "log entry 12") {
		t.Fatalf("corrupt event: ok=%v err=%v", ok, err)
	}
	n, ok, err := notification(memgov.Event{ID: 8, LSN: 13, Type: "review.escalated", Data: json.RawMessage(`{"reviewId": "r1", "by": "jane"}`)})
	if !ok || err != nil || n.Data["reviewId"] != "r1" || n.Data["by"] != "jane" {
		t.Fatalf("valid event: %+v ok=%v err=%v", n, ok, err)
	}
}
