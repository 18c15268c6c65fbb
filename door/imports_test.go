package door

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/memgov/memgov"

// The doors reach memory only through the engine and review: door depends
// on no store package (not even through another package) and on no command.
// The test lists door's build dependencies, tests excluded, with go list.
func TestDoorImportsNoStore(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"/door").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps: %v: %s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	// The list is door's own: it ends with door and holds the engine it serves.
	if !slices.Contains(deps, module+"/door") || !slices.Contains(deps, module+"/engine") {
		t.Fatalf("go list -deps does not list door and the engine: %v", deps)
	}
	for _, d := range deps {
		if d == module+"/store" || strings.HasPrefix(d, module+"/store/") {
			t.Errorf("door depends on %s: the doors must reach memory through the engine and review, not the store", d)
		}
		if strings.HasPrefix(d, module+"/cmd/") {
			t.Errorf("door depends on the command package %s: commands wire doors, not the other way round", d)
		}
	}
}
