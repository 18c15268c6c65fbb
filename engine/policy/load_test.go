package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov/engine/judge"
)

func TestDefaultValidates(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
}

func TestDefaultSeedNumbers(t *testing.T) {
	p := Default()
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"12.2.3 tau_fact EPISODIC", p.Evidence.Threshold.Episodic, 0.6},
		{"12.2.3 tau_fact SEMANTIC", p.Evidence.Threshold.Semantic, 0.8},
		{"12.2.3 tau_fact PROCEDURAL", p.Evidence.Threshold.Procedural, 0.9},
		{"12.2.4 sigma_topic", p.Contradiction.TopicSimilarity, 0.5},
		{"12.3.2 epsilon_dedup 0.05", p.Dedup.Semantic, 0.95},
		{"12.4.4 betas", p.Calibration, Calibration{0.15, 0.30, 0.25, 0.30}},
		{"12.6.2 weights", p.RiskModel.Weights, RiskWeights{0.25, 0.20, 0.15, 0.15, 0.15, 0.10}},
		{"12.6.2 tier cut-offs", [2]float64{p.RiskModel.AsyncFrom, p.RiskModel.SyncFrom}, [2]float64{0.3, 0.7}},
		{"12.7.3 SESSION 0.5 h^-1", p.Decay.Layers.Session.LambdaPerDay / 24, 0.5},
		{"12.7.3 EPISODIC T_idle", p.Decay.Layers.Episodic.Idle.Std(), 30 * day},
		{"12.10.4 PII", p.Retention.PII.MaxAge.Std(), 90 * day},
		{"12.12.7 bands", [2]float64{p.Health.HealthyFrom, p.Health.DegradedFrom}, [2]float64{0.8, 0.6}},
		{"seed 000 ttl_min", p.Baseline.TTLMin.Std(), 3600 * time.Second},
		{"seed 000 ttl_max", p.Baseline.TTLMax.Std(), 7776000 * time.Second},
		{"seed 003 RRF k", p.Retrieval.RRFK, 60.0},
		{"seed 004 agent_inferred", p.Provenance.Trust["agent_inferred"], 0.6},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestParseOverlay(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		edit func(*Policy)
	}{
		{
			name: "empty document keeps every default",
			doc:  "",
			edit: func(*Policy) {},
		},
		{
			name: "one risk weight moves to another",
			doc:  "risk:\n  weights:\n    layer: 0.35\n    novelty: 0\n",
			edit: func(p *Policy) { p.RiskModel.Weights.Layer, p.RiskModel.Weights.Novelty = 0.35, 0 },
		},
		{
			name: "one field of one layer keeps the layer's other fields",
			doc:  "decay:\n  layers:\n    EPISODIC:\n      gc_threshold: 0.3\n",
			edit: func(p *Policy) { p.Decay.Layers.Episodic.GCThreshold = 0.3 },
		},
		{
			name: "a trust level is added beside the seed's",
			doc:  "provenance:\n  trust:\n    external: 0.2\n",
			edit: func(p *Policy) { p.Provenance.Trust["external"] = 0.2 },
		},
		{
			name: "a list replaces the default list",
			doc:  "rbac:\n  executor:\n    write: [SESSION]\n",
			edit: func(p *Policy) { p.RBAC.Executor.Write = []string{Session} },
		},
		{
			name: "durations are Go duration strings",
			doc:  "review:\n  async_sla: 72h\n",
			edit: func(p *Policy) { p.Review.AsyncSLA = Duration(72 * time.Hour) },
		},
		{
			name: "JSON is accepted",
			doc:  `{"dedup": {"semantic": 0.97}, "retrieval": {"rrf_k": 30}}`,
			edit: func(p *Policy) { p.Dedup.Semantic, p.Retrieval.RRFK = 0.97, 30 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.doc))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := Default()
			tt.edit(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse(%q) differs from the defaults with the one edit:\n got %+v\nwant %+v", tt.doc, got, want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // substrings of the error
	}{
		{"unknown field", "risk:\n  wieghts:\n    layer: 0.25\n", []string{"line 2", "wieghts"}},
		{"unknown top-level section", "rate_limit: {}\n", []string{"line 1", "rate_limit"}},
		{"misspelt layer", "evidence:\n  threshold:\n    EPISODC: 0.5\n", []string{"line 3", "EPISODC"}},
		{"unknown role", "rbac:\n  admin: {}\n", []string{"line 2", "admin"}},
		{"duration without unit", "review:\n  async_sla: 24\n", []string{"line 2", "missing unit"}},
		{"duration as a mapping", "review:\n  async_sla: {h: 24}\n", []string{"line 2", "duration"}},
		{"weights do not sum to 1", "risk:\n  weights:\n    layer: 0.5\n", []string{"risk.weights: sum is 1.25, want 1"}},
		{"threshold above 1", "evidence:\n  threshold:\n    SEMANTIC: 1.5\n", []string{"evidence.threshold.SEMANTIC: 1.5 is outside [0,1]"}},
		{"negative authority", "evidence:\n  authority:\n    DOCUMENT: -0.1\n", []string{"evidence.authority.DOCUMENT"}},
		{"cut-offs out of order", "risk:\n  async_from: 0.8\n", []string{"risk.sync_from: 0.7 must be above async_from 0.8"}},
		{"health bands out of order", "health:\n  degraded_from: 0.9\n", []string{"health.healthy_from"}},
		{"ttl bounds reversed", "baseline:\n  ttl_min: 2400h\n", []string{"baseline.ttl_max: 2160h is below ttl_min 2400h"}},
		{"zero rate window", "rate_limits:\n  layers:\n    SEMANTIC:\n      window: 0s\n", []string{"rate_limits.layers.SEMANTIC.window"}},
		{"unknown layer in the RBAC matrix", "rbac:\n  executor:\n    read: [EPISODIC, LONG_TERM]\n", []string{`rbac.executor.read: "LONG_TERM" is not a memory layer`}},
		{"unknown retention action", "retention:\n  PII:\n    action: SHRED\n", []string{"retention.PII.action"}},
		{"unknown drift policy", "baseline:\n  drift_policies:\n    2: [ignore]\n", []string{"baseline.drift_policies.2"}},
		{"visibility order repeats", "visibility:\n  order: [PUBLIC, PUBLIC, BUSINESS, PII]\n", []string{"visibility.order: PUBLIC appears 2 times", "GENERAL appears 0 times"}},
		{"unknown source type", "evidence:\n  external: [DOCUMENT, RUMOUR]\n", []string{"evidence.external"}},
		{"two problems are both named", "calibration:\n  agent: 0.5\ndedup:\n  semantic: 2\n", []string{"calibration: sum", "dedup.semantic"}},
		{"two documents", "dedup:\n  semantic: 0.9\n---\ndedup:\n  semantic: 0.8\n", []string{"more than one document"}},
		{"not YAML", "risk: [\n", []string{"policy:"}},
		{"a relation of both cardinalities", "contradiction:\n  single_valued: [ceo, live in]\n  multi_valued: [Live in]\n", []string{`"live in" is listed both in single_valued and in multi_valued`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want an error", tt.doc)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Parse(%q) error %q does not contain %q", tt.doc, err, w)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(path, []byte("promotion:\n  corroborations: 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := Default()
	want.Promotion.Corroborations = 5
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load overlay differs:\n got %+v\nwant %+v", got, want)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("promotion:\n  corroborations: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), "promotion.corroborations") {
		t.Errorf("Load(bad) = %v, want an error naming the file and promotion.corroborations", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("Load(missing) succeeded")
	}
}

func TestYAMLRoundTrip(t *testing.T) {
	p := Default()
	out, err := p.YAML()
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	got, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(YAML()): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("Default -> YAML -> Parse differs from Default:\n%s", out)
	}
	for _, key := range []string{"rate_limits:", "async_sla: 24h", "rrf_k: 60", "SEMANTIC: 0.8"} {
		if !strings.Contains(string(out), key) {
			t.Errorf("YAML() lacks %q", key)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	p := Default()
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	var viaJSON Policy
	if err := json.Unmarshal(out, &viaJSON); err != nil {
		t.Fatalf("json.Unmarshal: %v", err)
	}
	if !reflect.DeepEqual(viaJSON, p) {
		t.Errorf("Default -> JSON -> json.Unmarshal differs from Default")
	}
	viaParse, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(JSON): %v", err)
	}
	if !reflect.DeepEqual(viaParse, p) {
		t.Errorf("Default -> JSON -> Parse differs from Default")
	}
}

func TestDurationString(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{24 * time.Hour, "24h"},
		{90 * time.Second, "1m30s"},
		{time.Minute, "1m"},
		{90 * time.Minute, "1h30m"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Hour + time.Second, "1h0m1s"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d).String(); got != tt.want {
			t.Errorf("Duration(%v).String() = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    Duration
		wantErr bool
	}{
		{`"24h"`, Duration(24 * time.Hour), false},
		{`"1m30s"`, Duration(90 * time.Second), false},
		{`86400`, 0, true},
		{`"1 day"`, 0, true},
	}
	for _, tt := range tests {
		var d Duration
		err := json.Unmarshal([]byte(tt.in), &d)
		if (err != nil) != tt.wantErr {
			t.Errorf("Unmarshal(%s) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && d != tt.want {
			t.Errorf("Unmarshal(%s) = %v, want %v", tt.in, d, tt.want)
		}
	}
}

// A policy's relation list overrides the default one: "live in", single
// by default, declared multi-valued on its own is multi-valued, the other
// default relations keep theirs, and `policy show` no longer lists it as
// single-valued.
func TestParseCardinalityOverride(t *testing.T) {
	p, err := Parse([]byte("contradiction:\n  multi_valued: [live in]\n"))
	if err != nil {
		t.Fatal(err)
	}
	card := p.Contradiction.Cardinalities()
	if card["live in"] != judge.Multi {
		t.Fatalf("live in: %v, want multi-valued", card["live in"])
	}
	if card["ceo"] != judge.Single {
		t.Fatalf("ceo lost its default: %v", card["ceo"])
	}
	if slices.Contains(p.Contradiction.SingleValued, "live in") {
		t.Fatalf("single_valued still lists live in: %v", p.Contradiction.SingleValued)
	}
	// The other way round: a default multi-valued relation declared single.
	var multi string
	for r, c := range judge.DefaultCardinality {
		if c == judge.Multi {
			multi = r
			break
		}
	}
	p, err = Parse([]byte("contradiction:\n  single_valued: [\"" + multi + "\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Contradiction.Cardinalities()[multi]; c != judge.Single {
		t.Fatalf("%s: %v, want single-valued", multi, c)
	}
	// A list built in code over the defaults: the entry that is not the
	// default wins.
	d := Default()
	d.Contradiction.MultiValued = append(d.Contradiction.MultiValued, "live in")
	if c := d.Contradiction.Cardinalities()["live in"]; c != judge.Multi {
		t.Fatalf("programmatic override: %v", c)
	}
}
