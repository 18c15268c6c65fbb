package authz

import (
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
)

// TestAuthorityTableWalk walks the whole authority table: every action x
// every role x every layer (and "no layer") x {own tenant, another tenant,
// every tenant} x {own memoryRef, another agent's} x {the writer, someone
// acting for the writer, someone else}, and checks each decision against the
// rules SECURITY.md states, which are written here from the spec, not read
// from permit.
func TestAuthorityTableWalk(t *testing.T) {
	ck := New(policy.Default())
	roles := []memgov.Role{memgov.Executor, memgov.Verifier, memgov.Orchestrator, memgov.Curator, memgov.Operator}
	layers := []memgov.Layer{"", memgov.Working, memgov.Session, memgov.Episodic, memgov.Semantic, memgov.Procedural}
	cells, allowed := 0, 0
	seen := map[Action]bool{}
	for _, rule := range Actions {
		if seen[rule.Action] {
			t.Errorf("action %s has two rows", rule.Action)
		}
		seen[rule.Action] = true
		for _, role := range roles {
			for _, tenant := range []string{"acme", "globex", memgov.AllTenants} {
				for _, ownRef := range []bool{true, false} {
					for _, who := range []string{"writer", "acting", "other"} {
						for _, layer := range layers {
							p := memgov.Principal{ID: "p1", Role: role, Tenant: tenant}
							switch who {
							case "writer":
								p.ID = "w1"
							case "acting":
								p.Attributes = map[string]string{"agent": "w1"}
							}
							ref := "acme/other-agent/ns"
							if ownRef {
								ref = "acme/" + p.ID + "/ns"
							}
							err := ck.Permit(p, rule.Action, Target{Ref: ref, Layer: layer, Writer: "w1"})
							cells++
							if err == nil {
								allowed++
							}
							checkCell(t, rule, p, ref, layer, who, err)
						}
					}
				}
			}
		}
	}
	for _, a := range []Action{ActRead, ActWrite, ActAnnotate, ActRollback, ActPin, ActUnpin, ActExpire, ActReclassify, ActPromote,
		ActConsolidate, ActDistill, ActForget, ActErase, ActLease, ActWorkspace, ActReviewClaim, ActReviewDecide, ActReviewEscalate,
		ActReviewRelease, ActDriftAck, ActBaselineApprove, ActProposalActivate} {
		if !seen[a] {
			t.Errorf("action %s has no row in the table", a)
		}
	}
	t.Logf("authority table: %d actions, %d cells, %d allowed", len(Actions), cells, allowed)
	if allowed == 0 || allowed == cells {
		t.Fatalf("%d of %d cells allowed", allowed, cells)
	}
}

func checkCell(t *testing.T, rule Rule, p memgov.Principal, ref string, layer memgov.Layer, who string, err error) {
	t.Helper()
	pol := policy.Default()
	name := string(rule.Action) + " by " + string(p.Role) + "@" + p.Tenant + " (" + who + ") on " + ref + " " + string(layer)
	if p.Tenant == "globex" {
		if err == nil || !strings.Contains(err.Error(), "CTI-1") {
			t.Errorf("%s: %v, want a CTI-1 refusal", name, err)
		}
		if err != nil && (strings.Contains(err.Error(), "acme") || strings.Contains(err.Error(), "other-agent")) {
			t.Errorf("%s: the refusal names the other tenant's data: %v", name, err)
		}
		return
	}
	// What the spec says, rule by rule.
	want := true
	switch {
	case layer != "" && !pol.Allowed(string(p.Role), string(layer), rule.Op):
		want = false // RBAC spec §12.8.2
	case layer == "" && !anyLayer(pol, p.Role, rule.Op):
		want = false
	case p.Role == memgov.Executor && (layer == memgov.Working || layer == memgov.Session) && !strings.HasPrefix(ref, "acme/"+p.ID+"/"):
		want = false // own session
	case rule.Who == People && p.Role != memgov.Curator && p.Role != memgov.Operator:
		want = false
	case rule.Who == Curators && p.Role != memgov.Curator:
		want = false
	case rule.Who == Owner && p.Role == memgov.Executor && !strings.HasPrefix(ref, "acme/"+p.ID+"/"):
		want = false
	case rule.NotWriter && who != "other":
		want = false // writers never judge their own writes
	}
	if (err == nil) != want {
		t.Errorf("%s: allowed=%v, want %v (%v)", name, err == nil, want, err)
	}
	if err != nil && !strings.Contains(err.Error(), "rule ") {
		t.Errorf("%s: the refusal names no rule: %v", name, err)
	}
	// A curator that may otherwise judge is refused for having written.
	if rule.NotWriter && who != "other" && p.Role == memgov.Curator && pol.Allowed(string(p.Role), string(layer), rule.Op) &&
		(err == nil || !strings.Contains(err.Error(), "SELF-REVIEW")) {
		t.Errorf("%s: %v, want the SELF-REVIEW rule", name, err)
	}
}

func anyLayer(pol policy.Policy, r memgov.Role, op string) bool {
	for _, l := range []string{policy.Working, policy.Session, policy.Episodic, policy.Semantic, policy.Procedural} {
		if pol.Allowed(string(r), l, op) {
			return true
		}
	}
	return false
}

// TestAuthoritySpecAnchors pins cells the spec states outright.
func TestAuthoritySpecAnchors(t *testing.T) {
	ck := New(policy.Default())
	for _, c := range []struct {
		role  memgov.Role
		act   Action
		layer memgov.Layer
		ok    bool
	}{
		{memgov.Curator, ActErase, memgov.Semantic, true},
		{memgov.Operator, ActErase, memgov.Semantic, false},     // only curators hard-delete
		{memgov.Orchestrator, ActExpire, memgov.Episodic, true}, // orchestrators soft-delete
		{memgov.Executor, ActRollback, memgov.Session, false},
		{memgov.Verifier, ActAnnotate, memgov.Semantic, true},
		{memgov.Verifier, ActWrite, memgov.Episodic, false},
		{memgov.Executor, ActRead, memgov.Semantic, false},
		{memgov.Executor, ActRead, memgov.Episodic, true}, // shared episodic
		{memgov.Operator, ActDriftAck, "", true},
		{memgov.Orchestrator, ActBaselineApprove, "", false},
		{memgov.Operator, ActReviewDecide, memgov.Episodic, false}, // curators decide reviews
	} {
		p := memgov.Principal{ID: "someone", Role: c.role, Tenant: "acme"}
		err := ck.Permit(p, c.act, Target{Ref: "acme/agent-x/ns", Layer: c.layer, Writer: "agent-x"})
		if (err == nil) != c.ok {
			t.Errorf("%s %s %s: %v, want allowed=%v", c.role, c.act, c.layer, err, c.ok)
		}
	}
	// A principal of every tenant governs acme; a suspended one does nothing.
	if err := ck.Permit(memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: memgov.AllTenants}, ActPin, Target{Ref: "acme/a/b", Layer: memgov.Semantic}); err != nil {
		t.Errorf("a curator of every tenant: %v", err)
	}
	if err := ck.Permit(memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: "acme", Suspended: true}, ActPin, Target{Ref: "acme/a/b", Layer: memgov.Semantic}); err == nil {
		t.Error("a suspended curator pinned")
	}
}
