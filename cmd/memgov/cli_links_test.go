package main

import (
	"encoding/json"
	"strings"
	"testing"
)

type historyLinks struct {
	Versions []struct {
		ID    string `json:"version_id"`
		Links []struct {
			Relation  string `json:"relation"`
			ItemID    string `json:"item_id"`
			VersionID string `json:"version_id"`
			Key       string `json:"key"`
			State     string `json:"state"`
			Rule      string `json:"rule"`
		} `json:"links"`
	} `json:"versions"`
}

func (c *cli) historyLinks(itemID string) historyLinks {
	c.t.Helper()
	var h historyLinks
	if err := json.Unmarshal([]byte(c.ok("", "history", itemID, "--json")), &h); err != nil {
		c.t.Fatal(err)
	}
	return h
}

// A session note near another note of the same memoryRef commits as its
// own item linked NEAR_DUPLICATE to it (never rejected nor merged), like an
// episode; a durable write is not linked to session notes. The links are
// readable: `history --json` and `get --full` list each version's links,
// read from its log entry, the same after `admin rebuild`.
func TestCLISessionNotesAreLinkedAndLinksAreRead(t *testing.T) {
	c := newCLI(t)
	c.setup()
	first, code := c.writeJSON(chatTurnReq("note-1", "SESSION", "The customer asked for a refund of order 17."))
	if code != 0 || first.Status != "COMMITTED" {
		t.Fatalf("first note: exit %d %+v", code, first)
	}
	again, code := c.writeJSON(chatTurnReq("note-2", "SESSION", "The customer asked for a refund of order 17."))
	if code != 0 || again.Status != "COMMITTED" || again.ItemID == first.ItemID || len(again.Links) != 1 ||
		again.Links[0].Relation != "NEAR_DUPLICATE" || again.Links[0].ItemID != first.ItemID || again.Links[0].Rule != "repeats-event" {
		t.Fatalf("the same note again: exit %d %+v, want COMMITTED linked to %s by repeats-event", code, again, first.ItemID)
	}
	other, code := c.writeJSON(chatTurnReq("note-3", "SESSION", "The customer asked for a refund of order 18."))
	if code != 0 || other.Status != "COMMITTED" || len(other.Links) == 0 || other.Links[0].ItemID != first.ItemID && other.Links[0].ItemID != again.ItemID {
		t.Fatalf("a note that differs by its number: exit %d %+v, want COMMITTED and linked", code, other)
	}
	// A durable write is not set against session notes.
	ep, code := c.writeJSON(chatTurnReq("episode-1", "EPISODIC", "The customer asked for a refund of order 17."))
	if code != 0 || ep.Status != "COMMITTED" || len(ep.Links) != 0 {
		t.Fatalf("episode beside session notes: exit %d %+v, want COMMITTED without links", code, ep)
	}

	check := func(when string) {
		t.Helper()
		h := c.historyLinks(again.ItemID)
		if len(h.Versions) != 1 || len(h.Versions[0].Links) != 1 {
			t.Fatalf("%s: history of the linked note: %+v, want one version with one link", when, h)
		}
		l := h.Versions[0].Links[0]
		fh := c.historyLinks(first.ItemID)
		if l.Relation != "NEAR_DUPLICATE" || l.ItemID != first.ItemID || l.VersionID != fh.Versions[0].ID || l.Key != first.Key ||
			l.Rule != "repeats-event" || l.State != "ACTIVE" {
			t.Fatalf("%s: link %+v, want NEAR_DUPLICATE to %s (version %s, ACTIVE) by repeats-event", when, l, first.Key, fh.Versions[0].ID)
		}
		if len(fh.Versions[0].Links) != 0 {
			t.Fatalf("%s: the first note has links: %+v", when, fh.Versions[0].Links)
		}
	}
	check("after the writes")
	full := c.ok("", "get", "acme/billing-agent", again.Key, "--full")
	if !strings.Contains(full, `"links"`) || !strings.Contains(full, first.ItemID) {
		t.Fatalf("get --full lacks the link:\n%s", full)
	}
	if out := c.ok("", "get", "acme/billing-agent", again.Key); !strings.Contains(out, "linked       NEAR_DUPLICATE "+first.Key) {
		t.Fatalf("get lacks the link:\n%s", out)
	}
	if out := c.ok("", "admin", "rebuild"); !strings.Contains(out, "no differences") {
		t.Fatalf("rebuild: %s", out)
	}
	check("after a rebuild from the log")
	if out := c.ok("", "audit", "verify", "--replay"); strings.Contains(strings.ToLower(out), "mismatch") {
		t.Fatalf("audit verify --replay: %s", out)
	}
}
