package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/internal/enginetest"
)

// TestMetricsSeeded runs 300 writes through the pipeline with every kind of
// outcome, reads with feedback and a re-validation sweep, and checks the metrics.
func TestMetricsSeeded(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "rate_limits:\n  layers:\n    EPISODIC: {writes: 1000, window: 1m}\n    SESSION: {writes: 1000, window: 1m}\nreputation:\n  burst_limit: 100000\n")
	statuses := map[string]int{}
	for i := 0; i < 300; i++ {
		c.Add(time.Second)
		var req string
		switch i % 6 {
		case 0, 1: // committed episodic
			req = fmt.Sprintf(`{"source_agent_id":"orch","memory_ref":"acme/orch","key":"k%d","target_layer":"EPISODIC","observation_type":"tool_result_verified","confidence":0.9,"content":{"text":"Invoice %d for customer %d was paid in full on day %d"},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://%d","authority":0.95}]}`, i, i*7, i*13, i, i)
		case 2: // exact duplicate of an earlier write, to its key (the same words in another EPISODIC item are another episode)
			req = fmt.Sprintf(`{"source_agent_id":"jane","memory_ref":"acme/orch","key":"k%d","target_layer":"EPISODIC","observation_type":"tool_result_verified","confidence":0.9,"content":{"text":"Invoice %d for customer %d was paid in full on day %d"},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://x","authority":0.95}]}`, i-2, (i-2)*7, (i-2)*13, i-2)
		case 3: // schema invalid
			req = `{"source_agent_id":"orch","memory_ref":"acme/orch","target_layer":"EPISODIC","content":{"nope":1}}`
		case 4: // unauthorized: executor into another agent's session
			req = fmt.Sprintf(`{"source_agent_id":"bot","memory_ref":"acme/orch","key":"s%d","target_layer":"SESSION","content":{"text":"note %d"}}`, i, i)
		case 5: // deferred: executor proposes durable memory
			req = fmt.Sprintf(`{"source_agent_id":"bot","memory_ref":"acme/bot","key":"p%d","target_layer":"SEMANTIC","observation_type":"tool_result_verified","confidence":0.9,"content":{"text":"Supplier %d ships within %d days"},"evidence_refs":[{"source_type":"DOCUMENT","source_uri":"doc://%d","authority":0.9}]}`, i, i, i%9+2, i)
		}
		dec, err := memgov.DecodeWriteRequest([]byte(req))
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Writes().Write(ctx, dec)
		if err != nil {
			t.Fatal(err)
		}
		statuses[r.Status+"/"+r.Reason]++
	}
	// Ten reads, half of what they return used.
	for i := 0; i < 10; i++ {
		c.Add(time.Hour)
		s, err := e.Host().Read(ctx, memgov.As("orch"), memgov.ReadQuery{MemoryRef: "acme/orch", Limit: 10})
		if err != nil || len(s.Versions) != 10 {
			t.Fatalf("read: %d %v", len(s.Versions), err)
		}
		var used []string
		for _, v := range s.Versions[:5] {
			used = append(used, v.ItemID)
		}
		if _, err := e.Host().Feedback(ctx, s.RetrievalID, used); err != nil {
			t.Fatal(err)
		}
	}
	c.Add(400 * 24 * time.Hour) // evidence goes stale: some durable items no longer verify
	if _, err := e.Writes().Revalidate(ctx, 0); err != nil {
		t.Fatal(err)
	}
	m, err := e.Audit().MetricsSince(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	t.Logf("statuses: %v\nmetrics: %s", statuses, b)
	if m.Writes != 300 || m.ByStatus[memgov.StatusCommitted] != 100 || m.WriteAcceptance != 0.3333 {
		t.Fatalf("writes %d committed %d WAR %v", m.Writes, m.ByStatus[memgov.StatusCommitted], m.WriteAcceptance)
	}
	if m.DedupHitRate != round(50.0/300) || m.Rejections[gate.ReasonExactDuplicate] != 50 || m.Rejections[gate.ReasonSchemaInvalid] != 50 || m.Rejections[gate.ReasonUnauthorized] != 50 {
		t.Fatalf("dedup %v rejections %v", m.DedupHitRate, m.Rejections)
	}
	if m.RetrievalPrecision == nil || *m.RetrievalPrecision != 0.5 || m.HallucinationLeak == nil || m.StageLatencyUS["dedup"].N == 0 {
		t.Fatalf("precision %v leak %v", m.RetrievalPrecision, m.HallucinationLeak)
	}
	if m.Band == "" || m.Health <= 0 || m.Health > 1 {
		t.Fatalf("health %v %s", m.Health, m.Band)
	}
}

func round(f float64) float64 { return float64(int(f*1e4+0.5)) / 1e4 }
