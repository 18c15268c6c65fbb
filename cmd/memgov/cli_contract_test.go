package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func (c *cli) contractSetup() {
	c.t.Helper()
	c.setup()
	c.ok("", "principal", "add", "--id", "acme-curator", "--role", "curator", "--tenant", "acme")
	c.ok("", "principal", "add", "--id", "deploy-bot", "--role", "operator", "--tenant", "acme", "--attr", "scopes=proposal:activate")
	for _, w := range [][3]string{
		{"refund/limit", "Refunds above 1000 dollars need a second signature from finance.", "acme"},
		{"customer-42/channel", "Alice Martin prefers email follow-up.", "acme"},
		{"shipping/eu", "Shipping to the EU takes four business days.", "acme"},
	} {
		if r := c.write(writeReq("billing-agent", "acme/billing-agent", w[0], w[1])); r.Status != "COMMITTED" {
			c.t.Fatalf("write %s: %+v", w[0], r)
		}
	}
	if r := c.write(writeReq("research-agent", "globex/research-agent", "lead", "Alice Martin is a globex lead.")); r.Status != "COMMITTED" {
		c.t.Fatalf("globex write: %+v", r)
	}
}

func TestCLIContractReadsAs(t *testing.T) {
	c := newCLI(t)
	c.contractSetup()
	var entries []map[string]any
	if err := json.Unmarshal([]byte(c.ok("", "list", "acme/billing-agent", "--json", "--as", "support-bot")), &entries); err != nil || len(entries) != 3 {
		t.Fatalf("owner probe: %v %v", entries, err)
	}
	for k := range entries[0] {
		if k != "id" && k != "content" && k != "tags" && k != "createdAt" && k != "expiresAt" {
			t.Fatalf("MemoryEntry has %s", k)
		}
	}
	for _, args := range [][]string{
		{"list", "globex/research-agent", "--json", "--as", "support-bot"},
		{"list", "acme/../globex/research-agent", "--json", "--as", "support-bot"},
		{"list", "globex/research-agent/", "--json"},
		{"commitments", "list", "globex/research-agent", "--json", "--as", "support-bot"},
	} {
		if out := c.ok("", args...); strings.TrimSpace(out) != "[]" {
			t.Errorf("memgov %s = %q, want []", strings.Join(args, " "), out)
		}
	}
	if out := c.ok("", "search", "globex/research-agent", "Alice Martin", "--json", "--as", "support-bot"); !strings.Contains(out, `"hits": []`) || strings.Contains(out, "retrieval_id") {
		t.Errorf("cross-tenant search = %q, want no hits and no retrieval", out)
	}
	if out, _, code := c.run("", "get", "globex/research-agent", "lead", "--json", "--as", "support-bot"); !notFoundJSON(out, code) {
		t.Fatalf("cross-tenant get = %q", out)
	}
	// MEMGOV_PRINCIPAL is the default reader.
	env := c.env
	c.env = append(append([]string{}, env...), "MEMGOV_PRINCIPAL=research-agent")
	if out := c.ok("", "get", "globex/research-agent", "lead", "--json"); !strings.Contains(out, "globex lead") {
		t.Fatalf("MEMGOV_PRINCIPAL get = %q", out)
	}
	if out := c.ok("", "list", "acme/billing-agent", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("MEMGOV_PRINCIPAL list = %q", out)
	}
	c.env = env
	// Without a reader, the local owner reads every tenant.
	if out := c.ok("", "get", "globex/research-agent", "lead", "--json"); !strings.Contains(out, "globex lead") {
		t.Fatalf("local owner get = %q", out)
	}
	_, errOut, code := c.run("", "list", "globex/research-agent", "--json", "--as", "nobody")
	if code != exitDenied || strings.Contains(errOut, "Alice") {
		t.Fatalf("unknown principal: exit %d %q", code, errOut)
	}
}

