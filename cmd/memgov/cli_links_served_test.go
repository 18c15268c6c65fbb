package main

import (
	"encoding/json"
	"testing"
)

// A real memgov serve answers a get of an episode kept beside a near one
// with its link, as the token's principal may see it: the agent that wrote
// both reads the link; another tenant's agent reads neither the entry nor
// the link.
func TestCLIServedGetShowsLinks(t *testing.T) {
	c := newCLI(t)
	c.setup()
	first, code := c.writeJSON(chatTurnReq("ep-1", "EPISODIC", "The customer asked for a refund of order 17."))
	if code != 0 || first.Status != "COMMITTED" {
		t.Fatalf("first episode: exit %d %+v", code, first)
	}
	again, code := c.writeJSON(chatTurnReq("ep-2", "EPISODIC", "The customer asked for a refund of order 17."))
	if code != 0 || again.Status != "COMMITTED" || len(again.Links) != 1 || again.Links[0].ItemID != first.ItemID {
		t.Fatalf("the same episode again: exit %d %+v, want COMMITTED and linked to %s", code, again, first.ItemID)
	}
	h := c.historyLinks(first.ItemID)
	s := c.startServe(t, 1)
	path := "/v1/memories/" + again.Key + "?memory_ref=acme/billing-agent"

	var got struct {
		Entry struct {
			ID string `json:"id"`
		} `json:"entry"`
		Links []struct {
			Relation  string  `json:"relation"`
			ItemID    string  `json:"item_id"`
			VersionID string  `json:"version_id"`
			Key       string  `json:"key"`
			State     string  `json:"state"`
			Rule      string  `json:"rule"`
			Text      *string `json:"text"`
		} `json:"links"`
	}
	code, body := s.do(t, "GET", path, c.token(t, "billing-agent"), "")
	if code != 200 {
		t.Fatalf("GET %s = %d %s", path, code, body)
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Entry.ID != again.Key || len(got.Links) != 1 {
		t.Fatalf("GET %s = %s, want the entry and one link", path, body)
	}
	l := got.Links[0]
	if l.Relation != "NEAR_DUPLICATE" || l.ItemID != first.ItemID || l.VersionID != h.Versions[0].ID || l.Key != first.Key ||
		l.State != "ACTIVE" || l.Rule != again.Links[0].Rule || l.Text != nil {
		t.Errorf("link %+v, want NEAR_DUPLICATE to %s (version %s, ACTIVE, rule %s) without text", l, first.Key, h.Versions[0].ID, again.Links[0].Rule)
	}
	if code, body := s.do(t, "GET", path, c.token(t, "research-agent"), ""); code != 404 {
		t.Errorf("another tenant's agent gets the linked entry = %d %s", code, body)
	}
}
