package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
)

// BenchmarkGovernedWrite measures one write through every gate on the
// auto-approve path, over a corpus of 20,000 items.
func BenchmarkGovernedWrite(b *testing.B) {
	e := newEngine(b, "reputation:\n  burst_limit: 1000000\nrate_limits:\n  layers:\n    EPISODIC:\n      writes: 1000000\n")
	setupAgents(b, e)
	ctx := context.Background()
	var batch []memgov.PutRequest
	for i := 0; i < 20000; i++ {
		c, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Invoice %d for account A-%d was paid on day %d of month %d.", i, i%97, i%28, i%12)})
		batch = append(batch, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: fmt.Sprintf("c%d", i), Layer: memgov.Episodic, Content: c, Actor: "billing-agent"})
		if len(batch) == 2000 {
			if err := e.Writes().PutBatch(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		raw := req("billing-agent", "acme/billing-agent", fmt.Sprintf("g%d", i), fmt.Sprintf("Refund %d was sent to customer %d by wire on Tuesday.", i, i*7))
		res := write(b, e, raw)
		if res.Status != memgov.StatusCommitted {
			b.Fatalf("%+v", res)
		}
	}
}
