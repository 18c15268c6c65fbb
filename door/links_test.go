package door

import (
	"context"
	"net/http"
	"testing"

	"github.com/memgov/memgov"
)

// linksOf decodes the links of a GET answer.
func linksOf(t *testing.T, res map[string]any) []map[string]any {
	t.Helper()
	raw, ok := res["links"]
	if !ok {
		return nil
	}
	arr, ok := raw.([]any)
	if !ok {
		t.Fatalf("links is not a list: %v", raw)
	}
	out := make([]map[string]any, len(arr))
	for i, l := range arr {
		out[i] = l.(map[string]any)
	}
	return out
}

// A write kept beside a near text as its own item is read over HTTP with
// its link: the linked item, version and key, its state and the judge rule.
// A reader sees only links to versions it may read: a reader below the
// linked version's clearance gets the entry without the link, and another
// tenant's principal gets neither.
func TestGetShowsLinksTheReaderMaySee(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx := context.Background()
	for _, pr := range []memgov.Principal{
		{ID: "cleared", Role: memgov.Executor, Tenant: "acme", Attributes: map[string]string{"clearance": "BUSINESS"}},
		{ID: "plain", Role: memgov.Executor, Tenant: "acme"}, // GENERAL, the default for agents
	} {
		if _, err := e.eng.AddPrincipal(ctx, pr, "test"); err != nil {
			t.Fatal(err)
		}
		tok, _, err := e.eng.CreateToken(ctx, pr.ID, 0, "test", "")
		if err != nil {
			t.Fatal(err)
		}
		e.tokens[pr.ID] = tok
	}
	write := func(key, text, class string) map[string]any {
		t.Helper()
		req := writeReq("acme/planner", key, text)
		if class != "" {
			req["classification"] = class
		}
		code, res := e.do("planner", "POST", "/v1/memories", req)
		if code != http.StatusOK || str(res, "status") != memgov.StatusCommitted {
			t.Fatalf("write %s = %d %v", key, code, res)
		}
		return res
	}
	get := func(who, key string) (int, map[string]any) {
		t.Helper()
		return e.do(who, "GET", "/v1/memories/"+key+"?memory_ref=acme/planner", nil)
	}

	// A public pair: the same event said twice is two items, the second
	// linked to the first.
	first := write("visit/1", "The auditor visited the Lyon warehouse on Tuesday.", "")
	again := write("visit/2", "The auditor visited the Lyon warehouse on Tuesday.", "")
	if str(again, "item_id") == str(first, "item_id") {
		t.Fatalf("the repeated event was not kept as its own item: %v", again)
	}
	for _, who := range []string{"planner", "plain", "cleared"} {
		code, res := get(who, "visit/2")
		links := linksOf(t, res)
		if code != http.StatusOK || len(links) != 1 {
			t.Fatalf("%s gets visit/2 = %d %v, want one link", who, code, res)
		}
		l := links[0]
		if str(l, "relation") != "NEAR_DUPLICATE" || str(l, "item_id") != str(first, "item_id") || str(l, "version_id") != str(first, "version_id") ||
			str(l, "key") != "visit/1" || str(l, "state") != string(memgov.Active) || str(l, "rule") == "" {
			t.Errorf("%s: link %v, want NEAR_DUPLICATE to visit/1 (%s, ACTIVE) with its rule", who, l, str(first, "version_id"))
		}
		if _, ok := l["text"]; ok {
			t.Errorf("%s: the link carries text: %v", who, l)
		}
	}
	// The first of the pair links to nothing.
	if code, res := get("planner", "visit/1"); code != http.StatusOK || res["links"] != nil {
		t.Errorf("visit/1 = %d %v, want no links", code, res)
	}

	// A BUSINESS note, and a public repeat of it.
	secret := write("deal/1", "Globex offered 4 million for the Lyon warehouse.", "BUSINESS")
	repeat := write("deal/2", "Globex offered 4 million for the Lyon warehouse.", "")
	if str(repeat, "item_id") == str(secret, "item_id") {
		t.Fatalf("the repeat was not kept as its own item: %v", repeat)
	}
	code, res := get("cleared", "deal/2")
	if links := linksOf(t, res); code != http.StatusOK || len(links) != 1 || str(links[0], "key") != "deal/1" || str(links[0], "version_id") != str(secret, "version_id") {
		t.Fatalf("a reader cleared for BUSINESS gets deal/2 = %d %v, want its link to deal/1", code, res)
	}
	// Below the clearance: the public repeat is read, without the link.
	if code, res := get("plain", "deal/1"); code != http.StatusNotFound {
		t.Fatalf("a GENERAL reader gets the BUSINESS note = %d %v", code, res)
	}
	code, res = get("plain", "deal/2")
	if code != http.StatusOK || str(res["entry"].(map[string]any), "content") != "Globex offered 4 million for the Lyon warehouse." {
		t.Fatalf("a GENERAL reader gets deal/2 = %d %v", code, res)
	}
	if _, ok := res["links"]; ok {
		t.Errorf("a GENERAL reader learns of the BUSINESS version: %v", res["links"])
	}
	// Another tenant reads neither the entry nor its links.
	if code, res := get("rival", "visit/2"); code != http.StatusNotFound || res["links"] != nil {
		t.Errorf("rival gets acme's linked entry = %d %v", code, res)
	}
	// The MemoryEntry stays exactly a MemoryEntry: the links are beside it.
	_, res = get("cleared", "deal/2")
	validateEntries(t, memoryEntrySchema(t), "get with links", res["entry"])

	// MCP's get_memory answers with the same links, bounded the same way.
	mcpGet := func(who, key string) map[string]any {
		t.Helper()
		out, msg := call(t, e.connectHTTP(who), "get_memory", map[string]any{"memory_ref": "acme/planner", "key": key})
		if msg != "" {
			t.Fatalf("%s: get_memory %s: %s", who, key, msg)
		}
		return out
	}
	if links := linksOf(t, mcpGet("cleared", "deal/2")); len(links) != 1 || str(links[0], "key") != "deal/1" || str(links[0], "version_id") != str(secret, "version_id") {
		t.Errorf("MCP: a reader cleared for BUSINESS gets deal/2 with links %v, want its link to deal/1", links)
	}
	if out := mcpGet("plain", "deal/2"); out["found"] != true || out["links"] != nil {
		t.Errorf("MCP: a GENERAL reader gets deal/2 = %v, want the entry without the link", out)
	}
	if out := mcpGet("rival", "visit/2"); out["found"] == true || out["links"] != nil {
		t.Errorf("MCP: rival gets acme's linked entry = %v", out)
	}
}
