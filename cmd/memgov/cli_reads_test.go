package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

type readEntry struct {
	ID      string `json:"id"`
	Content string `json:"content"`
}

// retrievalOf is the retrieval id list and get --json print on stderr.
func retrievalOf(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, "retrieval "); ok {
			id, _, _ := strings.Cut(rest, " ")
			return id
		}
	}
	return ""
}

func sessionReq(key, text string, conf float64) string {
	b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": key,
		"target_layer": "SESSION", "confidence": conf, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "TOOL_OUTPUT", "source_uri": "erp://x", "authority": 0.9}}})
	return string(b)
}

// Point 4: get, list and search record an access and return a retrieval_id;
// feedback by key feeds retrieval precision; reads reinforce relevance.
func TestCLIReadsFeedMemorysLife(t *testing.T) {
	c := newCLI(t)
	c.setup()
	for _, k := range []string{"read-often", "never-read"} {
		if r := c.write(sessionReq(k, "Session fact "+k+" about invoice 7.", 0.9)); r.Status != "COMMITTED" {
			t.Fatalf("%s: %+v", k, r)
		}
	}
	var list []readEntry
	out, errOut, _ := c.run("", "list", "acme/billing-agent", "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 {
		t.Fatalf("list: %v %v", list, err)
	}
	rid := retrievalOf(errOut)
	if rid == "" || !strings.Contains(errOut, "read never-read: source tool_verified, trust 0.90") {
		t.Fatalf("list --json prints no retrieval or read note on stderr: %q", errOut)
	}
	for i := 0; i < 3; i++ {
		out, errOut, _ := c.run("", "get", "acme/billing-agent", "read-often", "--json")
		var got readEntry
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.ID != "read-often" || retrievalOf(errOut) == "" || retrievalOf(errOut) == rid {
			t.Fatalf("get: %+v %q %v", got, errOut, err)
		}
	}
	var env struct {
		RetrievalID string `json:"retrieval_id"`
		Hits        []struct {
			Entry readEntry `json:"entry"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "search", "acme/billing-agent", "invoice 7", "--json")), &env); err != nil || len(env.Hits) == 0 || env.RetrievalID == "" {
		t.Fatalf("search: %+v %v", env, err)
	}
	if out := c.ok("", "search", "acme/billing-agent", "invoice 7"); !strings.Contains(out, "\nretrieval ") {
		t.Fatalf("search prints no retrieval id: %s", out)
	}
	// Feedback names used entries by key.
	if out := c.ok("", "feedback", rid, "--used", "read-often"); !strings.Contains(out, "1 of 1") {
		t.Fatalf("feedback: %s", out)
	}
	if _, _, code := c.run("", "feedback", "no-such-retrieval", "--used", "read-often"); code == 0 {
		t.Fatal("feedback on an unknown retrieval succeeded")
	}
	var m struct {
		Retrievals int      `json:"retrievals"`
		Judged     int      `json:"retrievals_with_feedback"`
		Precision  *float64 `json:"retrieval_precision"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "metrics", "--json")), &m); err != nil || m.Retrievals < 5 || m.Judged != 1 || m.Precision == nil || *m.Precision != 0.5 {
		t.Fatalf("metrics after reads: %+v %v", m, err)
	}
	// Five hours later SESSION memory has decayed: the entry read four times
	// is reinforced (n_access), the unread one is collected.
	later := time.Now().Add(5 * time.Hour)
	out, errOut, code := c.at(later, "", "gc", "--by", "jane", "--json")
	if code != 0 {
		t.Fatalf("gc: exit %d %s", code, errOut)
	}
	var rep struct {
		Expired []struct{ Key, Mode string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Expired) != 1 || rep.Expired[0].Key != "never-read" || rep.Expired[0].Mode != "relevance" {
		t.Fatalf("gc after reads: %s", out)
	}
}

