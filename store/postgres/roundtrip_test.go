package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/storetest"
)

// Every statement is a round trip to the server: the statements a write
// sends bound its latency. The test measures them for a direct put and a
// governed write that commits, and holds them under a ceiling that a
// change of the write path must not cross unnoticed.
func TestStatementsPerWrite(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	clock := storetest.NewClock()
	e := engine.New(s, testKey, engine.WithClock(clock.Now))
	for _, p := range []memgov.Principal{{ID: curator, Role: memgov.Curator, Tenant: "acme"}, {ID: "billing-agent", Role: memgov.Orchestrator, Tenant: "acme"}} {
		if _, err := e.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	const n = 10
	before := s.Statements()
	for i := range n {
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: fmt.Sprintf("k%d", i), Layer: memgov.Semantic,
			Content: text(fmt.Sprintf("Fact number %d about the account.", i)), Actor: curator, Confidence: 0.9, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	perPut := float64(s.Statements()-before) / n
	before = s.Statements()
	for i := range n {
		raw, _ := json.Marshal(map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": fmt.Sprintf("w%d", i),
			"target_layer": "EPISODIC", "observation_type": "user_stated_preference", "confidence": 0.9,
			"content":       map[string]any{"text": fmt.Sprintf("Invoice %d goes to the finance mailbox.", i)},
			"evidence_refs": []any{map[string]any{"source_type": "HUMAN_INPUT", "source_uri": "chat://1", "authority": 1}}})
		wr, err := memgov.DecodeWriteRequest(raw)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Writes().Write(ctx, wr)
		if err != nil || res.Status != memgov.StatusCommitted {
			t.Fatalf("write %d: %+v, %v; want COMMITTED", i, res, err)
		}
		clock.Advance(1e9)
	}
	perWrite := float64(s.Statements()-before) / n
	t.Logf("statements (round trips) per put: %.1f, per committed governed write: %.1f", perPut, perWrite)
	if perPut > 80 || perWrite > 150 {
		t.Errorf("a put sends %.1f statements and a governed write %.1f: more than the 80 and 150 this store was measured under", perPut, perWrite)
	}
}
