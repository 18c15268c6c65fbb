package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Load reads the policy file at path, a YAML or JSON document, and overlays
// it on Default: fields absent from the file keep their defaults. Unknown
// fields are an error naming the field and its line. The result is
// validated.
func Load(path string) (Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Policy{}, fmt.Errorf("policy: %w", err)
	}
	p, err := Parse(data)
	if err != nil {
		return Policy{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse is Load for a policy document already in memory. An empty document
// yields Default.
func Parse(data []byte) (Policy, error) {
	p := Default()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil && !errors.Is(err, io.EOF) {
		return Policy{}, fmt.Errorf("policy: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return Policy{}, errors.New("policy: the file holds more than one document")
	}
	if err := p.Contradiction.overrideCardinalities(data); err != nil {
		return Policy{}, err
	}
	if err := p.Validate(); err != nil {
		return Policy{}, err
	}
	return p, nil
}

// YAML renders the effective policy, as `memgov policy show` prints it.
// Parse of the result yields p again.
func (p Policy) YAML() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("policy: render: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("policy: render: %w", err)
	}
	return b.Bytes(), nil
}

// Validate checks that every number is in range: weights that a formula sums
// are non-negative and sum to 1, thresholds lie in [0,1], cut-offs are
// ordered and durations are positive where they must be. Each problem names
// its field path, for example "risk.weights: sum is 1.05, want 1".
func (p Policy) Validate() error {
	v := &validator{}

	rl := p.RateLimits
	rl.Layers.each(func(l string, r RateLimit) {
		v.positive("rate_limits.layers."+l+".writes", float64(r.Writes))
		v.positiveDur("rate_limits.layers."+l+".window", r.Window)
	})
	rl.SessionBudget.each(func(r string, n int) {
		v.nonNegative("rate_limits.session_budget."+r, float64(n))
	})
	v.positiveDur("rate_limits.backoff_base", rl.BackoffBase)
	if rl.BackoffMax < rl.BackoffBase {
		v.addf("rate_limits.backoff_max: %s is below backoff_base %s", rl.BackoffMax, rl.BackoffBase)
	}

	ev := p.Evidence
	ev.Authority.each(func(s string, x float64) { v.unit("evidence.authority."+s, x) })
	ev.ClassWeights.each(func(s string, x float64) { v.positive("evidence.class_weights."+s, x) })
	ev.FreshnessHalfLife.each(func(l string, d Duration) { v.nonNegativeDur("evidence.freshness_half_life."+l, d) })
	ev.Threshold.each(func(l string, x float64) { v.unit("evidence.threshold."+l, x) })
	ev.MinAuthority.each(func(l string, x float64) { v.unit("evidence.min_authority."+l, x) })
	ev.MinExternal.each(func(l string, n int) { v.nonNegative("evidence.min_external."+l, float64(n)) })
	v.sources("evidence.external", ev.External)
	v.sources("evidence.self_referential", ev.SelfReferential)
	v.layers("evidence.no_self_reference", ev.NoSelfReference)

	v.unit("contradiction.topic_similarity", p.Contradiction.TopicSimilarity)
	v.unit("contradiction.nli_score", p.Contradiction.NLIScore)
	v.positive("contradiction.candidates", float64(p.Contradiction.Candidates))

	v.unit("dedup.semantic", p.Dedup.Semantic)
	v.unit("dedup.lexical", p.Dedup.Lexical)
	v.positive("dedup.neighbours", float64(p.Dedup.Neighbours))

	pr := p.Provenance
	for _, k := range sortedKeys(pr.Trust) {
		v.unit("provenance.trust."+k, pr.Trust[k])
	}
	v.unit("provenance.default_trust", pr.DefaultTrust)
	v.unit("provenance.verify_below", pr.VerifyBelow)
	v.positiveDur("provenance.verify_ttl", pr.VerifyTTL)
	v.positiveDur("provenance.stale_after", pr.StaleAfter)
	v.unit("provenance.stale_below", pr.StaleBelow)

	v.unit("confidence_decay.rate", p.ConfidenceDecay.Rate)
	v.positiveDur("confidence_decay.interval", p.ConfidenceDecay.Interval)
	v.unit("confidence_decay.evict_below", p.ConfidenceDecay.EvictBelow)

	c := p.Calibration
	v.weights("calibration", []string{"agent", "factual", "authority", "human_approved"},
		c.Agent, c.Factual, c.Authority, c.HumanApproved)
	vw := p.Validation
	v.weights("validation", []string{"schema", "factual", "contradiction"},
		vw.Schema, vw.Factual, vw.Contradiction)

	r := p.RiskModel
	v.weights("risk.weights", []string{"layer", "contradiction", "evidence", "confidence", "blast_radius", "novelty"},
		r.Weights.Layer, r.Weights.Contradiction, r.Weights.Evidence, r.Weights.Confidence, r.Weights.BlastRadius, r.Weights.Novelty)
	r.Layer.each(func(l string, x float64) { v.unit("risk.layer."+l, x) })
	v.positive("risk.blast_saturation", float64(r.BlastSaturation))
	v.unit("risk.async_from", r.AsyncFrom)
	v.unit("risk.sync_from", r.SyncFrom)
	if r.AsyncFrom >= r.SyncFrom {
		v.addf("risk.sync_from: %g must be above async_from %g", r.SyncFrom, r.AsyncFrom)
	}

	rv := p.Review
	v.positiveDur("review.async_sla", rv.AsyncSLA)
	v.positiveDur("review.sync_max_wait", rv.SyncMaxWait)
	v.positiveDur("review.lease_ttl", rv.LeaseTTL)
	if rv.LeaseMaxTTL < rv.LeaseTTL {
		v.addf("review.lease_max_ttl: %s is below lease_ttl %s", rv.LeaseMaxTTL, rv.LeaseTTL)
	}

	v.unit("reputation.threshold", p.Reputation.Threshold)
	v.nonNegative("reputation.min_writes", float64(p.Reputation.MinWrites))
	v.positiveDur("reputation.burst_window", p.Reputation.BurstWindow)
	v.positive("reputation.burst_limit", float64(p.Reputation.BurstLimit))
	v.positiveDur("reputation.quarantine_window", p.Reputation.QuarantineWindow)
	v.unit("reputation.quarantine_contradiction_rate", p.Reputation.QuarantineContradictionRate)
	v.nonNegative("reputation.quarantine_min_writes", float64(p.Reputation.QuarantineMinWrites))

	for _, k := range sortedKeys(p.WriteCriteria.TTL) {
		v.nonNegativeDur("write_criteria.ttl."+k, p.WriteCriteria.TTL[k])
	}

	p.Decay.Layers.each(func(l string, d LayerDecay) {
		v.nonNegative("decay.layers."+l+".lambda_per_day", d.LambdaPerDay)
		v.unit("decay.layers."+l+".gc_threshold", d.GCThreshold)
		v.nonNegativeDur("decay.layers."+l+".idle", d.Idle)
	})
	v.positiveDur("decay.access_window", p.Decay.AccessWindow)
	v.positiveDur("decay.grace", p.Decay.Grace)

	p.Retention.each(func(cl string, rr RetentionRule) {
		v.nonNegativeDur("retention."+cl+".max_age", rr.MaxAge)
		switch rr.Action {
		case HardDeleteAudit, SoftDeleteArchive, SoftDeleteCold, RelevanceGCOnly:
		default:
			v.addf("retention.%s.action: %q is not one of %s, %s, %s, %s", cl, rr.Action,
				HardDeleteAudit, SoftDeleteArchive, SoftDeleteCold, RelevanceGCOnly)
		}
	})

	order := p.Visibility.Order
	for _, cl := range []string{Public, General, Business, PII} {
		if n := count(order, cl); n != 1 {
			v.addf("visibility.order: %s appears %d times, want once", cl, n)
		}
	}
	if len(order) != 4 {
		v.addf("visibility.order: %d entries, want the 4 classifications", len(order))
	}

	p.RBAC.each(func(role string, g Grants) {
		for _, op := range []string{OpRead, OpWrite, OpAnnotate, OpDelete, OpHardDelete, OpApprove, OpAdmin} {
			ls, _ := g.layers(op)
			v.layers("rbac."+role+"."+op, ls)
		}
	})

	b := p.Baseline
	v.positiveDur("baseline.ttl_min", b.TTLMin)
	if b.TTLMax < b.TTLMin {
		v.addf("baseline.ttl_max: %s is below ttl_min %s", b.TTLMax, b.TTLMin)
	}
	// The bounds of spec §3.2.6 are normative: a policy may tighten them, never
	// loosen them.
	if b.TTLMin.Std() < NormativeTTLMin {
		v.addf("baseline.ttl_min: %s is below the normative minimum %s (spec §3.2.6); a policy may tighten the bounds, never loosen them", b.TTLMin, Duration(NormativeTTLMin))
	}
	if b.TTLMax.Std() > NormativeTTLMax {
		v.addf("baseline.ttl_max: %s is above the normative maximum %s (spec §3.2.6); a policy may tighten the bounds, never loosen them", b.TTLMax, Duration(NormativeTTLMax))
	}
	for _, lvl := range sortedKeys(b.DriftPolicies) {
		n, err := strconv.Atoi(lvl)
		if err != nil || n < 0 || strconv.Itoa(n) != lvl {
			v.addf("baseline.drift_policies.%s: a compliance level is a number 0 or above", lvl)
		}
		for _, dp := range b.DriftPolicies[lvl] {
			switch dp {
			case DenyOnDrift, AlertOnDrift, LogOnly:
				if err == nil && !NormativeDriftPolicy(n, dp) {
					v.addf("baseline.drift_policies.%s: %s is not allowed at compliance level %d: level %d and above require %s (spec §3.2.6); a policy may tighten the table, never loosen it",
						lvl, dp, n, DenyLevel, DenyOnDrift)
				}
			default:
				v.addf("baseline.drift_policies.%s: %q is not one of %s, %s, %s", lvl, dp, DenyOnDrift, AlertOnDrift, LogOnly)
			}
		}
	}
	v.positive("baseline.delta_budget", float64(b.DeltaBudget))
	switch p.Proposals.Activation {
	case ActivationApprovalGate, ActivationDirectRBAC:
	default:
		v.addf("proposals.activation: %q is not one of %s, %s", p.Proposals.Activation, ActivationApprovalGate, ActivationDirectRBAC)
	}

	rt := p.Retrieval
	v.positive("retrieval.rrf_k", rt.RRFK)
	v.nonNegative("retrieval.signals.semantic", rt.Signals.Semantic)
	v.nonNegative("retrieval.signals.structure", rt.Signals.Structure)
	v.nonNegative("retrieval.signals.recency", rt.Signals.Recency)
	v.nonNegative("retrieval.signals.keyword", rt.Signals.Keyword)
	u := rt.Utility
	v.weights("retrieval.utility", []string{"relevance", "confidence", "freshness", "authority"},
		u.Relevance, u.Confidence, u.Freshness, u.Authority)
	rt.TokenBudget.each(func(l string, n int) { v.nonNegative("retrieval.token_budget."+l, float64(n)) })

	h := p.Health
	hw := h.Weights
	v.weights("health.weights", []string{"correctness_impact", "retrieval_precision", "hallucination_leakage", "induced_errors", "write_acceptance", "operational"},
		hw.CorrectnessImpact, hw.RetrievalPrecision, hw.HallucinationLeakage, hw.InducedErrors, hw.WriteAcceptance, hw.Operational)
	v.unit("health.healthy_from", h.HealthyFrom)
	v.unit("health.degraded_from", h.DegradedFrom)
	if h.DegradedFrom >= h.HealthyFrom {
		v.addf("health.healthy_from: %g must be above degraded_from %g", h.HealthyFrom, h.DegradedFrom)
	}
	v.unit("health.deploy_gate", h.DeployGate)
	v.positive("health.correctness_target", h.CorrectnessTarget)
	v.positive("health.precision_target", h.PrecisionTarget)
	v.positive("health.leakage_ceiling", h.LeakageCeiling)
	v.positive("health.error_ceiling", h.ErrorCeiling)
	v.unit("health.acceptance_low", h.AcceptanceLow)
	v.unit("health.acceptance_high", h.AcceptanceHigh)
	if h.AcceptanceHigh < h.AcceptanceLow {
		v.addf("health.acceptance_high: %g is below acceptance_low %g", h.AcceptanceHigh, h.AcceptanceLow)
	}
	v.positive("health.acceptance_tolerance", h.AcceptanceTolerance)

	if p.Residency.StoreRegion == "" {
		v.addf("residency.store_region: must not be empty")
	}

	for i, s := range p.ReferenceOnly.Sources {
		if s.Text == "" {
			v.addf("reference_only.sources[%d].text: must not be empty", i)
		}
	}
	v.unit("reference_only.threshold", p.ReferenceOnly.Threshold)

	v.positive("promotion.corroborations", float64(p.Promotion.Corroborations))
	v.positive("promotion.failed_corroborations", float64(p.Promotion.FailedCorroborations))

	v.judgement(p)
	if len(v.errs) == 0 {
		return nil
	}
	return fmt.Errorf("policy: invalid: %w", errors.Join(v.errs...))
}

// weightTolerance absorbs float rounding when weights are summed.
const weightTolerance = 1e-9

type validator struct{ errs []error }

func (v *validator) addf(format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf(format, args...))
}

func (v *validator) unit(path string, x float64) {
	if !(x >= 0 && x <= 1) {
		v.addf("%s: %g is outside [0,1]", path, x)
	}
}

func (v *validator) positive(path string, x float64) {
	if !(x > 0) || math.IsInf(x, 0) {
		v.addf("%s: %g must be positive", path, x)
	}
}

func (v *validator) nonNegative(path string, x float64) {
	if !(x >= 0) || math.IsInf(x, 0) {
		v.addf("%s: %g must not be negative", path, x)
	}
}

func (v *validator) positiveDur(path string, d Duration) {
	if d <= 0 {
		v.addf("%s: %s must be positive", path, d)
	}
}

func (v *validator) nonNegativeDur(path string, d Duration) {
	if d < 0 {
		v.addf("%s: %s must not be negative", path, d)
	}
}

func (v *validator) weights(path string, names []string, ws ...float64) {
	sum := 0.0
	for i, w := range ws {
		v.unit(path+"."+names[i], w)
		sum += w
	}
	if math.Abs(sum-1) > weightTolerance {
		v.addf("%s: sum is %g, want 1", path, sum)
	}
}

func (v *validator) layers(path string, ls []string) {
	for _, l := range ls {
		if _, ok := (PerLayer[bool]{}).Get(l); !ok {
			v.addf("%s: %q is not a memory layer", path, l)
		}
	}
}

func (v *validator) sources(path string, ss []string) {
	for _, s := range ss {
		if _, ok := (PerSource[bool]{}).Get(s); !ok {
			v.addf("%s: %q is not an evidence source type", path, s)
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
