package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// start runs memgov in the background; wait collects its output and exit code.
type proc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
}

func (c *cli) start(stdin string, args ...string) *proc {
	c.t.Helper()
	p := &proc{cmd: exec.Command(bin, args...)}
	p.cmd.Env = c.env
	p.cmd.Stdin = strings.NewReader(stdin)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

func (p *proc) wait(t *testing.T, within time.Duration) (string, string, int) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return p.out.String(), p.err.String(), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return p.out.String(), p.err.String(), 0
	case <-time.After(within):
		_ = p.cmd.Process.Kill()
		<-done
		t.Fatalf("memgov %s did not finish within %s: %s %s", strings.Join(p.cmd.Args[1:], " "), within, p.out.String(), p.err.String())
		return "", "", -1
	}
}

// at runs memgov with its clock set to t (MEMGOV_NOW).
func (c *cli) at(t time.Time, stdin string, args ...string) (string, string, int) {
	c.t.Helper()
	env := c.env
	c.env = append(append([]string{}, env...), "MEMGOV_NOW="+t.UTC().Format(time.RFC3339Nano))
	defer func() { c.env = env }()
	return c.run(stdin, args...)
}

// pendingReview polls the review queue until a review is open (each step of
// these tests has at most one): the queue is how a second process sees that a
// writer is blocked. It returns the review id.
func (c *cli) pendingReview(writer *proc) string {
	c.t.Helper()
	for i := 0; i < 600; i++ {
		var q struct {
			Reviews []struct {
				ID string `json:"review_id"`
			} `json:"reviews"`
		}
		out := c.ok("", "review", "list", "--json")
		if err := json.Unmarshal([]byte(out), &q); err != nil {
			c.t.Fatalf("review list: %q: %v", out, err)
		}
		if len(q.Reviews) > 0 {
			return q.Reviews[0].ID
		}
		if writer != nil && writer.cmd.ProcessState != nil {
			c.t.Fatalf("the writer ended before its review was open: %s %s", writer.out.String(), writer.err.String())
		}
		time.Sleep(20 * time.Millisecond) // polling another process, not passing time
	}
	c.t.Fatal("no open review")
	return ""
}

// syncPolicy makes every governed EPISODIC write of these tests a SYNC_BLOCK
// write with a 10-minute deadline.
func (c *cli) syncPolicy() {
	c.t.Helper()
	pol := "risk:\n  sync_from: 0.1\n  async_from: 0.05\nreview:\n  sync_max_wait: 10m\n" // every write here is a SYNC_BLOCK
	if err := os.WriteFile(c.db+".policy.yaml", []byte(pol), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

func syncReq(key, text string) string {
	b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": key,
		"target_layer": "EPISODIC", "observation_type": "task_completion_strategy", "confidence": 0.7, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "TOOL_OUTPUT", "source_uri": "erp://policies/refunds", "authority": 0.9},
			map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "ticket://88", "authority": 0.8}}})
	return string(b)
}

