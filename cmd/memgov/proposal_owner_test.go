package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProposalOwnerIsWrittenLikeTheTUI: proposal list and show write an
// owner as tenant/principal, the form the TUI's Proposals screen uses.
func TestProposalOwnerIsWrittenLikeTheTUI(t *testing.T) {
	c := newCLI(t)
	c.contractSetup()
	art := filepath.Join(t.TempDir(), "tpl.json")
	os.WriteFile(art, []byte(`{"template": "Dear {{name}}, your refund is on its way."}`), 0o644)
	var p struct{ ID string }
	if err := json.Unmarshal([]byte(c.ok("", "proposal", "create", "--kind", "prompt-template", "--file", art, "--by", "support-bot",
		"--rationale", "seen twice", "--source-run", "run-1", "--title", "Refund reply", "--json")), &p); err != nil || p.ID == "" {
		t.Fatalf("create: %+v %v", p, err)
	}
	list := c.ok("", "proposal", "list")
	if !strings.Contains(list, "acme/support-bot") || strings.Contains(list, "support-bot@acme") {
		t.Fatalf("proposal list: %s", list)
	}
	show := c.ok("", "proposal", "show", p.ID)
	if !strings.Contains(show, "acme/support-bot") || strings.Contains(show, " @ ") {
		t.Fatalf("proposal show: %s", show)
	}
}
