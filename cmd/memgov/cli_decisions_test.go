package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI's decision commands go through the review service: the rules the
// TUI applies hold on the command line too. Each refusal below exits with
// its code, says why, and logs nothing.

// logSize is the number of entries in the log.
func (c *cli) logSize() int64 {
	c.t.Helper()
	var r struct {
		TreeSize int64 `json:"tree_size"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "audit", "root")), &r); err != nil {
		c.t.Fatal(err)
	}
	return r.TreeSize
}

// refused runs a decision that must be refused with exit code and a message
// containing want, and checks that the log did not grow.
func (c *cli) refused(code int, want string, args ...string) {
	c.t.Helper()
	before := c.logSize()
	_, errOut, got := c.run("", args...)
	if got != code || !strings.Contains(errOut, want) {
		c.t.Errorf("memgov %s: exit %d %q, want exit %d and %q", strings.Join(args, " "), got, errOut, code, want)
	}
	if after := c.logSize(); after != before {
		c.t.Errorf("memgov %s was refused but the log grew from %d to %d entries", strings.Join(args, " "), before, after)
	}
}

// decisionsSetup adds an on-call operator and a curator of globex only to the
// usual principals.
func (c *cli) decisionsSetup() {
	c.t.Helper()
	c.setup()
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	c.ok("", "principal", "add", "--id", "globex-cur", "--role", "curator", "--tenant", "globex")
	c.ok("", "principal", "add", "--id", "kim", "--role", "curator", "--tenant", "acme")
}

func (c *cli) deferred(key, text string) result {
	c.t.Helper()
	r := c.write(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"` + key + `","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"` + text + `"},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`)
	if r.Status != "DEFERRED" || r.ReviewID == "" {
		c.t.Fatalf("want a deferred write: %+v", r)
	}
	return r
}

