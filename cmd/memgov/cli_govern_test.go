package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func entryIDs(t *testing.T, out string) map[string]bool {
	t.Helper()
	var es []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &es); err != nil {
		t.Fatalf("list output %q: %v", out, err)
	}
	m := map[string]bool{}
	for _, e := range es {
		m[e.ID] = true
	}
	return m
}

func TestCLILeaseAnnotateReclassifyExpire(t *testing.T) {
	c := newCLI(t)
	c.setup()
	r := c.write(writeReq("billing-agent", "acme/shared", "window", "The deploy window opens on Tuesdays at 10:00 UTC."))
	if r.Status != "COMMITTED" {
		t.Fatalf("%+v", r)
	}
	for _, cmd := range []string{"lease", "lease acquire", "annotate", "reclassify", "expire", "promote"} {
		out := c.ok("", append(strings.Fields(cmd), "--help")...)
		if !strings.Contains(out, "Examples:") {
			t.Fatalf("%s --help has no example:\n%s", cmd, out)
		}
	}
	// Leases: grant, denial for another holder, renewal, release.
	out := c.ok("", "lease", "acquire", "acme/shared", "window", "--by", "billing-agent", "--ttl", "60s", "--json")
	var g struct {
		Status string
		Lease  struct {
			Token int64 `json:"fencing_token"`
		}
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil || g.Status != "GRANTED" || g.Lease.Token != 1 {
		t.Fatalf("acquire: %s %v", out, err)
	}
	if _, errOut, code := c.run("", "lease", "acquire", "acme/shared", "window", "--by", "jane"); code != exitDeferred || !strings.Contains(errOut, "billing-agent holds the lease") {
		t.Fatalf("second holder: exit %d %s", code, errOut)
	}
	if _, _, code := c.run("", "lease", "renew", "acme/shared", "window", "--by", "billing-agent"); code != exitUsage {
		t.Fatalf("renew without a token: exit %d", code)
	}
	c.ok("", "lease", "renew", "acme/shared", "window", "--by", "billing-agent", "--token", "1")
	c.ok("", "lease", "release", "acme/shared", "window", "--by", "billing-agent", "--token", "1")
	if out := c.ok("", "lease", "acquire", "acme/shared", "window", "--by", "jane", "--json"); !strings.Contains(out, `"fencing_token": 2`) {
		t.Fatalf("token after release: %s", out)
	}
	c.ok("", "lease", "release", "acme/shared", "window", "--by", "jane", "--token", "2")

	// Annotate, reclassify, expire: one log entry each.
	if _, _, code := c.run("", "annotate", r.ItemID, "--by", "policy-verifier"); code != exitUsage {
		t.Fatalf("annotate without a note: exit %d", code)
	}
	c.ok("", "annotate", r.ItemID, "--by", "policy-verifier", "--note", "checked against the change calendar")
	if _, _, code := c.run("", "reclassify", r.ItemID, "--layer", "BOGUS", "--by", "jane", "--reason", "x"); code != exitUsage {
		t.Fatalf("bad layer: exit %d", code)
	}
	c.ok("", "reclassify", r.ItemID, "--layer", "semantic", "--by", "jane", "--reason", "a confirmed fact, not an episode")
	if out := c.ok("", "get", "acme/shared", "window", "--full"); jsonField(out, "layer") != "SEMANTIC" {
		t.Fatalf("reclassified: %s", out)
	}
	if _, _, code := c.run("", "expire", r.ItemID, "--by", "support-bot", "--reason", "no right"); code == 0 {
		t.Fatal("an executor expired semantic memory")
	}
	c.ok("", "expire", r.ItemID, "--by", "jane", "--reason", "the window moved")
	if out := c.ok("", "list", "acme/shared", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("after expire: %s", out)
	}
	if out := c.ok("", "history", r.ItemID); !strings.Contains(out, "EXPIRED") {
		t.Fatalf("history: %s", out)
	}
	if out := c.ok("", "admin", "rebuild"); !strings.Contains(out, "no differences") {
		t.Fatalf("rebuild: %s", out)
	}
}

// One read rule: list --as goes through the MemoryAdapter, which applies
// visible(a, m) of spec §12.8.5 exactly as a principal's read (Host().Read) does.
func TestCLIListAsAppliesVisibility(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.ok("", "principal", "add", "--id", "med-bot", "--role", "orchestrator", "--tenant", "acme", "--attr", "domains=medical")
	plain := c.write(writeReq("billing-agent", "acme/shared", "plain", "Invoices are sent on the first business day."))
	req := map[string]any{}
	_ = json.Unmarshal([]byte(writeReq("billing-agent", "acme/shared", "medical", "Ward 4 restocks saline on Mondays.")), &req)
	req["tags"] = []string{"domain:medical"}
	b, _ := json.Marshal(req)
	med := c.write(string(b))
	if plain.Status != "COMMITTED" || med.Status != "COMMITTED" {
		t.Fatalf("%+v %+v", plain, med)
	}
	fact := c.write(writeReq("jane", "acme/shared", "fact", "The finance team closes the books on the fifth."))
	c.ok("", "reclassify", fact.ItemID, "--layer", "SEMANTIC", "--by", "jane", "--reason", "a fact")

	all := entryIDs(t, c.ok("", "list", "acme/shared", "--json"))
	if len(all) != 3 {
		t.Fatalf("local owner: %v", all)
	}
	// billing-agent has no domains: undomained memory only.
	if got := entryIDs(t, c.ok("", "list", "acme/shared", "--as", "billing-agent", "--json")); len(got) != 2 || got["medical"] {
		t.Fatalf("billing-agent: %v", got)
	}
	if got := entryIDs(t, c.ok("", "list", "acme/shared", "--as", "med-bot", "--json")); len(got) != 3 {
		t.Fatalf("med-bot: %v", got)
	}
	// An executor reads episodic memory but not semantic (spec §12.8.2).
	if got := entryIDs(t, c.ok("", "list", "acme/shared", "--as", "support-bot", "--json")); got["fact"] || !got["plain"] || got["medical"] {
		t.Fatalf("support-bot: %v", got)
	}
	if out, _, code := c.run("", "get", "acme/shared", "medical", "--as", "billing-agent", "--json"); !notFoundJSON(out, code) {
		t.Fatalf("get across domains: %s", out)
	}
}

func TestCLIWorkspaceAndPromote(t *testing.T) {
	c := newCLI(t)
	c.setup()
	c.write(writeReq("jane", "acme/shared", "rate", "The standard shipping rate is 5 euros."))
	out := c.ok("", "workspace", "create", "acme/shared", "--agent", "billing-agent", "--name", "q3", "--json")
	id, ref := jsonField(out, "id"), jsonField(out, "ref")
	if id == "" || ref != "acme/billing-agent/ws/q3" {
		t.Fatalf("create: %s", out)
	}
	if w := c.write(writeReq("billing-agent", ref, "rate", "The standard shipping rate is 6 euros from July.")); w.Status != "COMMITTED" {
		t.Fatalf("workspace write: %+v", w)
	}
	if got := entryIDs(t, c.ok("", "list", ref, "--as", "billing-agent", "--json")); !got["rate"] || len(got) != 1 {
		t.Fatalf("workspace view: %v", got)
	}
	if out := c.ok("", "workspace", "show", id); !strings.Contains(out, "CHANGED") {
		t.Fatalf("show: %s", out)
	}
	if out := c.ok("", "workspace", "list", "--tenant", "acme"); !strings.Contains(out, "q3") {
		t.Fatalf("list: %s", out)
	}
	if _, _, code := c.run("", "workspace", "submit", id, "--agent", "support-bot"); code != exitDenied {
		t.Fatalf("submit by another agent: exit %d", code)
	}
	out = c.ok("", "workspace", "submit", id, "--agent", "billing-agent", "--json")
	var mr struct {
		Changes []struct {
			Key, Kind string
			ReviewID  string `json:"review_id"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &mr); err != nil || len(mr.Changes) != 1 || mr.Changes[0].Kind != "CHANGED" || mr.Changes[0].ReviewID == "" {
		t.Fatalf("submit: %s %v", out, err)
	}
	if out := c.ok("", "review", "list", "--json"); !strings.Contains(out, mr.Changes[0].ReviewID) || !strings.Contains(out, "WORKSPACE_MERGE") {
		t.Fatalf("queue: %s", out)
	}
	c.ok("", "review", "approve", mr.Changes[0].ReviewID, "--by", "jane")
	if out := c.ok("", "get", "acme/shared", "rate"); !strings.Contains(out, "6 euros") {
		t.Fatalf("merged: %s", out)
	}
	if out := c.ok("", "workspace", "show", id, "--json"); !strings.Contains(out, `"MERGED"`) {
		t.Fatalf("status: %s", out)
	}
	if out := c.ok("", "promote", "acme/shared", "--by", "jane", "--dry-run", "--json"); !strings.Contains(out, `"dry_run": true`) {
		t.Fatalf("promote: %s", out)
	}
	if out := c.ok("", "admin", "rebuild"); !strings.Contains(out, "no differences") {
		t.Fatalf("rebuild: %s", out)
	}
}
