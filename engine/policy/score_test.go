package policy

import (
	"math"
	"reflect"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

var now = time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)

// spec §12.2.3: V_fact = 1/|E| sum alpha_i support_i authority_i freshness_i, with
// authority "official documentation -> 1.0, LLM-generated -> 0.3", and
// tau_fact 0.6 / 0.8 / 0.9 for EPISODIC / SEMANTIC / PROCEDURAL.
func TestFactualScore(t *testing.T) {
	doc := func(support float64, age time.Duration) Evidence {
		return Evidence{SourceType: Document, Support: support, AccessedAt: now.Add(-age)}
	}
	llm := Evidence{SourceType: AgentReasoning, Support: 1, AccessedAt: now}
	tests := []struct {
		name       string
		layer      string
		ev         []Evidence
		edit       func(*Policy)
		score      float64
		pass       bool
		violations []string
	}{
		{
			name:  "12.2.3 one fresh document, support 0.9, SEMANTIC 0.9 >= 0.8",
			layer: Semantic, ev: []Evidence{doc(0.9, 0)},
			score: 0.9, pass: true,
		},
		{
			name:  "12.2.3 document 1.0 and LLM-generated 0.3 average to 0.65 >= EPISODIC 0.6",
			layer: Episodic, ev: []Evidence{doc(1, 0), llm},
			score: 0.65, pass: true,
		},
		{
			name:  "12.11.3 the same evidence in SEMANTIC is too weak and below 0.8, but not all self-referential",
			layer: Semantic, ev: []Evidence{doc(1, 0), llm},
			score: 0.65, violations: []string{ReasonLowAuthority, ReasonLowFactualScore},
		},
		{
			name:  "12.11.3 evidence that all originates from the agent is self-referential in SEMANTIC",
			layer: Semantic, ev: []Evidence{llm, llm},
			score: 0.3, violations: []string{ReasonSelfReferential, ReasonLowAuthority, ReasonNoExternalEvidence, ReasonLowFactualScore},
		},
		{
			name:  "12.2.3 freshness halves after one SEMANTIC half-life (90 days): 0.5 < 0.8",
			layer: Semantic, ev: []Evidence{doc(1, 90*day)},
			score: 0.5, violations: []string{ReasonLowFactualScore},
		},
		{
			name:  "12.2.3 PROCEDURAL 0.9 is reached exactly (>=)",
			layer: Procedural, ev: []Evidence{doc(0.9, 0)},
			score: 0.9, pass: true,
		},
		{
			name:  "12.11.4 tool output alone reaches 0.9 but is not external",
			layer: Procedural, ev: []Evidence{{SourceType: ToolOutput, Support: 1, AccessedAt: now}},
			score: 0.9, violations: []string{ReasonNoExternalEvidence},
		},
		{
			name:  "12.1.4 WORKING admits a write without evidence",
			layer: Working, ev: nil,
			score: 0, pass: true,
		},
		{
			name:  "EPISODIC without evidence scores 0",
			layer: Episodic, ev: nil,
			score: 0, violations: []string{ReasonNoExternalEvidence, ReasonLowFactualScore},
		},
		{
			name:  "a stated authority replaces the source type's default",
			layer: Episodic, ev: []Evidence{{SourceType: Document, Authority: 0.7, Support: 1, AccessedAt: now}},
			score: 0.7, pass: true,
		},
		{
			name:  "12.2.3 alpha adjusted per class: weights 3 and 1 give alphas 1.5 and 0.5",
			layer: Semantic, ev: []Evidence{doc(1, 0), {SourceType: HumanInput, Support: 0.5, AccessedAt: now}},
			edit:  func(p *Policy) { p.Evidence.ClassWeights.Document = 3 },
			score: (1.5*1*1 + 0.5*0.5*1) / 2, pass: true,
		},
		{
			name:  "12.11.3 a document marked self-referential is refused in SEMANTIC",
			layer: Semantic, ev: []Evidence{{SourceType: Document, Support: 1, AccessedAt: now, SelfReferential: true}},
			score: 1, violations: []string{ReasonSelfReferential},
		},
		{
			name:  "evidence stamped after now counts as fresh",
			layer: Semantic, ev: []Evidence{doc(1, -time.Hour)},
			score: 1, pass: true,
		},
		{
			name:  "evidence without an access time counts as stale",
			layer: Semantic, ev: []Evidence{{SourceType: Document, Support: 1}},
			score: 0, violations: []string{ReasonLowFactualScore},
		},
		{
			name:  "an unknown layer fails",
			layer: "LONG_TERM", ev: []Evidence{doc(1, 0)},
			score: 0, violations: []string{ReasonUnknownLayer},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default()
			if tt.edit != nil {
				tt.edit(&p)
			}
			got := p.FactualScore(tt.layer, tt.ev, now)
			if !near(got.Score, tt.score) {
				t.Errorf("Score = %v, want %v", got.Score, tt.score)
			}
			if got.Pass != tt.pass {
				t.Errorf("Pass = %v, want %v (violations %v)", got.Pass, tt.pass, got.Violations)
			}
			if !reflect.DeepEqual(got.Violations, tt.violations) {
				t.Errorf("Violations = %v, want %v", got.Violations, tt.violations)
			}
			if len(tt.violations) > 0 && got.Reason != tt.violations[0] {
				t.Errorf("Reason = %q, want %q", got.Reason, tt.violations[0])
			}
			sum := 0.0
			for _, part := range got.Parts {
				sum += part.Contribution
			}
			if !near(sum, got.Score) {
				t.Errorf("parts sum to %v, score is %v", sum, got.Score)
			}
		})
	}
}

