package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command speaks one vocabulary: --json on every command (but those in
// noJSON, each with its reason), --reason for why a person acts (--note only
// as its hidden older name, or as an annotation's text), --by for who acts
// and --as for who reads.
func TestCLIOneVocabulary(t *testing.T) {
	a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	root := a.rootCommand()
	for path := range noJSON {
		if path == "memgov" {
			continue
		}
		if c, _, err := root.Find(strings.Fields(path)); err != nil || c == root {
			t.Errorf("noJSON names %q, which is not a command", path)
		}
	}
	reads := regexp.MustCompile(`(?i)\bread|\blist`)
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			walk(s)
		}
		if !c.Runnable() {
			return
		}
		n++
		path := strings.TrimPrefix(c.CommandPath(), "memgov ")
		f := c.Flags()
		if _, ok := noJSON[path]; !ok && f.Lookup("json") == nil {
			t.Errorf("memgov %s has no --json", path)
		}
		if note := f.Lookup("note"); note != nil && path != "annotate" {
			if r := f.Lookup("reason"); r == nil || !note.Hidden {
				t.Errorf("memgov %s takes --note: it takes --reason, with --note as a hidden alias", path)
			}
		}
		if by := f.Lookup("by"); by != nil && !by.Hidden && strings.Contains(by.Usage, " as this principal") {
			t.Errorf("memgov %s reads with --by (%q): readers are named with --as", path, by.Usage)
		}
		// the console's --as names the person at it, who reads and decides
		if as := f.Lookup("as"); as != nil && path != "tui" && !reads.MatchString(as.Usage) {
			t.Errorf("memgov %s: --as (%q) does not say it names the reader", path, as.Usage)
		}
	}
	walk(root)
	if n < 80 {
		t.Fatalf("walked %d commands; the walk is broken", n)
	}
	if !strings.Contains(root.Long, "--by") || !strings.Contains(root.Long, "--as") || !strings.Contains(root.Long, "--reason") {
		t.Errorf("memgov --help does not state the --by/--as/--reason story:\n%s", root.Long)
	}
}

// --note still works where it was published, as --reason does.
func TestCLINoteIsReason(t *testing.T) {
	c := newCLI(t)
	c.setup()
	ids := map[string]string{}
	for _, k := range []string{"a", "b"} {
		out, _, code := c.run(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"`+k+`","target_layer":"EPISODIC",
			"observation_type":"user_stated_preference","content":{"text":"Customer `+k+` prefers email."},
			"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://s-1","authority":1}]}`, "write", "--json", "--no-wait")
		if code != exitDeferred {
			t.Fatalf("write %s: exit %d %s", k, code, out)
		}
		ids[k] = decode[map[string]any](t, out)["review_id"].(string)
	}
	r := decode[map[string]any](t, c.ok("", "review", "reject", ids["a"], "--by", "jane", "--code", "OTHER", "--note", "old name", "--json"))
	if r["note"] != "old name" {
		t.Errorf("reject --note: %v", r)
	}
	r = decode[map[string]any](t, c.ok("", "review", "reject", ids["b"], "--by", "jane", "--code", "OTHER", "--reason", "new name", "--json"))
	if r["note"] != "new name" {
		t.Errorf("reject --reason: %v", r)
	}
	if _, errOut, code := c.run("", "review", "reject", ids["b"], "--by", "jane", "--code", "OTHER"); code == 0 || !strings.Contains(errOut, "note") && !strings.Contains(errOut, "reason") {
		t.Errorf("reject without a reason: exit %d %s", code, errOut)
	}
}

// Times are RFC 3339 UTC, and JSON carries no zero time: a review nobody
// claimed has no claim_expires.
func TestCLIReviewTimes(t *testing.T) {
	c := newCLI(t)
	c.setup()
	out, _, code := c.run(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"k","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","content":{"text":"Customer 7 prefers email."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://s-1","authority":1}]}`, "write", "--json", "--no-wait")
	if code != exitDeferred {
		t.Fatalf("write: exit %d %s", code, out)
	}
	id := decode[map[string]any](t, out)["review_id"].(string)
	list := c.ok("", "review", "list", "--json")
	if strings.Contains(list, "claim_expires") || strings.Contains(list, "0001-01-01") {
		t.Errorf("an unclaimed review carries a claim time: %s", list)
	}
	claimed := c.ok("", "review", "claim", id, "--by", "jane")
	if !regexp.MustCompile(`until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ;`).MatchString(claimed) {
		t.Errorf("claim does not print an RFC 3339 UTC time: %q", claimed)
	}
	if list := c.ok("", "review", "list", "--json"); !regexp.MustCompile(`"claim_expires": "\d{4}-\d\d-\d\dT[0-9:.]+Z"`).MatchString(list) {
		t.Errorf("a claimed review has no claim_expires: %s", list)
	}
}

// history takes the memoryRef and key that get takes, or the item id.
func TestCLIHistoryByKey(t *testing.T) {
	c := newCLI(t)
	c.setup()
	out, _, code := c.run(`{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"limit","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","content":{"text":"The refund limit is 500 EUR."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://s-2","authority":1}]}`, "write", "--json")
	if code != 0 {
		t.Fatalf("write: exit %d %s", code, out)
	}
	item := decode[map[string]any](t, out)["item_id"].(string)
	byKey := c.ok("", "history", "acme/billing-agent", "limit", "--json")
	if byID := c.ok("", "history", item, "--json"); byKey != byID || !strings.Contains(byKey, item) {
		t.Errorf("history REF KEY:\n%s\nhistory ITEM_ID:\n%s", byKey, byID)
	}
	if _, errOut, code := c.run("", "history", "acme/billing-agent", "nope"); code != exitError || !strings.Contains(errOut, "not found") {
		t.Errorf("history of an unknown key: exit %d %s", code, errOut)
	}
	pin := decode[map[string]any](t, c.ok("", "pin", item, "--by", "jane", "--json"))
	if pin["item_id"] != item || pin["pinned"] != true || pin["lsn"] == nil {
		t.Errorf("pin --json: %v", pin)
	}
}
