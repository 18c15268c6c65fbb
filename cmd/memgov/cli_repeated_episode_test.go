package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// chatTurnReq is a chat agent's write of one conversation turn: plain text
// to the layer, no key (memgov generates one), its own idempotency token.
// SEMANTIC memory admits a user's stated preference, not a session summary.
func chatTurnReq(token, layer, text string) string {
	obs := "session_summary"
	if layer == "SEMANTIC" {
		obs = "user_stated_preference"
	}
	b, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "target_layer": layer,
		"observation_type": obs, "idempotency_token": token, "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://maya"}}})
	return string(b)
}

type linkedResult struct {
	Status, Reason, Detail, Gate, Rule, Key string
	ItemID                                  string `json:"item_id"`
	Links                                   []struct {
		Relation, Key, Rule string
		ItemID              string `json:"item_id"`
	}
}

func (c *cli) writeJSON(req string) (linkedResult, int) {
	c.t.Helper()
	out, errOut, code := c.run(req, "write", "--json")
	var r linkedResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		c.t.Fatalf("write output %q %q: %v", out, errOut, err)
	}
	return r, code
}

// Two turns of a conversation with the same words ("Thanks!") are two
// events: in EPISODIC memory both commit, the second as its own item linked
// NEAR_DUPLICATE to the first by rule repeats-event, which `memgov write`
// prints; a retry of the second request (its idempotency token) is answered
// with its first outcome and stores nothing more. In SEMANTIC memory the
// same words twice are one claim: the second is REJECTED.
func TestCLIRepeatedEpisodeIsKeptAndLinked(t *testing.T) {
	c := newCLI(t)
	c.setup()
	first, code := c.writeJSON(chatTurnReq("turn-1", "EPISODIC", "Thanks!"))
	if code != 0 || first.Status != "COMMITTED" || first.ItemID == "" {
		t.Fatalf("first turn: exit %d %+v", code, first)
	}
	second, code := c.writeJSON(chatTurnReq("turn-2", "EPISODIC", "Thanks!"))
	if code != 0 || second.Status != "COMMITTED" || second.ItemID == "" || second.ItemID == first.ItemID {
		t.Fatalf("second turn: exit %d %+v, want COMMITTED as its own item", code, second)
	}
	if second.Rule != "repeats-event" || second.Gate != "dedup" || len(second.Links) != 1 || second.Links[0].Relation != "NEAR_DUPLICATE" ||
		second.Links[0].Key != first.Key || second.Links[0].ItemID != first.ItemID || second.Links[0].Rule != "repeats-event" {
		t.Fatalf("second turn: %+v, want one NEAR_DUPLICATE link to %s by rule repeats-event", second, first.Key)
	}
	if !strings.Contains(second.Detail, "[rule repeats-event, after exact-hash]") {
		t.Errorf("detail %q does not name the rule chain", second.Detail)
	}

	// The plain output shows the rule and the link.
	out, errOut, code := c.run(chatTurnReq("turn-3", "EPISODIC", "Thanks!"), "write")
	if code != 0 {
		t.Fatalf("third turn: exit %d %s %s", code, out, errOut)
	}
	for _, want := range []string{"COMMITTED", "rule     repeats-event", "linked   NEAR_DUPLICATE " + first.Key, "[rule repeats-event, after exact-hash]"} {
		if !strings.Contains(out, want) {
			t.Errorf("memgov write output lacks %q:\n%s", want, out)
		}
	}

	// A retry of a request is not another turn.
	retry, code := c.writeJSON(chatTurnReq("turn-2", "EPISODIC", "Thanks!"))
	if code != 0 || retry.Status != "ALREADY_COMMITTED" || retry.ItemID != second.ItemID {
		t.Fatalf("retry of turn-2: exit %d %+v, want ALREADY_COMMITTED %s", code, retry, second.ItemID)
	}
	var items []struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal([]byte(c.ok("", "list", "acme/billing-agent", "--json")), &items); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range items {
		if it.Content == "Thanks!" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("memory holds %d turns \"Thanks!\", want 3 (three turns, one retry): %+v", n, items)
	}
	// The link and its rule are in the second turn's history.
	if hist := c.ok("", "history", second.ItemID, "--json"); !strings.Contains(hist, "rule repeats-event") || !strings.Contains(hist, first.Key) {
		t.Errorf("history of the second turn does not record the link:\n%s", hist)
	}

	// A later turn that says all an earlier one said and more is kept
	// beside it (extends-event); the earlier turn is unchanged.
	c.writeJSON(chatTurnReq("turn-4", "EPISODIC", "I'm doing well."))
	more, code := c.writeJSON(chatTurnReq("turn-5", "EPISODIC", "I'm doing well. How are you?"))
	if code != 0 || more.Status != "COMMITTED" || more.Rule != "extends-event" || len(more.Links) != 1 {
		t.Fatalf("extending turn: exit %d %+v, want COMMITTED linked by extends-event", code, more)
	}

	// In SEMANTIC memory the same claim twice is one claim.
	c.writeJSON(chatTurnReq("fact-1", "SEMANTIC", "The user prefers tea to coffee."))
	dup, code := c.writeJSON(chatTurnReq("fact-2", "SEMANTIC", "The user prefers tea to coffee."))
	if code != 3 || dup.Status != "REJECTED" || dup.Reason != "EXACT_DUPLICATE" || dup.Rule != "exact-hash" {
		t.Fatalf("SEMANTIC repeat: exit %d %+v, want REJECTED EXACT_DUPLICATE by exact-hash", code, dup)
	}

	// memgov judge shows the chain for the pair.
	j := c.ok("", "judge", "Thanks!", "Thanks!", "--layer", "EPISODIC")
	for _, want := range []string{"verdict: COMMITTED, linked NEAR_DUPLICATE", "fired    exact-hash", "decided  repeats-event"} {
		if !strings.Contains(j, want) {
			t.Errorf("memgov judge output lacks %q:\n%s", want, j)
		}
	}
}
