package door

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"

	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/reviews"
	"github.com/memgov/memgov/store/sqlite"
	"github.com/memgov/memgov/writes"
)

var testKey = []byte("memgov-door-test-key-0123456789abcdef")

// syncPolicy sends ordinary agent writes (risk about 0.23) to SYNC_BLOCK review.
const syncPolicy = "risk:\n  sync_from: 0.2\n  async_from: 0.1\n"

// env is a real database, an engine over it, principals with tokens, and
// the server's handler behind an httptest server.
type env struct {
	t      *testing.T
	db     string
	eng    *engine.Engine
	srv    *Server
	ts     *httptest.Server
	tokens map[string]string
	clock  *clock
}

// clock is the rate limiter's clock, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newEnv(t *testing.T, pol string, cfg Config) *env {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "memgov.db")
	s, err := sqlite.Open(ctx, db, sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p, err := policy.Parse([]byte(pol))
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(s, testKey, engine.WithPolicy(p))
	e := &env{t: t, db: db, eng: eng, tokens: map[string]string{}, clock: &clock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}}
	for _, pr := range []memgov.Principal{
		{ID: "bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "bot2", Role: memgov.Executor, Tenant: "acme"},
		{ID: "planner", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "rival", Role: memgov.Orchestrator, Tenant: "globex"},
		{ID: "jane", Role: memgov.Curator, Tenant: "acme"},
	} {
		if _, err := eng.AddPrincipal(ctx, pr, "test"); err != nil {
			t.Fatal(err)
		}
		tok, _, err := eng.CreateToken(ctx, pr.ID, 0, "test", "")
		if err != nil {
			t.Fatal(err)
		}
		e.tokens[pr.ID] = tok
	}
	cfg.Engine = eng
	if cfg.Now == nil {
		cfg.Now = e.clock.Now
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	if cfg.Poll == 0 {
		cfg.Poll = 10 * time.Millisecond
	}
	e.srv = New(cfg)
	e.ts = httptest.NewServer(e.srv.Handler())
	t.Cleanup(e.ts.Close)
	return e
}

// do sends a request as who ("" sends no token) and decodes the JSON answer.
func (e *env) do(who, method, path string, body any) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if who != "" {
		tok, ok := e.tokens[who]
		if !ok {
			tok = who // a literal token
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if len(raw) > 0 && json.Unmarshal(raw, &out) != nil {
		e.t.Fatalf("%s %s: answer is not a JSON object: %q", method, path, raw)
	}
	return resp.StatusCode, out
}

// writeReq is a governed write of text to ref.
func writeReq(ref, key, text string) map[string]any {
	return map[string]any{
		"memory_ref": ref, "key": key, "target_layer": "EPISODIC", "observation_type": "tool_result_verified",
		"confidence": 0.95, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "crm://acct/42", "authority": 0.95}},
	}
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func TestAgentTokenCannotApproveImpersonateOrCrossTenant(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx := context.Background()

	// The executor's write waits for a curator.
	code, res := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "customer-42/channel", "Customer 42 prefers email."))
	if code != http.StatusAccepted || str(res, "status") != memgov.StatusDeferred {
		t.Fatalf("write = %d %v", code, res)
	}
	reviewID := str(res, "review_id")

	// It cannot approve its own write, nor claim it.
	for _, action := range []string{"approve", "claim"} {
		code, res = e.do("bot", "POST", "/v1/reviews/"+reviewID+"/"+action, nil)
		if code != http.StatusForbidden || str(res, "code") != CodeForbidden {
			t.Errorf("agent %s = %d %v, want 403 FORBIDDEN", action, code, res)
		}
	}
	if code, res = e.do("bot", "GET", "/v1/reviews", nil); code != http.StatusForbidden {
		t.Errorf("agent reads the queue: %d %v", code, res)
	}
	if r, _ := e.eng.Reviews().Review(ctx, reviewID); r.Status != memgov.ReviewPending {
		t.Fatalf("review after the agent's attempts: %+v", r)
	}

	// It cannot write as another agent: refused before the pipeline, nothing logged.
	size, _ := e.eng.Audit().LogSize(ctx)
	other := writeReq("acme/bot2", "x", "Planner said so.")
	other["source_agent_id"] = "bot2"
	if code, res = e.do("bot", "POST", "/v1/memories", other); code != http.StatusForbidden || !strings.Contains(str(res, "message"), "may not act as bot2") {
		t.Errorf("write as bot2 = %d %v", code, res)
	}
	if after, _ := e.eng.Audit().LogSize(ctx); after != size {
		t.Errorf("a refused impersonation wrote %d log entries", after-size)
	}

	// The curator approves; the agent learns the fate of its write.
	code, res = e.do("jane", "POST", "/v1/reviews/"+reviewID+"/approve", map[string]any{"note": "checked the CRM"})
	if code != http.StatusOK || str(res, "status") != memgov.ReviewApproved || str(res, "decided_by") != "jane" {
		t.Fatalf("curator approve = %d %v", code, res)
	}
	if code, res = e.do("bot", "GET", "/v1/writes/"+reviewID, nil); code != http.StatusOK || str(res, "status") != memgov.StatusCommitted {
		t.Fatalf("status = %d %v", code, res)
	}

	// Another tenant's agent reads nothing of acme, cannot learn of the
	// review, and cannot write there.
	if code, res = e.do("rival", "GET", "/v1/memories?memory_ref=acme/bot", nil); code != http.StatusOK || len(res["entries"].([]any)) != 0 {
		t.Errorf("rival lists acme = %d %v", code, res)
	}
	if code, res = e.do("rival", "GET", "/v1/memories/customer-42/channel?memory_ref=acme/bot", nil); code != http.StatusNotFound {
		t.Errorf("rival gets acme's entry = %d %v", code, res)
	}
	if code, res = e.do("rival", "POST", "/v1/search", map[string]any{"memory_ref": "acme/bot", "query": "email"}); code != http.StatusOK || len(res["hits"].([]any)) != 0 {
		t.Errorf("rival searches acme = %d %v", code, res)
	}
	if code, res = e.do("rival", "GET", "/v1/writes/"+reviewID, nil); code != http.StatusNotFound {
		t.Errorf("rival reads acme's review = %d %v", code, res)
	}
	if code, res = e.do("rival", "POST", "/v1/memories", writeReq("acme/rival", "k", "Globex owns acme now.")); code != http.StatusForbidden || str(res, "status") != memgov.StatusDenied {
		t.Errorf("rival writes into acme = %d %v", code, res)
	}
	if code, res = e.do("rival", "POST", "/v1/verify", map[string]any{"memory_ref": "acme/bot"}); code != http.StatusForbidden {
		t.Errorf("rival verifies acme = %d %v", code, res)
	}

	// The same tenant's agent reads the approved entry.
	if code, res = e.do("bot", "GET", "/v1/memories/customer-42/channel?memory_ref=acme/bot", nil); code != http.StatusOK || str(res["entry"].(map[string]any), "content") != "Customer 42 prefers email." || str(res, "retrieval_id") == "" {
		t.Errorf("bot gets its entry = %d %v", code, res)
	}

	// The log names the authenticated principals.
	var approve oplog.Entry
	entries, err := e.eng.Audit().LogTail(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, le := range entries {
		if le.Op == oplog.Approve {
			approve = le
		}
	}
	if approve.Actor != "jane" {
		t.Errorf("APPROVE entry actor = %q, want jane", approve.Actor)
	}
}

