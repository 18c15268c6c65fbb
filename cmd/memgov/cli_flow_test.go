package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

func writeReq(agent, ref, key, text string) string {
	b, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": "EPISODIC",
		"observation_type": "tool_result_verified", "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://x", "authority": 0.95}}})
	return string(b)
}

type result struct {
	Status, Reason, ItemID, VersionID, ReviewID, Key string
}

func (c *cli) write(req string) result {
	c.t.Helper()
	out, errOut, _ := c.run(req, "write", "--json")
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		c.t.Fatalf("write output %q %q: %v", out, errOut, err)
	}
	r.ItemID, r.VersionID, r.ReviewID = jsonField(out, "item_id"), jsonField(out, "version_id"), jsonField(out, "review_id")
	return r
}

func jsonField(s, name string) string {
	var m map[string]any
	_ = json.Unmarshal([]byte(s), &m)
	v, _ := m[name].(string)
	return v
}

func TestCLIReadVersionAuditFlow(t *testing.T) {
	c := newCLI(t)
	c.setup()
	r1 := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."))
	if r1.Status != "COMMITTED" {
		t.Fatalf("first write: %+v", r1)
	}
	r2 := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $50,000 need no second signature."))
	if r2.Status != "COMMITTED" || r2.ItemID != r1.ItemID {
		t.Fatalf("second version: %+v", r2)
	}
	// get --json is exactly the MemoryEntry shape.
	out := c.ok("", "get", "acme/billing-agent", "refund/limit", "--json")
	var entry map[string]any
	if err := json.Unmarshal([]byte(out), &entry); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(entry))
	for k := range entry {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, []string{"content", "createdAt", "expiresAt", "id", "tags"}) || entry["content"] != "Refunds up to $50,000 need no second signature." {
		t.Fatalf("MemoryEntry = %s", out)
	}
	if out, _, code := c.run("", "get", "acme/billing-agent", "nope", "--json"); !notFoundJSON(out, code) {
		t.Fatalf("unknown key: %q", out)
	}
	if out := c.ok("", "list", "acme/nobody", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("unknown ref: %q", out)
	}
	if out := c.ok("", "list", "acme/billing-agent"); !strings.Contains(out, "refund/limit") {
		t.Fatalf("list: %s", out)
	}
	// Point in time: before the second version the first was visible.
	hist := c.ok("", "history", r1.ItemID, "--json")
	var h struct {
		Versions []struct {
			ID         string `json:"version_id"`
			CreatedLSN int64  `json:"created_lsn"`
			State      string `json:"state"`
		} `json:"versions"`
	}
	if err := json.Unmarshal([]byte(hist), &h); err != nil || len(h.Versions) != 2 {
		t.Fatalf("history: %s", hist)
	}
	at := c.ok("", "at", "acme/billing-agent", "--lsn", fmt.Sprint(h.Versions[1].CreatedLSN), "--json")
	if !strings.Contains(at, "$1,000") || strings.Contains(at, "$50,000") {
		t.Fatalf("at LSN: %s", at)
	}
	// Roll back the bad version: the $1,000 rule is back, as a new version.
	c.ok("", "rollback", r2.VersionID, "--by", "jane", "--reason", "limit raised without approval")
	if out := c.ok("", "get", "acme/billing-agent", "refund/limit", "--json"); !strings.Contains(out, "$1,000") {
		t.Fatalf("after rollback: %s", out)
	}
	if _, errOut, code := c.run("", "rollback", r2.VersionID, "--by", "jane", "--reason", "again"); code != 1 || !strings.Contains(errOut, "RETRACTED") {
		t.Fatalf("rolling back twice: exit %d %s", code, errOut)
	}
	c.ok("", "pin", r1.ItemID, "--by", "jane")
	if out := c.ok("", "history", r1.ItemID); !strings.Contains(out, "pinned") {
		t.Fatalf("history after pin: %s", out)
	}
	c.ok("", "unpin", r1.ItemID, "--by", "jane")
	// Audit: root, checkpoint, proof, verify, rebuild.
	var root struct {
		Root string `json:"audit_chain_root"`
		Size int64  `json:"tree_size"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "audit", "root")), &root); err != nil || !strings.HasPrefix(root.Root, "sha256:") {
		t.Fatalf("root: %+v %v", root, err)
	}
	cp := c.ok("", "audit", "checkpoint", "--ttl", "3600")
	cpFile := c.db + ".cp.json"
	if err := os.WriteFile(cpFile, []byte(cp), 0o600); err != nil {
		t.Fatal(err)
	}
	c.write(writeReq("billing-agent", "acme/billing-agent", "invoice/1", "Invoice 1 was paid on time."))
	if out := c.ok("", "audit", "prove", "--checkpoint", cpFile); !strings.Contains(out, `"ACCEPT"`) {
		t.Fatalf("prove: %s", out)
	}
	if out := c.ok("", "audit", "prove", "--from", fmt.Sprint(root.Size)); !strings.Contains(out, `"proof"`) {
		t.Fatalf("prove --from: %s", out)
	}
	if out := c.ok("", "audit", "verify"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("verify: %s", out)
	}
	if out := c.ok("", "admin", "rebuild"); !strings.Contains(out, "no differences") {
		t.Fatalf("rebuild: %s", out)
	}
	// Tamper with the log behind memgov's back: verify names the LSN.
	db, err := sql.Open("sqlite", "file:"+c.db)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DROP TRIGGER log_append_only_update", "UPDATE log SET actor = 'mallory' WHERE lsn = 7"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	_, errOut, code := c.run("", "audit", "verify")
	if code != 1 || !strings.Contains(errOut, "LSN 7") {
		t.Fatalf("tampered verify: exit %d %q", code, errOut)
	}
	// A checkpoint kept outside no longer verifies against the edited log.
	if _, errOut, code := c.run("", "audit", "prove", "--checkpoint", cpFile); code != 1 {
		t.Fatalf("prove on a tampered log: exit %d %s", code, errOut)
	}
}

func TestCLIReviewFlow(t *testing.T) {
	c := newCLI(t)
	c.setup()
	r := c.write(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"Customer 7 wants invoices in German."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`)
	if r.Status != "DEFERRED" || r.ReviewID == "" {
		t.Fatalf("%+v", r)
	}
	if out := c.ok("", "review", "list"); !strings.Contains(out, r.ReviewID) {
		t.Fatalf("review list: %s", out)
	}
	if _, _, code := c.run("", "review", "approve", r.ReviewID, "--by", "support-bot"); code != 1 {
		t.Fatalf("self-approval exit %d", code)
	}
	if _, _, code := c.run("", "review", "reject", r.ReviewID, "--by", "jane"); code != 2 {
		t.Fatalf("reject without --code: exit %d", code)
	}
	c.ok("", "review", "approve", r.ReviewID, "--by", "jane", "--note", "confirmed")
	if out := c.ok("", "get", "acme/support-bot", "c7/lang", "--json"); !strings.Contains(out, "German") {
		t.Fatalf("approved entry: %s", out)
	}
}