// Point 1: an idempotency token covers what was written.
func TestCLIIdempotencyScopedToWhatWasWritten(t *testing.T) {
	c := newCLI(t)
	c.setup()
	// The same text for five customers: five writes, five items.
	items := map[string]bool{}
	for i := 1; i <= 5; i++ {
		ref := fmt.Sprintf("acme/billing-agent/customer-%d", i)
		req := fmt.Sprintf(`{"source_agent_id":"billing-agent","memory_ref":%q,"target_layer":"WORKING","content":{"text":"Prefers invoices by email."}}`, ref)
		r := c.write(req)
		if r.Status != "COMMITTED" {
			t.Fatalf("customer %d: %+v", i, r)
		}
		items[r.ItemID] = true
		if out := c.ok("", "list", ref, "--json"); !strings.Contains(out, "Prefers invoices by email.") {
			t.Fatalf("customer %d's memory: %s", i, out)
		}
	}
	if len(items) != 5 {
		t.Fatalf("five customers' writes made %d items", len(items))
	}
	// The same request again is a replay: ALREADY_COMMITTED, exit 0.
	again := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent/customer-3","target_layer":"WORKING","content":{"text":"Prefers invoices by email."}}`
	if out, _, code := c.run(again, "write", "--json"); code != 0 || jsonField(out, "status") != "ALREADY_COMMITTED" {
		t.Fatalf("replay: exit %d %s", code, out)
	}
	// A caller's token: replayed as is, ALREADY_COMMITTED; replayed with
	// other content or another ref, IDEMPOTENCY_CONFLICT with exit 3.
	tok := func(ref, key, text string) string {
		return fmt.Sprintf(`{"source_agent_id":"billing-agent","memory_ref":%q,"key":%q,"target_layer":"WORKING","idempotency_token":"tok-7","content":{"text":%q}}`, ref, key, text)
	}
	first := c.write(tok("acme/billing-agent", "note", "Invoice 7 was paid."))
	if first.Status != "COMMITTED" {
		t.Fatalf("first: %+v", first)
	}
	if out, _, code := c.run(tok("acme/billing-agent", "note", "Invoice 7 was paid."), "write", "--json"); code != 0 || jsonField(out, "status") != "ALREADY_COMMITTED" || jsonField(out, "item_id") != first.ItemID {
		t.Fatalf("same token, same write: exit %d %s", code, out)
	}
	for name, req := range map[string]string{
		"other content": tok("acme/billing-agent", "note", "Invoice 7 was refunded."),
		"other ref":     tok("acme/billing-agent/customer-1", "note", "Invoice 7 was paid."),
		"other key":     tok("acme/billing-agent", "note-2", "Invoice 7 was paid."),
	} {
		out, _, code := c.run(req, "write", "--json")
		if code != exitRejected || jsonField(out, "status") != "REJECTED" || jsonField(out, "reason") != "IDEMPOTENCY_CONFLICT" {
			t.Errorf("%s under a used token: exit %d %s", name, code, out)
		}
	}
	if out := c.ok("", "get", "acme/billing-agent", "note", "--json"); !strings.Contains(out, "Invoice 7 was paid.") {
		t.Fatalf("the first write was changed: %s", out)
	}
}

// Point 2: a SYNC_BLOCK write blocks until a curator in another process
// decides it.
func TestCLISyncWriteBlocksUntilACuratorApproves(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.syncPolicy()
	writer := c.start(syncReq("refund/limit", "Refunds up to $5,000 may be approved without a second signature."), "write", "--json")
	id := c.pendingReview(writer)
	if writer.cmd.ProcessState != nil {
		t.Fatal("the writer returned before the decision")
	}
	c.ok("", "review", "approve", id, "--by", "jane", "--note", "checked")
	out, errOut, code := writer.wait(t, 30*time.Second)
	if code != 0 || jsonField(out, "status") != "COMMITTED" || !strings.Contains(out, "approved by jane") {
		t.Fatalf("blocked writer: exit %d %s %s", code, out, errOut)
	}
	if out := c.ok("", "get", "acme/billing-agent", "refund/limit", "--json"); !strings.Contains(out, "$5,000") {
		t.Fatalf("approved write: %s", out)
	}

	// A rejection ends the wait with REJECTED, exit 3.
	writer = c.start(syncReq("refund/cap", "Refunds are capped at $9,000 per customer per year."), "write", "--json")
	id = c.pendingReview(writer)
	c.ok("", "review", "reject", id, "--by", "jane", "--code", "FACTUAL_ERROR", "--note", "no cap")
	out, _, code = writer.wait(t, 30*time.Second)
	if code != exitRejected || jsonField(out, "reason") != "REVIEW_REJECTED" {
		t.Fatalf("rejected while waiting: exit %d %s", code, out)
	}

	// --no-wait returns DEFERRED at once; --wait is still accepted.
	out, _, code = c.run(syncReq("refund/window", "Refunds are possible for 30 days after delivery."), "write", "--json", "--no-wait")
	if code != exitDeferred || jsonField(out, "status") != "DEFERRED" {
		t.Fatalf("--no-wait: exit %d %s", code, out)
	}
	if _, _, code := c.run("", "write", "--wait", "--no-wait"); code != exitUsage {
		t.Fatalf("--wait --no-wait: exit %d", code)
	}
}