func TestErrorsAreJSON(t *testing.T) {
	e := newEnv(t, "", Config{Rate: 1, Burst: 2, MaxBodyBytes: 4096})
	cases := []struct {
		name, who, method, path string
		body                    any
		code                    int
		want                    string
	}{
		{"no token", "", "GET", "/v1/whoami", nil, 401, CodeUnauthorized},
		{"unknown token", "mgv_not-a-real-token", "GET", "/v1/whoami", nil, 401, CodeUnauthorized},
		{"not json", "planner", "POST", "/v1/memories", "{not json", 400, CodeInvalid},
		{"unknown field", "planner", "POST", "/v1/search", `{"memory_ref":"acme/planner","query":"x","bogus":1}`, 400, CodeInvalid},
		{"too large", "bot", "POST", "/v1/memories", `{"memory_ref":"acme/bot","content":{"text":"` + strings.Repeat("x", 5000) + `"}}`, 413, CodeTooLarge},
		{"no route", "bot", "GET", "/v1/nothing", nil, 404, CodeNotFound},
		{"wrong method", "bot", "PUT", "/v1/search", nil, 405, CodeMethodNotAllowed},
		{"bad limit", "bot2", "GET", "/v1/memories?memory_ref=acme/bot2&limit=-4", nil, 400, CodeInvalid},
		{"trailing data", "bot", "POST", "/v1/memories", `{"memory_ref":"acme/bot","content":{"text":"x"}} {"key":"y"}`, 400, CodeInvalid},
	}
	cliFlag := regexp.MustCompile(`(^|[\s(])--[a-z]`)
	for _, c := range cases {
		code, res := e.do(c.who, c.method, c.path, c.body)
		if code != c.code || str(res, "code") != c.want || str(res, "message") == "" {
			t.Errorf("%s: %d %v, want %d %s with a message", c.name, code, res, c.code, c.want)
		}
		// the message says what failed in memgov's terms; hints in the
		// CLI's terms are the CLI's
		if msg := str(res, "message"); cliFlag.MatchString(msg) {
			t.Errorf("%s: the message names a CLI flag: %q", c.name, msg)
		}
	}

	// The rate limit is per token: jane's third request at once is refused,
	// bot2's are not affected, and a second later jane may ask again.
	for i, want := range []int{200, 200, 429} {
		if code, res := e.do("jane", "GET", "/v1/whoami", nil); code != want {
			t.Fatalf("request %d = %d %v, want %d", i+1, code, res, want)
		} else if code == 429 && str(res, "code") != CodeRateLimited {
			t.Fatalf("429 body = %v", res)
		}
	}
	if code, _ := e.do("rival", "GET", "/v1/whoami", nil); code != 200 {
		t.Fatalf("another token is limited too: %d", code)
	}
	e.clock.Add(time.Second)
	if code, res := e.do("jane", "GET", "/v1/whoami", nil); code != 200 || str(res, "id") != "jane" {
		t.Fatalf("after a second: %d %v", code, res)
	}
}