func TestFactualScoreAuthorities(t *testing.T) {
	ev := []Evidence{
		{SourceType: Document, Support: 1, AccessedAt: now},
		{SourceType: AgentReasoning, Support: 1, AccessedAt: now},
		{SourceType: MemoryItem, Support: 1, AccessedAt: now},
	}
	got := Default().FactualScore(Episodic, ev, now)
	if !near(got.MeanAuthority, (1+0.3+0.5)/3) || got.MinAuthority != 0.3 || got.MaxAuthority != 1 || got.External != 1 {
		t.Errorf("mean/min/max/external = %v/%v/%v/%d, want 0.6/0.3/1/1",
			got.MeanAuthority, got.MinAuthority, got.MaxAuthority, got.External)
	}
}

// spec §12.4.4: c_adj = 0.15 c_agent + 0.30 V_fact + 0.25 authority + 0.30 1[approved].
func TestAdjustedConfidence(t *testing.T) {
	tests := []struct {
		name                      string
		agent, factual, authority float64
		approved                  bool
		want                      float64
	}{
		{"0.15x0.9 + 0.30x0.8 + 0.25x1.0", 0.9, 0.8, 1, false, 0.625},
		{"the same, human approved", 0.9, 0.8, 1, true, 0.925},
		{"agent confidence alone weighs 0.15", 1, 0, 0, false, 0.15},
		{"everything at 1", 1, 1, 1, true, 1},
		{"out-of-range inputs are clamped", 2, -1, math.NaN(), false, 0.15},
	}
	for _, tt := range tests {
		if got := Default().AdjustedConfidence(tt.agent, tt.factual, tt.authority, tt.approved); !near(got, tt.want) {
			t.Errorf("%s: AdjustedConfidence = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// spec §12.2.5: V = w_s 1[schema] + w_f V_fact + w_c (1 - |C|/|candidates|), with
// memgov's weights 0.3 / 0.4 / 0.3.
func TestValidationScore(t *testing.T) {
	tests := []struct {
		name                       string
		schema                     bool
		factual                    float64
		contradictions, candidates int
		want                       float64
	}{
		{"0.3 + 0.4x0.8 + 0.3x(1 - 1/4)", true, 0.8, 1, 4, 0.845},
		{"no candidates means no contradiction", false, 0, 0, 0, 0.3},
		{"all good", true, 1, 0, 10, 1},
		{"every candidate contradicts", true, 1, 5, 5, 0.7},
		{"more contradictions than candidates clamps", true, 1, 9, 5, 0.7},
	}
	for _, tt := range tests {
		if got := Default().ValidationScore(tt.schema, tt.factual, tt.contradictions, tt.candidates); !near(got, tt.want) {
			t.Errorf("%s: ValidationScore = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// spec §12.6.2: R = 0.25 f_layer + 0.20 f_contra + 0.15 f_evid + 0.15 f_conf +
// 0.15 f_blast + 0.10 f_novel; AUTO_APPROVE < 0.3 <= ASYNC_REVIEW < 0.7 <= SYNC_BLOCK.
func TestRisk(t *testing.T) {
	tests := []struct {
		name      string
		in        RiskInput
		score     float64
		tier      string
		escalated bool
	}{
		{
			name:  "SEMANTIC, authority 0.9, c_adj 0.625, 2 of 10 consumers",
			in:    RiskInput{Layer: Semantic, EvidenceAuthority: 0.9, AdjustedConfidence: 0.625, Consumers: 2},
			score: 0.25*0.8 + 0.15*0.1 + 0.15*0.375 + 0.15*0.2, tier: AsyncReview,
		},
		{
			name:  "EPISODIC, well evidenced and confident",
			in:    RiskInput{Layer: Episodic, EvidenceAuthority: 1, AdjustedConfidence: 1},
			score: 0.075, tier: AutoApprove,
		},
		{
			name:  "SEMANTIC 0.2 + novelty 0.1 lands exactly on 0.3",
			in:    RiskInput{Layer: Semantic, EvidenceAuthority: 1, AdjustedConfidence: 1, Novel: true},
			score: 0.3, tier: AsyncReview,
		},
		{
			name:  "PROCEDURAL 0.25 + contradiction 0.2 + no authority 0.15 + novelty 0.1 lands exactly on 0.7",
			in:    RiskInput{Layer: Procedural, Contradiction: true, AdjustedConfidence: 1, Novel: true},
			score: 0.7, tier: SyncBlock,
		},
		{
			name:  "every factor at 1",
			in:    RiskInput{Layer: Procedural, Contradiction: true, Consumers: 1000, Novel: true},
			score: 1, tier: SyncBlock,
		},
		{
			name:  "WORKING, nothing risky",
			in:    RiskInput{Layer: Working, EvidenceAuthority: 1, AdjustedConfidence: 1},
			score: 0, tier: AutoApprove,
		},
		{
			name:  "12.11.5 low reputation raises AUTO_APPROVE to review",
			in:    RiskInput{Layer: Working, EvidenceAuthority: 1, AdjustedConfidence: 1, LowReputation: true},
			score: 0, tier: AsyncReview, escalated: true,
		},
		{
			name:  "low reputation leaves SYNC_BLOCK alone",
			in:    RiskInput{Layer: Procedural, Contradiction: true, Consumers: 1000, Novel: true, LowReputation: true},
			score: 1, tier: SyncBlock,
		},
		{
			name:  "an unknown layer counts as the riskiest",
			in:    RiskInput{Layer: "LONG_TERM", EvidenceAuthority: 1, AdjustedConfidence: 1},
			score: 0.25, tier: AutoApprove,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Default().Risk(tt.in)
			if !near(got.Score, tt.score) {
				t.Errorf("Score = %v, want %v (%s)", got.Score, tt.score, got)
			}
			if got.Tier != tt.tier || got.Escalated != tt.escalated {
				t.Errorf("Tier = %s escalated %v, want %s escalated %v (%s)", got.Tier, got.Escalated, tt.tier, tt.escalated, got)
			}
			if len(got.Factors) != 6 {
				t.Fatalf("%d factors, want 6", len(got.Factors))
			}
			sum := 0.0
			for _, f := range got.Factors {
				if !near(f.Contribution, f.Weight*f.Value) {
					t.Errorf("factor %s: contribution %v != %v x %v", f.Name, f.Contribution, f.Weight, f.Value)
				}
				sum += f.Contribution
			}
			if !near(sum, got.Score) {
				t.Errorf("factors sum to %v, score is %v", sum, got.Score)
			}
		})
	}
}

func TestRiskString(t *testing.T) {
	got := Default().Risk(RiskInput{Layer: Semantic, EvidenceAuthority: 0.9, AdjustedConfidence: 0.6, Consumers: 2}).String()
	want := "0.25x0.80 + 0.20x0.00 + 0.15x0.10 + 0.15x0.40 + 0.15x0.20 + 0.10x0.00 = 0.305 -> ASYNC_REVIEW"
	if got != want {
		t.Errorf("String() =\n %q\nwant\n %q", got, want)
	}
}

// spec §12.6.2 tier boundaries: < 0.3 AUTO_APPROVE, [0.3, 0.7) ASYNC_REVIEW, >= 0.7 SYNC_BLOCK.
func TestTierBoundaries(t *testing.T) {
	tests := []struct {
		score float64
		want  string
	}{
		{0, AutoApprove},
		{0.2999, AutoApprove},
		{0.3, AsyncReview},
		{0.6999, AsyncReview},
		{0.7, SyncBlock},
		{1, SyncBlock},
		{math.NaN(), SyncBlock},
	}
	for _, tt := range tests {
		if got := Default().Tier(tt.score); got != tt.want {
			t.Errorf("Tier(%v) = %s, want %s", tt.score, got, tt.want)
		}
	}
}

func TestTierFollowsPolicy(t *testing.T) {
	p, err := Parse([]byte("risk:\n  async_from: 0.2\n  sync_from: 0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for score, want := range map[float64]string{0.19: AutoApprove, 0.2: AsyncReview, 0.49: AsyncReview, 0.5: SyncBlock} {
		if got := p.Tier(score); got != want {
			t.Errorf("Tier(%v) = %s, want %s", score, got, want)
		}
	}
}