// Point 2: fail-closed lives in the engine. A writer killed while it waits
// loses nothing; past the deadline the first touch rejects the review with
// APPROVAL_TIMEOUT, and an approval is refused.
func TestCLISyncReviewFailsClosed(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.syncPolicy()
	// A writer killed while it waits: its review stays, and is approved.
	writer := c.start(syncReq("refund/limit", "Refunds up to $5,000 may be approved without a second signature."), "write", "--json")
	id := c.pendingReview(writer)
	if err := writer.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	writer.wait(t, 10*time.Second)
	c.ok("", "review", "approve", id, "--by", "jane")
	if out := c.ok("", "get", "acme/billing-agent", "refund/limit", "--json"); !strings.Contains(out, "$5,000") {
		t.Fatalf("the killed writer's approved write: %s", out)
	}

	// Past the deadline, an approval is refused and the review is rejected.
	later := time.Now().Add(11 * time.Minute)
	out, _, code := c.run(syncReq("refund/cap", "Refunds are capped at $9,000 per customer per year."), "write", "--json", "--no-wait")
	rid := jsonField(out, "review_id")
	if code != exitDeferred || rid == "" {
		t.Fatalf("--no-wait: exit %d %s", code, out)
	}
	_, errOut, code := c.at(later, "", "review", "approve", rid, "--by", "jane")
	if code == 0 || !strings.Contains(errOut, "APPROVAL_TIMEOUT") || !strings.Contains(errOut, "deadline") {
		t.Fatalf("approval after the deadline: exit %d %s", code, errOut)
	}
	if out, _, code := c.run("", "get", "acme/billing-agent", "refund/cap", "--json"); !notFoundJSON(out, code) {
		t.Fatalf("a write approved after its deadline is visible: %s", out)
	}
	if out, _, _ := c.at(later, "", "review", "approve", rid, "--by", "jane"); strings.Contains(out, "APPROVED") {
		t.Fatalf("second approval: %s", out)
	}

	// Listing is a touch too: an expired review is gone from the queue,
	// rejected with APPROVAL_TIMEOUT.
	out, _, code = c.run(syncReq("refund/window", "Refunds are possible for 30 days after delivery."), "write", "--json", "--no-wait")
	if code != exitDeferred {
		t.Fatalf("--no-wait: exit %d %s", code, out)
	}
	if out, _, _ := c.at(later, "", "review", "list", "--json"); strings.Contains(out, "refund/window") {
		t.Fatalf("an expired SYNC review is still listed: %s", out)
	}
	if out := c.ok("", "events", "--type", "review.rejected", "--json"); strings.Count(out, "APPROVAL_TIMEOUT") != 2 {
		t.Fatalf("review.rejected events: %s", out)
	}

	// A writer waiting past its deadline gets the fail-closed outcome.
	req := strings.Replace(syncReq("refund/fast", "Refunds under $50 are paid the same day."), `"key"`,
		fmt.Sprintf(`"deadline":%q,"key"`, time.Now().Add(1500*time.Millisecond).UTC().Format(time.RFC3339Nano)), 1)
	out, _, code = c.run(req, "write", "--json")
	if code != exitRejected || jsonField(out, "reason") != "APPROVAL_TIMEOUT" {
		t.Fatalf("waiting past the deadline: exit %d %s", code, out)
	}
}