func TestCLIReviewDecisionRules(t *testing.T) {
	c := newCLI(t)
	c.decisionsSetup()
	r := c.deferred("c7/lang", "Customer 7 wants invoices in German.")

	// reject: a code and a note, as in the TUI.
	c.refused(exitUsage, "needs a note", "review", "reject", r.ReviewID, "--by", "jane", "--code", "FACTUAL_ERROR")
	c.refused(exitUsage, "needs a note", "review", "reject", r.ReviewID, "--by", "jane", "--code", "FACTUAL_ERROR", "--note", "  ")
	c.refused(exitUsage, "reason code", "review", "reject", r.ReviewID, "--by", "jane", "--code", "BECAUSE", "--note", "no")
	// approve: only curators memgov knows decide.
	c.refused(exitError, "not a registered principal", "review", "approve", r.ReviewID, "--by", "mallory")
	c.refused(exitError, "only curators decide reviews", "review", "approve", r.ReviewID, "--by", "oncall")
	// claim, escalate, release: curators only.
	c.refused(exitError, "only curators decide reviews", "review", "claim", r.ReviewID, "--by", "oncall")
	c.refused(exitError, "only curators", "review", "escalate", r.ReviewID, "--by", "support-bot", "--note", "mine")
	c.refused(exitError, "only curators", "review", "release", r.ReviewID, "--by", "support-bot")

	// release without a claim logs nothing; with one, a RELEASE entry.
	before := c.logSize()
	if out := c.ok("", "review", "release", r.ReviewID, "--by", "jane", "--json"); !strings.Contains(out, `"released": false`) {
		t.Fatalf("release without a claim: %s", out)
	}
	if c.logSize() != before {
		t.Fatal("a release without a claim was logged")
	}
	var claimed struct {
		Token int64 `json:"claim_token"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "review", "claim", r.ReviewID, "--by", "jane", "--json")), &claimed); err != nil || claimed.Token == 0 {
		t.Fatalf("claim: %+v %v", claimed, err)
	}
	c.refused(exitError, "jane holds the claim", "review", "approve", r.ReviewID, "--by", "kim", "--note", "x")
	if out := c.ok("", "review", "release", r.ReviewID, "--by", "jane"); !strings.Contains(out, "released your claim") {
		t.Fatalf("release: %s", out)
	}
	if c.logSize() != before+2 {
		t.Fatalf("claim and release: log grew by %d, want 2", c.logSize()-before)
	}
	c.ok("", "review", "escalate", r.ReviewID, "--by", "jane", "--note", "needs the account owner")
	c.ok("", "review", "reject", r.ReviewID, "--by", "jane", "--code", "FACTUAL_ERROR", "--note", "the customer writes in French")
	c.refused(exitError, "already rejected", "review", "approve", r.ReviewID, "--by", "jane")
}

func TestCLIMemoryDecisionRules(t *testing.T) {
	c := newCLI(t)
	c.decisionsSetup()
	r1 := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $1,000 need no second signature."))
	r2 := c.write(writeReq("billing-agent", "acme/billing-agent", "refund/limit", "Refunds up to $50,000 need no second signature."))
	if r1.Status != "COMMITTED" || r2.Status != "COMMITTED" {
		t.Fatalf("writes: %+v %+v", r1, r2)
	}

	// rollback: a person who governs the tenant, and a reason.
	c.refused(exitUsage, "needs a reason", "rollback", r2.VersionID, "--by", "jane", "--reason", " ")
	c.refused(exitError, "only curators and operators decide", "rollback", r2.VersionID, "--by", "billing-agent", "--reason", "mine")
	c.refused(exitError, "governs tenant globex, not another tenant", "rollback", r2.VersionID, "--by", "globex-cur", "--reason", "x")
	c.ok("", "rollback", r2.VersionID, "--by", "oncall", "--reason", "limit raised without approval")

	// pin and unpin: people only; agents no longer pin their own memory.
	c.refused(exitError, "only curators and operators decide", "pin", r1.ItemID, "--by", "billing-agent")
	c.refused(exitError, "governs tenant globex", "pin", r1.ItemID, "--by", "globex-cur")
	c.ok("", "pin", r1.ItemID, "--by", "jane")
	c.refused(exitError, "only curators and operators decide", "unpin", r1.ItemID, "--by", "support-bot")
	c.refused(exitError, "already pinned", "pin", r1.ItemID, "--by", "jane")
	c.ok("", "unpin", r1.ItemID, "--by", "jane", "--reason", "no longer load-bearing")

	// expire and reclassify: a reason, a person governing the tenant.
	c.refused(exitUsage, "needs a reason", "expire", r1.ItemID, "--by", "jane", "--reason", " ")
	c.refused(exitDenied, "governs tenant globex", "expire", r1.ItemID, "--by", "globex-cur", "--reason", "x")
	c.refused(exitUsage, "needs a reason", "reclassify", r1.ItemID, "--layer", "semantic", "--by", "jane", "--reason", " ")
	c.refused(exitDenied, "only curators and operators decide", "reclassify", r1.ItemID, "--layer", "semantic", "--by", "billing-agent", "--reason", "x")
	c.ok("", "reclassify", r1.ItemID, "--layer", "semantic", "--by", "oncall", "--reason", "a standing rule, not an episode")

	// annotate: verifiers annotate too, within their tenant, with a note.
	c.refused(exitUsage, "needs a note", "annotate", r1.ItemID, "--by", "policy-verifier", "--note", " ")
	c.refused(exitDenied, "another tenant", "annotate", r1.ItemID, "--by", "globex-cur", "--note", "x")
	c.refused(exitDenied, "not a registered principal", "annotate", r1.ItemID, "--by", "mallory", "--note", "x")
	c.ok("", "annotate", r1.ItemID, "--by", "policy-verifier", "--note", "checked against the ERP")
	c.ok("", "expire", r1.ItemID, "--by", "oncall", "--reason", "superseded by the new refund policy")
}

func TestCLIBaselineAndDriftDecisionRules(t *testing.T) {
	c := newCLI(t)
	c.decisionsSetup()
	ref := "acme/billing-agent"
	if r := c.write(writeReq("billing-agent", ref, "refund/limit", "Refunds up to $1,000 need no second signature.")); r.Status != "COMMITTED" {
		t.Fatalf("write: %+v", r)
	}
	approve := []string{"baseline", "approve", ref, "--type", "persistent", "--ttl", "2592000", "--policy", "alert-on-drift", "--level", "1"}
	c.refused(exitError, "only an operator or a curator approves baselines", append(approve, "--by", "billing-agent")...)
	c.refused(exitError, "governs tenant globex", append(approve, "--by", "globex-cur")...)
	c.ok("", append(approve, "--by", "oncall")...)

	// Drift from governed change: more changes than the baseline's delta
	// budget (the policy beside the database makes it 1).
	if err := os.WriteFile(c.db+".policy.yaml", []byte("baseline:\n  delta_budget: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.ok("", append(approve, "--by", "oncall")...)
	for i, text := range []string{"Refunds up to $2,000 need no second signature.", "Refunds up to $3,000 need no second signature."} {
		if r := c.write(writeReq("billing-agent", ref, "refund/limit", text)); r.Status != "COMMITTED" {
			t.Fatalf("write %d: %+v", i, r)
		}
	}
	var v struct {
		Drift   bool   `json:"drift"`
		DriftID string `json:"drift_id"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "verify", ref, "--json")), &v); err != nil || !v.Drift || v.DriftID == "" {
		t.Fatalf("verify: %+v %v", v, err)
	}
	c.refused(exitError, "only an operator or a curator acknowledges drift", "drift", "ack", v.DriftID, "--by", "support-bot", "--resolve", "rollback")
	c.refused(exitError, "governs tenant globex", "drift", "ack", v.DriftID, "--by", "globex-cur", "--resolve", "rollback")
	c.refused(exitError, "not a registered principal", "drift", "ack", v.DriftID, "--by", "mallory", "--resolve", "reapprove")
	c.ok("", "drift", "ack", v.DriftID, "--by", "oncall", "--resolve", "rollback", "--note", "two raises in an hour")
	if out := c.ok("", "get", ref, "refund/limit", "--json"); !strings.Contains(out, "$1,000") {
		t.Fatalf("after rolling back to the baseline: %s", out)
	}
}

