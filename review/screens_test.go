package review

import (
	"reflect"
	"testing"

	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/reviews"
)

func TestHealthReportWeightsAndStages(t *testing.T) {
	hp := policy.Health{HealthyFrom: 0.8, DegradedFrom: 0.6, Weights: policy.HealthWeights{
		CorrectnessImpact: 0.3, InducedErrors: 0.2, RetrievalPrecision: 0.15, HallucinationLeakage: 0.15, WriteAcceptance: 0.1, Operational: 0.1}}
	m := audit.Metrics{Band: audit.HealthPartial, LatencyUS: audit.Percentiles{N: 4, P50: 10, P95: 20, P99: 30},
		StageLatencyUS: map[string]audit.Percentiles{
			"judge": {N: 4, P95: 900}, "commit": {N: 4, P95: 1200}, "redact": {N: 4, P95: 900}, "embed": {N: 0, P95: 5000}}}
	r := healthReport(m, hp)
	want := map[string]float64{"correctness_impact": 0.3, "induced_errors": 0.2, "retrieval_precision": 0.15,
		"hallucination_leakage": 0.15, "write_acceptance": 0.1, "operational": 0.1}
	if !reflect.DeepEqual(r.Weights, want) || r.HealthyFrom != 0.8 || r.DegradedFrom != 0.6 {
		t.Fatalf("report %+v", r)
	}
	if !r.Partial() {
		t.Error("a PARTIAL band is not reported partial")
	}
	if v := r.Validation(); v != (Latency{N: 4, P50: 10, P95: 20, P99: 30}) {
		t.Errorf("validation %+v", v)
	}
	var got []string
	for _, s := range r.SlowestStages(3) {
		got = append(got, s.Stage)
	}
	// slowest first, ties by name, unmeasured stages left out
	if !reflect.DeepEqual(got, []string{"commit", "judge", "redact"}) {
		t.Errorf("slowest stages %v", got)
	}
	if n := len(r.SlowestStages(10)); n != 3 {
		t.Errorf("%d stages, want the 3 measured", n)
	}
}

func TestRejectCodesAreACopy(t *testing.T) {
	c := RejectCodes()
	if !reflect.DeepEqual(c, reviews.RejectCodes) {
		t.Fatalf("codes %v", c)
	}
	c[0] = "CHANGED"
	if reviews.RejectCodes[0] == "CHANGED" {
		t.Error("changing the returned codes changed the engine's")
	}
}
