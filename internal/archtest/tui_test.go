package archtest

import (
	"slices"
	"strings"
	"testing"
)

// tuiMayImport is every memgov package the terminal UI may import: the
// review service, which is its way to the engine, and the root package's
// domain types.
var tuiMayImport = []string{module, module + "/review"}

// tuiBanned are the packages the terminal UI must reach only through
// review: the engine, the stores, the judge, the guard and the gates (each
// bans the packages below it too).
var tuiBanned = []string{module + "/engine", module + "/store", module + "/engine/judge", module + "/engine/guard", module + "/engine/gate"}

// tuiViolations says what is wrong with the memgov imports of package path,
// one of the TUI's packages.
func tuiViolations(path string, imports []string) []string {
	var out []string
	for _, imp := range own(imports) {
		if imp == module+"/tui" || strings.HasPrefix(imp, module+"/tui/") {
			continue // its own components
		}
		for _, b := range tuiBanned {
			if imp == b || strings.HasPrefix(imp, b+"/") {
				out = append(out, path+" imports "+imp+": the TUI reaches the engine, stores, judge, guard and gates through review only")
			}
		}
		if !slices.Contains(tuiMayImport, imp) {
			out = append(out, path+" imports "+imp+"; it may import only "+strings.Join(tuiMayImport, ", ")+" and its own packages")
		}
	}
	return out
}

// The terminal UI imports the review service and the root types only; the
// engine and what lies behind it are review's business. Test files are not
// held to it (go list's Imports leaves them out): they build a real engine
// to drive the screens.
func TestTUIImportsReviewAndRootOnly(t *testing.T) {
	pkgs := list(t, "./tui/...")
	tui, ok := pkgs[module+"/tui"]
	if !ok {
		t.Fatal("go list ./tui/... does not name tui")
	}
	if !slices.Contains(tui.Imports, module+"/review") {
		t.Errorf("tui does not import review (imports %v): this test no longer sees how it reaches the engine", own(tui.Imports))
	}
	for path, p := range pkgs {
		for _, v := range tuiViolations(path, p.Imports) {
			t.Error(v)
		}
	}
}

// The rule catches what it is there to catch, and lets through what is allowed.
func TestTUIRule(t *testing.T) {
	for _, c := range []struct {
		imp string
		bad bool
	}{
		{module + "/engine", true},
		{module + "/engine/judge", true},
		{module + "/engine/guard", true},
		{module + "/engine/gate", true},
		{module + "/engine/policy", true},
		{module + "/store/sqlite", true},
		{module + "/authz", true},
		{module, false},
		{module + "/review", false},
		{module + "/tui/components/list", false},
		{"github.com/charmbracelet/bubbletea", false},
	} {
		got := tuiViolations(module+"/tui", []string{c.imp})
		if (len(got) > 0) != c.bad {
			t.Errorf("importing %s: violations %q, want bad=%v", c.imp, got, c.bad)
		}
	}
}
