package policy

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Reason codes of the evidence checks.
const (
	ReasonUnknownLayer       = "UNKNOWN_LAYER"
	ReasonSelfReferential    = "SELF_REFERENTIAL_EVIDENCE"
	ReasonLowAuthority       = "LOW_EVIDENCE_AUTHORITY"
	ReasonNoExternalEvidence = "INSUFFICIENT_EXTERNAL_EVIDENCE"
	ReasonLowFactualScore    = "LOW_FACTUAL_SCORE"
)

// Evidence is one evidence reference of a write, as the factual score needs
// it (spec §12.4.3 EvidenceRef).
type Evidence struct {
	// SourceType is one of the evidence source types, such as "DOCUMENT".
	SourceType string
	// Authority is authority(e) in [0,1]; 0 takes the policy's default for
	// the source type.
	Authority float64
	// Support is support(m, e) in [0,1], the entailment of the claim by this
	// evidence. Callers without an entailment model pass 1.
	Support float64
	// AccessedAt is when the evidence was retrieved.
	AccessedAt time.Time
	// SelfReferential marks evidence that originates from the writing agent
	// itself, whatever its source type.
	SelfReferential bool
}

// EvidencePart is one evidence reference's share of V_fact, for display.
type EvidencePart struct {
	SourceType      string
	Alpha           float64
	Support         float64
	Authority       float64 // after the default for the source type
	Freshness       float64
	Contribution    float64 // Alpha*Support*Authority*Freshness / |E|
	SelfReferential bool
	External        bool
}

// FactualResult is the outcome of the factual verification gate.
type FactualResult struct {
	// Score is V_fact (spec §12.2.3) and Threshold is tau_fact of the layer.
	Score     float64
	Threshold float64
	// Pass reports that Score reaches Threshold and no evidence rule is
	// broken. Reason is the first reason code of Violations.
	Pass       bool
	Reason     string
	Violations []string
	Parts      []EvidencePart
	// MeanAuthority is the average authority (spec §12.6.2 evidence quality and
	// spec §12.4.4 evidence_authority); MinAuthority and MaxAuthority are 0
	// without evidence. MaxAuthority is authority(m) of spec §12.4.6.
	MeanAuthority float64
	MinAuthority  float64
	MaxAuthority  float64
	// External counts the external evidence references (spec §12.11.4).
	External int
}

