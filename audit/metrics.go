package audit

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
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
	// Unmeasured the others, UnmeasuredWhy what would measure each and
	// UnmeasuredNext the action that brings it.
	Measured       []string                     `json:"measured"`
	Unmeasured     []string                     `json:"unmeasured"`
	UnmeasuredWhy  map[string]string            `json:"unmeasured_why"`
	UnmeasuredNext map[string]memgov.NextAction `json:"unmeasured_next"`
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
func (s *Service) Metrics(ctx context.Context) (Metrics, error) {
	return s.MetricsSince(ctx, s.now().Add(-30*24*time.Hour))
}

// MetricsSince computes the quality metrics over writes, reads, sweeps and
// reported task outcomes since a time, and the composite health score
// H_memory (spec §12.12.7). Metrics without data (MCI needs task outcomes with
// and without memory, MIER task outcomes, both reported with memgov feedback)
// are left out and the weights of the rest renormalised; Measured and
// Unmeasured name them.
func (s *Service) MetricsSince(ctx context.Context, since time.Time) (Metrics, error) {
	m := Metrics{Since: since, ByStatus: map[string]int{}, AcceptanceByLayer: map[string]float64{}, Rejections: map[string]int{},
		RejectionShare: map[string]float64{}, StageLatencyUS: map[string]Percentiles{}}
	var d memgov.MetricsData
	now := s.now()
	if err := s.caches.FoldReads(ctx); err != nil {
		return m, err
	}
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
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
	s.health(&m)
	return m, nil
}

// health computes H_memory with policy.HealthScore over the measured metrics
// only: H is linear in the normalised metrics, so each one's normalised value
// is read off HealthScore against a baseline where every metric normalises to 0.
func (s *Service) health(m *Metrics) {
	pol := s.policy
	h := pol.Health
	zero := policy.Metrics{CorrectnessImpact: -1, RetrievalPrecision: 0, HallucinationLeakage: h.LeakageCeiling * 10,
		InducedErrors: h.ErrorCeiling * 10, WriteAcceptance: -10, Operational: 0}
	base, _ := pol.HealthScore(zero)
	type part struct {
		name string
		w    float64
		set  func(*policy.Metrics)
		ok   bool
		why  string            // what would measure it
		next memgov.NextAction // the action that brings it
	}
	parts := []part{
		{"correctness_impact", h.Weights.CorrectnessImpact, func(x *policy.Metrics) { x.CorrectnessImpact = deref(m.CorrectnessImpact) }, m.CorrectnessImpact != nil,
			"task outcomes reported as feedback, with memory and with memory withheld", memgov.NextRecordOutcomes},
		{"induced_errors", h.Weights.InducedErrors, func(x *policy.Metrics) { x.InducedErrors = deref(m.InducedErrors) }, m.InducedErrors != nil,
			"task outcomes reported as feedback, a failure memory caused marked as such", memgov.NextRecordFailureCause},
		{"retrieval_precision", h.Weights.RetrievalPrecision, func(x *policy.Metrics) { x.RetrievalPrecision = deref(m.RetrievalPrecision) }, m.RetrievalPrecision != nil,
			"usage feedback: the retrieved items a task used", memgov.NextRecordUsage},
		{"hallucination_leakage", h.Weights.HallucinationLeakage, func(x *policy.Metrics) { x.HallucinationLeakage = deref(m.HallucinationLeak) }, m.HallucinationLeak != nil,
			"a re-validation sweep", memgov.NextRevalidate},
		{"write_acceptance", h.Weights.WriteAcceptance, func(x *policy.Metrics) { x.WriteAcceptance = m.WriteAcceptance }, m.Writes > 0,
			"governed writes in the window", memgov.NextWrite},
		{"operational", h.Weights.Operational, func(x *policy.Metrics) { x.Operational = m.Operational }, true, "", ""},
	}
	var sum, wsum, wall float64
	m.Measured, m.Unmeasured, m.UnmeasuredWhy, m.UnmeasuredNext = []string{}, []string{}, map[string]string{}, map[string]memgov.NextAction{}
	for _, p := range parts {
		wall += p.w
		if p.w == 0 {
			continue
		}
		if !p.ok {
			m.Unmeasured = append(m.Unmeasured, p.name)
			m.UnmeasuredWhy[p.name] = p.why
			m.UnmeasuredNext[p.name] = p.next
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

// taskMetrics computes MCI and MIER from the task outcomes of a window:
// MCI when tasks with and without memory were reported, MIER when any task
// was.
func taskMetrics(tasks []memgov.TaskOutcomeRow) (mci, mier *float64, withMemory, withheld int) {
	var okWith, okWithout, caused int
	for _, t := range tasks {
		if t.RetrievalID == "" {
			withheld++
			if t.Success {
				okWithout++
			}
			continue
		}
		withMemory++
		if t.Success {
			okWith++
		}
		if !t.Success && t.MemoryCaused {
			caused++
		}
	}
	if withMemory > 0 && withheld > 0 {
		v := round4(float64(okWith)/float64(withMemory) - float64(okWithout)/float64(withheld))
		mci = &v
	}
	if n := withMemory + withheld; n > 0 {
		v := round4(float64(caused) / float64(n))
		mier = &v
	}
	return mci, mier, withMemory, withheld
}
