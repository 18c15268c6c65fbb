package writes_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
)

// BenchmarkPut measures one ungated engine put (a log entry and its derived
// rows) over a corpus of 20,000 items in the same memoryRef.
func BenchmarkPut(b *testing.B) {
	e := newEngine(b, "")
	ctx := context.Background()
	text := func(i int) json.RawMessage {
		c, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Invoice %d for account A-%d was paid on day %d of month %d by wire.", i, i%97, i%28, i%12)})
		return c
	}
	var batch []memgov.PutRequest
	for i := 0; i < 20000; i++ {
		batch = append(batch, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: fmt.Sprintf("c%d", i), Layer: memgov.Episodic, Content: text(i), Actor: "billing-agent", Confidence: 0.9})
		if len(batch) == 2000 {
			if err := e.Writes().PutBatch(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: fmt.Sprintf("p%d", i), Layer: memgov.Episodic,
			Content: text(100000 + i), Actor: "billing-agent", Confidence: 0.9}); err != nil {
			b.Fatal(err)
		}
	}
}