func TestCLIProposalDecisionRules(t *testing.T) {
	c := newCLI(t)
	c.decisionsSetup()
	art := filepath.Join(t.TempDir(), "tpl.json")
	if err := os.WriteFile(art, []byte(`{"template": "Dear {{name}}, your refund is on its way."}`), 0o600); err != nil {
		t.Fatal(err)
	}
	create := func() string {
		var p struct{ ID string }
		if err := json.Unmarshal([]byte(c.ok("", "proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot", "--json")), &p); err != nil || p.ID == "" {
			t.Fatalf("create: %+v %v", p, err)
		}
		return p.ID
	}
	id := create()
	c.refused(exitDenied, "only curators and operators reject proposals", "proposal", "reject", id, "--by", "billing-agent", "--note", "no")
	c.refused(exitError, "not found", "proposal", "reject", id, "--by", "globex-cur", "--note", "no") // another tenant's proposal is not there
	c.refused(exitDenied, "only the owner, curators and operators archive", "proposal", "archive", id, "--by", "billing-agent")
	c.refused(exitDenied, "not a registered principal", "proposal", "apply", id, "--by", "mallory")
	c.ok("", "proposal", "apply", id, "--by", "jane")
	c.refused(exitRejected, "only draft, revised or rejected proposals can be archived", "proposal", "archive", id, "--by", "jane")
	c.refused(exitRejected, "only draft or revised proposals can be rejected", "proposal", "reject", id, "--by", "oncall", "--note", "late")

	id = create()
	c.ok("", "proposal", "reject", id, "--by", "oncall", "--note", "too broad")
	c.refused(exitRejected, "only draft or revised proposals can be applied", "proposal", "apply", id, "--by", "jane")
	if out := c.ok("", "proposal", "archive", id, "--by", "support-bot", "--json"); !strings.Contains(out, `"state": "archived"`) {
		t.Fatalf("the owner archives: %s", out)
	}
}
