package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Percentiles summarise a latency or staleness distribution.
type Percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

func percentiles(xs []float64) Percentiles {
	if len(xs) == 0 {
		return Percentiles{}
	}
	sort.Float64s(xs)
	at := func(p float64) float64 { // nearest rank
		i := int(math.Ceil(p*float64(len(xs)))) - 1
		return xs[max(0, min(i, len(xs)-1))]
	}
	return Percentiles{N: len(xs), P50: at(0.50), P95: at(0.95), P99: at(0.99)}
}

// Metrics are the memory quality metrics of spec §12.12 over a window.
type Metrics struct {
	Since              time.Time              `json:"since"`
	Writes             int                    `json:"writes"`
	ByStatus           map[string]int         `json:"by_status"`
	WriteAcceptance    float64                `json:"write_acceptance_rate"`          // WAR: COMMITTED / writes
	AcceptanceByLayer  map[string]float64     `json:"write_acceptance_by_layer"`      // WAR(l)
	Rejections         map[string]int         `json:"rejection_reasons"`              // REJECTED and DENIED by reason
	RejectionShare     map[string]float64     `json:"rejection_reason_distribution"`  // P(reason | rejected)
	StageLatencyUS     map[string]Percentiles `json:"validation_latency_us_by_stage"` // per stage, microseconds
	LatencyUS          Percentiles            `json:"validation_latency_us"`
	DedupHitRate       float64                `json:"dedup_hit_rate"`
	Retrievals         int                    `json:"retrievals"`
	RetrievalsJudged   int                    `json:"retrievals_with_feedback"`
	RetrievalPrecision *float64               `json:"retrieval_precision"` // mean MRP; null without feedback
	StalenessHours     Percentiles            `json:"staleness_at_retrieval_hours"`
	Revalidated        int                    `json:"revalidated"`
	HallucinationLeak  *float64               `json:"hallucination_leakage_rate"` // HLR; null without a sweep
	// Task outcomes reported with memgov feedback: with memory (a
	// retrieval served the task) and with memory withheld (ablated).
	TasksWithMemory int `json:"tasks_with_memory"`
	TasksWithheld   int `json:"tasks_memory_withheld"`
	// CorrectnessImpact is MCI (spec §12.12.5): the success rate of tasks
	// with memory minus that of tasks with memory withheld; null until both
	// were reported.
	CorrectnessImpact *float64 `json:"memory_correctness_impact"`
	// InducedErrors is MIER (spec §12.12.5): failures whose root cause was
	// memory over the tasks reported; null until a task was reported.
	InducedErrors   *float64       `json:"memory_induced_error_rate"`
	LayerSizes      map[string]int `json:"store_size_by_layer"`
	GCExpired       int            `json:"gc_expired"`
	LockContention  *float64       `json:"lock_contention_rate"`
	ErasureHoursMax *float64       `json:"erasure_completion_hours_max"`
	PastTTL         int            `json:"items_past_ttl"`
	Operational     float64        `json:"operational_health"`
	// Health is H_memory over the measured metrics. It is PARTIAL when a
	// metric has no data: MeasuredShare is the share of the weight measured,
	// HealthLowerBound the score with every unmeasured metric at its worst,
	// and Band is PARTIAL where the measured score alone would read healthy
	// (MeasuredBand is the band of the measured score).
	Health           float64 `json:"health_score"`
	Band             string  `json:"health_band"`
	Status           string  `json:"health_status"` // COMPLETE or PARTIAL
	MeasuredShare    float64 `json:"health_measured_share"`
	HealthLowerBound float64 `json:"health_lower_bound"`
	MeasuredBand     string  `json:"health_band_measured"`
	// Measured names the health score's metrics computed from data;
	// Unmeasured the others, and UnmeasuredWhy what would measure each.
	Measured      []string          `json:"measured"`
	Unmeasured    []string          `json:"unmeasured"`
	UnmeasuredWhy map[string]string `json:"unmeasured_why"`
}

// Health statuses.
const (
	HealthComplete = "COMPLETE"
	HealthPartial  = "PARTIAL"
)

// Gate reports whether the health score clears a deployment gate (spec §12.12.8):
// its lower bound (unmeasured metrics counted at their worst) must reach
// threshold, so a partial score passes only on what was measured.
func (m Metrics) Gate(threshold float64) bool { return m.HealthLowerBound >= threshold }

// Metrics computes the quality metrics of spec §12.12 over the last 30 days.
func (e *Engine) Metrics(ctx context.Context) (Metrics, error) {
	return e.MetricsSince(ctx, e.Now().Add(-30*24*time.Hour))
}

