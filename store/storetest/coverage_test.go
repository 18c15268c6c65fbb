package storetest

import (
	"reflect"
	"sort"
	"testing"

	"github.com/memgov/memgov"
)

// TestCoverage fails when a method of the store contract has no conformance
// test in Coverage, when Coverage names a method the contract does not have,
// or when it names a test that Run does not run.
func TestCoverage(t *testing.T) {
	methods := map[string]bool{}
	for _, typ := range []reflect.Type{
		reflect.TypeOf((*memgov.Store)(nil)).Elem(),
		reflect.TypeOf((*memgov.Tx)(nil)).Elem(), // embeds ReadTx
	} {
		for i := range typ.NumMethod() {
			methods[typ.Method(i).Name] = true
		}
	}
	if len(methods) == 0 {
		t.Fatal("no methods found in the contract")
	}
	tests := map[string]bool{}
	for _, s := range suites() {
		for _, tc := range s.tests {
			tests[s.name+"/"+tc.name] = true
		}
	}
	var missing []string
	for m := range methods {
		if len(Coverage[m]) == 0 {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("contract method %s has no conformance test in storetest.Coverage", m)
	}
	for m, names := range Coverage {
		if !methods[m] {
			t.Errorf("storetest.Coverage names %s, which is not a method of memgov.Store or memgov.Tx", m)
		}
		for _, n := range names {
			if !tests[n] {
				t.Errorf("storetest.Coverage maps %s to %s, which Run does not run", m, n)
			}
		}
	}
}
