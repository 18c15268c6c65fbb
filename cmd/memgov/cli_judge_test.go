package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A write that states a stored fact with two names swapped and one word
// added used to be MERGED into it ("adds together"), so the stored fact
// left the memory agents read. It is a different fact: the write commits
// as its own item, linked NEAR_DUPLICATE to the stored one with the rule
// that told them apart, both stay readable, and the link is in the
// version's history. `memgov judge` shows the same verdict and its chain.
func TestCLIWordSwapIsKeptAndLinked(t *testing.T) {
	c := newCLI(t)
	c.setup()
	const ref = "acme/billing-agent"
	const stored = "Priya is the sister of Dev and the cousin of Anil, and all three grew up in Pune near the old railway station."
	const swapped = "Priya is the sister of Anil and the cousin of Dev, and all three grew up together in Pune near the old railway station."
	first := c.judged(judgeReq("billing-agent", ref, "kin/1", "EPISODIC", stored, 0.9, ""))
	if first.Status != "COMMITTED" {
		t.Fatalf("first write: %+v", first)
	}
	out, errOut, code := c.run(judgeReq("billing-agent", ref, "kin/2", "EPISODIC", swapped, 0.9, ""), "write", "--json")
	if code != 0 {
		t.Fatalf("swapped write: exit %d %s %s", code, out, errOut)
	}
	var res struct {
		Status, Reason, Detail, Gate, Rule, Key string
		ItemID                                  string   `json:"item_id"`
		RuleWords                               []string `json:"rule_words"`
		Related                                 []string
		Links                                   []struct {
			Relation, Key, Text, Rule string
			RuleWords                 []string `json:"rule_words"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if res.Status != "COMMITTED" || res.ItemID == "" || res.ItemID == first.ItemID {
		t.Fatalf("swapped write: %+v, want COMMITTED as its own item", res)
	}
	if len(res.Links) != 1 || res.Links[0].Relation != "NEAR_DUPLICATE" || res.Links[0].Key != "kin/1" || res.Links[0].Text != stored {
		t.Fatalf("links %+v, want one NEAR_DUPLICATE link to kin/1", res.Links)
	}
	if res.Rule != "superset-reordered" || res.Links[0].Rule != res.Rule || !contains(res.RuleWords, "+together") {
		t.Errorf("rule %q words %v (link rule %q), want superset-reordered firing on +together", res.Rule, res.RuleWords, res.Links[0].Rule)
	}
	if !strings.Contains(res.Detail, "[rule superset-reordered") || !contains(res.Related, "kin/1") || res.Gate != "dedup" {
		t.Errorf("detail %q related %v gate %q: the detail must name the rule and the related key", res.Detail, res.Related, res.Gate)
	}
	// Both facts stay readable.
	for key, text := range map[string]string{"kin/1": stored, "kin/2": swapped} {
		if got := c.ok("", "get", ref, key, "--json"); !strings.Contains(got, text) {
			t.Errorf("get %s = %s, want %q", key, got, text)
		}
	}
	// The link and its rule are in the version's history.
	hist := c.ok("", "history", res.ItemID, "--json")
	if !strings.Contains(hist, "near-duplicate of kin/1") || !strings.Contains(hist, "rule superset-reordered") {
		t.Errorf("history does not record the link: %s", hist)
	}

	// memgov judge reads the pair as the gates did, with its chain.
	j := c.ok("", "judge", stored, swapped, "--layer", "EPISODIC")
	for _, want := range []string{"verdict: COMMITTED, linked NEAR_DUPLICATE", "rule:    superset-reordered", "chain:", "decided  superset-reordered (verdict)"} {
		if !strings.Contains(j, want) {
			t.Errorf("memgov judge output lacks %q:\n%s", want, j)
		}
	}
	var rep struct {
		Verdict, Reason, Rule string
		Linked                bool
		Chain                 []struct{ Rule, Role, Family, Doc string }
	}
	if err := json.Unmarshal([]byte(c.ok("", "judge", stored, swapped, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	// In SEMANTIC memory the same pair goes to a person.
	if rep.Verdict != "DEFERRED" || rep.Reason != "SEMANTIC_CONFLICT" || rep.Rule != "superset-reordered" || len(rep.Chain) == 0 {
		t.Fatalf("judge --json in SEMANTIC: %+v", rep)
	}
	last := rep.Chain[len(rep.Chain)-1]
	if last.Rule != rep.Rule || last.Role != "decided" || last.Family != "verdict" || last.Doc == "" {
		t.Errorf("chain %+v does not end with the deciding rule and its doc", rep.Chain)
	}
	// A role swap in a relative clause fires the role-swap rule first.
	j = c.ok("", "judge", "Mara was married to Jon, who ran the bakery on Elm Street.", "Jon was married to Mara, who ran the bakery on Elm Street.", "--layer", "EPISODIC")
	if !strings.Contains(j, "role-swap (difference)") || strings.Contains(j, "MERGED") || strings.Contains(j, "REJECTED") {
		t.Errorf("relative-clause swap:\n%s", j)
	}
	// The same claims reworded are still a duplicate, by a named rule.
	j = c.ok("", "judge", "Dana's manager is Priya.", "Priya is Dana's manager.")
	if !strings.Contains(j, "verdict: REJECTED") || !strings.Contains(j, "same-") {
		t.Errorf("copula both ways round:\n%s", j)
	}
	if rules := c.ok("", "judge", "--rules"); !strings.Contains(rules, "role-swap") || !strings.Contains(rules, "single-valued") {
		t.Errorf("judge --rules:\n%s", rules)
	}
	if _, errOut, code := c.run("", "judge", "only one text"); code != 2 || !strings.Contains(errOut, "give the stored text and the write") {
		t.Errorf("one text: exit %d %q, want a usage error", code, errOut)
	}
	if _, errOut, code := c.run("", "judge", "a", "b", "--layer", "WORKING"); code != 2 || !strings.Contains(errOut, "durable layer") {
		t.Errorf("--layer WORKING: exit %d %q, want a usage error", code, errOut)
	}
}

// `memgov bench gates --trace` writes, for each record, the rule that
// decided its write and the words that fired it, and --json counts the
// outcomes per rule.
func TestCLIBenchGatesTraceNamesRules(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	corpus := dir + "/pairs.jsonl"
	recs := []map[string]string{
		{"kind": "duplicate", "a": "Priya is the sister of Dev and the cousin of Anil.", "b": "Priya is the sister of Anil and the cousin of Dev.", "label": "distinct"},
		{"kind": "duplicate", "a": "Dana's manager is Priya.", "b": "Priya is Dana's manager.", "label": "duplicate"},
	}
	var lines []string
	for _, r := range recs {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	if err := os.WriteFile(corpus, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := dir + "/trace.jsonl"
	out := c.ok("", "bench", "gates", "--corpus", corpus, "--layer", "EPISODIC", "--trace", trace, "--json", "--dir", dir)
	var rep struct {
		ByRule         map[string]map[string]map[string]int `json:"by_rule"`
		DistinctLinked float64                              `json:"distinct_linked"`
		DuplicateFound float64                              `json:"duplicate_found"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	// In EPISODIC memory the duplicate is another episode, linked to the
	// first by repeats-event (REJECTED by same-words in SEMANTIC memory).
	if rep.ByRule["reordered"]["distinct"]["COMMITTED linked"] != 1 || rep.ByRule["repeats-event"]["duplicate"]["COMMITTED linked"] != 1 {
		t.Errorf("by_rule = %v", rep.ByRule)
	}
	if rep.DistinctLinked != 1 || rep.DuplicateFound != 1 {
		t.Errorf("distinct_linked %v duplicate_found %v, want 1 and 1", rep.DistinctLinked, rep.DuplicateFound)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	tl := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(tl) != 2 {
		t.Fatalf("trace has %d lines, want 2:\n%s", len(tl), b)
	}
	var first struct {
		Outcome struct {
			Status, Rule string
			RuleWords    []string `json:"rule_words"`
			Linked       []string
		}
	}
	if err := json.Unmarshal([]byte(tl[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Outcome.Status != "COMMITTED" || first.Outcome.Rule != "reordered" || len(first.Outcome.RuleWords) == 0 || len(first.Outcome.Linked) != 1 {
		t.Errorf("trace of the word swap: %+v", first.Outcome)
	}
}