// FactualScore computes V_fact for a write to layer with evidence ev at time
// now (spec §12.2.3):
//
//	V_fact = 1/|E| * sum alpha_i * support_i * authority_i * freshness_i
//
// with freshness_i = exp(-lambda * (now - accessed_i)) and lambda = ln 2 /
// the layer's half-life. The write passes when V_fact >= tau_fact(layer) and
// the evidence rules hold: no self-referential evidence in the layers that
// forbid it (spec §12.11.3), every authority at least alpha_min(layer) (spec §12.11.3),
// and enough external evidence (spec §12.11.4). Without evidence V_fact is 0.
func (p Policy) FactualScore(layer string, ev []Evidence, now time.Time) FactualResult {
	e := p.Evidence
	threshold, ok := e.Threshold.Get(layer)
	if !ok {
		return FactualResult{Reason: ReasonUnknownLayer, Violations: []string{ReasonUnknownLayer}}
	}
	res := FactualResult{Threshold: threshold}
	halfLife, _ := e.FreshnessHalfLife.Get(layer)
	minAuth, _ := e.MinAuthority.Get(layer)
	minExt, _ := e.MinExternal.Get(layer)
	noSelf := slices.Contains(e.NoSelfReference, layer)

	weightSum := 0.0
	weights := make([]float64, len(ev))
	for i, x := range ev {
		w, ok := e.ClassWeights.Get(x.SourceType)
		if !ok || !(w > 0) {
			w = 1
		}
		weights[i] = w
		weightSum += w
	}

	// spec §12.11.3: reject writes where *all* evidence originates from the writing
	// agent itself. The prose and the mockups allow the agent's reasoning
	// next to external evidence; it still lowers V_fact by its authority.
	allSelf, lowAuth := len(ev) > 0, false
	n := float64(len(ev))
	for i, x := range ev {
		auth := unitClamp(x.Authority)
		if auth == 0 {
			auth, _ = e.Authority.Get(x.SourceType)
		}
		fresh := 1.0
		if halfLife > 0 {
			age := now.Sub(x.AccessedAt)
			if x.AccessedAt.IsZero() {
				fresh = 0
			} else if age > 0 {
				fresh = math.Exp(-math.Ln2 * age.Hours() / halfLife.Std().Hours())
			}
		}
		part := EvidencePart{
			SourceType:      x.SourceType,
			Alpha:           weights[i] * n / weightSum,
			Support:         unitClamp(x.Support),
			Authority:       auth,
			Freshness:       fresh,
			SelfReferential: x.SelfReferential || slices.Contains(e.SelfReferential, x.SourceType),
			External:        slices.Contains(e.External, x.SourceType),
		}
		part.Contribution = part.Alpha * part.Support * part.Authority * part.Freshness / n
		res.Score += part.Contribution
		res.Parts = append(res.Parts, part)

		res.MeanAuthority += auth / n
		if i == 0 || auth < res.MinAuthority {
			res.MinAuthority = auth
		}
		res.MaxAuthority = max(res.MaxAuthority, auth)
		if part.External {
			res.External++
		}
		allSelf = allSelf && part.SelfReferential
		lowAuth = lowAuth || auth < minAuth
	}
	res.Score = round9(res.Score)
	res.MeanAuthority = round9(res.MeanAuthority)

	if noSelf && allSelf {
		res.Violations = append(res.Violations, ReasonSelfReferential)
	}
	if lowAuth {
		res.Violations = append(res.Violations, ReasonLowAuthority)
	}
	if res.External < minExt {
		res.Violations = append(res.Violations, ReasonNoExternalEvidence)
	}
	if res.Score < threshold {
		res.Violations = append(res.Violations, ReasonLowFactualScore)
	}
	res.Pass = len(res.Violations) == 0
	if !res.Pass {
		res.Reason = res.Violations[0]
	}
	return res
}

// AdjustedConfidence computes c_adj (spec §12.4.4):
//
//	c_adj = b1*c_agent + b2*V_fact + b3*evidence_authority + b4*1[human_approved]
//
// Inputs outside [0,1] are clamped.
func (p Policy) AdjustedConfidence(agent, factual, authority float64, humanApproved bool) float64 {
	c := p.Calibration
	approved := 0.0
	if humanApproved {
		approved = 1
	}
	return round9(c.Agent*unitClamp(agent) + c.Factual*unitClamp(factual) +
		c.Authority*unitClamp(authority) + c.HumanApproved*approved)
}

// ValidationScore computes V_composite (spec §12.2.5):
//
//	V = w_s*1[schema valid] + w_f*V_fact + w_c*(1 - |C|/|candidates|)
//
// With no candidates the contradiction term is 1.
func (p Policy) ValidationScore(schemaValid bool, factual float64, contradictions, candidates int) float64 {
	w := p.Validation
	s := 0.0
	if schemaValid {
		s = 1
	}
	c := 1.0
	if candidates > 0 {
		c = 1 - unitClamp(float64(max(contradictions, 0))/float64(candidates))
	}
	return round9(w.Schema*s + w.Factual*unitClamp(factual) + w.Contradiction*c)
}

// RiskInput describes a write for the risk classification function (spec §12.6.2).
type RiskInput struct {
	Layer string
	// Contradiction reports that the contradiction gate found any.
	Contradiction bool
	// EvidenceAuthority is the average evidence authority, as
	// FactualResult.MeanAuthority.
	EvidenceAuthority float64
	// AdjustedConfidence is c_adj of the write.
	AdjustedConfidence float64
	// Consumers is the estimated number of downstream consumers.
	Consumers int
	// Novel reports that memory holds no prior knowledge on the topic.
	Novel bool
	// LowReputation reports that the writing agent is below theta_rep; its
	// writes need review whatever their score (spec §12.11.5).
	LowReputation bool
}

