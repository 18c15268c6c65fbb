package policy

import (
	"math"
	"strings"
	"unicode"
)

// RRF fuses ranks by reciprocal rank fusion (spec §13.5):
// sum 1/(k + rank). Ranks start at 1; a rank below 1 means the item is
// absent from that list and adds nothing.
func (p Policy) RRF(ranks ...int) float64 {
	s := 0.0
	for _, r := range ranks {
		if r >= 1 {
			s += 1 / (p.Retrieval.RRFK + float64(r))
		}
	}
	return s
}

// Ranks are an item's ranks in the lists of hybrid retrieval; 0 means
// absent from the list.
type Ranks struct {
	Semantic  int
	Structure int
	Recency   int
	Keyword   int
}

// HybridRRF fuses an item's ranks, weighting each list by the policy's
// signal weights: sum w_s/(k + rank_s).
func (p Policy) HybridRRF(r Ranks) float64 {
	w := p.Retrieval.Signals
	return w.Keyword*p.RRF(r.Keyword) + w.Semantic*p.RRF(r.Semantic) + w.Structure*p.RRF(r.Structure) + w.Recency*p.RRF(r.Recency)
}

// RetrievalSignals are the inputs of provenance-weighted retrieval, each in
// [0,1] (spec §12.4.6).
type RetrievalSignals struct {
	Relevance  float64 // relevance(m, q)
	Confidence float64 // c_adj(m)
	Freshness  float64 // freshness(m)
	Authority  float64 // max authority of m's evidence
}

// ProvenanceWeight computes the retrieval utility U(m, q) (spec §12.4.6):
// g1*relevance + g2*c_adj + g3*freshness + g4*authority.
func (p Policy) ProvenanceWeight(s RetrievalSignals) float64 {
	g := p.Retrieval.Utility
	return round9(g.Relevance*unitClamp(s.Relevance) + g.Confidence*unitClamp(s.Confidence) +
		g.Freshness*unitClamp(s.Freshness) + g.Authority*unitClamp(s.Authority))
}

// Metrics are the raw quality metrics of spec §12.12 that feed the health score.
type Metrics struct {
	CorrectnessImpact    float64 // MCI, in [-1,1] (spec §12.12.5)
	RetrievalPrecision   float64 // mean MRP (spec §12.12.4)
	HallucinationLeakage float64 // HLR (spec §12.12.5)
	InducedErrors        float64 // MIER (spec §12.12.5)
	WriteAcceptance      float64 // WAR (spec §12.12.3)
	Operational          float64 // operational health composite, in [0,1]
}

// HealthScore computes H_memory = sum w_i * normalized(M_i) and its band
// (spec §12.12.7). Normalisation maps each metric to [0,1], 1 being optimal:
// MCI/correctness_target and MRP/precision_target, capped at 1; HLR and MIER
// inverted as 1 - x/ceiling, floored at 0; WAR as 1 inside its target range,
// falling linearly to 0 at acceptance_tolerance outside it; the operational
// composite as given. A NaN metric counts as 0.
func (p Policy) HealthScore(m Metrics) (score float64, band string) {
	h := p.Health
	w := h.Weights
	war := m.WriteAcceptance
	dist := 0.0
	switch {
	case war < h.AcceptanceLow:
		dist = h.AcceptanceLow - war
	case war > h.AcceptanceHigh:
		dist = war - h.AcceptanceHigh
	}
	warNorm := 1 - unitClamp(dist/h.AcceptanceTolerance)
	if math.IsNaN(war) {
		warNorm = 0
	}
	score = w.CorrectnessImpact*unitClamp(m.CorrectnessImpact/h.CorrectnessTarget) +
		w.RetrievalPrecision*unitClamp(m.RetrievalPrecision/h.PrecisionTarget) +
		w.HallucinationLeakage*inverted(m.HallucinationLeakage, h.LeakageCeiling) +
		w.InducedErrors*inverted(m.InducedErrors, h.ErrorCeiling) +
		w.WriteAcceptance*warNorm +
		w.Operational*unitClamp(m.Operational)
	score = round9(score)
	return score, p.HealthBand(score)
}

// HealthBand maps a health score to HEALTHY, DEGRADED or CRITICAL (spec §12.12.7).
func (p Policy) HealthBand(score float64) string {
	switch {
	case score >= p.Health.HealthyFrom:
		return Healthy
	case score >= p.Health.DegradedFrom:
		return Degraded
	default:
		return Critical
	}
}

func inverted(x, ceiling float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return 1 - unitClamp(x/ceiling)
}

// NearDuplicate reports whether a candidate at this cosine similarity is a
// near-duplicate under tier 3 of deduplication (spec §12.3.2).
func (p Policy) NearDuplicate(cosine float64) bool {
	return cosine >= p.Dedup.Semantic
}

// ReferenceMatch reports whether text copies one of the reference-only
// sources (spec §13.13): the fraction of text's character trigrams
// (case-folded, whitespace collapsed) found in a source reaches the
// threshold. It returns the best-matching source's URI and that fraction.
// Text shorter than three characters matches nothing.
func (p Policy) ReferenceMatch(text string) (uri string, similarity float64, found bool) {
	t := trigrams(text)
	if len(t) == 0 {
		return "", 0, false
	}
	for _, src := range p.ReferenceOnly.Sources {
		s := trigrams(src.Text)
		shared := 0
		for g := range t {
			if _, ok := s[g]; ok {
				shared++
			}
		}
		if f := float64(shared) / float64(len(t)); f > similarity {
			uri, similarity = src.URI, f
		}
	}
	return uri, similarity, similarity > 0 && similarity >= p.ReferenceOnly.Threshold
}

func trigrams(s string) map[string]struct{} {
	rs := []rune(strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " "))
	out := make(map[string]struct{}, len(rs))
	for i := 0; i+3 <= len(rs); i++ {
		out[string(rs[i:i+3])] = struct{}{}
	}
	return out
}
