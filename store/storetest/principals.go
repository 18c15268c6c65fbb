package storetest

import (
	"errors"
	"testing"

	"github.com/memgov/memgov"
)

var principalTests = []test{
	{"LookupAndOrder", testPrincipalLookup},
}

// Principal returns a registered principal with every field; Principals lists
// them by tenant, then id.
func testPrincipalLookup(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	added, err := fx.e.AddPrincipal(fx.ctx, memgov.Principal{ID: "analyst", Role: memgov.Verifier, Tenant: "acme",
		Attributes: map[string]string{"domains": "billing,refunds"}}, "admin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fx.e.AddPrincipal(fx.ctx, memgov.Principal{ID: "aardvark", Role: memgov.Executor, Tenant: "globex"}, "admin"); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		p, err := tx.Principal(fx.ctx, "analyst")
		if err != nil {
			return err
		}
		if p.ID != "analyst" || p.Role != memgov.Verifier || p.Tenant != "acme" || p.Attributes["domains"] != "billing,refunds" ||
			p.Suspended || !p.CreatedAt.Equal(added.CreatedAt) || p.CreatedAt.IsZero() {
			t.Errorf("Principal = %+v, want %+v", p, added)
		}
		if _, err := tx.Principal(fx.ctx, "nobody"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown principal: %v, want ErrNotFound", err)
		}
		ps, err := tx.Principals(fx.ctx)
		if err != nil {
			return err
		}
		var ids []string
		for _, p := range ps {
			ids = append(ids, p.Tenant+"/"+p.ID)
		}
		want := []string{"*/" + operator, "acme/analyst", "acme/" + orch, "acme/" + curator, "acme/" + executor, "globex/aardvark"}
		if len(ids) != len(want) {
			t.Fatalf("Principals = %v, want %v", ids, want)
		}
		for i := range want {
			if ids[i] != want[i] {
				t.Fatalf("Principals = %v, want %v (by tenant, then id)", ids, want)
			}
		}
		return nil
	})
}