// MetricsSince computes the quality metrics over writes, reads, sweeps and
// reported task outcomes since a time, and the composite health score
// H_memory (spec §12.12.7). Metrics without data (MCI needs task outcomes with
// and without memory, MIER task outcomes, both reported with memgov feedback)
// are left out and the weights of the rest renormalised; Measured and
// Unmeasured name them.
func (e *Engine) MetricsSince(ctx context.Context, since time.Time) (Metrics, error) {
	m := Metrics{Since: since, ByStatus: map[string]int{}, AcceptanceByLayer: map[string]float64{}, Rejections: map[string]int{},
		RejectionShare: map[string]float64{}, StageLatencyUS: map[string]Percentiles{}}
	var d memgov.MetricsData
	now := e.Now()
	if err := e.foldReads(ctx); err != nil {
		return m, err
	}
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		d, err = tx.MetricsData(ctx, since, now)
		return err
	})
	if err != nil {
		return m, err
	}
	stages := map[string][]float64{}
	var total []float64
	layerW, layerC := map[string]int{}, map[string]int{}
	dedup, rejected := 0, 0
	for _, o := range d.Outcomes {
		m.Writes++
		m.ByStatus[o.Status]++
		layerW[o.Layer]++
		if o.Status == memgov.StatusCommitted {
			layerC[o.Layer]++
		}
		if o.Status == memgov.StatusRejected || o.Status == memgov.StatusDenied {
			rejected++
			m.Rejections[o.Reason]++
		}
		switch {
		case o.Reason == gate.ReasonExactDuplicate || o.Reason == gate.ReasonStructuralDup || o.Reason == gate.ReasonSemanticDuplicate, o.Status == memgov.StatusMerged:
			dedup++
		}
		total = append(total, float64(o.LatencyUS))
		for k, v := range o.Stages {
			stages[k] = append(stages[k], float64(v))
		}
	}
	for k, xs := range stages {
		m.StageLatencyUS[k] = percentiles(xs)
	}
	m.LatencyUS = percentiles(total)
	if m.Writes > 0 {
		m.WriteAcceptance = round4(float64(m.ByStatus[memgov.StatusCommitted]) / float64(m.Writes))
		m.DedupHitRate = round4(float64(dedup) / float64(m.Writes))
	}
	for l, n := range layerW {
		m.AcceptanceByLayer[l] = round4(float64(layerC[l]) / float64(n))
	}
	for r, n := range m.Rejections {
		m.RejectionShare[r] = round4(float64(n) / float64(rejected))
	}
	m.Retrievals, m.RetrievalsJudged = d.RetrievalsTotal, len(d.Retrievals)
	if len(d.Retrievals) > 0 {
		sum := 0.0
		for _, r := range d.Retrievals {
			sum += float64(r.Used) / float64(r.N)
		}
		v := round4(sum / float64(len(d.Retrievals)))
		m.RetrievalPrecision = &v
	}
	st := make([]float64, len(d.StalenessMS))
	for i, s := range d.StalenessMS {
		st[i] = round4(float64(s) / 3.6e6)
	}
	m.StalenessHours = percentiles(st)
	m.Revalidated = d.Revalidated
	if d.Revalidated > 0 {
		v := round4(float64(d.RevalidationFailed) / float64(d.Revalidated))
		m.HallucinationLeak = &v
	}
	m.CorrectnessImpact, m.InducedErrors, m.TasksWithMemory, m.TasksWithheld = taskMetrics(d.Tasks)
	m.LayerSizes, m.GCExpired, m.PastTTL = d.LayerSizes, d.GCExpired, d.PastTTL
	var ops []float64
	if n := d.LeaseGranted + d.LeaseDenied; n > 0 {
		v := round4(float64(d.LeaseDenied) / float64(n))
		m.LockContention = &v
		ops = append(ops, math.Max(0, 1-v/0.1)) // spec §12.12.6 target < 0.1
	}
	subj := 0
	onTime := 0
	for _, er := range d.Erasures {
		if er.Kind != memgov.EraseSubject {
			continue
		}
		subj++
		h := er.CompletedAt.Sub(er.RequestedAt).Hours()
		if m.ErasureHoursMax == nil || h > *m.ErasureHoursMax {
			v := round4(h)
			m.ErasureHoursMax = &v
		}
		if h < 72 { // spec §12.12.6 GDPR target < 72 hours
			onTime++
		}
	}
	if subj > 0 {
		ops = append(ops, float64(onTime)/float64(subj))
	}
	active := 0
	for _, n := range d.LayerSizes {
		active += n
	}
	if active > 0 {
		ops = append(ops, 1-float64(d.PastTTL)/float64(active))
	}
	m.Operational = 1
	if len(ops) > 0 {
		sum := 0.0
		for _, x := range ops {
			sum += x
		}
		m.Operational = round4(sum / float64(len(ops)))
	}
	e.health(&m)
	return m, nil
}