// Point 3: leases across two processes.
func TestCLILeaseHolderAndRival(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.ok("", "principal", "add", "--id", "ops-agent", "--role", "orchestrator", "--tenant", "acme")
	req := func(agent, text string, token int64) string {
		m := map[string]any{"source_agent_id": agent, "memory_ref": "acme/shared", "key": "deploy/window", "target_layer": "SESSION",
			"content": map[string]any{"text": text}}
		if token > 0 {
			m["fencing_token"] = token
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	out := c.ok("", "lease", "acquire", "acme/shared", "deploy/window", "--by", "billing-agent", "--ttl", "60s")
	if !strings.Contains(out, "fencing token 1") {
		t.Fatalf("acquire prints no fencing token: %s", out)
	}
	// Holder and rival write at once, from two processes.
	holder := c.start(req("billing-agent", "The deploy window is Tuesday 10:00 UTC.", 0), "write", "--json", "--fencing-token", "1")
	rival := c.start(req("ops-agent", "The deploy window is Friday 17:00 UTC.", 0), "write", "--json")
	hout, herr, hcode := holder.wait(t, 30*time.Second)
	rout, _, rcode := rival.wait(t, 30*time.Second)
	if hcode != 0 || jsonField(hout, "status") != "COMMITTED" {
		t.Fatalf("holder: exit %d %s %s", hcode, hout, herr)
	}
	if rcode != exitDeferred || jsonField(rout, "reason") != "LEASE_HELD" {
		t.Fatalf("rival: exit %d %s", rcode, rout)
	}
	// The holder's token in the request body works as well as the flag.
	if out, _, code := c.run(req("billing-agent", "The deploy window is Tuesday 11:00 UTC.", 1), "write", "--json"); code != 0 {
		t.Fatalf("fencing_token field: exit %d %s", code, out)
	}
	// Under the lease, a write without the token is refused.
	if out, _, code := c.run(req("billing-agent", "The deploy window is Monday.", 0), "write", "--json"); code != exitRejected || jsonField(out, "reason") != "STALE_FENCING_TOKEN" {
		t.Fatalf("no token under a lease: exit %d %s", code, out)
	}
	// Two minutes later the lease expired: the holder's token is refused,
	// and the rival takes the lease with a greater token.
	later := time.Now().Add(2 * time.Minute)
	out, _, code := c.at(later, req("billing-agent", "The deploy window is Wednesday.", 0), "write", "--json", "--fencing-token", "1")
	if code != exitRejected || jsonField(out, "reason") != "STALE_FENCING_TOKEN" || !strings.Contains(out, "expired") {
		t.Fatalf("expired lease: exit %d %s", code, out)
	}
	if out, _, code := c.at(later, "", "lease", "acquire", "acme/shared", "deploy/window", "--by", "ops-agent", "--ttl", "60s"); code != 0 || !strings.Contains(out, "fencing token 2") {
		t.Fatalf("rival acquire: exit %d %s", code, out)
	}
	// The old holder, still running on its own clock, is stale.
	if out, _, code := c.at(later, req("billing-agent", "The deploy window is Thursday.", 0), "write", "--json", "--fencing-token", "1"); code != exitRejected || jsonField(out, "reason") != "STALE_FENCING_TOKEN" || !strings.Contains(out, "older") {
		t.Fatalf("stale holder: exit %d %s", code, out)
	}
	if out, _, code := c.at(later, req("ops-agent", "The deploy window is Friday 17:00 UTC.", 0), "write", "--json", "--fencing-token", "2"); code != 0 || jsonField(out, "status") != "COMMITTED" {
		t.Fatalf("new holder: exit %d %s", code, out)
	}
	if _, _, code := c.run(req("billing-agent", "x", 0), "write", "--fencing-token", "0"); code != exitUsage {
		t.Fatalf("--fencing-token 0: exit %d", code)
	}
}

// Point 7: an agent restricted to domains writes only items tagged with one.
func TestCLIDomainRestrictedAgentWritesOnlyItsDomains(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.ok("", "principal", "add", "--id", "med-agent", "--role", "orchestrator", "--tenant", "acme", "--attr", "domains=medical")
	req := func(key string, tags ...string) string {
		m := map[string]any{"source_agent_id": "med-agent", "memory_ref": "acme/med-agent", "key": key, "target_layer": "WORKING",
			"content": map[string]any{"text": "Patient 12 is allergic to penicillin."}}
		if len(tags) > 0 {
			m["tags"] = tags
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for name, r := range map[string]string{"untagged": req("a"), "other domain": req("b", "domain:finance"), "plain tag": req("c", "allergy")} {
		out, _, code := c.run(r, "write", "--json")
		if code != exitRejected || jsonField(out, "reason") != "UNAUTHORIZED" {
			t.Errorf("%s: exit %d %s", name, code, out)
		}
	}
	if out, _, code := c.run(req("d", "domain:medical", "allergy"), "write", "--json"); code != 0 {
		t.Fatalf("tagged with its domain: exit %d %s", code, out)
	}
}

// Point 7: every event the store emits is spelled as spec §16.6 lists it.
func TestCLIEventTypesAsDocumented(t *testing.T) {
	c := newCLI(t)
	c.setup()
	r := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."))
	c.ok("", "rollback", r.VersionID, "--by", "jane", "--reason", "wrong limit")
	spec, err := os.ReadFile("../../docs/spec.md")
	if err != nil {
		t.Fatal(err)
	}
	var evs []struct{ Type string }
	if err := json.Unmarshal([]byte(c.ok("", "events", "--json")), &evs); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range evs {
		seen[e.Type] = true
		if !bytes.Contains(spec, []byte("| `"+e.Type+"` |")) {
			t.Errorf("event type %q is not in spec §16.6", e.Type)
		}
	}
	if !seen["memory.retracted"] || seen["memory.retractd"] {
		t.Fatalf("events after a rollback: %v", seen)
	}
}