func TestCLISearchForgetDistillConsolidate(t *testing.T) {
	c := newCLI(t)
	c.contractSetup()
	var env struct {
		Hits []struct {
			Entry struct{ ID string } `json:"entry"`
			Score float64             `json:"score"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "search", "acme/billing-agent", "who signs large refunds?", "--json", "--as", "support-bot")), &env); err != nil || len(env.Hits) == 0 || env.Hits[0].Entry.ID != "refund/limit" {
		t.Fatalf("search: %+v %v", env, err)
	}
	if _, _, code := c.run("", "search", "acme/billing-agent", "x", "--as-of", "yesterday"); code != exitUsage {
		t.Fatalf("bad --as-of: exit %d", code)
	}

	dir := t.TempDir()
	out, _, code := c.run("", "distill", "acme/billing-agent", "--budget", "20", "--by", "jane", "--json")
	if code != exitRejected || !strings.Contains(out, "token_budget_exceeded") {
		t.Fatalf("over budget: exit %d %q", code, out)
	}
	idxFile, arch1, arch2 := filepath.Join(dir, "MEMORY-INDEX.json"), filepath.Join(dir, "a1"), filepath.Join(dir, "a2")
	var dr struct {
		TokenBudget, TokensUsed int
		IndexUpdated            bool   `json:"index_updated"`
		ArchiveKey              string `json:"archive_key"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "distill", "acme/billing-agent", "--budget", "120", "--by", "jane", "--out", idxFile, "--archive-out", arch1, "--json")), &dr); err != nil || !dr.IndexUpdated {
		t.Fatalf("distill: %+v %v", dr, err)
	}
	c.ok("", "distill", "acme/billing-agent", "--budget", "120", "--by", "jane", "--archive-out", arch2)
	a1, _ := os.ReadFile(arch1)
	a2, _ := os.ReadFile(arch2)
	if len(a1) == 0 || string(a1) != string(a2) {
		t.Fatalf("archives differ:\n%s\n%s", a1, a2)
	}
	idx, _ := os.ReadFile(idxFile)
	if !strings.Contains(string(idx), `"format":"memgov.memory-index/v1"`) || !strings.Contains(string(idx), dr.ArchiveKey) {
		t.Fatalf("index file: %s", idx)
	}
	if got := c.ok("", "get", "acme/billing-agent", "MEMORY-INDEX.json", "--json"); !strings.Contains(got, "Refunds above 1000") {
		t.Fatalf("index entry: %s", got)
	}

	var fr struct{ Forgotten, Scanned int }
	if err := json.Unmarshal([]byte(c.ok("", "forget", "acme/billing-agent", "--subject", "alice martin", "--by", "jane", "--reason", "gdpr", "--json")), &fr); err != nil || fr.Forgotten != 1 || fr.Scanned != 3 {
		t.Fatalf("forget: %+v %v", fr, err)
	}
	if _, _, code := c.run("", "forget", "acme/billing-agent", "--subject", "x", "--by", "research-agent"); code != exitDenied {
		t.Fatalf("forget by another tenant: exit %d", code)
	}
	if out := c.ok("", "get", "globex/research-agent", "lead", "--json"); !strings.Contains(out, "Alice") {
		t.Fatal("forget crossed tenants")
	}

	// The write path already refuses near-duplicates; the engine tests
	// cover merging. Here: a second pass over an unchanged corpus is a no-op.
	var cr, cr2 struct{ InputCount, OutputCount int }
	json.Unmarshal([]byte(c.ok("", "consolidate", "acme/billing-agent", "--by", "acme-curator", "--json")), &cr)
	if cr.InputCount != 2 || cr.OutputCount > cr.InputCount {
		t.Fatalf("first pass: %+v", cr)
	}
	json.Unmarshal([]byte(c.ok("", "consolidate", "acme/billing-agent", "--by", "acme-curator", "--json")), &cr2)
	if cr2.InputCount != cr.OutputCount || cr2.OutputCount != cr2.InputCount {
		t.Fatalf("second pass: %+v after %+v", cr2, cr)
	}
	if out := c.ok("", "events", "--type", "agent.memory.consolidated", "--json"); strings.Count(out, `"type": "agent.memory.consolidated"`) != 2 {
		t.Fatalf("consolidated events: %s", out)
	}
	if out := c.ok("", "admin", "rebuild", "--json"); !strings.Contains(out, `"differences": []`) {
		t.Fatalf("rebuild: %s", out)
	}
}