// health computes H_memory with policy.HealthScore over the measured metrics
// only: H is linear in the normalised metrics, so each one's normalised value
// is read off HealthScore against a baseline where every metric normalises to 0.
func (e *Engine) health(m *Metrics) {
	pol := e.policy
	h := pol.Health
	zero := policy.Metrics{CorrectnessImpact: -1, RetrievalPrecision: 0, HallucinationLeakage: h.LeakageCeiling * 10,
		InducedErrors: h.ErrorCeiling * 10, WriteAcceptance: -10, Operational: 0}
	base, _ := pol.HealthScore(zero)
	type part struct {
		name string
		w    float64
		set  func(*policy.Metrics)
		ok   bool
		why  string // what would measure it
	}
	parts := []part{
		{"correctness_impact", h.Weights.CorrectnessImpact, func(x *policy.Metrics) { x.CorrectnessImpact = deref(m.CorrectnessImpact) }, m.CorrectnessImpact != nil,
			"task outcomes with memory (memgov feedback RETRIEVAL_ID --outcome success|failure) and with memory withheld (memgov feedback --ablated --outcome success|failure)"},
		{"induced_errors", h.Weights.InducedErrors, func(x *policy.Metrics) { x.InducedErrors = deref(m.InducedErrors) }, m.InducedErrors != nil,
			"task outcomes (memgov feedback RETRIEVAL_ID --outcome failure --memory-caused for a failure memory caused)"},
		{"retrieval_precision", h.Weights.RetrievalPrecision, func(x *policy.Metrics) { x.RetrievalPrecision = deref(m.RetrievalPrecision) }, m.RetrievalPrecision != nil,
			"usage feedback (memgov feedback RETRIEVAL_ID --used KEY)"},
		{"hallucination_leakage", h.Weights.HallucinationLeakage, func(x *policy.Metrics) { x.HallucinationLeakage = deref(m.HallucinationLeak) }, m.HallucinationLeak != nil,
			"a re-validation sweep (memgov metrics --revalidate N)"},
		{"write_acceptance", h.Weights.WriteAcceptance, func(x *policy.Metrics) { x.WriteAcceptance = m.WriteAcceptance }, m.Writes > 0,
			"governed writes in the window"},
		{"operational", h.Weights.Operational, func(x *policy.Metrics) { x.Operational = m.Operational }, true, ""},
	}
	var sum, wsum, wall float64
	m.Measured, m.Unmeasured, m.UnmeasuredWhy = []string{}, []string{}, map[string]string{}
	for _, p := range parts {
		wall += p.w
		if p.w == 0 {
			continue
		}
		if !p.ok {
			m.Unmeasured = append(m.Unmeasured, p.name)
			m.UnmeasuredWhy[p.name] = p.why
			continue
		}
		m.Measured = append(m.Measured, p.name)
		x := zero
		p.set(&x)
		s, _ := pol.HealthScore(x)
		sum += s - base
		wsum += p.w
	}
	m.Status = HealthComplete
	if len(m.Unmeasured) > 0 {
		m.Status = HealthPartial
	}
	if wall > 0 {
		m.MeasuredShare = round4(wsum / wall)
		m.HealthLowerBound = round4(sum / wall)
	}
	if wsum > 0 {
		m.Health = round4(sum / wsum)
	}
	// A partial score cannot claim the healthy band; a degraded or critical
	// reading stands, since the unmeasured metrics can only lower the bound.
	m.MeasuredBand = pol.HealthBand(m.Health)
	m.Band = m.MeasuredBand
	if m.Status == HealthPartial && m.MeasuredBand == pol.HealthBand(1) {
		m.Band = HealthPartial
	}
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// RevalidationReport is the result of a re-validation sweep.
type RevalidationReport struct {
	Sampled int     `json:"sampled"`
	Failed  int     `json:"failed"`
	Rate    float64 `json:"hallucination_leakage_rate"`
	// Why counts the failures by cause: evidence that no longer reaches the
	// layer's threshold, a contradiction by ACTIVE memory, evidence refuted
	// since admission (a cited memory item no longer ACTIVE).
	Why map[string]int `json:"failures_by_cause"`
}

// Causes of a failed re-validation.
const (
	RevalidationEvidence      = "evidence_below_threshold"
	RevalidationContradicted  = "contradicted"
	RevalidationRefutedSource = "evidence_refuted"
)

// Revalidate re-verifies up to limit ACTIVE durable versions against today's
// state (spec §12.11.3 "periodic memory audit sweeps", spec §12.12.5): a version fails
// when the factual score of its recorded evidence no longer reaches the
// layer's threshold under the policy in force, when ACTIVE memory of its
// memoryRef now contradicts it, or when memory it cites as evidence has been
// retracted, expired or quarantined since. Failures measure the hallucination
// leakage rate. Results are telemetry, not log entries.
func (e *Engine) Revalidate(ctx context.Context, limit int) (RevalidationReport, error) {
	rep := RevalidationReport{Why: map[string]int{}}
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		d, err := tx.ComplianceData(ctx)
		if err != nil {
			return err
		}
		now := e.Now()
		for _, v := range d.Active {
			if limit > 0 && rep.Sampled >= limit {
				break
			}
			if !v.Layer.Durable() {
				continue
			}
			cause, score, err := e.revalidate(ctx, tx, v)
			if err != nil {
				return err
			}
			rep.Sampled++
			if cause != "" {
				rep.Failed++
				rep.Why[cause]++
			}
			if err := tx.RecordRevalidation(ctx, v.ID, now, cause == "", score); err != nil {
				return err
			}
		}
		return nil
	})
	if rep.Sampled > 0 {
		rep.Rate = round4(float64(rep.Failed) / float64(rep.Sampled))
	}
	return rep, err
}

