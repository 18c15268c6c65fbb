package door

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
)

// bearerTransport adds a bearer token to every request of an MCP client.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP opens an MCP client session against the server's /mcp as who.
func (e *env) connectHTTP(who string) *mcp.ClientSession {
	e.t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "door-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: e.ts.URL + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{e.tokens[who]}}, MaxRetries: -1}, nil)
	if err != nil {
		e.t.Fatalf("connect as %s: %v", who, err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its structured result, or its error text.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		return nil, strings.Join(text, " ")
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, b, err)
	}
	return out, ""
}

func addArgs(ref, key, text string) map[string]any {
	return map[string]any{"memory_ref": ref, "key": key, "text": text, "observation_type": "tool_result_verified", "confidence": 0.95,
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "crm://acct/42", "authority": 0.95}}}
}

// exerciseTools runs the agent's story over an MCP session acting as planner
// (an orchestrator of acme whose writes are auto-approved).
func exerciseTools(t *testing.T, cs *mcp.ClientSession, eng *engine.Engine) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.InputSchema == nil || tl.OutputSchema == nil {
			t.Errorf("%s lacks a typed input or output schema", tl.Name)
		}
		a := tl.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tl.Name)
			continue
		}
		readOnly := tl.Name != "add_memory" && tl.Name != "forget_memory"
		if a.ReadOnlyHint != readOnly {
			t.Errorf("%s readOnlyHint = %v", tl.Name, a.ReadOnlyHint)
		}
		if tl.Name == "forget_memory" && (a.DestructiveHint == nil || !*a.DestructiveHint || !a.IdempotentHint) {
			t.Errorf("forget_memory must be destructive and idempotent: %+v", a)
		}
		if tl.Name == "add_memory" && (a.DestructiveHint == nil || *a.DestructiveHint) {
			t.Errorf("add_memory is additive: %+v", a)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "add_memory forget_memory get_memory list_memories memory_status search_memories" {
		t.Fatalf("tools = %s (agents get no review, approval or policy tools)", got)
	}

	out, msg := call(t, cs, "add_memory", addArgs("acme/planner", "plan/q4", "The Q4 plan ships on Friday."))
	if msg != "" || out["status"] != memgov.StatusCommitted {
		t.Fatalf("add_memory = %v %s", out, msg)
	}
	if out, msg = call(t, cs, "list_memories", map[string]any{"memory_ref": "acme/planner"}); msg != "" || len(out["entries"].([]any)) != 1 {
		t.Fatalf("list_memories = %v %s", out, msg)
	}
	if out, msg = call(t, cs, "get_memory", map[string]any{"memory_ref": "acme/planner", "key": "plan/q4"}); msg != "" || out["found"] != true ||
		out["entry"].(map[string]any)["content"] != "The Q4 plan ships on Friday." {
		t.Fatalf("get_memory = %v %s", out, msg)
	}
	if out, msg = call(t, cs, "search_memories", map[string]any{"memory_ref": "acme/planner", "query": "when does the Q4 plan ship"}); msg != "" || len(out["hits"].([]any)) != 1 {
		t.Fatalf("search_memories = %v %s", out, msg)
	}
	// Another tenant reads as nothing; another agent's name is refused.
	if out, msg = call(t, cs, "list_memories", map[string]any{"memory_ref": "globex/rival"}); msg != "" || len(out["entries"].([]any)) != 0 {
		t.Fatalf("list another tenant = %v %s", out, msg)
	}
	as := addArgs("acme/bot", "x", "Bot said so.")
	as["source_agent_id"] = "bot"
	if _, msg = call(t, cs, "add_memory", as); !strings.HasPrefix(msg, "FORBIDDEN:") {
		t.Fatalf("add_memory as bot = %q, want FORBIDDEN", msg)
	}
	if _, msg = call(t, cs, "memory_status", map[string]any{"review_id": "01936f00-0000-7000-8000-000000000000"}); !strings.HasPrefix(msg, "NOT_FOUND:") {
		t.Fatalf("memory_status of nothing = %q", msg)
	}
	if out, msg = call(t, cs, "forget_memory", map[string]any{"memory_ref": "acme/planner", "key": "plan/q4", "reason": "shipped"}); msg != "" || out["forgotten"] != float64(1) {
		t.Fatalf("forget_memory = %v %s", out, msg)
	}
	if out, _ = call(t, cs, "get_memory", map[string]any{"memory_ref": "acme/planner", "key": "plan/q4"}); out["found"] != false {
		t.Fatalf("get after forget = %v", out)
	}
	// The log's actors are the token's principal.
	es, err := eng.Audit().LogTail(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].LSN < es[j].LSN })
	var ops []string
	for _, le := range es {
		if le.MemoryRef == "acme/planner" {
			ops = append(ops, string(le.Op)+" by "+le.Actor)
		}
	}
	if got := strings.Join(ops, ", "); got != "INSERT by planner, RETRACT by planner" {
		t.Errorf("log = %s", got)
	}
}

