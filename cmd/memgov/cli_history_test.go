package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCLIHistoryNamesTheApprover: history shows who wrote a version and who
// approved it, as a column and as approved_by in JSON.
func TestCLIHistoryNamesTheApprover(t *testing.T) {
	c := newCLI(t)
	c.setup()
	r := c.write(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang","target_layer":"EPISODIC",
		"observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"Customer 7 wants invoices in German."},
		"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]}`)
	if r.Status != "DEFERRED" {
		t.Fatalf("%+v", r)
	}
	before := c.ok("", "history", r.ItemID)
	if !strings.Contains(before, "APPROVED BY") || strings.Contains(before, "jane") {
		t.Fatalf("history before approval: %s", before)
	}
	c.ok("", "review", "approve", r.ReviewID, "--by", "jane", "--note", "confirmed")
	out := c.ok("", "history", r.ItemID)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	row := lines[len(lines)-1]
	if !strings.Contains(row, "support-bot") || !strings.Contains(row, "jane") {
		t.Fatalf("history row names author and approver: %s", out)
	}
	var h struct {
		Versions []struct {
			CreatedBy  string `json:"created_by"`
			ApprovedBy string `json:"approved_by"`
		} `json:"versions"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "history", r.ItemID, "--json")), &h); err != nil {
		t.Fatal(err)
	}
	if len(h.Versions) != 1 || h.Versions[0].ApprovedBy != "jane" {
		t.Fatalf("approved_by: %+v", h.Versions)
	}
}