// TestConcurrentProcesses: 4 processes writing batches into one database at
// once lose nothing and surface no SQLITE_BUSY; one idempotency token
// committed from two processes yields one COMMITTED and one ALREADY_COMMITTED.
func TestConcurrentProcesses(t *testing.T) {
	c := newCLI(t)
	c.setup()
	// This test is about concurrency, not about burst protection.
	pol := "reputation:\n  burst_limit: 100000\nrate_limits:\n  layers:\n    EPISODIC:\n      writes: 100000\n      window: 1m\n"
	if err := os.WriteFile(c.db+".policy.yaml", []byte(pol), 0o600); err != nil {
		t.Fatal(err)
	}
	const procs, per = 4, 25
	var wg sync.WaitGroup
	errs := make(chan string, procs*2)
	for p := 0; p < procs; p++ {
		var batch strings.Builder
		for i := 0; i < per; i++ {
			batch.WriteString(strings.ReplaceAll(writeReq("billing-agent", "acme/billing-agent", fmt.Sprintf("p%d/k%d", p, i),
				fmt.Sprintf("Process %d wrote fact number %d about invoice %d.", p, i, p*1000+i*37)), "\n", "") + "\n")
		}
		wg.Add(1)
		go func(input string) {
			defer wg.Done()
			out, errOut, code := c.run(input, "write", "--batch", "--json")
			if code != 0 || strings.Contains(errOut+out, "BUSY") || strings.Contains(errOut+out, "locked") {
				errs <- fmt.Sprintf("exit %d: %s %s", code, errOut, out)
			}
		}(batch.String())
	}
	same := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"dup","target_layer":"WORKING","idempotency_token":"tok-1","content":{"text":"once"}}`
	statuses := make(chan string, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, _, _ := c.run(same, "write", "--json")
			statuses <- jsonField(out, "status")
		}()
	}
	wg.Wait()
	close(errs)
	close(statuses)
	for e := range errs {
		t.Error(e)
	}
	got := []string{<-statuses, <-statuses}
	sort.Strings(got)
	if !reflect.DeepEqual(got, []string{"ALREADY_COMMITTED", "COMMITTED"}) {
		t.Fatalf("same token twice: %v", got)
	}
	var entries []any
	if err := json.Unmarshal([]byte(c.ok("", "list", "acme/billing-agent", "--json")), &entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) != procs*per+1 {
		t.Fatalf("%d entries, want %d", len(entries), procs*per+1)
	}
	if out := c.ok("", "audit", "verify"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("verify: %s", out)
	}
}

// TestDemoSeed loads the embedded demo dataset through the pipeline and checks
// the story a new user should see.
func TestDemoSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a few thousand writes")
	}
	c := newCLI(t)
	out := c.ok("", "--db", c.db, "demo", "--no-tui")
	if !strings.Contains(out, "memgov --db "+c.db+" tui --as demo-curator") {
		t.Fatalf("demo output: %s", out)
	}
	var q struct {
		Total   int `json:"total"`
		Reviews []struct {
			Tier   string `json:"tier"`
			Reason string `json:"reason"`
		} `json:"reviews"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "review", "list", "--limit", "500", "--json")), &q); err != nil {
		t.Fatal(err)
	}
	reasons := map[string]int{}
	for _, r := range q.Reviews {
		reasons[r.Tier+" "+r.Reason]++
	}
	// A near-duplicate that differs waits for a curator: by its words
	// (SEMANTIC_CONFLICT) or by its structure (STRUCTURAL_CONFLICT).
	nearHeld := reasons["ASYNC_REVIEW SEMANTIC_CONFLICT"] + reasons["ASYNC_REVIEW STRUCTURAL_CONFLICT"]
	if q.Total < 50 || reasons["SYNC_BLOCK CONTRADICTION"] < 1 || reasons["ASYNC_REVIEW LOW_FACTUAL_SCORE"] < 1 || nearHeld < 1 {
		t.Fatalf("queue: %d reviews, %v", q.Total, reasons)
	}
	drift := c.ok("", "drift", "list")
	if !strings.Contains(drift, "acme/billing-agent") || !strings.Contains(drift, "globex/research-agent") {
		t.Fatalf("drift: %s", drift)
	}
	if out := c.ok("", "audit", "verify"); !strings.HasPrefix(out, "ok:") {
		t.Fatalf("verify: %s", out)
	}
	// A second run reuses the database.
	_, errOut, code := c.run("", "--db", c.db, "demo", "--no-tui")
	if code != 0 || !strings.Contains(errOut, "reusing") {
		t.Fatalf("second demo run: exit %d %s", code, errOut)
	}
}