func TestMCPOverHTTP(t *testing.T) {
	e := newEnv(t, "", Config{})
	exerciseTools(t, e.connectHTTP("planner"), e.eng)

	// An executor's write is deferred; memory_status tells its fate, to it only.
	cs := e.connectHTTP("bot")
	out, msg := call(t, cs, "add_memory", addArgs("acme/bot", "c/42", "Customer 42 prefers email."))
	if msg != "" || out["status"] != memgov.StatusDeferred {
		t.Fatalf("bot add_memory = %v %s", out, msg)
	}
	id := out["review_id"].(string)
	if out, msg = call(t, cs, "memory_status", map[string]any{"review_id": id}); out["status"] != memgov.StatusDeferred {
		t.Fatalf("memory_status = %v %s", out, msg)
	}
	if _, msg = call(t, e.connectHTTP("rival"), "memory_status", map[string]any{"review_id": id}); !strings.HasPrefix(msg, "NOT_FOUND:") {
		t.Fatalf("another tenant's memory_status = %q", msg)
	}
	// Without a token there is no MCP.
	resp, err := http.Post(e.ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("MCP without a token = %d", resp.StatusCode)
	}
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// memgovBinary builds cmd/memgov once for the tests that run it.
func memgovBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "memgov-door")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "memgov")
		if runtime.GOOS == "windows" {
			binPath += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/memgov/memgov/cmd/memgov")
		cmd.Stderr = os.Stderr
		buildErr = cmd.Run()
	})
	if buildErr != nil {
		t.Fatalf("build memgov: %v", buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func mcpCommand(t *testing.T, e *env, token string) *exec.Cmd {
	cmd := exec.Command(memgovBinary(t), "mcp")
	cmd.Env = append(os.Environ(), "MEMGOV_DB="+e.db, "MEMGOV_KEY="+string(testKey), "MEMGOV_TOKEN="+token)
	return cmd
}

func TestMCPOverStdio(t *testing.T) {
	e := newEnv(t, "", Config{})
	c := mcp.NewClient(&mcp.Implementation{Name: "door-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: mcpCommand(t, e, e.tokens["planner"])}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exerciseTools(t, cs, e.eng)
}

func TestMCPStdioRefusesToStartWithoutAValidToken(t *testing.T) {
	e := newEnv(t, "", Config{})
	for _, tok := range []string{"", "mgv_forged", "not-even-a-memgov-token"} {
		out, err := mcpCommand(t, e, tok).CombinedOutput()
		var ee *exec.ExitError
		if err == nil || !asExit(err, &ee) || ee.ExitCode() == 0 {
			t.Fatalf("token %q: memgov mcp started (%v): %s", tok, err, out)
		}
		if !strings.Contains(string(out), "MEMGOV_TOKEN") {
			t.Errorf("token %q: the refusal does not name MEMGOV_TOKEN: %s", tok, out)
		}
	}
}

func asExit(err error, target **exec.ExitError) bool {
	ee, ok := err.(*exec.ExitError)
	if ok {
		*target = ee
	}
	return ok
}
