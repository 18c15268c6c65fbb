package authz

import (
	"errors"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// TestVisibleReadRule holds spec §12.8.5's read rule, one clause at a time,
// for the readings a read resolves to: the owner sees every version; a
// principal only what its tenant, the matrix, its clearance and its
// domains allow, and its own reserved keys whatever their layer.
func TestVisibleReadRule(t *testing.T) {
	ck := New(policy.Default())
	ver := func(ref, key string, layer memgov.Layer, class string, tags ...string) memgov.Version {
		return memgov.Version{ID: "v1", MemoryRef: ref, Key: key, Layer: layer, Classification: class, Tags: tags}
	}
	bot := memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}
	orch := memgov.Principal{ID: "orch", Role: memgov.Orchestrator, Tenant: "acme"}
	jane := memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: "acme"}
	root := memgov.Principal{ID: "root", Role: memgov.Curator, Tenant: memgov.AllTenants}
	cleared := memgov.Principal{ID: "orch2", Role: memgov.Orchestrator, Tenant: "acme", Attributes: map[string]string{"clearance": "pii", "domains": "billing"}}
	cases := []struct {
		name string
		r    Reading
		v    memgov.Version
		want error // nil: visible
	}{
		{"owner: another tenant's PII in a domain", OwnerReading, ver("globex/bot", "k", memgov.Semantic, policy.PII, "domain:hr"), nil},
		{"owner: a malformed ref", OwnerReading, ver("../x", "k", memgov.Working, ""), nil},
		{"agent: its own session memory", ReadingOf(bot), ver("acme/bot", "k", memgov.Session, ""), nil},
		{"agent: another tenant", ReadingOf(bot), ver("globex/bot", "k", memgov.Session, ""), memgov.ErrForbidden},
		{"executor: another agent's session memory", ReadingOf(bot), ver("acme/other", "k", memgov.Session, ""), memgov.ErrForbidden},
		{"executor: semantic memory is outside its matrix row", ReadingOf(bot), ver("acme/bot", "k", memgov.Semantic, ""), memgov.ErrForbidden},
		{"executor: its own distillation index, whatever the layer", ReadingOf(bot), ver("acme/bot", memgov.IndexKey, memgov.Semantic, ""), nil},
		{"executor: another agent's distillation index", ReadingOf(bot), ver("acme/other", memgov.IndexKey, memgov.Semantic, ""), memgov.ErrForbidden},
		{"agent: GENERAL is its default clearance", ReadingOf(orch), ver("acme/x", "k", memgov.Episodic, policy.General), nil},
		{"agent: BUSINESS is above its default clearance", ReadingOf(orch), ver("acme/x", "k", memgov.Episodic, policy.Business), memgov.ErrForbidden},
		{"agent: unclassified counts as PUBLIC", ReadingOf(orch), ver("acme/x", "k", memgov.Episodic, ""), nil},
		{"agent: a domain it is not in", ReadingOf(orch), ver("acme/x", "k", memgov.Episodic, "", "domain:billing"), memgov.ErrForbidden},
		{"agent: its clearance attribute (any case) and its domain", ReadingOf(cleared), ver("acme/x", "k", memgov.Episodic, policy.PII, "domain:billing"), nil},
		{"agent: its domains exclude another", ReadingOf(cleared), ver("acme/x", "k", memgov.Episodic, "", "domain:hr"), memgov.ErrForbidden},
		{"person: cleared for the highest class and every domain", ReadingOf(jane), ver("acme/x", "k", memgov.Semantic, policy.PII, "domain:hr"), nil},
		{"person: another tenant", ReadingOf(jane), ver("globex/x", "k", memgov.Semantic, ""), memgov.ErrForbidden},
		{"installation-wide person: any tenant", ReadingOf(root), ver("globex/x", "k", memgov.Semantic, policy.PII), nil},
	}
	for _, tc := range cases {
		err := ck.Visible(tc.r, tc.v)
		if tc.want == nil && err != nil {
			t.Errorf("%s: refused: %v", tc.name, err)
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestReadingsBoundTenantScopeAndItem holds the reader's bounds beside
// Visible: which tenants and memoryRef scopes a reading reads, and the
// matrix's read cell of an item.
func TestReadingsBoundTenantScopeAndItem(t *testing.T) {
	ck := New(policy.Default())
	bot := ReadingOf(memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"})
	root := ReadingOf(memgov.Principal{ID: "root", Role: memgov.Operator, Tenant: memgov.AllTenants})
	for _, tc := range []struct {
		r      Reading
		tenant string
		want   bool
	}{{OwnerReading, "globex", true}, {bot, "acme", true}, {bot, "globex", false}, {root, "globex", true}} {
		if got := ck.ReadsTenant(tc.r, tc.tenant); got != tc.want {
			t.Errorf("ReadsTenant(%+v, %s) = %v, want %v", tc.r, tc.tenant, got, tc.want)
		}
	}
	acme, err := scope.Parse("acme/bot")
	if err != nil {
		t.Fatal(err)
	}
	globex, err := scope.Parse("globex/bot")
	if err != nil {
		t.Fatal(err)
	}
	if !ck.ReadsScope(OwnerReading, globex) || !ck.ReadsScope(bot, acme) || ck.ReadsScope(bot, globex) {
		t.Error("ReadsScope: the owner reads every valid scope, a principal its tenant's only")
	}
	if ck.ReadsScope(OwnerReading, scope.Ref{}) {
		t.Error("ReadsScope: the owner read the zero (invalid) scope")
	}
	if err := ck.ReadsItem(OwnerReading, "globex/bot", memgov.Semantic); err != nil {
		t.Errorf("ReadsItem: the owner was refused: %v", err)
	}
	if err := ck.ReadsItem(bot, "acme/bot", memgov.Semantic); !errors.Is(err, memgov.ErrForbidden) {
		t.Errorf("ReadsItem: an executor read semantic memory: %v", err)
	}
	if err := ck.ReadsItem(bot, "acme/bot", memgov.Episodic); err != nil {
		t.Errorf("ReadsItem: an executor was refused its episodic memory: %v", err)
	}
}

// TestReaderValues holds memgov.Reader: the owner is recorded as "local",
// a principal by its id.
func TestReaderValues(t *testing.T) {
	if !memgov.Owner.IsOwner() || memgov.Owner.ID() != "local" {
		t.Errorf("memgov.Owner: owner %v, id %q", memgov.Owner.IsOwner(), memgov.Owner.ID())
	}
	if r := memgov.As("bot"); r.IsOwner() || r.ID() != "bot" {
		t.Errorf("memgov.As(bot): owner %v, id %q", r.IsOwner(), r.ID())
	}
	if memgov.As("") == memgov.Owner {
		t.Error("the reader of an empty principal id is the owner")
	}
}

// TestEventTenant: the owner reads the outbox of the tenant it asks for; a
// principal only its own tenant's, whatever it asks; an installation-wide
// principal every tenant's.
func TestEventTenant(t *testing.T) {
	ck := New(policy.Default())
	bot := memgov.Principal{ID: "bot", Role: memgov.Executor, Tenant: "acme"}
	root := memgov.Principal{ID: "root", Role: memgov.Curator, Tenant: memgov.AllTenants}
	for _, c := range []struct {
		r          Reading
		asked, got string
	}{
		{OwnerReading, "", ""},
		{OwnerReading, "globex", "globex"},
		{ReadingOf(bot), "", "acme"},
		{ReadingOf(bot), "globex", "acme"},
		{ReadingOf(root), "globex", memgov.AllTenants},
	} {
		if got := ck.EventTenant(c.r, c.asked); got != c.got {
			t.Errorf("EventTenant(%+v, %q) = %q, want %q", c.r, c.asked, got, c.got)
		}
	}
}
