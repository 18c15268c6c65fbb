package main

import (
	"strings"
	"testing"
)

// TestCLISearchFindsWordsInTheText: after "Customer 7 is in the
// Europe/Berlin time zone." is committed, `memgov search` for "time zone",
// "zone" or "Berlin" finds it first, among entries that are newer and share
// other words; the exact text ranks it first too.
func TestCLISearchFindsWordsInTheText(t *testing.T) {
	c := newCLI(t)
	c.setup()
	const ref = "acme/billing-agent"
	if r := c.write(writeReq("billing-agent", ref, "customer-7/tz", "Customer 7 is in the Europe/Berlin time zone.")); r.Status != "COMMITTED" {
		t.Fatalf("write: %+v", r)
	}
	for i, text := range []string{"Customer 7 prefers email follow-up after every refund.", "Customer 8 asked for the invoice in euros.",
		"Customer 7 renewed the contract in March.", "The support desk is open from nine to five."} {
		if r := c.write(writeReq("billing-agent", ref, "note-"+string(rune('a'+i)), text)); r.Status != "COMMITTED" {
			t.Fatalf("write %q: %+v", text, r)
		}
	}
	for _, q := range []string{"time zone", "zone", "Berlin", "which time zone is customer 7 in?", "Customer 7 is in the Europe/Berlin time zone."} {
		out := c.ok("", "search", ref, q, "--as", "support-bot")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 || !strings.Contains(lines[1], "customer-7/tz") {
			t.Errorf("search %q: the entry is not the first hit:\n%s", q, out)
		}
		if out := c.ok("", "search", ref, q, "--json", "--as", "support-bot"); !strings.Contains(out, `"customer-7/tz"`) {
			t.Errorf("search %q --json: %s", q, out)
		}
	}
	// Another tenant's reader finds nothing.
	if out := c.ok("", "search", ref, "time zone", "--json", "--as", "research-agent"); strings.Contains(out, "customer-7/tz") {
		t.Errorf("another tenant's reader found the entry: %s", out)
	}
}