// RiskFactor is one term of R(w): Contribution = Weight * Value.
type RiskFactor struct {
	Name         string
	Weight       float64
	Value        float64
	Contribution float64
}

// RiskResult is the risk score, its approval tier and the terms that made
// it.
type RiskResult struct {
	Score   float64
	Tier    string
	Factors []RiskFactor
	// Escalated reports that LowReputation raised an AUTO_APPROVE tier to
	// ASYNC_REVIEW.
	Escalated bool
}

// String renders the breakdown for a reviewer, for example
// "0.25x0.80 + 0.20x0.00 + ... = 0.3013 -> ASYNC_REVIEW".
func (r RiskResult) String() string {
	var b strings.Builder
	for i, f := range r.Factors {
		if i > 0 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "%.2fx%.2f", f.Weight, f.Value)
	}
	fmt.Fprintf(&b, " = %s -> %s", strconv.FormatFloat(math.Round(r.Score*1e4)/1e4, 'f', -1, 64), r.Tier)
	if r.Escalated {
		b.WriteString(" (low reputation)")
	}
	return b.String()
}

// Risk computes R(w) = sum omega_i * f_i(w) and its approval tier (spec §12.6.2).
// The factors are, in order: layer (f_layer of the target layer), contradiction
// (1 or 0), evidence (1 - average authority), confidence (1 - c_adj), blast
// radius (consumers / blast saturation, at most 1) and novelty (1 or 0).
// An unknown layer counts as the riskiest, 1.
func (p Policy) Risk(in RiskInput) RiskResult {
	w := p.RiskModel.Weights
	layer, ok := p.RiskModel.Layer.Get(in.Layer)
	if !ok {
		layer = 1
	}
	blast := 0.0
	if in.Consumers > 0 && p.RiskModel.BlastSaturation > 0 {
		blast = min(1, float64(in.Consumers)/float64(p.RiskModel.BlastSaturation))
	}
	factors := []RiskFactor{
		{Name: "layer", Weight: w.Layer, Value: layer},
		{Name: "contradiction", Weight: w.Contradiction, Value: indicator(in.Contradiction)},
		{Name: "evidence", Weight: w.Evidence, Value: 1 - unitClamp(in.EvidenceAuthority)},
		{Name: "confidence", Weight: w.Confidence, Value: 1 - unitClamp(in.AdjustedConfidence)},
		{Name: "blast_radius", Weight: w.BlastRadius, Value: blast},
		{Name: "novelty", Weight: w.Novelty, Value: indicator(in.Novel)},
	}
	score := 0.0
	for i := range factors {
		factors[i].Contribution = factors[i].Weight * factors[i].Value
		score += factors[i].Contribution
	}
	res := RiskResult{Score: round9(score), Factors: factors}
	res.Tier = p.Tier(res.Score)
	if in.LowReputation && res.Tier == AutoApprove {
		res.Tier, res.Escalated = AsyncReview, true
	}
	return res
}

// Tier maps a risk score to its approval tier (spec §12.6.2): AUTO_APPROVE below
// async_from, SYNC_BLOCK at or above sync_from, ASYNC_REVIEW between. A NaN
// score is SYNC_BLOCK.
func (p Policy) Tier(score float64) string {
	switch {
	case math.IsNaN(score) || score >= p.RiskModel.SyncFrom:
		return SyncBlock
	case score >= p.RiskModel.AsyncFrom:
		return AsyncReview
	default:
		return AutoApprove
	}
}

func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// unitClamp clamps x to [0,1]; NaN becomes 0.
func unitClamp(x float64) float64 {
	switch {
	case !(x > 0):
		return 0
	case x > 1:
		return 1
	}
	return x
}

// round9 rounds x to nine decimal places, so sums of weights land on the
// cut-offs they are compared with (0.25*0.8 + 0.1 is 0.3, not 0.30000000000000004).
func round9(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	return math.Round(x*1e9) / 1e9
}
