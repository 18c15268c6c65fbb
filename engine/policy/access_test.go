package policy

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRBACMatrix checks every role x layer x operation against spec §12.8.2:
//
//	Role            READ                           WRITE                  DELETE       ADMIN
//	Executor Agent  Own session + shared episodic  Own session only       None         None
//	Verifier Agent  All layers (read-only)         Validation annotations None         None
//	Orchestrator    All layers                     Episodic + session     Soft delete  Layer config
//	Curator (Human) All layers                     All layers             Hard delete  Full
//
// "Own session" is the WORKING and SESSION layers. Annotate and approve are
// memgov's split of the verifier's "validation annotations" and the curator's
// review decisions; the operator row is memgov's addition to spec §12.8.2.
//
// Each row lists the layers in the order WORKING SESSION EPISODIC SEMANTIC
// PROCEDURAL: "x" allowed, "-" denied.
func TestRBACMatrix(t *testing.T) {
	matrix := map[string]map[string]string{
		Executor: {
			OpRead: "xxx--", OpWrite: "xx---", OpAnnotate: "-----", OpDelete: "-----",
			OpHardDelete: "-----", OpApprove: "-----", OpAdmin: "-----",
		},
		Verifier: {
			OpRead: "xxxxx", OpWrite: "-----", OpAnnotate: "xxxxx", OpDelete: "-----",
			OpHardDelete: "-----", OpApprove: "-----", OpAdmin: "-----",
		},
		Orchestrator: {
			OpRead: "xxxxx", OpWrite: "xxx--", OpAnnotate: "-----", OpDelete: "xxxxx",
			OpHardDelete: "-----", OpApprove: "-----", OpAdmin: "xxxxx",
		},
		Curator: {
			OpRead: "xxxxx", OpWrite: "xxxxx", OpAnnotate: "xxxxx", OpDelete: "xxxxx",
			OpHardDelete: "xxxxx", OpApprove: "xxxxx", OpAdmin: "xxxxx",
		},
		Operator: {
			OpRead: "xxxxx", OpWrite: "-----", OpAnnotate: "-----", OpDelete: "xxxxx",
			OpHardDelete: "-----", OpApprove: "xxxxx", OpAdmin: "xxxxx",
		},
	}
	layers := []string{Working, Session, Episodic, Semantic, Procedural}
	ops := []string{OpRead, OpWrite, OpAnnotate, OpDelete, OpHardDelete, OpApprove, OpAdmin}
	p := Default()
	cases := 0
	for _, role := range []string{Executor, Verifier, Orchestrator, Curator, Operator} {
		for _, op := range ops {
			row := matrix[role][op]
			for i, layer := range layers {
				want := row[i] == 'x'
				t.Run(fmt.Sprintf("%s/%s/%s", role, op, layer), func(t *testing.T) {
					if got := p.Allowed(role, layer, op); got != want {
						t.Errorf("Allowed(%s, %s, %s) = %v, want %v", role, layer, op, got, want)
					}
					if got := p.Allowed(role, layer, strings.ToUpper(op)); got != want {
						t.Errorf("Allowed(%s, %s, %s) = %v, want %v", role, layer, strings.ToUpper(op), got, want)
					}
				})
				cases++
			}
		}
	}
	if cases != 5*5*7 {
		t.Fatalf("checked %d cases, want %d", cases, 5*5*7)
	}
}

func TestAllowedDeniesUnknowns(t *testing.T) {
	p := Default()
	tests := []struct{ role, layer, op string }{
		{"intern", Episodic, OpRead},
		{Curator, "LONG_TERM", OpRead},
		{Curator, Episodic, "publish"},
		{"", "", ""},
		{"Curator", Episodic, OpRead}, // roles match exactly
		{Curator, "episodic", OpRead}, // layers match exactly
	}
	for _, tt := range tests {
		if p.Allowed(tt.role, tt.layer, tt.op) {
			t.Errorf("Allowed(%q, %q, %q) = true, want false", tt.role, tt.layer, tt.op)
		}
	}
}

// spec §12.8.5: classification(m) <= clearance(a).
func TestCleared(t *testing.T) {
	tests := []struct {
		clearance, class string
		want             bool
	}{
		{General, Public, true},
		{General, General, true},
		{General, Business, false},
		{PII, PII, true},
		{PII, Public, true},
		{Public, PII, false},
		{"TOP_SECRET", Public, false},
		{PII, "TOP_SECRET", false},
	}
	for _, tt := range tests {
		if got := Default().Cleared(tt.clearance, tt.class); got != tt.want {
			t.Errorf("Cleared(%s, %s) = %v, want %v", tt.clearance, tt.class, got, tt.want)
		}
	}
}

// spec §12.10.3: storage_region(m) in allowed_regions(m.residency_class).
func TestResidencyAllowed(t *testing.T) {
	p := Default()
	eu := Default()
	eu.Residency.StoreRegion = "eu"
	tests := []struct {
		name string
		p    Policy
		cls  string
		want bool
	}{
		{"no class", p, "", true},
		{"ANY allows every region", p, "ANY", true},
		{"EU data in a local store", p, "EU", false},
		{"EU data in an eu store", eu, "EU", true},
		{"US data in an eu store", eu, "US", false},
		{"unknown class", p, "MARS", false},
	}
	for _, tt := range tests {
		if got := tt.p.ResidencyAllowed(tt.cls); got != tt.want {
			t.Errorf("%s: ResidencyAllowed(%q) = %v, want %v", tt.name, tt.cls, got, tt.want)
		}
	}
}

// Spec §3.2.6: ttl_seconds 3,600..7,776,000; log-only at levels 0 and 1 only;
// deny-on-drift required at level 2.
func TestBaseline(t *testing.T) {
	p := Default()
	ttls := []struct {
		secs int64
		want bool
	}{{3599, false}, {3600, true}, {86400, true}, {7776000, true}, {7776001, false}}
	for _, tt := range ttls {
		if got := p.BaselineTTLValid(time.Duration(tt.secs) * time.Second); got != tt.want {
			t.Errorf("BaselineTTLValid(%ds) = %v, want %v", tt.secs, got, tt.want)
		}
	}
	drift := []struct {
		level int
		dp    string
		want  bool
	}{
		{0, LogOnly, true}, {1, LogOnly, true}, {2, LogOnly, false},
		{0, AlertOnDrift, true}, {2, AlertOnDrift, false},
		{2, DenyOnDrift, true}, {1, DenyOnDrift, true},
		{3, DenyOnDrift, false}, {-1, DenyOnDrift, false},
		{0, "ignore", false},
	}
	for _, tt := range drift {
		if got := p.DriftPolicyAllowed(tt.level, tt.dp); got != tt.want {
			t.Errorf("DriftPolicyAllowed(%d, %s) = %v, want %v", tt.level, tt.dp, got, tt.want)
		}
	}
}
