package door

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawGet sends method path as is (no cleaning, no redirect following) and
// returns the status, the Location header and the body.
func (e *env) raw(who, method, path, body string) (int, http.Header, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if who != "" {
		tok, ok := e.tokens[who]
		if !ok {
			tok = who
		}
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// Every unknown or unclean path is a JSON 404: never a redirect (Go's
// ServeMux would answer 307/301 to a cleaned path), never HTML.
func TestUnknownAndUncleanPathsAreJSON404(t *testing.T) {
	e := newEnv(t, "", Config{})
	for _, path := range []string{
		"/v1/memories/../../etc/passwd",
		"/v1/memories/..%2F..%2Fetc%2Fpasswd",
		"/v1/memories/%2e%2e/%2e%2e/etc/passwd",
		"/v1/memories/a/./b?memory_ref=acme/bot",
		"/v1//memories?memory_ref=acme/bot",
		"//v1/whoami",
		"/v1/./whoami",
		"/mcp/../v1/whoami",
		"/v1/nothing",
		"/nothing",
		"/mcp/extra",
		"/v1/",
	} {
		for _, who := range []string{"bot", ""} {
			code, h, body := e.raw(who, "GET", path, "")
			var res map[string]any
			if code != http.StatusNotFound || h.Get("Location") != "" || json.Unmarshal(body, &res) != nil || res["code"] != CodeNotFound {
				t.Errorf("GET %s (token %q) = %d Location %q %q, want a JSON 404", path, who, code, h.Get("Location"), body)
			}
		}
	}
}

// A missing or malformed required parameter is a 400, for reads and writes
// alike, with the same message for the same ref.
func TestRequiredParametersAre400ForReadsAndWrites(t *testing.T) {
	e := newEnv(t, "", Config{})
	malformed := "memory_ref is malformed: segment 1 is made only of dots"
	cases := []struct {
		name, method, path string
		body               any
		want               string
	}{
		{"list without memory_ref", "GET", "/v1/memories", nil, "memory_ref is required"},
		{"list with an empty memory_ref", "GET", "/v1/memories?memory_ref=", nil, "memory_ref is required"},
		{"list of a dotted ref", "GET", "/v1/memories?memory_ref=../../etc", nil, malformed},
		{"get without memory_ref", "GET", "/v1/memories/k", nil, "memory_ref is required"},
		{"get of a dotted ref", "GET", "/v1/memories/k?memory_ref=../../etc", nil, malformed},
		{"get of a key with backslash dot segments", "GET", `/v1/memories/..%5C..%5Cetc?memory_ref=acme/bot`, nil, `dot segment ".."`},
		{"delete without memory_ref", "DELETE", "/v1/memories/k?reason=x", nil, "memory_ref is required"},
		{"write of a dotted ref", "POST", "/v1/memories", map[string]any{"memory_ref": "../../etc", "target_layer": "WORKING", "content": map[string]any{"text": "x"}}, malformed},
		{"write without memory_ref", "POST", "/v1/memories", map[string]any{"target_layer": "WORKING", "content": map[string]any{"text": "x"}}, "memory_ref is required"},
		{"search without memory_ref", "POST", "/v1/search", map[string]any{"query": "x"}, "memory_ref is required"},
		{"search of a dotted ref", "POST", "/v1/search", map[string]any{"memory_ref": "../../etc", "query": "x"}, malformed},
	}
	for _, c := range cases {
		code, res := e.do("bot", c.method, c.path, c.body)
		if code != http.StatusBadRequest || str(res, "code") != CodeInvalid || !strings.Contains(str(res, "message"), c.want) {
			t.Errorf("%s: %d %v, want 400 INVALID naming %q", c.name, code, res, c.want)
		}
	}
}

// Keys with dot segments, lone surrogate escapes and integers JSON cannot
// carry are refused by the engine's decoding: nothing is written.
func TestWritesRefuseDotKeysSurrogatesAndInexactIntegers(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx := context.Background()
	before, _ := e.eng.Audit().LogSize(ctx)
	for _, c := range []struct{ name, body, want string }{
		{"dot key", `{"memory_ref":"acme/bot","key":"../../etc/passwd","target_layer":"WORKING","content":{"text":"x"}}`, `dot segment ".."`},
		{"lone surrogate key", `{"memory_ref":"acme/bot","key":"k\udc00","target_layer":"WORKING","content":{"text":"x"}}`, `lone UTF-16 surrogate escape \udc00`},
		{"2^64 in content", `{"memory_ref":"acme/bot","key":"k","target_layer":"WORKING","content":{"text":"x","n":18446744073709551616}}`, "integer 18446744073709551616"},
	} {
		code, res := e.do("bot", "POST", "/v1/memories", c.body)
		if code != http.StatusBadRequest || str(res, "code") != CodeInvalid || !strings.Contains(str(res, "message"), c.want) {
			t.Errorf("%s: %d %v, want 400 INVALID naming %q", c.name, code, res, c.want)
		}
	}
	if after, _ := e.eng.Audit().LogSize(ctx); after != before {
		t.Errorf("refused writes appended %d log entries", after-before)
	}
	// The MCP door refuses the same key: the SDK decodes \udc00 to U+FFFD,
	// which the engine's key check refuses.
	cs := e.connectHTTP("bot")
	if _, msg := call(t, cs, "add_memory", map[string]any{"memory_ref": "acme/bot", "key": "../x", "text": "x", "layer": "WORKING"}); !strings.Contains(msg, "INVALID") || !strings.Contains(msg, "dot segment") {
		t.Errorf("MCP add_memory with a dot key: %q", msg)
	}
	if _, msg := call(t, cs, "get_memory", map[string]any{"memory_ref": "../../etc", "key": "k"}); !strings.Contains(msg, "INVALID: memory_ref is malformed") {
		t.Errorf("MCP get_memory of a dotted ref: %q", msg)
	}
}

// After FailBurst requests without a live token, an address is answered
// 429 (with Retry-After) until its bucket refills; other addresses and the
// per-token limits are not affected; the table of addresses is bounded.
func TestInvalidTokensAreRateLimitedPerAddress(t *testing.T) {
	e := newEnv(t, "", Config{FailRate: 1, FailBurst: 3})
	if code, _ := e.do("bot", "GET", "/v1/whoami", nil); code != 200 {
		t.Fatal(code)
	}
	for i, want := range []int{401, 401, 401, 429, 429} {
		code, h, body := e.raw("mgv_guess", "GET", "/v1/whoami", "")
		if code != want {
			t.Fatalf("bad token %d = %d %s, want %d", i+1, code, body, want)
		}
		if code == 429 && (h.Get("Retry-After") == "" || !bytes.Contains(body, []byte(CodeRateLimited))) {
			t.Fatalf("429 without Retry-After or code: %v %s", h, body)
		}
	}
	// The address is held back, whatever token it sends now.
	if code, _, _ := e.raw("bot", "GET", "/v1/whoami", ""); code != 429 {
		t.Fatalf("a live token from a blocked address = %d, want 429", code)
	}
	e.clock.Add(time.Second)
	if code, _, body := e.raw("bot", "GET", "/v1/whoami", ""); code != 200 {
		t.Fatalf("a second later = %d %s", code, body)
	}
	// The failure table stays bounded under a flood of addresses.
	f := e.srv.failures
	for i := 0; i < maxAddrs+500; i++ {
		f.failed(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
		e.clock.Add(time.Millisecond)
	}
	if n := len(f.buckets); n > maxAddrs {
		t.Fatalf("the failure table holds %d addresses, more than %d", n, maxAddrs)
	}
}

// /healthz says whether memgov is up to anyone; its figures only to a
// caller with a live token.
func TestHealthzShowsFiguresOnlyToTokenHolders(t *testing.T) {
	e := newEnv(t, "", Config{})
	for _, c := range []struct {
		who     string
		figures bool
	}{{"", false}, {"mgv_not-a-token", false}, {"bot", true}} {
		code, res := e.do(c.who, "GET", "/healthz", nil)
		_, has := res["log_size"]
		if code != 200 || res["status"] != "ok" || has != c.figures {
			t.Errorf("healthz as %q = %d %v, want figures %v", c.who, code, res, c.figures)
		}
	}
}

// syncBuffer is a log destination the server writes from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Every request is one log line: method, path, status, duration and the
// principal ("-" before authentication); queries are not logged.
func TestEveryRequestIsOneLogLine(t *testing.T) {
	var buf syncBuffer
	e := newEnv(t, "", Config{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	type want struct {
		who, method, path string
		status            int
		principal         string
	}
	reqs := []want{
		{"bot", "GET", "/v1/whoami", 200, "bot"},
		{"", "GET", "/v1/whoami", 401, "-"},
		{"bot", "GET", "/v1/memories?memory_ref=acme/bot", 200, "bot"},
		{"bot", "GET", "/v1/memories/../../etc/passwd", 404, "-"},
		{"", "GET", "/healthz", 200, "-"},
		{"jane", "GET", "/healthz", 200, "jane"},
		{"planner", "POST", "/v1/memories", 200, "planner"},
	}
	for _, r := range reqs {
		body := ""
		if r.method == "POST" {
			b, _ := json.Marshal(writeReq("acme/planner", "k", "The planner logs its work."))
			body = string(b)
		}
		if code, _, b := e.raw(r.who, r.method, r.path, body); code != r.status {
			t.Fatalf("%s %s = %d %s", r.method, r.path, code, b)
		}
	}
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(buf.String()))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if m["msg"] == "request" {
			lines = append(lines, m)
		}
	}
	if len(lines) != len(reqs) {
		t.Fatalf("%d request lines for %d requests:\n%s", len(lines), len(reqs), buf.String())
	}
	for i, r := range reqs {
		l := lines[i]
		path, _, _ := strings.Cut(r.path, "?")
		if l["method"] != r.method || l["path"] != path || l["status"] != float64(r.status) || l["principal"] != r.principal {
			t.Errorf("line %d = %v, want %s %s %d %s", i, l, r.method, path, r.status, r.principal)
		}
		if d, ok := l["duration"].(float64); !ok || d <= 0 {
			t.Errorf("line %d has no duration: %v", i, l)
		}
		if strings.Contains(fmt.Sprint(l), "memory_ref") {
			t.Errorf("line %d logs the query: %v", i, l)
		}
	}
}

// HTTP reads answer envelopes: entries exactly as MemoryEntry objects, the
// retrieval id and read notes beside them.
func TestHTTPReadsAnswerEnvelopes(t *testing.T) {
	e := newEnv(t, "", Config{})
	if code, res := e.do("planner", "POST", "/v1/memories", writeReq("acme/planner", "plan/q4", "The Q4 plan ships on Friday.")); code != 200 {
		t.Fatalf("write = %d %v", code, res)
	}
	s := memoryEntrySchema(t)
	code, res := e.do("planner", "GET", "/v1/memories?memory_ref=acme/planner", nil)
	if code != 200 || str(res, "retrieval_id") == "" || len(res["read"].([]any)) != 1 || res["read"].([]any)[0].(map[string]any)["id"] != "plan/q4" {
		t.Fatalf("list = %d %v", code, res)
	}
	validateEntries(t, s, "list", res["entries"])
	code, res = e.do("planner", "GET", "/v1/memories/plan/q4?memory_ref=acme/planner", nil)
	if code != 200 || str(res, "retrieval_id") == "" || res["read"] == nil {
		t.Fatalf("get = %d %v", code, res)
	}
	validateEntries(t, s, "get", res["entry"])
	code, res = e.do("planner", "POST", "/v1/search", map[string]any{"memory_ref": "acme/planner", "query": "Q4 plan"})
	if code != 200 || str(res, "retrieval_id") == "" || len(res["hits"].([]any)) != 1 {
		t.Fatalf("search = %d %v", code, res)
	}
	hit := res["hits"].([]any)[0].(map[string]any)
	if hit["read"] == nil {
		t.Errorf("search hit without its read note: %v", hit)
	}
	validateEntries(t, s, "search hit", hit["entry"])
}

// No answer states the zero time: an unclaimed review has no
// claim_expires; a claimed one has its real expiry.
func TestAnswersCarryNoZeroTimes(t *testing.T) {
	e := newEnv(t, "", Config{})
	code, res := e.do("bot", "POST", "/v1/memories", writeReq("acme/bot", "c/42", "Customer 42 prefers email."))
	if code != http.StatusAccepted {
		t.Fatalf("write = %d %v", code, res)
	}
	id := str(res, "review_id")
	code, _, body := e.raw("jane", "GET", "/v1/reviews", "")
	if code != 200 || bytes.Contains(body, []byte("0001-01-01")) || !bytes.Contains(body, []byte(id)) {
		t.Fatalf("reviews = %d %s", code, body)
	}
	var list struct {
		Reviews []map[string]any `json:"reviews"`
	}
	if err := json.Unmarshal(body, &list); err != nil || len(list.Reviews) != 1 {
		t.Fatalf("reviews: %v %s", err, body)
	}
	if _, has := list.Reviews[0]["claim_expires"]; has {
		t.Errorf("an unclaimed review has claim_expires: %v", list.Reviews[0])
	}
	code, res = e.do("jane", "POST", "/v1/reviews/"+id+"/claim", nil)
	if exp, err := time.Parse(time.RFC3339, str(res, "claim_expires")); code != 200 || err != nil || exp.Year() < 2000 {
		t.Errorf("claimed review = %d %v", code, res)
	}
}