// Point 5: confidence decay of inferred entries, trust levels, stale
// warnings and the needs-verification flag.
func TestCLIConfidenceDecayTrustAndStaleness(t *testing.T) {
	c := newCLI(t)
	c.setup()
	// An agent's inference (no external evidence), at confidence 0.45: it
	// needs verification, and decays 0.05 a day.
	infer := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"guess","target_layer":"WORKING","confidence":0.45,
		"content":{"text":"Customer 9 probably pays late."}}`
	out, _, code := c.run(infer, "write", "--json")
	if code != 0 || !strings.Contains(out, `"needs_verification":true`) {
		t.Fatalf("low-confidence write: exit %d %s", code, out)
	}
	// get --json prints the entry; its read note goes to stderr.
	if _, note, _ := c.run("", "get", "acme/billing-agent", "guess", "--json"); !strings.Contains(note,
		"read guess: source agent_inferred, trust 0.60, confidence 0.45; needs verification") {
		t.Fatalf("inferred entry: %q", note)
	}
	day2 := time.Now().Add(50 * time.Hour)
	o, note, _ := c.at(day2, "", "get", "acme/billing-agent", "guess", "--json")
	if !strings.Contains(note, "read guess: source agent_inferred, trust 0.60, confidence 0.35") {
		t.Fatalf("after two days: %s %s", o, note)
	}
	// A tool-verified fact at 0.75 is not stale today, and is stale after a
	// week (older than 7 days, confidence below 0.8).
	fact := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"fact","target_layer":"EPISODIC",
		"observation_type":"task_completion_strategy","confidence":0.75,"content":{"text":"Invoice 9 is paid by bank transfer."},
		"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://9","authority":0.9}]}`
	if r := c.write(fact); r.Status != "COMMITTED" {
		t.Fatalf("%+v", r)
	}
	week := time.Now().Add(8 * 24 * time.Hour)
	o, _, _ = c.at(week, "", "get", "acme/billing-agent", "fact")
	if strings.Contains(c.ok("", "get", "acme/billing-agent", "fact"), "stale") || !strings.Contains(o, "stale") {
		t.Fatalf("stale warning: now vs a week later: %s", o)
	}
	// Four days on, GC expires the inference (0.45 - 4 x 0.05 < 0.3), with
	// the reason in the log; the tool-verified fact keeps its confidence.
	day4 := time.Now().Add(4*24*time.Hour + time.Hour)
	o, errOut, code := c.at(day4, "", "gc", "--by", "jane", "--json")
	if code != 0 || !strings.Contains(o, `"mode": "confidence"`) || !strings.Contains(o, "guess") || strings.Contains(o, `"key": "fact"`) {
		t.Fatalf("gc of decayed confidence: exit %d %s %s", code, o, errOut)
	}
	if o, _, code := c.at(day4, "", "get", "acme/billing-agent", "guess", "--json"); !notFoundJSON(o, code) {
		t.Fatalf("decayed entry still read: %s", o)
	}
}

// Point 5: a SYNC or ASYNC review of a low-confidence write shows the
// needs-verification flag to the curator.
func TestCLINeedsVerificationInReview(t *testing.T) {
	c := newCLI(t)
	c.setup()
	req := `{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","confidence":0.5,"content":{"text":"Customer 7 may want invoices in German."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`
	r := c.write(req)
	if r.Status != "DEFERRED" {
		t.Fatalf("%+v", r)
	}
	out := c.ok("", "review", "list", "--json")
	if !strings.Contains(out, `"needs_verification": true`) || !strings.Contains(out, "NEEDS_VERIFICATION") {
		t.Fatalf("review detail without the flag: %s", out)
	}
}

