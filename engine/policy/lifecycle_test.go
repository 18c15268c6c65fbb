package policy

import (
	"math"
	"testing"
	"time"
)

// spec §12.7.2: rho = rho_0 exp(-lambda_t age) (1 + log(1 + n_access)) impact, with
// the spec §12.7.3 lambdas (SESSION 0.5 h^-1, EPISODIC 0.01 day^-1, ...).
func TestRelevance(t *testing.T) {
	tests := []struct {
		name string
		u    Usage
		want float64
	}{
		{"EPISODIC after 30 days: exp(-0.3)", Usage{Layer: Episodic, Initial: 1, Age: 30 * day, Impact: 1}, math.Exp(-0.3)},
		{"three accesses multiply by 1 + ln 4", Usage{Layer: Episodic, Initial: 1, Age: 30 * day, Accesses: 3, Impact: 1}, math.Exp(-0.3) * (1 + math.Log(4))},
		{"SESSION after 2 hours: exp(-0.5 x 2)", Usage{Layer: Session, Initial: 1, Age: 2 * time.Hour, Impact: 1}, math.Exp(-1)},
		{"SEMANTIC after a year: exp(-0.365)", Usage{Layer: Semantic, Initial: 0.8, Age: 365 * day, Impact: 1}, 0.8 * math.Exp(-0.365)},
		{"PROCEDURAL after 1000 days: exp(-0.5)", Usage{Layer: Procedural, Initial: 1, Age: 1000 * day, Impact: 1}, math.Exp(-0.5)},
		{"impact 0.5 halves it", Usage{Layer: Episodic, Initial: 1, Age: 0, Impact: 0.5}, 0.5},
		{"WORKING does not decay", Usage{Layer: Working, Initial: 1, Age: 100 * day, Impact: 1}, 1},
		{"negative age counts as zero", Usage{Layer: Episodic, Initial: 1, Age: -day, Impact: 1}, 1},
		{"unknown layer", Usage{Layer: "LONG_TERM", Initial: 1, Impact: 1}, 0},
	}
	for _, tt := range tests {
		if got := Default().Relevance(tt.u); !near(got, tt.want) {
			t.Errorf("%s: Relevance = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// spec §12.7.3: eligible when rho < tau_gc(l), idle > T_idle(l) and not pinned.
// EPISODIC tau_gc 0.2 is crossed at ln 5 / 0.01 = 160.9 days.
func TestGCEligible(t *testing.T) {
	tests := []struct {
		name string
		u    Usage
		want bool
	}{
		{"EPISODIC 161 days, idle 31 days: rho 0.1999", Usage{Layer: Episodic, Initial: 1, Age: 161 * day, Impact: 1, Idle: 31 * day}, true},
		{"EPISODIC 160 days: rho 0.2019 >= 0.2", Usage{Layer: Episodic, Initial: 1, Age: 160 * day, Impact: 1, Idle: 31 * day}, false},
		{"EPISODIC idle exactly 30 days is not beyond T_idle", Usage{Layer: Episodic, Initial: 1, Age: 161 * day, Impact: 1, Idle: 30 * day}, false},
		{"pinned items are never collected", Usage{Layer: Episodic, Initial: 1, Age: 161 * day, Impact: 1, Idle: 31 * day, Pinned: true}, false},
		{"SESSION after 5 hours, idle 2 hours: rho 0.082 < 0.1", Usage{Layer: Session, Initial: 1, Age: 5 * time.Hour, Impact: 1, Idle: 2 * time.Hour}, true},
		{"SESSION idle 59 minutes", Usage{Layer: Session, Initial: 1, Age: 5 * time.Hour, Impact: 1, Idle: 59 * time.Minute}, false},
		{"WORKING is cleared at session end, not collected", Usage{Layer: Working, Initial: 0, Idle: 1000 * day}, false},
		{"unknown layer", Usage{Layer: "LONG_TERM", Idle: 1000 * day}, false},
	}
	for _, tt := range tests {
		if got := Default().GCEligible(tt.u); got != tt.want {
			t.Errorf("%s: GCEligible = %v, want %v (rho %v)", tt.name, got, tt.want, Default().Relevance(tt.u))
		}
	}
}

// spec §12.7.5: hard delete once t - t_expired > T_grace.
func TestHardDeletable(t *testing.T) {
	p := Default()
	if p.HardDeletable(30 * day) {
		t.Error("HardDeletable(grace) = true, want false")
	}
	if !p.HardDeletable(30*day + time.Nanosecond) {
		t.Error("HardDeletable(grace+1ns) = false, want true")
	}
}

// spec §12.10.4 retention table.
func TestRetentionFor(t *testing.T) {
	tests := []struct {
		class string
		want  time.Duration
		ok    bool
	}{
		{PII, 90 * day, true},
		{Business, 365 * day, true},
		{General, 5 * 365 * day, true},
		{Public, 0, false},
		{"SECRET", 0, false},
	}
	for _, tt := range tests {
		got, ok := Default().RetentionFor(tt.class)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RetentionFor(%q) = %v, %v; want %v, %v", tt.class, got, ok, tt.want, tt.ok)
		}
	}
	p := Default()
	if !p.RetentionExpired(PII, 91*day) || p.RetentionExpired(PII, 90*day) || p.RetentionExpired(Public, 100*365*day) {
		t.Error("RetentionExpired: PII expires after 90 days, PUBLIC never")
	}
}

// Spec §14.2, §14.3: write criteria with default deny, and TTLs per type.
func TestAdmissible(t *testing.T) {
	tests := []struct {
		layer, typ string
		want       bool
	}{
		{Episodic, "user_stated_preference", true},
		{Episodic, "tool_result_verified", true},
		{Episodic, "task_completion_strategy", true},
		{Episodic, "session_summary", true},
		{Episodic, "intermediate_reasoning", false},
		{Episodic, "failed_tool_call", false},
		{Episodic, "speculative_inference", false},
		{Episodic, "something_new", false},
		{Episodic, "", false},
		{Semantic, "user_stated_preference", true},
		{Semantic, "tool_result_verified", true},
		{Semantic, "task_completion_strategy", false},
		{Semantic, "speculative_inference", false},
		{Procedural, "task_completion_strategy", true},
		{Procedural, "user_stated_preference", false},
		{Procedural, "intermediate_reasoning", false},
		{Working, "intermediate_reasoning", true},
		{Session, "failed_tool_call", true},
		{"LONG_TERM", "user_stated_preference", false},
	}
	for _, tt := range tests {
		if got := Default().Admissible(tt.layer, tt.typ); got != tt.want {
			t.Errorf("Admissible(%s, %q) = %v, want %v", tt.layer, tt.typ, got, tt.want)
		}
	}
}

func TestTTLFor(t *testing.T) {
	tests := []struct {
		typ  string
		want time.Duration
		ok   bool
	}{
		{"user_stated_preference", 0, false}, // None: permanent until corrected
		{"task_completion_strategy", 86400 * 90 * time.Second, true},
		{"tool_result_verified", 86400 * 7 * time.Second, true},
		{"session_summary", 86400 * 30 * time.Second, true},
		{"intermediate_reasoning", 0, false},
	}
	for _, tt := range tests {
		got, ok := Default().TTLFor(tt.typ)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TTLFor(%q) = %v, %v; want %v, %v", tt.typ, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		attempt int
		want    time.Duration
	}{
		{-1, time.Second},
		{0, time.Second},
		{1, time.Second},
		{2, 2 * time.Second},
		{3, 4 * time.Second},
		{9, 256 * time.Second},
		{10, 5 * time.Minute},
		{math.MaxInt, 5 * time.Minute},
	}
	for _, tt := range tests {
		if got := Default().Backoff(tt.attempt); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.attempt, got, tt.want)
		}
	}
	var zero Policy
	if got := zero.Backoff(5); got != 0 {
		t.Errorf("zero Policy Backoff = %v, want 0", got)
	}
}

func TestRateAndBudget(t *testing.T) {
	p := Default()
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"EPISODIC 29 prior writes in the window", p.RateAllows(Episodic, 29), true},
		{"EPISODIC 30 prior writes", p.RateAllows(Episodic, 30), false},
		{"PROCEDURAL 5 prior writes", p.RateAllows(Procedural, 5), false},
		{"unknown layer", p.RateAllows("LONG_TERM", 0), false},
		{"executor 199 writes this session", p.BudgetAllows(Executor, 199), true},
		{"executor 200 writes this session", p.BudgetAllows(Executor, 200), false},
		{"unknown role", p.BudgetAllows("intern", 0), false},
		{"60 writes in the burst window", p.Burst(60), false},
		{"61 writes in the burst window", p.Burst(61), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// spec §12.11.5: reputation = correct / writes, below theta_rep needs HITL.
func TestLowReputation(t *testing.T) {
	tests := []struct {
		correct, judged int
		want            bool
	}{
		{0, 19, false}, // not yet scored
		{13, 20, true}, // 0.65 < 0.7
		{14, 20, false},
		{0, 0, false},
	}
	for _, tt := range tests {
		if got := Default().LowReputation(tt.correct, tt.judged); got != tt.want {
			t.Errorf("LowReputation(%d, %d) = %v, want %v", tt.correct, tt.judged, got, tt.want)
		}
	}
}

// Spec §14.4, §14.5: trust levels, the 0.7 verification flag, the 7-day / 0.8
// stale warning and decay_confidences (0.05 per pass, delete below 0.3).
func TestProvenance(t *testing.T) {
	p := Default()
	for src, want := range map[string]float64{"user_stated": 1, "tool_verified": 0.9, "agent_inferred": 0.6, "recalled": 0.5, "rumour": 0.5} {
		if got := p.Trust(src); got != want {
			t.Errorf("Trust(%q) = %v, want %v", src, got, want)
		}
	}
	if !p.NeedsVerification(0.6) || p.NeedsVerification(0.7) {
		t.Error("NeedsVerification: want true below 0.7 only")
	}
	if !p.Stale(0.7, 8*day) || p.Stale(0.8, 8*day) || p.Stale(0.5, 7*day) {
		t.Error("Stale: want true only past 7 days below 0.8")
	}
}

func TestDecayConfidence(t *testing.T) {
	tests := []struct {
		name    string
		source  string
		c       float64
		elapsed time.Duration
		want    float64
		evict   bool
	}{
		{"one day", "agent_inferred", 0.6, day, 0.55, false},
		{"under a day", "agent_inferred", 0.6, 23 * time.Hour, 0.6, false},
		{"six days reach the floor, not below it", "agent_inferred", 0.6, 6 * day, 0.3, false},
		{"seven days fall below 0.3", "agent_inferred", 0.6, 7 * day, 0.25, true},
		{"user statements do not decay", "user_stated", 1, 100 * day, 1, false},
	}
	for _, tt := range tests {
		got, evict := Default().DecayConfidence(tt.source, tt.c, tt.elapsed)
		if !near(got, tt.want) || evict != tt.evict {
			t.Errorf("%s: DecayConfidence = %v, %v; want %v, %v", tt.name, got, evict, tt.want, tt.evict)
		}
	}
}

// Spec §13.9: promote after >= N corroborations.
func TestPromotable(t *testing.T) {
	if Default().Promotable(2) || !Default().Promotable(3) {
		t.Error("Promotable: want false at 2, true at 3")
	}
}
