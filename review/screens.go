package review

import (
	"context"
	"slices"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// What a console shows besides the decisions: how agent-written text is made
// safe to print, the reject codes, how an apply would be granted and the
// health report. A console (the TUI, a door) calls these rather than the
// engine or its gates, so that the way text is sanitised and the figures are
// read is the same wherever they are shown.

// SanitizeLine makes agent-written text safe to print on one line: escapes
// are removed, newlines become spaces and invisible characters are marked.
func SanitizeLine(s string) string { return guard.SanitizeLine(s) }

// Sanitize makes agent-written text safe to print, keeping its newlines.
func Sanitize(s string) string { return guard.Sanitize(s) }

// RejectCodes are the reason codes a rejection of a review carries, in the
// order a person is offered them.
func RejectCodes() []string { return slices.Clone(engine.RejectCodes) }

// Applied reports whether a proposal was applied (installed).
func Applied(p memgov.Proposal) bool { return p.State == memgov.ProposalApplied }

// ApplyGrant says by what the actor would be allowed to apply pr under the
// policy's activation mode, for the question asked before applying: through
// the approval gate, or by direct RBAC through the activation scope. It is
// only meaningful when CanApply(pr) is nil.
func (s *Service) ApplyGrant(pr memgov.Proposal) string {
	mode, err := authz.ActivationGate(s.eng.Policy().Proposals.Activation, s.actor, pr)
	if err == nil && mode == policy.ActivationDirectRBAC {
		return "by direct RBAC: you hold the " + authz.ScopeProposalActivate + " scope"
	}
	return "through the approval gate: you are a curator and not its owner"
}

// NamesPrincipal reports whether the entry registers a principal: its item
// id is then the principal's name, not an item.
func (e LogEvent) NamesPrincipal() bool { return e.Op == oplog.Principal }

// HealthReport is the memory-quality metrics (spec §12.12) with what a
// screen needs to explain the score: the weight of each figure and the band
// cut-offs of the policy that scored it.
type HealthReport struct {
	Metrics audit.Metrics
	// Weights is each figure's weight in the score, by the figure's metric
	// name (correctness_impact, induced_errors, retrieval_precision,
	// hallucination_leakage, write_acceptance, operational).
	Weights map[string]float64
	// HealthyFrom and DegradedFrom are the bands' lower bounds.
	HealthyFrom, DegradedFrom float64
}

// Partial reports whether the band is PARTIAL: what is measured reads
// healthy, but figures are missing.
func (h HealthReport) Partial() bool { return h.Metrics.Band == audit.HealthPartial }

// Latency is a validation latency in microseconds, over N writes.
type Latency struct {
	Stage         string
	N             int
	P50, P95, P99 float64
}

// Validation is the latency of whole validations.
func (h HealthReport) Validation() Latency {
	p := h.Metrics.LatencyUS
	return Latency{N: p.N, P50: p.P50, P95: p.P95, P99: p.P99}
}

// SlowestStages are the n validation stages with the highest p95, slowest
// first (ties by name); stages with no measurement are left out.
func (h HealthReport) SlowestStages(n int) []Latency {
	var out []Latency
	for k, p := range h.Metrics.StageLatencyUS {
		if p.N > 0 {
			out = append(out, Latency{Stage: k, N: p.N, P50: p.P50, P95: p.P95, P99: p.P99})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].P95 != out[j].P95 {
			return out[i].P95 > out[j].P95
		}
		return out[i].Stage < out[j].Stage
	})
	return out[:min(n, len(out))]
}

// Health reads the metrics and the policy that scores them.
func (s *Service) Health(ctx context.Context) (HealthReport, error) {
	m, err := s.eng.Audit().Metrics(ctx)
	if err != nil {
		return HealthReport{}, err
	}
	return healthReport(m, s.eng.Policy().Health), nil
}

func healthReport(m audit.Metrics, hp policy.Health) HealthReport {
	w := hp.Weights
	return HealthReport{Metrics: m, HealthyFrom: hp.HealthyFrom, DegradedFrom: hp.DegradedFrom,
		Weights: map[string]float64{
			"correctness_impact":    w.CorrectnessImpact,
			"induced_errors":        w.InducedErrors,
			"retrieval_precision":   w.RetrievalPrecision,
			"hallucination_leakage": w.HallucinationLeakage,
			"write_acceptance":      w.WriteAcceptance,
			"operational":           w.Operational,
		}}
}

// OnCall reports whether the actor is an on-call operator, whose console
// opens on drift (acknowledging it is their work) rather than the queue.
func (s *Service) OnCall() bool { return authz.IsOperator(s.actor) }
