// Package archtest holds tests of memgov's package structure.
package archtest

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/memgov/memgov"

// listed is what `go list -json` says of one package.
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list runs `go list -json` on patterns from the module root and returns the
// packages it names, with their direct imports and transitive dependencies
// (test files excluded: they are not part of what a package needs).
func list(t *testing.T, patterns ...string) map[string]listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", patterns, err, stderr.String())
	}
	pkgs := map[string]listed{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list %v named no package", patterns)
	}
	return pkgs
}

func own(deps []string) []string {
	var out []string
	for _, d := range deps {
		if d == module || strings.HasPrefix(d, module+"/") {
			out = append(out, d)
		}
	}
	return out
}

// A store stores: it depends on the contract at the root and on leaf
// packages, never on the engine or on the packages that judge a write.
func TestStoreImportsNoService(t *testing.T) {
	banned := []string{module + "/engine", module + "/engine/judge", module + "/engine/guard", module + "/engine/gate", module + "/engine/similar"}
	pkgs := list(t, "./store/...")
	if _, ok := pkgs[module+"/store/sqlite"]; !ok {
		t.Fatal("go list ./store/... does not name store/sqlite")
	}
	for path, p := range pkgs {
		for _, d := range p.Deps {
			if slices.Contains(banned, d) {
				t.Errorf("%s depends on %s", path, d)
			}
		}
		if !slices.Contains(p.Deps, module) {
			t.Errorf("%s does not depend on the root package %s: its contract", path, module)
		}
	}
}

// A service is composed by the engine and stores through the root contract:
// it depends on no engine, no store implementation, no door and no command,
// directly or through another package. What it needs of the engine is an
// interface it declares (host.Writes, for one); who may act, it asks authz.
func TestServicesImportNoEngineStoreOrDoor(t *testing.T) {
	services := []string{"./audit", "./baselines", "./host", "./lifecycle", "./reviews", "./writes"}
	banned := func(d string) bool {
		switch {
		case d == module+"/engine", d == module+"/door", d == module+"/review", d == module+"/tui":
			return true
		case strings.HasPrefix(d, module+"/store/"), strings.HasPrefix(d, module+"/cmd/"), strings.HasPrefix(d, module+"/door/"):
			return true
		}
		return false
	}
	pkgs := list(t, services...)
	if len(pkgs) != len(services) {
		t.Fatalf("go list %v named %d packages", services, len(pkgs))
	}
	for path, p := range pkgs {
		for _, d := range p.Deps {
			if banned(d) {
				t.Errorf("%s depends on %s", path, d)
			}
		}
		if !slices.Contains(p.Deps, module) {
			t.Errorf("%s does not depend on the root package %s: its contract", path, module)
		}
		if !slices.Contains(p.Deps, module+"/authz") {
			t.Errorf("%s does not depend on %s/authz: who may act is asked there", path, module)
		}
	}
	// the engine composes every service
	eng := list(t, "./engine")[module+"/engine"]
	for _, s := range services {
		if p := module + strings.TrimPrefix(s, "."); !slices.Contains(eng.Imports, p) {
			t.Errorf("the engine does not import the service %s", p)
		}
	}
}

// The root package holds the domain types and the store contract; it may
// depend only on leaf packages.
func TestRootImportsOnlyLeaves(t *testing.T) {
	leaves := []string{module + "/engine/oplog", module + "/engine/merkle", module + "/engine/canon", module + "/engine/scope"}
	p := list(t, ".")[module]
	for _, d := range own(p.Deps) {
		if !slices.Contains(leaves, d) {
			t.Errorf("the root package depends on %s, which is not a leaf package (%v)", d, leaves)
		}
	}
	// a leaf imports no other memgov package but leaves
	for path, lp := range list(t, "./engine/oplog", "./engine/merkle", "./engine/canon", "./engine/scope") {
		for _, d := range own(lp.Deps) {
			if !slices.Contains(leaves, d) {
				t.Errorf("leaf package %s depends on %s", path, d)
			}
		}
	}
}