// Point 5: WORKING memory is cleared, in the log, when its session ends.
func TestCLIWorkingMemoryClearedAtSessionEnd(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	c.ok("", "principal", "add", "--id", "chat-agent", "--role", "orchestrator", "--tenant", "acme")
	w := `{"source_agent_id":"chat-agent","memory_ref":"acme/chat-agent","key":"scratch","target_layer":"WORKING","content":{"text":"draft answer"}}`
	if r := c.write(w); r.Status != "COMMITTED" {
		t.Fatalf("%+v", r)
	}
	c.ok("", "baseline", "approve", "acme/chat-agent", "--by", "oncall", "--type", "session", "--policy", "log-only", "--level", "1", "--ttl", "3600")
	c.ok("", "session", "start", "acme/chat-agent", "--by", "chat-agent")
	if out := c.ok("", "list", "acme/chat-agent", "--json"); !strings.Contains(out, "draft answer") {
		t.Fatalf("working memory within the session: %s", out)
	}
	c.ok("", "session", "end", "acme/chat-agent", "--by", "chat-agent")
	if out := c.ok("", "list", "acme/chat-agent", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("working memory after the session: %s", out)
	}
	if out := c.ok("", "events", "--type", "memory.expired", "--json"); !strings.Contains(out, "acme/chat-agent") {
		t.Fatalf("no expiry event: %s", out)
	}
}

// Point 5: a write burst quarantines the agent's recent writes: gone from
// every read, listed for curators, released or retracted by one.
func TestCLIQuarantine(t *testing.T) {
	c := newCLI(t)
	c.setup()
	pol := "reputation:\n  burst_limit: 3\n  burst_window: 1m\n"
	if err := os.WriteFile(c.db+".policy.yaml", []byte(pol), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		w := fmt.Sprintf(`{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"k%d","target_layer":"WORKING","content":{"text":"fact %d"}}`, i, i)
		if r := c.write(w); r.Status != "COMMITTED" {
			t.Fatalf("write %d: %+v", i, r)
		}
	}
	burst := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"k4","target_layer":"WORKING","content":{"text":"fact 4"}}`
	out, _, code := c.run(burst, "write", "--json")
	if code != exitDenied || jsonField(out, "reason") != "AGENT_SUSPENDED" {
		t.Fatalf("burst: exit %d %s", code, out)
	}
	if out := c.ok("", "list", "acme/billing-agent", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("list after quarantine: %s", out)
	}
	if out := c.ok("", "search", "acme/billing-agent", "fact", "--json"); !strings.Contains(out, `"hits": []`) {
		t.Fatalf("search after quarantine: %s", out)
	}
	if out, _, code := c.run("", "get", "acme/billing-agent", "k1", "--json"); !notFoundJSON(out, code) {
		t.Fatalf("get after quarantine: %s", out)
	}
	var qs []struct {
		VersionID string `json:"version_id"`
		Key       string `json:"key"`
		Status    string `json:"status"`
		Cause     string `json:"cause"`
		Text      string `json:"text"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "quarantine", "list", "--json")), &qs); err != nil || len(qs) != 3 || !strings.Contains(qs[0].Cause, "burst") || qs[0].Text == "" {
		t.Fatalf("quarantine list: %+v %v", qs, err)
	}
	byKey := map[string]string{}
	for _, q := range qs {
		byKey[q.Key] = q.VersionID
	}
	if _, _, code := c.run("", "quarantine", "release", byKey["k1"], "--by", "billing-agent", "--note", "mine"); code == 0 {
		t.Fatal("the agent released its own quarantined write")
	}
	if _, _, code := c.run("", "quarantine", "release", byKey["k1"], "--by", "jane"); code != exitUsage {
		t.Fatalf("release without a note: exit %d", code)
	}
	c.ok("", "quarantine", "release", byKey["k1"], "--by", "jane", "--note", "checked with billing")
	c.ok("", "quarantine", "retract", byKey["k2"], "--by", "jane", "--note", "poisoned")
	if out := c.ok("", "get", "acme/billing-agent", "k1", "--json"); !strings.Contains(out, "fact 1") {
		t.Fatalf("released entry: %s", out)
	}
	if out, _, code := c.run("", "get", "acme/billing-agent", "k2", "--json"); !notFoundJSON(out, code) {
		t.Fatalf("retracted entry: %s", out)
	}
	if _, _, code := c.run("", "quarantine", "release", byKey["k2"], "--by", "jane", "--note", "again"); code == 0 {
		t.Fatal("released a retracted version")
	}
	if err := json.Unmarshal([]byte(c.ok("", "quarantine", "list", "--json")), &qs); err != nil || len(qs) != 1 || qs[0].Key != "k3" {
		t.Fatalf("open quarantine after decisions: %+v", qs)
	}
	for _, typ := range []string{"memory.quarantined", "memory.released", "memory.retracted"} {
		if out := c.ok("", "events", "--type", typ, "--json"); !strings.Contains(out, typ) {
			t.Errorf("no %s event", typ)
		}
	}
	if out := c.ok("", "audit", "verify"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("verify: %s", out)
	}
	if out := c.ok("", "admin", "rebuild"); !strings.Contains(out, "no differences") {
		t.Fatalf("rebuild: %s", out)
	}
}