func TestCLICommitmentsProposalsEventsCapabilities(t *testing.T) {
	c := newCLI(t)
	c.contractSetup()
	req, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": "follow-up", "target_layer": "EPISODIC",
		"observation_type": "tool_result_verified", "confidence": 0.9,
		"content":       map[string]any{"text": "Follow up with customer 42 about the refund.", "commit_at": "2020-01-01T00:00:00Z"},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://x", "authority": 0.95}}})
	if r := c.write(string(req)); r.Status != "COMMITTED" {
		t.Fatalf("write: %+v", r)
	}
	var tr struct{ Inferred, Fired []string }
	json.Unmarshal([]byte(c.ok("", "commitments", "tick", "acme/billing-agent", "--by", "jane", "--json")), &tr)
	if len(tr.Inferred) != 1 || len(tr.Fired) != 1 {
		t.Fatalf("tick: %+v", tr)
	}
	commitment := tr.Inferred[0]
	json.Unmarshal([]byte(c.ok("", "commitments", "tick", "acme/billing-agent", "--by", "jane", "--json")), &tr)
	if len(tr.Fired) != 0 {
		t.Fatalf("re-fired: %+v", tr)
	}
	c.ok("", "admin", "rebuild")
	var evs []struct {
		Type string
		Data map[string]any
	}
	json.Unmarshal([]byte(c.ok("", "events", "--type", "commitment.fired", "--json")), &evs)
	if len(evs) != 1 || evs[0].Data["commitmentId"] != commitment {
		t.Fatalf("commitment.fired events after rebuild: %+v", evs)
	}
	if out := c.ok("", "commitments", "list", "acme/billing-agent", "--json", "--as", "support-bot"); !strings.Contains(out, `"fired_count": 1`) {
		t.Fatalf("list: %s", out)
	}

	dir := t.TempDir()
	art := filepath.Join(dir, "tpl.json")
	os.WriteFile(art, []byte(`{"template": "Dear {{name}}, your refund is on its way."}`), 0o644)
	var p struct {
		ID, State, ArtifactHash string
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot",
		"--rationale", "seen twice", "--source-run", "run-1", "--json")), &p)
	if p.State != "draft" || p.ID == "" {
		t.Fatalf("create: %+v", p)
	}
	os.WriteFile(art, []byte(`{"template": "Dear {{name}}, your refund of {{amount}} is on its way."}`), 0o644)
	json.Unmarshal([]byte(c.ok("", "proposal", "revise", p.ID, "--file", art, "--by", "support-bot", "--json")), &p)
	if p.State != "revised" {
		t.Fatalf("revise: %+v", p)
	}
	out, _, code := c.run("", "proposal", "apply", p.ID, "--by", "support-bot", "--json")
	if code != exitDenied || !strings.Contains(out, `"status": 403`) {
		t.Fatalf("agent apply: exit %d %s", code, out)
	}
	if out := c.ok("", "proposal", "list", "--as", "research-agent", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("globex lists acme proposals: %s", out)
	}
	var ar struct {
		Status        int
		Activation    string
		InstalledHash string
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "apply", p.ID, "--by", "jane", "--json")), &ar)
	if ar.Status != 200 || ar.Activation != "approval-gate" || ar.InstalledHash != p.ArtifactHash {
		t.Fatalf("apply: %+v (artifact %s)", ar, p.ArtifactHash)
	}
	var show struct {
		Proposal  struct{ State string }
		Revisions []struct{ Revision int }
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "show", p.ID, "--json")), &show)
	if show.Proposal.State != "applied" || len(show.Revisions) != 2 {
		t.Fatalf("show: %+v", show)
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "create", "--kind", "automation", "--file", art, "--by", "support-bot", "--json")), &p)
	// approval-gate is the advertised mode and the only one (M5): the scope
	// holder is refused, a curator applies.
	if out, _, code := c.run("", "proposal", "apply", p.ID, "--by", "deploy-bot", "--json"); code == 0 || !strings.Contains(out, `"status": 403`) {
		t.Fatalf("scope holder under approval-gate: exit %d %s", code, out)
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "apply", p.ID, "--by", "jane", "--json")), &ar)
	if ar.Activation != "approval-gate" {
		t.Fatalf("curator apply: %+v", ar)
	}
	json.Unmarshal([]byte(c.ok("", "proposal", "create", "--kind", "agent-pack", "--file", art, "--by", "support-bot", "--json")), &p)
	c.ok("", "proposal", "reject", p.ID, "--by", "jane", "--note", "no")
	if out := c.ok("", "proposal", "archive", p.ID, "--by", "support-bot", "--json"); !strings.Contains(out, `"state": "archived"`) {
		t.Fatalf("archive: %s", out)
	}
	for _, ev := range []string{"proposal.created", "proposal.activated"} {
		if out := c.ok("", "events", "--type", ev, "--json"); strings.Contains(out, "refund") || strings.Contains(out, "seen twice") {
			t.Fatalf("%s carries content: %s", ev, out)
		}
	}

	var caps struct {
		Dimensions []struct {
			Name      string
			Supported bool
			Tests     []string
		}
	}
	json.Unmarshal([]byte(c.ok("", "capabilities", "--json")), &caps)
	if len(caps.Dimensions) != 8 {
		t.Fatalf("capabilities: %+v", caps)
	}
	for _, d := range caps.Dimensions {
		if !d.Supported || len(d.Tests) == 0 {
			t.Fatalf("dimension %+v", d)
		}
	}

	lines := strings.Split(strings.TrimSpace(c.ok("", "events", "--follow", "--for", "150ms", "--interval", "50ms", "--json", "--as", "support-bot")), "\n")
	if len(lines) < 5 {
		t.Fatalf("follow: %d lines", len(lines))
	}
	for _, l := range lines {
		var ev struct{ MemoryRef string }
		if err := json.Unmarshal([]byte(l), &ev); err != nil || strings.HasPrefix(ev.MemoryRef, "globex/") {
			t.Fatalf("follow line %q", l)
		}
	}
}

func TestCLIContractCommandsHaveHelpWithExample(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"search"}, {"forget"}, {"distill"}, {"consolidate"}, {"commitments"}, {"commitments", "list"},
		{"commitments", "tick"}, {"proposal"}, {"proposal", "create"}, {"proposal", "list"}, {"proposal", "show"}, {"proposal", "revise"},
		{"proposal", "apply"}, {"proposal", "reject"}, {"proposal", "archive"}, {"capabilities"}, {"events"}} {
		out := c.ok("", append(args, "--help")...)
		if !strings.Contains(out, "Examples:") {
			t.Errorf("memgov %s --help has no example", strings.Join(args, " "))
		}
	}
	if out := c.ok("", "list", "--help"); !strings.Contains(out, "--as") || !strings.Contains(out, "MEMGOV_PRINCIPAL") {
		t.Errorf("list --help does not document --as")
	}
}
