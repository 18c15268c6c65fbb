package writes_test

import (
	"context"
	"testing"

	"github.com/memgov/memgov"
)

// FuzzDecodeWriteRequest: no input panics the decoder or the pipeline, and
// whatever the pipeline answers is a known status.
func FuzzDecodeWriteRequest(f *testing.F) {
	f.Add([]byte(`{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","target_layer":"EPISODIC","observation_type":"tool_result_verified","content":{"text":"x"}}`))
	f.Add([]byte(`{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","target_layer":"WORKING","content":{"text":"\u202e\u0000"},"confidence":1e999}`))
	f.Add([]byte(`{"content":{"text":1}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"deadline":"not a time"}`))
	e := newEngine(f, "")
	setupAgents(f, e)
	statuses := map[string]bool{memgov.StatusCommitted: true, memgov.StatusMerged: true, memgov.StatusAlreadyCommitted: true,
		memgov.StatusRejected: true, memgov.StatusDeferred: true, memgov.StatusDeadlineExceeded: true, memgov.StatusDenied: true}
	f.Fuzz(func(t *testing.T, raw []byte) {
		req, err := memgov.DecodeWriteRequest(raw)
		if err != nil {
			return
		}
		res, err := e.Writes().Write(context.Background(), req)
		if err != nil {
			return
		}
		if !statuses[res.Status] {
			t.Fatalf("unknown status %q", res.Status)
		}
	})
}
