package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
)

func searchKeys(t *testing.T, a *host.MemoryAdapter, ref, q string) []string {
	t.Helper()
	hits, err := a.Search(context.Background(), host.SearchQuery{MemoryRef: ref, Query: q})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Entry.ID)
	}
	return out
}

// An old entry holding the query's words ranks above newer entries that
// share only other words: recency breaks ties, it does not outvote the text.
// Writes, updates and expiry show in the next search (the index follows the
// ref).
func TestSearchWordsOutrankRecency(t *testing.T) {
	e, c := enginetest.Lifecycle(t, "")
	const ref = "acme/bot"
	enginetest.PutText(t, e, ref, "customer-7/tz", memgov.Episodic, "Customer 7 is in the Europe/Berlin time zone.", nil)
	for i := 0; i < 40; i++ {
		c.Add(time.Hour)
		enginetest.PutText(t, e, ref, fmt.Sprintf("note-%02d", i), memgov.Episodic, fmt.Sprintf("Customer %d asked about the invoice of order %d in the portal.", 7+i%3, 100+i), nil)
	}
	a := e.Host().Adapter(memgov.As("jane"))
	for _, q := range []string{"time zone", "zone", "customer 7 time zone", "Which zone is customer 7 in?"} {
		if got := searchKeys(t, a, ref, q); len(got) == 0 || got[0] != "customer-7/tz" {
			t.Errorf("search %q = %v, want customer-7/tz first", q, got)
		}
	}
	// Equal scores: the newer entry first.
	enginetest.PutText(t, e, ref, "twin-old", memgov.Episodic, "The Lisbon office closes at noon.", nil)
	c.Add(time.Hour)
	enginetest.PutText(t, e, ref, "twin-new", memgov.Episodic, "The Lisbon office closes at noon!", nil)
	if got := searchKeys(t, a, ref, "Lisbon office"); len(got) < 2 || got[0] != "twin-new" || got[1] != "twin-old" {
		t.Errorf("equal texts: %v, want the newer first", got)
	}
	// An update replaces the old text in the results; an expired entry is gone.
	enginetest.PutText(t, e, ref, "customer-7/tz", memgov.Episodic, "Customer 7 moved to the Asia/Tokyo time zone.", nil)
	if got := searchKeys(t, a, ref, "Berlin"); len(got) > 0 && got[0] == "customer-7/tz" {
		t.Errorf("the superseded text is still found: %v", got)
	}
	if got := searchKeys(t, a, ref, "Tokyo"); len(got) == 0 || got[0] != "customer-7/tz" {
		t.Errorf("the new text is not found: %v", got)
	}
	enginetest.PutText(t, e, ref, "promo", memgov.Episodic, "The Quetzal discount code is valid this week.", func(r *memgov.PutRequest) { r.TTL = time.Hour })
	if got := searchKeys(t, a, ref, "Quetzal"); len(got) == 0 || got[0] != "promo" {
		t.Fatalf("promo: %v", got)
	}
	c.Add(2 * time.Hour)
	for _, k := range searchKeys(t, a, ref, "Quetzal discount") {
		if k == "promo" {
			t.Error("an expired entry was returned")
		}
	}
}

// Search never returns another tenant's entries, drafts awaiting review or
// quarantined versions.
func TestSearchReturnsOnlyWhatTheReaderMayRead(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "reputation:\n  quarantine_min_writes: 4\n  quarantine_contradiction_rate: 0.5\n")
	ctx := context.Background()
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "rival", Role: memgov.Curator, Tenant: "globex"}, ""); err != nil {
		t.Fatal(err)
	}
	enginetest.PutText(t, e, "acme/bot", "tz", memgov.Episodic, "Customer 7 is in the Europe/Berlin time zone.", nil)
	if got := searchKeys(t, e.Host().Adapter(memgov.As("rival")), "acme/bot", "time zone"); len(got) != 0 {
		t.Errorf("another tenant's curator found %v", got)
	}
	// A draft: an executor's write waits for review.
	body, _ := json.Marshal(map[string]any{"source_agent_id": "bot", "memory_ref": "acme/bot", "key": "draft", "target_layer": "SEMANTIC",
		"observation_type": "tool_result_verified", "confidence": 0.8, "content": map[string]string{"text": "The Zanzibar depot opens at six."},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://x", "authority": 0.9}}})
	r := write(t, e, body)
	if r.Status != memgov.StatusDeferred {
		t.Fatalf("draft: %+v", r)
	}
	if got := searchKeys(t, e.Host().Adapter(memgov.As("jane")), "acme/bot", "Zanzibar depot"); len(got) != 0 {
		t.Errorf("a draft was returned: %v", got)
	}
	// Approved, it is found by the next search.
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: r.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
		t.Fatal(err)
	}
	if got := searchKeys(t, e.Host().Adapter(memgov.As("jane")), "acme/bot", "Zanzibar depot"); len(got) == 0 || got[0] != "draft" {
		t.Errorf("the approved entry is not found: %v", got)
	}
	// Quarantine: an agent whose writes keep contradicting memory.
	spo := func(key, subject, object string) []byte {
		return []byte(fmt.Sprintf(`{"source_agent_id":"orch","memory_ref":"acme/orch","key":%q,"target_layer":"SEMANTIC",
		"observation_type":"tool_result_verified","confidence":0.8,
		"content":{"text":"%s ships from %s.","subject":%q,"predicate":"ships_from","object":%q},
		"evidence_refs":[{"source_type":"TOOL_OUTPUT","source_uri":"erp://policies","authority":0.9},{"source_type":"HUMAN_INPUT","source_uri":"ticket://1","authority":0.9}]}`,
			key, subject, object, subject, object))
	}
	for i, place := range []string{"Lyon", "Oslo"} {
		r := write(t, e, spo(fmt.Sprintf("w%d", i+1), fmt.Sprintf("warehouse-%d", i+1), place))
		if r.Status == memgov.StatusDeferred {
			if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: r.ReviewID, Reviewer: "jane", Approve: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := searchKeys(t, e.Host().Adapter(memgov.As("jane")), "acme/orch", "Lyon"); len(got) == 0 || got[0] != "w1" {
		t.Fatalf("before the quarantine: %v", got)
	}
	for i, place := range []string{"Porto", "Gent"} {
		write(t, e, spo(fmt.Sprintf("c%d", i+1), fmt.Sprintf("warehouse-%d", i+1), place))
	}
	if qs, err := e.Reviews().Quarantined(ctx, memgov.QuarantineQuery{Status: memgov.QuarantineOpen}); err != nil || len(qs) == 0 {
		t.Fatalf("nothing quarantined: %v %v", qs, err)
	}
	for _, k := range searchKeys(t, e.Host().Adapter(memgov.As("jane")), "acme/orch", "warehouse Lyon Oslo") {
		if k == "w1" || k == "w2" {
			t.Errorf("a quarantined version was returned: %s", k)
		}
	}
}
