package policy

import (
	"math"
	"slices"
	"time"
)

// Usage describes a memory item for relevance decay and garbage collection
// (spec §12.7.2, §12.7.3).
type Usage struct {
	Layer string
	// Initial is rho_0, the relevance at write time.
	Initial float64
	// Age is t - t_created.
	Age time.Duration
	// Accesses is n_access within the policy's access window.
	Accesses int
	// Impact is impact(m) in [0,1]; callers without downstream data pass 1.
	Impact float64
	// Idle is t - t_last_access.
	Idle time.Duration
	// Pinned items are never collected.
	Pinned bool
}

// Relevance computes rho(m, t) (spec §12.7.2):
//
//	rho = rho_0 * exp(-lambda_t * age) * (1 + ln(1 + n_access)) * impact
//
// with lambda_t of the layer's row in the spec §12.7.3 table. An unknown layer has
// relevance 0.
func (p Policy) Relevance(u Usage) float64 {
	d, ok := p.Decay.Layers.Get(u.Layer)
	if !ok {
		return 0
	}
	days := max(u.Age, 0).Hours() / 24
	r := math.Max(u.Initial, 0) *
		math.Exp(-d.LambdaPerDay*days) *
		(1 + math.Log1p(float64(max(u.Accesses, 0)))) *
		unitClamp(u.Impact)
	if math.IsNaN(r) {
		return 0
	}
	return r
}

// GCEligible reports whether relevance-based GC may collect the item
// (spec §12.7.3): rho < tau_gc(l), idle longer than T_idle(l), and not pinned.
// Session-scoped layers (WORKING) are cleared at session end instead and are
// never eligible; neither is an item of an unknown layer.
func (p Policy) GCEligible(u Usage) bool {
	d, ok := p.Decay.Layers.Get(u.Layer)
	if !ok || d.SessionScoped || u.Pinned {
		return false
	}
	return p.Relevance(u) < d.GCThreshold && u.Idle > d.Idle.Std()
}

// HardDeletable reports whether an item EXPIRED for expiredFor has passed the
// grace period and may be removed for good (spec §12.7.5).
func (p Policy) HardDeletable(expiredFor time.Duration) bool {
	return expiredFor > p.Decay.Grace.Std()
}

// RetentionFor returns the maximum retention of a classification (spec §12.10.4).
// ok is false when retention is indefinite (PUBLIC by default) or the
// classification is unknown; callers validate classifications first.
func (p Policy) RetentionFor(classification string) (max time.Duration, ok bool) {
	r, known := p.Retention.Get(classification)
	if !known || r.MaxAge <= 0 {
		return 0, false
	}
	return r.MaxAge.Std(), true
}

// RetentionExpired reports whether an item of the classification and age has
// outlived its retention (spec §12.10.4); retention overrides relevance.
func (p Policy) RetentionExpired(classification string, age time.Duration) bool {
	max, ok := p.RetentionFor(classification)
	return ok && age > max
}

// Admissible reports whether the layer admits the observation type (spec §14.2
// write criteria). Types a layer does not list are denied; "*" admits all.
// An unknown layer admits nothing.
func (p Policy) Admissible(layer, observationType string) bool {
	allowed, ok := p.WriteCriteria.Allowed.Get(layer)
	if !ok {
		return false
	}
	return slices.Contains(allowed, "*") || slices.Contains(allowed, observationType)
}

// TTLFor returns the lifetime of an observation type (spec §14.3). ok
// is false when the type does not expire: it is listed as permanent
// (user_stated_preference) or not listed at all, as ttl_for returns None for
// both.
func (p Policy) TTLFor(observationType string) (time.Duration, bool) {
	d, ok := p.WriteCriteria.TTL[observationType]
	if !ok || d <= 0 {
		return 0, false
	}
	return d.Std(), true
}

// RateAllows reports whether an agent that has made prior writes to layer
// within the layer's window may write again (spec §12.1.8): the write is admitted
// while prior < limit. An unknown layer admits nothing.
func (p Policy) RateAllows(layer string, prior int) bool {
	r, ok := p.RateLimits.Layers.Get(layer)
	return ok && prior < r.Writes
}

// BudgetAllows reports whether an agent of role that has made prior writes
// in this session may write again (spec §12.11.2). An unknown role admits nothing.
func (p Policy) BudgetAllows(role string, prior int) bool {
	b, ok := p.RateLimits.SessionBudget.Get(role)
	return ok && prior < b
}

// Backoff returns the delay before a deferred write's attempt-th retry
// (spec §12.1.8): backoff_base * 2^(attempt-1), at most backoff_max. Attempts below
// 1 count as 1.
func (p Policy) Backoff(attempt int) time.Duration {
	base, ceiling := p.RateLimits.BackoffBase.Std(), p.RateLimits.BackoffMax.Std()
	if base <= 0 || ceiling <= 0 {
		return 0
	}
	d := base
	for i := 1; i < attempt && d < ceiling; i++ {
		if d > ceiling/2 {
			return ceiling
		}
		d *= 2
	}
	return min(d, ceiling)
}

// Burst reports whether writes made by one agent within the burst window
// amount to a burst that suspends its writes (spec §12.11.5).
func (p Policy) Burst(writes int) bool {
	return writes > p.Reputation.BurstLimit
}

// LowReputation reports whether an agent with correct of judged writes
// judged correct falls below theta_rep (spec §12.11.5). An agent with fewer judged
// writes than min_writes is not yet scored.
func (p Policy) LowReputation(correct, judged int) bool {
	if judged <= 0 || judged < p.Reputation.MinWrites {
		return false
	}
	return float64(correct)/float64(judged) < p.Reputation.Threshold
}

// Trust returns the provenance trust level of a source (spec §14.4
// trust levels), or the default trust for an unknown source.
func (p Policy) Trust(source string) float64 {
	if t, ok := p.Provenance.Trust[source]; ok {
		return t
	}
	return p.Provenance.DefaultTrust
}

// NeedsVerification reports whether a memory of this confidence is flagged
// for review before an agent acts on it (spec §14.4).
func (p Policy) NeedsVerification(confidence float64) bool {
	return confidence < p.Provenance.VerifyBelow
}

// Stale reports whether an entry of this confidence and age is surfaced for
// review rather than used silently (spec §14.5).
func (p Policy) Stale(confidence float64, age time.Duration) bool {
	return age > p.Provenance.StaleAfter.Std() && confidence < p.Provenance.StaleBelow
}

// DecayConfidence applies confidence decay to an entry from source that has
// gone elapsed without confirmation (spec §14.7): the rate is
// subtracted once per whole interval. evict reports that the result fell
// below the eviction floor. Sources that do not decay keep their confidence.
func (p Policy) DecayConfidence(source string, confidence float64, elapsed time.Duration) (c float64, evict bool) {
	d := p.ConfidenceDecay
	if !slices.Contains(d.Sources, source) || d.Interval <= 0 || elapsed <= 0 {
		return confidence, false
	}
	steps := float64(elapsed / d.Interval.Std())
	c = round9(max(confidence-d.Rate*steps, 0))
	return c, c < d.EvictBelow
}

// Promotable reports whether an episodic entry corroborated by that many
// independent observations may be promoted to semantic memory (spec
// §13.9).
func (p Policy) Promotable(corroborations int) bool {
	return corroborations >= p.Promotion.Corroborations
}
