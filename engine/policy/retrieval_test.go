package policy

import (
	"math"
	"testing"
)

// Spec §13.5: RRF with k = 60.
func TestRRF(t *testing.T) {
	tests := []struct {
		name  string
		ranks []int
		want  float64
	}{
		{"first in one list", []int{1}, 1.0 / 61},
		{"first and third", []int{1, 3}, 1.0/61 + 1.0/63},
		{"absent from every list", []int{0, -1}, 0},
		{"no lists", nil, 0},
	}
	for _, tt := range tests {
		if got := Default().RRF(tt.ranks...); !near(got, tt.want) {
			t.Errorf("%s: RRF = %v, want %v", tt.name, got, tt.want)
		}
	}
	p := Default()
	p.Retrieval.Signals = SignalWeights{Semantic: 0.5, Structure: 1, Recency: 2, Keyword: 1}
	if got, want := p.HybridRRF(Ranks{Semantic: 1, Recency: 2, Keyword: 3}), 0.5/61+2.0/62+1.0/63; !near(got, want) {
		t.Errorf("HybridRRF = %v, want %v", got, want)
	}
	// The defaults: keywords and structure weigh 1, the built-in embeddings
	// half, recency nothing (it orders equal scores).
	if w := Default().Retrieval.Signals; w != (SignalWeights{Semantic: 0.5, Structure: 1, Recency: 0, Keyword: 1}) {
		t.Errorf("default signal weights %+v", w)
	}
}

// spec §12.4.6: U = g1 relevance + g2 c_adj + g3 freshness + g4 authority, with
// memgov's gammas 0.4 / 0.2 / 0.2 / 0.2.
func TestProvenanceWeight(t *testing.T) {
	tests := []struct {
		s    RetrievalSignals
		want float64
	}{
		{RetrievalSignals{1, 1, 1, 1}, 1},
		{RetrievalSignals{0.9, 0.625, 0.5, 1}, 0.4*0.9 + 0.2*0.625 + 0.2*0.5 + 0.2*1},
		{RetrievalSignals{0.9, 0.625, 0.5, 0.3}, 0.4*0.9 + 0.2*0.625 + 0.2*0.5 + 0.2*0.3},
		{RetrievalSignals{2, -1, math.NaN(), 0}, 0.4},
	}
	for _, tt := range tests {
		if got := Default().ProvenanceWeight(tt.s); !near(got, tt.want) {
			t.Errorf("ProvenanceWeight(%+v) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// spec §12.12.7: H = 0.25 MCI + 0.20 MRP + 0.20 (1-HLR) + 0.15 (1-MIER) +
// 0.10 WAR-distance + 0.10 operational; HEALTHY >= 0.8 > DEGRADED >= 0.6 > CRITICAL.
func TestHealthScore(t *testing.T) {
	tests := []struct {
		name  string
		m     Metrics
		score float64
		band  string
	}{
		{
			name:  "every metric at its target",
			m:     Metrics{CorrectnessImpact: 0.1, RetrievalPrecision: 0.7, WriteAcceptance: 0.6, Operational: 1},
			score: 1, band: Healthy,
		},
		{
			name: "MCI half its target, HLR at the 0.05 trigger, operational 0.8",
			m: Metrics{CorrectnessImpact: 0.05, RetrievalPrecision: 0.7, HallucinationLeakage: 0.05,
				WriteAcceptance: 0.6, Operational: 0.8},
			score: 0.25*0.5 + 0.20*1 + 0.20*0.5 + 0.15*1 + 0.10*1 + 0.10*0.8, band: Degraded,
		},
		{
			name:  "memory that does not help, accepts nothing and is not operational",
			m:     Metrics{},
			score: 0.20 + 0.15, band: Critical,
		},
		{
			name:  "harmful memory and errors over the ceilings",
			m:     Metrics{CorrectnessImpact: -0.3, RetrievalPrecision: 0.35, HallucinationLeakage: 0.5, InducedErrors: 0.1, WriteAcceptance: 1, Operational: 1},
			score: 0.20*0.5 + 0.10*0.5 + 0.10*1, band: Critical,
		},
		{
			name:  "WAR 0.96 sits 0.16 above the range",
			m:     Metrics{CorrectnessImpact: 1, RetrievalPrecision: 1, WriteAcceptance: 0.96, Operational: 1},
			score: 0.9 + 0.10*(1-0.16/0.4), band: Healthy,
		},
		{
			name:  "NaN metrics count as 0",
			m:     Metrics{CorrectnessImpact: math.NaN(), RetrievalPrecision: math.NaN(), HallucinationLeakage: math.NaN(), InducedErrors: math.NaN(), WriteAcceptance: math.NaN(), Operational: math.NaN()},
			score: 0, band: Critical,
		},
	}
	for _, tt := range tests {
		score, band := Default().HealthScore(tt.m)
		if !near(score, tt.score) || band != tt.band {
			t.Errorf("%s: HealthScore = %v %s, want %v %s", tt.name, score, band, tt.score, tt.band)
		}
	}
}

func TestHealthBand(t *testing.T) {
	for score, want := range map[float64]string{1: Healthy, 0.8: Healthy, 0.7999: Degraded, 0.6: Degraded, 0.5999: Critical, 0: Critical} {
		if got := Default().HealthBand(score); got != want {
			t.Errorf("HealthBand(%v) = %s, want %s", score, got, want)
		}
	}
}

// spec §12.3.2: cosine similarity 0.95 makes a near-duplicate.
func TestNearDuplicate(t *testing.T) {
	for cos, want := range map[float64]bool{1: true, 0.95: true, 0.9499: false, 0: false} {
		if got := Default().NearDuplicate(cos); got != want {
			t.Errorf("NearDuplicate(%v) = %v, want %v", cos, got, want)
		}
	}
}

// Spec §13.13: canonical sources are referenced, never copied.
func TestReferenceMatch(t *testing.T) {
	p := Default()
	p.ReferenceOnly.Sources = []ReferenceSource{
		{URI: "rules://conformity/7", Text: "The conformity gate requires authoritative-source citations for Authoritative-tier promotion."},
		{URI: "rules://retention/2", Text: "Persistent memory is durable by definition."},
	}
	tests := []struct {
		name  string
		text  string
		uri   string
		found bool
	}{
		{"a verbatim copy with other case and spacing", "the conformity gate  requires\nauthoritative-source citations", "rules://conformity/7", true},
		{"the second source", "Persistent memory is durable by definition.", "rules://retention/2", true},
		{"an unrelated note", "User prefers metric units for weather reports.", "", false},
		{"too short to compare", "ab", "", false},
	}
	for _, tt := range tests {
		uri, sim, found := p.ReferenceMatch(tt.text)
		if found != tt.found || (tt.found && uri != tt.uri) {
			t.Errorf("%s: ReferenceMatch = %q %v %v, want %q found %v", tt.name, uri, sim, found, tt.uri, tt.found)
		}
	}
	if _, _, found := Default().ReferenceMatch("anything at all"); found {
		t.Error("ReferenceMatch without sources found a match")
	}
}
