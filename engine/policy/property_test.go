package policy

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

var (
	genLayer  = rapid.SampledFrom([]string{Working, Session, Episodic, Semantic, Procedural, "LONG_TERM"})
	genSource = rapid.SampledFrom([]string{Document, APIResponse, ToolOutput, HumanInput, AgentReasoning, CodeExecution, MemoryItem, "RUMOUR"})
	genUnit   = rapid.Float64Range(-0.5, 1.5)
)

func genEvidence(t *rapid.T) []Evidence {
	n := rapid.IntRange(0, 6).Draw(t, "n")
	ev := make([]Evidence, n)
	for i := range ev {
		ev[i] = Evidence{
			SourceType:      genSource.Draw(t, "source"),
			Authority:       genUnit.Draw(t, "authority"),
			Support:         genUnit.Draw(t, "support"),
			AccessedAt:      now.Add(-time.Duration(rapid.Int64Range(-int64(day), int64(400*day)).Draw(t, "age"))),
			SelfReferential: rapid.Bool().Draw(t, "self"),
		}
	}
	return ev
}

// V_fact is an average of products of values in [0,1], so it stays in [0,1],
// and Pass agrees with the score, the threshold and the violations.
func TestFactualScoreProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		layer := genLayer.Draw(t, "layer")
		r := Default().FactualScore(layer, genEvidence(t), now)
		if r.Score < 0 || r.Score > 1 {
			t.Fatalf("Score %v outside [0,1]", r.Score)
		}
		if r.Pass != (len(r.Violations) == 0) {
			t.Fatalf("Pass %v with violations %v", r.Pass, r.Violations)
		}
		if r.Pass && r.Score < r.Threshold {
			t.Fatalf("passed with %v < %v", r.Score, r.Threshold)
		}
	})
}

// R(w) is a convex combination of factors in [0,1]; its tier is the one the
// cut-offs give, or higher for a low-reputation agent.
func TestRiskProperties(t *testing.T) {
	p := Default()
	rapid.Check(t, func(t *rapid.T) {
		in := RiskInput{
			Layer:              genLayer.Draw(t, "layer"),
			Contradiction:      rapid.Bool().Draw(t, "contradiction"),
			EvidenceAuthority:  genUnit.Draw(t, "authority"),
			AdjustedConfidence: genUnit.Draw(t, "confidence"),
			Consumers:          rapid.IntRange(-5, 50).Draw(t, "consumers"),
			Novel:              rapid.Bool().Draw(t, "novel"),
			LowReputation:      rapid.Bool().Draw(t, "reputation"),
		}
		r := p.Risk(in)
		if r.Score < 0 || r.Score > 1 {
			t.Fatalf("Score %v outside [0,1]", r.Score)
		}
		want := p.Tier(r.Score)
		if in.LowReputation && want == AutoApprove {
			want = AsyncReview
		}
		if r.Tier != want {
			t.Fatalf("Tier %s, want %s for score %v", r.Tier, want, r.Score)
		}
	})
}

// Relevance never rises with age and never falls with accesses.
func TestRelevanceMonotone(t *testing.T) {
	p := Default()
	rapid.Check(t, func(t *rapid.T) {
		u := Usage{
			Layer:    genLayer.Draw(t, "layer"),
			Initial:  rapid.Float64Range(0, 1).Draw(t, "initial"),
			Age:      time.Duration(rapid.Int64Range(0, int64(1000*day)).Draw(t, "age")),
			Accesses: rapid.IntRange(0, 1000).Draw(t, "accesses"),
			Impact:   rapid.Float64Range(0, 1).Draw(t, "impact"),
		}
		older, used := u, u
		older.Age += time.Duration(rapid.Int64Range(0, int64(100*day)).Draw(t, "more"))
		used.Accesses++
		if p.Relevance(older) > p.Relevance(u) {
			t.Fatalf("relevance rose with age: %v -> %v", p.Relevance(u), p.Relevance(older))
		}
		if p.Relevance(used) < p.Relevance(u) {
			t.Fatalf("relevance fell with an access: %v -> %v", p.Relevance(u), p.Relevance(used))
		}
	})
}

// Parse returns a valid policy or an error, whatever the input.
func FuzzParse(f *testing.F) {
	seed, err := Default().YAML()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("risk:\n  weights:\n    layer: 0.35\n    novelty: 0\n"))
	f.Add([]byte(`{"review": {"async_sla": "48h"}}`))
	f.Add([]byte("decay: [1, 2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Parse returned an invalid policy: %v", err)
		}
	})
}