// revalidate judges one ACTIVE version against today's state; cause is ""
// when it still passes.
func (e *Engine) revalidate(ctx context.Context, tx memgov.Tx, v memgov.Version) (cause string, score float64, err error) {
	var meta oplog.VersionData
	if err := tx.LogRange(ctx, v.CreatedLSN, v.CreatedLSN, func(le *oplog.Entry) error {
		p, err := le.DecodePayload()
		if err != nil || len(p.Data) == 0 {
			return err
		}
		if err := json.Unmarshal(p.Data, &meta); err != nil {
			return fmt.Errorf("log entry %d: %s data: %w", le.LSN, le.Op, err)
		}
		return nil
	}); err != nil {
		return "", 0, err
	}
	ev := make([]policy.Evidence, 0, len(meta.Evidence))
	for _, r := range meta.Evidence {
		pe := policy.Evidence{SourceType: r.SourceType, Support: 1, AccessedAt: v.CreatedAt}
		if r.Authority != nil {
			pe.Authority = *r.Authority
		}
		if r.AccessedAt != nil {
			pe.AccessedAt = *r.AccessedAt
		}
		ev = append(ev, pe)
	}
	// The evidence is scored as of admission under the policy in force now:
	// its ageing since is staleness, which retrieval measures.
	res := e.policy.FactualScore(string(v.Layer), ev, v.CreatedAt)
	score = res.Score
	if !res.Pass {
		return RevalidationEvidence, score, nil
	}
	// Evidence found since admission: cited memory that is gone.
	for _, r := range meta.Evidence {
		if r.SourceType != policy.MemoryItem || r.SourceItemID == "" {
			continue
		}
		it, err := tx.Item(ctx, r.SourceItemID)
		if err != nil && !isNotFound(err) {
			return "", 0, err
		}
		if err != nil || it.Head == "" {
			return RevalidationRefutedSource, score, nil
		}
	}
	// Contradictions found since admission: ACTIVE memory of the ref that
	// contradicts the version now (the deterministic judges).
	feat, err := e.featuresOf(v.Content)
	if err != nil {
		return "", 0, fmt.Errorf("revalidate %s: version %s: %w", v.Key, v.ID, err)
	}
	ct, err := gate.Contradiction{}.Evaluate(ctx, gate.ContradictionInput{MemoryRef: v.MemoryRef, Layer: v.Layer, ContentHash: v.ContentHash,
		Features: feat, Confidence: v.Confidence, OwnItemID: v.ItemID, Policy: &e.policy, Reader: tx,
		Rules: e.rules})
	if err != nil {
		return "", 0, fmt.Errorf("revalidate %s: %w", v.Key, err)
	}
	for _, c := range ct.Contradicts {
		if c.State == memgov.Active {
			return RevalidationContradicted, score, nil
		}
	}
	if ct.Finding != "" {
		return RevalidationContradicted, score, nil
	}
	return "", score, nil
}
