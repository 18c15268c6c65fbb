package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataset writes a dataset directory holding story.jsonl (and policy.yaml
// when policy is not empty).
func dataset(t *testing.T, policy string, lines ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "story.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if policy != "" {
		if err := os.WriteFile(filepath.Join(dir, "policy.yaml"), []byte(policy), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var seedPeople = []string{
	`{"op":"start","ago":"2d"}`,
	`{"op":"principal","id":"support-bot","role":"executor","tenant":"acme"}`,
	`{"op":"principal","id":"jane","role":"curator","tenant":"*"}`,
	`{"op":"write","request":{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang","target_layer":"EPISODIC","observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"Customer 7 wants invoices in German."},"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]},"expect":"DEFERRED"}`,
	`{"op":"advance","by":"1h"}`,
}

// TestCLISeedDir loads a dataset directory through the engine and the review
// service, installing its policy beside the database.
func TestCLISeedDir(t *testing.T) {
	c := newCLI(t)
	dir := dataset(t, "baseline:\n  delta_budget: 5\n", append(seedPeople,
		`{"op":"decide","ref":"acme/support-bot","key":"c7/lang","by":"jane","approve":true,"note":"the customer said so"}`,
		`{"op":"clock","to":"end"}`)...)
	out := c.ok("", "seed", dir)
	if !strings.Contains(out, "loaded 7 steps, 1 writes") {
		t.Fatalf("seed: %s", out)
	}
	if out := c.ok("", "get", "acme/support-bot", "c7/lang", "--json"); !strings.Contains(out, "German") {
		t.Fatalf("the approved write: %s", out)
	}
	if out := c.ok("", "policy", "show"); !strings.Contains(out, "delta_budget: 5") {
		t.Fatalf("the dataset's policy is not in effect: %s", out)
	}
	if _, errOut, code := c.run("", "seed", filepath.Join(dir, "story.jsonl")); code != exitUsage || !strings.Contains(errOut, "not a dataset directory") {
		t.Fatalf("seed FILE: exit %d %s", code, errOut)
	}
}

// TestCLISeedKeepsReviewRules: a dataset's decisions follow the review rules
// the CLI and the TUI follow; a rejection without a note stops the load at
// its line, and the review stays open.
func TestCLISeedKeepsReviewRules(t *testing.T) {
	c := newCLI(t)
	dir := dataset(t, "", append(seedPeople,
		`{"op":"decide","ref":"acme/support-bot","key":"c7/lang","by":"jane","approve":false,"code":"FACTUAL_ERROR"}`)...)
	_, errOut, code := c.run("", "seed", dir)
	if code != exitError || !strings.Contains(errOut, "line 6 (decide)") || !strings.Contains(errOut, "needs a note") {
		t.Fatalf("seed: exit %d %s", code, errOut)
	}
	if out := c.ok("", "review", "list", "--json"); !strings.Contains(out, `"total": 1`) {
		t.Fatalf("the review was decided: %s", out)
	}
	dir = dataset(t, "", `{"op":"tamper","ref":"acme/x","key":"k","text":"edited"}`)
	if _, errOut, code := c.run("", "seed", dir); code != exitError || !strings.Contains(errOut, `unknown step "tamper"`) {
		t.Fatalf("a tamper step: exit %d %s", code, errOut)
	}
}
