package door

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/memgov/memgov"
)

// TestSearchFindsWordsInTheText: POST /v1/search finds a committed entry by
// the words of its text ("time zone", "zone"), first among entries sharing
// other words.
func TestSearchFindsWordsInTheText(t *testing.T) {
	e := newEnv(t, "", Config{})
	ctx := context.Background()
	for key, text := range map[string]string{"customer-7/tz": "Customer 7 is in the Europe/Berlin time zone.",
		"customer-7/channel": "Customer 7 prefers email follow-up.", "customer-8/invoice": "Customer 8 asked for the invoice in euros."} {
		body, _ := json.Marshal(map[string]string{"text": text})
		if _, err := e.eng.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/bot", Key: key, Layer: memgov.Episodic, Content: body, Confidence: 0.9, Actor: "jane"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"time zone", "zone"} {
		code, out := e.do("bot", http.MethodPost, "/v1/search", map[string]any{"memory_ref": "acme/bot", "query": q})
		hits, _ := out["hits"].([]any)
		if code != http.StatusOK || len(hits) == 0 {
			t.Fatalf("search %q: %d %v", q, code, out)
		}
		first, _ := hits[0].(map[string]any)
		entry, _ := first["entry"].(map[string]any)
		if str(entry, "id") != "customer-7/tz" {
			t.Errorf("search %q: first hit %v", q, first)
		}
	}
}
