package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/writes"
)

// TestHealthOfRefutedAndContradictingMemory seeds a store of 10 claims whose
// cited source was retracted after admission and 5 pairs of claims that
// contradict each other, beside a clean control: the re-validation sweep
// finds every bad claim against today's state, none of the control, and the
// health score is neither HEALTHY nor through the 0.7 deployment gate.
func TestHealthOfRefutedAndContradictingMemory(t *testing.T) {
	e, _ := enginetest.Lifecycle(t, "")
	ctx := context.Background()
	f := 0.9
	tool := oplog.EvidenceRef{SourceType: "TOOL_OUTPUT", SourceURI: "erp://ledger", Authority: &f}
	human := oplog.EvidenceRef{SourceType: "HUMAN_INPUT", SourceURI: "ticket://1", Authority: &f}
	withEvidence := func(ev ...oplog.EvidenceRef) func(*memgov.PutRequest) {
		return func(r *memgov.PutRequest) { r.Evidence, r.Confidence = ev, 0.9 }
	}
	// The clean control: 10 well-evidenced, unrelated facts.
	for i := 0; i < 10; i++ {
		enginetest.PutText(t, e, "acme/clean", fmt.Sprintf("fact-%d", i), memgov.Episodic,
			fmt.Sprintf("Warehouse %d ships orders from %s.", i, []string{"Lyon", "Oslo", "Porto", "Gent", "Bern", "Graz", "Turku", "Cork", "Split", "Brno"}[i]),
			withEvidence(tool, human))
	}
	rep, err := e.Writes().Revalidate(ctx, 0)
	if err != nil || rep.Sampled != 10 || rep.Failed != 0 {
		t.Fatalf("clean store: %+v %v", rep, err)
	}
	// 10 claims resting on a source retracted since.
	for i := 0; i < 10; i++ {
		src := enginetest.PutText(t, e, "acme/bad", fmt.Sprintf("source-%d", i), memgov.Episodic, fmt.Sprintf("Ledger line %d shows a refund of %d euros.", i, 100+i), withEvidence(tool, human))
		cite := oplog.EvidenceRef{SourceType: "MEMORY_ITEM", SourceItemID: src.ItemID, Authority: &f}
		enginetest.PutText(t, e, "acme/bad", fmt.Sprintf("claim-%d", i), memgov.Episodic, fmt.Sprintf("Customer %d was refunded %d euros.", i, 100+i), withEvidence(tool, human, cite))
		if _, err := e.Lifecycle().Expire(ctx, src.ItemID, "jane", "the ledger line was a data-entry error"); err != nil {
			t.Fatal(err)
		}
	}
	// 5 pairs of claims that contradict each other.
	for i := 0; i < 5; i++ {
		for _, obj := range []string{"paid", "unpaid"} {
			content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("Invoice %d is %s.", 70+i, obj), "subject": fmt.Sprintf("invoice-%d", 70+i),
				"predicate": "status", "object": obj})
			enginetest.PutText(t, e, "acme/bad", fmt.Sprintf("invoice-%d/%s", 70+i, obj), memgov.Episodic, "", func(r *memgov.PutRequest) {
				r.Content, r.Evidence, r.Confidence = content, []oplog.EvidenceRef{tool, human}, 0.9
			})
		}
	}
	// Every read was used: retrieval precision is perfect.
	r, err := e.Host().Adapter(memgov.Owner).ListRead(ctx, "acme/bad", host.ListOptions{})
	if err != nil || r.ID == "" {
		t.Fatal(err)
	}
	keys := []string{}
	for _, v := range r.Versions {
		keys = append(keys, v.Key)
	}
	if _, err := e.Host().Feedback(ctx, r.ID, keys); err != nil {
		t.Fatal(err)
	}
	rep, err = e.Writes().Revalidate(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Why[writes.RevalidationRefutedSource] != 10 || rep.Why[writes.RevalidationContradicted] != 10 || rep.Failed != 20 || rep.Sampled != 30 {
		t.Fatalf("re-validation against today's state: %+v", rep)
	}
	m, err := e.Audit().Metrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if m.HallucinationLeak == nil || *m.HallucinationLeak < 0.3 || m.RetrievalPrecision == nil || *m.RetrievalPrecision != 1 {
		t.Fatalf("leakage and precision: %s", b)
	}
	if m.Band == "HEALTHY" || m.MeasuredBand == "HEALTHY" || m.Gate(0.7) {
		t.Fatalf("a store of refuted and contradicting claims scores healthy: %s", b)
	}
	if m.Status != audit.HealthPartial || m.MeasuredShare >= 1 || len(m.Unmeasured) == 0 {
		t.Fatalf("unmeasured metrics are not reported: %s", b)
	}
}
