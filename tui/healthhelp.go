package tui

import (
	"fmt"
	"strings"

	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/engine/policy"
)

// healthFigures names the figures of the health score (spec §12.12.7) as a
// person reads them, with why each may be missing.
var healthFigures = []struct{ name, words, missing string }{
	{"correctness_impact", "correctness impact", "needs task outcomes"},
	{"induced_errors", "induced errors", "needs task outcomes"},
	{"retrieval_precision", "retrieval precision", "no retrieval feedback yet"},
	{"hallucination_leakage", "hallucination leakage", "no re-validation yet"},
	{"write_acceptance", "write acceptance", "no writes yet"},
	{"operational", "operational health", ""},
}

// healthWeight is the weight of one figure in the score.
func healthWeight(w policy.HealthWeights, name string) float64 {
	switch name {
	case "correctness_impact":
		return w.CorrectnessImpact
	case "induced_errors":
		return w.InducedErrors
	case "retrieval_precision":
		return w.RetrievalPrecision
	case "hallucination_leakage":
		return w.HallucinationLeakage
	case "write_acceptance":
		return w.WriteAcceptance
	case "operational":
		return w.Operational
	}
	return 0
}

// Ways of explaining the health badge.
const (
	healthParagraph = iota // the help: every figure, the bands, PARTIAL
	healthLine             // the Activity panel at wide sizes
	healthTiny             // the Activity panel at narrow sizes
	healthHelpShort        // the help when it must be compact (80x24)
)

// explainHealth says what the health badge ("PARTIAL 0.96") means: which
// figures make the score and which of them are measured, the bands, and why
// it is PARTIAL.
func explainHealth(m audit.Metrics, hp policy.Health, how int) string {
	unmeasured := map[string]bool{}
	for _, u := range m.Unmeasured {
		unmeasured[u] = true
	}
	var measured, missing, missingWhy []string
	for _, f := range healthFigures {
		if healthWeight(hp.Weights, f.name) == 0 {
			continue
		}
		if unmeasured[f.name] {
			missing = append(missing, f.words)
			missingWhy = append(missingWhy, f.words+" ("+f.missing+")")
		} else {
			measured = append(measured, f.words)
		}
	}
	bands := fmt.Sprintf("HEALTHY from %.2f, DEGRADED from %.2f, else CRITICAL", hp.HealthyFrom, hp.DegradedFrom)
	badge := fmt.Sprintf("%s %.2f", m.Band, m.Health)
	share := fmt.Sprintf("%.0f%% of the weight", m.MeasuredShare*100)
	switch how {
	case healthTiny:
		s := badge + ": weighted mean of what is measured (" + share + ")"
		if len(missing) > 0 {
			s += "; not measured: " + strings.Join(missing, ", ")
		}
		return s + fmt.Sprintf(" · HEALTHY ≥ %.2f, DEGRADED ≥ %.2f", hp.HealthyFrom, hp.DegradedFrom)
	case healthHelpShort:
		s := badge + " = weighted mean of the measured figures (" + share + ")"
		if len(missing) > 0 {
			s += "; not measured: " + strings.Join(missing, ", ")
		}
		s += fmt.Sprintf(" · HEALTHY ≥ %.2f, DEGRADED ≥ %.2f, else CRITICAL", hp.HealthyFrom, hp.DegradedFrom)
		if m.Band == audit.HealthPartial {
			s += fmt.Sprintf(" · PARTIAL: healthy so far, incomplete (%.2f at worst)", m.HealthLowerBound)
		}
		return s
	case healthLine:
		s := badge + " is the weighted mean of the measured figures above (" + share + ")"
		if len(missing) > 0 {
			s += "; not measured: " + strings.Join(missing, ", ")
		}
		s += " · " + bands
		if m.Band == audit.HealthPartial {
			s += fmt.Sprintf(" · PARTIAL: healthy so far but incomplete; %.2f at worst", m.HealthLowerBound)
		}
		return s
	}
	s := fmt.Sprintf("%s (top right) is memory health from 0 to 1, a weighted mean of the figures memgov measures: %s (%s).",
		badge, strings.Join(measured, ", "), share)
	if len(missingWhy) > 0 {
		s += " Not measured: " + strings.Join(missingWhy, ", ") + "."
	}
	s += " " + bands + "."
	if m.Band == audit.HealthPartial {
		s += fmt.Sprintf(" PARTIAL: what is measured reads healthy, but a score with figures missing cannot claim HEALTHY; with them at their worst it is %.2f.", m.HealthLowerBound)
	}
	return s + " The Activity screen shows each figure."
}

// explain is explainHealth of the metrics last read; "" before they are.
func (h *health) explain(how int) string {
	if !h.loaded || h.err != nil || h.m.Band == "" {
		return ""
	}
	return explainHealth(h.m, h.ctx.Svc.HealthPolicy(), how)
}