// Point 6: an honest health score and a deployment gate for CI/CD.
func TestCLIHealthScoreIsHonestAndGates(t *testing.T) {
	c := newCLI(t)
	c.setup()
	if r := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature.")); r.Status != "COMMITTED" {
		t.Fatalf("%+v", r)
	}
	var m struct {
		Band       string   `json:"health_band"`
		Status     string   `json:"health_status"`
		Share      float64  `json:"health_measured_share"`
		Lower      float64  `json:"health_lower_bound"`
		Unmeasured []string `json:"unmeasured"`
		HLR        *float64 `json:"hallucination_leakage_rate"`
	}
	out, errOut, code := c.run("", "metrics", "--json", "--gate", "0.7")
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("metrics: %q %v", out, err)
	}
	if m.Status != "PARTIAL" || m.Band != "PARTIAL" || m.Share <= 0 || m.Share >= 1 || len(m.Unmeasured) == 0 || m.HLR == nil {
		t.Fatalf("partial metrics: %s", out)
	}
	if code != exitRejected || !strings.Contains(errOut, "health gate 0.70 not met") {
		t.Fatalf("gate on a partial score: exit %d %s", code, errOut)
	}
	if out := c.ok("", "metrics"); !strings.Contains(out, "PARTIAL") || !strings.Contains(out, "of the weight measured") {
		t.Fatalf("human metrics: %s", out)
	}
	if _, _, code := c.run("", "metrics", "--deploy-gate"); code != exitRejected {
		t.Fatalf("--deploy-gate: exit %d", code)
	}
	if out, _, code := c.run("", "metrics", "--gate", "0.01"); code != 0 || !strings.Contains(out, "health gate 0.01 met") {
		t.Fatalf("a gate the lower bound clears: exit %d %s", code, out)
	}
	for _, bad := range []string{"0", "1.5", "-1"} {
		if _, _, code := c.run("", "metrics", "--gate", bad); code != exitUsage {
			t.Errorf("--gate %s: exit %d", bad, code)
		}
	}
}

func TestCLIPromiseCommandsHaveHelpWithExample(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"quarantine"}, {"quarantine", "list"}, {"quarantine", "release"}, {"quarantine", "retract"},
		{"feedback"}, {"metrics"}, {"write"}, {"lease", "acquire"}} {
		out := c.ok("", append(args, "--help")...)
		if !strings.Contains(out, "Examples:") {
			t.Errorf("memgov %s --help has no example", strings.Join(args, " "))
		}
	}
	for _, want := range []string{"--no-wait", "--fencing-token", "IDEMPOTENCY_CONFLICT"} {
		if out := c.ok("", "write", "--help"); !strings.Contains(out, want) {
			t.Errorf("write --help does not mention %s", want)
		}
	}
	if out := c.ok("", "metrics", "--help"); !strings.Contains(out, "--gate") || !strings.Contains(out, "PARTIAL") {
		t.Errorf("metrics --help: %s", out)
	}
}