func TestRevokedAndExpiredTokensAreRefused(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx := context.Background()
	if code, _ := e.do("bot", "GET", "/v1/whoami", nil); code != 200 {
		t.Fatal(code)
	}
	ts, _ := e.eng.Tokens(ctx)
	for _, tk := range ts {
		if tk.Principal == "bot" {
			if _, err := e.eng.RevokeToken(ctx, tk.ID, "jane", "rotated"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if code, res := e.do("bot", "GET", "/v1/whoami", nil); code != 401 {
		t.Fatalf("revoked token: %d %v", code, res)
	}
	if _, err := e.eng.RevokeToken(ctx, ts[0].ID, "jane", "again"); err == nil && ts[0].Principal == "bot" {
		t.Error("revoking twice succeeded")
	}
	// Issuing and revoking are log entries naming who did it.
	les, _ := e.eng.Audit().LogTail(ctx, 0, 1000)
	var issued, revoked int
	for _, l := range les {
		if l.Op == oplog.TokenCreate && l.Actor == "test" {
			issued++
		}
		if l.Op == oplog.TokenRevoke && l.Actor == "jane" {
			revoked++
		}
	}
	if issued != 5 || revoked != 1 {
		t.Errorf("log: %d TOKEN_CREATE by test, %d TOKEN_REVOKE by jane; want 5 and 1", issued, revoked)
	}
	// No token is stored in the clear: the log and tables hold its hash.
	for _, tok := range e.tokens {
		le, _ := e.eng.Audit().LogTail(ctx, 0, 1000)
		for _, l := range le {
			if bytes.Contains(l.Payload, []byte(tok)) {
				t.Fatalf("log entry %d holds a token", l.LSN)
			}
		}
	}
}

func TestOpenAPIMatchesRoutes(t *testing.T) {
	e := newEnv(t, "", Config{})
	code, doc := e.do("", "GET", "/v1/openapi.json", nil)
	if code != 200 || str(doc, "openapi") == "" {
		t.Fatalf("openapi = %d", code)
	}
	documented := map[string]bool{}
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	served := map[string]bool{}
	for _, rt := range e.srv.routes() {
		served[rt.method+" "+strings.ReplaceAll(rt.path, "...}", "}")] = true
	}
	for k := range served {
		if !documented[k] {
			t.Errorf("route %s is not in the OpenAPI document", k)
		}
	}
	for k := range documented {
		if !served[k] {
			t.Errorf("the OpenAPI document has %s, which the server does not route", k)
		}
		// And the server answers it (with anything but the catch-all).
		method, path, _ := strings.Cut(k, " ")
		path = strings.NewReplacer("{key}", "k", "{review_id}", "r", "{id}", "i", "{action}", "apply").Replace(path)
		_, res := e.do("jane", method, path, nil)
		if strings.HasPrefix(str(res, "message"), "no route") {
			t.Errorf("%s %s fell through to no route", method, path)
		}
	}
}

func TestSyncWaitIsAnsweredDeferredOnDrain(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{MaxWait: time.Minute})
	type answer struct {
		code int
		res  map[string]any
	}
	done := make(chan answer, 1)
	go func() {
		code, res := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "refund/limit", "Refunds up to 500 need no second signature."))
		done <- answer{code, res}
	}()
	// Wait until the write is in the queue and waiting, then shut down.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if rs, n, _ := e.eng.Reviews().List(context.Background(), memgov.ReviewQuery{Tier: memgov.TierSync, Limit: 1}); n == 1 && len(rs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the SYNC_BLOCK write never reached the queue")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.srv.BeginDrain()
	select {
	case a := <-done:
		if a.code != http.StatusAccepted || str(a.res, "status") != memgov.StatusDeferred || str(a.res, "tier") != memgov.TierSync ||
			!strings.Contains(str(a.res, "detail"), "shutting down") {
			t.Fatalf("answer on drain = %d %v", a.code, a.res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting write was not answered on drain")
	}
	if code, res := e.do("", "GET", "/healthz", nil); code != 200 || str(res, "status") != "draining" {
		t.Errorf("healthz = %d %v", code, res)
	}
}

func TestSyncWaitEndsWithTheDecision(t *testing.T) {
	e := newEnv(t, syncPolicy, Config{MaxWait: time.Minute})
	done := make(chan map[string]any, 1)
	go func() {
		_, res := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "refund/limit", "Refunds up to 500 need no second signature."))
		done <- res
	}()
	var id string
	for deadline := time.Now().Add(10 * time.Second); id == ""; {
		if rs, _, _ := e.eng.Reviews().List(context.Background(), memgov.ReviewQuery{Tier: memgov.TierSync, Limit: 1}); len(rs) == 1 {
			id = rs[0].ID
		} else if time.Now().After(deadline) {
			t.Fatal("no SYNC_BLOCK review")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if code, res := e.do("jane", "POST", "/v1/reviews/"+id+"/reject", map[string]any{"code": reviews.RejectCodes[0], "note": "no such policy"}); code != 200 {
		t.Fatalf("reject = %d %v", code, res)
	}
	select {
	case res := <-done:
		if str(res, "status") != memgov.StatusRejected || str(res, "reason") != writes.ReasonReviewRejected {
			t.Fatalf("waiting write = %v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting write did not see the decision")
	}
}

func TestMetricsScrape(t *testing.T) {
	e := newEnv(t, "", Config{})
	if code, res := e.do("planner", "POST", "/v1/memories", writeReq("acme/planner", "plan/1", "The Q4 plan ships on Friday.")); code != 200 {
		t.Fatalf("auto-approved write = %d %v", code, res)
	}
	if code, _ := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "c/1", "Customer 7 prefers phone calls.")); code != 202 {
		t.Fatalf("deferred write = %d", code)
	}
	resp, err := http.Get(e.ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	body := string(raw)
	for _, want := range []string{
		`memgov_writes_total{door="http",gate="",reason="",status="COMMITTED"} 1`,
		`memgov_writes_total{door="http",gate="approval",reason="APPROVAL_REQUIRED_BY_ROLE",status="DEFERRED"} 1`,
		`memgov_write_duration_seconds_count{door="http",status="COMMITTED"} 1`,
		`memgov_review_queue_depth{tier="ASYNC_REVIEW"} 1`,
		`memgov_review_queue_depth{tier="SYNC_BLOCK"} 0`,
		`memgov_drift_episodes_open 0`,
		`memgov_health_score `,
		`memgov_engine_up 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}

func TestFlowThroughTheAPI(t *testing.T) {
	e := newEnv(t, "", Config{})
	code, res := e.do("planner", "POST", "/v1/memories", writeReq("acme/planner", "plan/q4", "The Q4 plan ships on Friday."))
	if code != 200 || str(res, "status") != memgov.StatusCommitted {
		t.Fatalf("write = %d %v", code, res)
	}
	// Idempotent replays, list, get, search, delete.
	if code, res = e.do("planner", "GET", "/v1/memories?memory_ref=acme/planner", nil); code != 200 || len(res["entries"].([]any)) != 1 {
		t.Fatalf("list = %d %v", code, res)
	}
	if code, res = e.do("planner", "POST", "/v1/search", map[string]any{"memory_ref": "acme/planner", "query": "Q4 plan"}); code != 200 || len(res["hits"].([]any)) != 1 {
		t.Fatalf("search = %d %v", code, res)
	}
	if code, res = e.do("planner", "DELETE", "/v1/memories/plan/q4?memory_ref=acme/planner&reason=obsolete", nil); code != 200 || res["deleted"] != true {
		t.Fatalf("delete = %d %v", code, res)
	}
	if code, res = e.do("planner", "GET", "/v1/memories/plan/q4?memory_ref=acme/planner", nil); code != 404 {
		t.Fatalf("get after delete = %d %v", code, res)
	}
	if code, res = e.do("planner", "POST", "/v1/forget", map[string]any{"memory_ref": "acme/planner", "subject": "Q4"}); code != 403 {
		t.Fatalf("an agent forgets by subject = %d %v", code, res)
	}
	if code, res = e.do("jane", "POST", "/v1/forget", map[string]any{"memory_ref": "acme/planner", "subject": "Q4", "reason": "test"}); code != 200 {
		t.Fatalf("curator forgets = %d %v", code, res)
	}
	if code, res = e.do("jane", "GET", "/v1/drift", nil); code != 200 {
		t.Fatalf("drift = %d %v", code, res)
	}
	if code, res = e.do("jane", "GET", "/v1/proposals", nil); code != 200 {
		t.Fatalf("proposals = %d %v", code, res)
	}
	if code, res = e.do("jane", "GET", "/v1/whoami", nil); code != 200 || str(res, "role") != "curator" {
		t.Fatalf("whoami = %d %v", code, res)
	}
}
