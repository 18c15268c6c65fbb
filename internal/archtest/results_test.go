package archtest

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Results say what to do next in memgov's terms, as errors do: a result's
// text (a gate's detail, a report's finding, an alert, a metric's missing
// data) says the action in a phrase and carries a memgov.NextAction; the CLI
// names the command (cmd/memgov/hints.go). Such text is built from string
// literals in many ways (a gate's deny and reject helpers, fmt.Sprintf, a
// field of a report, a table of metrics), so the check reads every string
// literal of the packages that build results, not only error constructors.

// resultDir reports whether the non-test Go files under rel (a directory
// relative to the module root) build results that the doors pass on: every
// directory but the CLI and the TUI (which say it in their own words), the
// docs and testdata, and internal/ and tools/, whose text never reaches a
// user of memgov (internal/pgtest names initdb's flags, for instance).
func resultDir(rel string) bool {
	switch rel {
	case "cmd", "tui", "docs", "internal", "tools":
		return false
	}
	return true
}

// stringLits returns the string literals of f with their values, leaving
// out the patterns given to regexp.Compile and regexp.MustCompile: a
// pattern reads text (the content policy matches "--force" in what an agent
// writes), it never says anything to a user.
func stringLits(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	patterns := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isRegexpCompile(c.Fun) {
			for _, a := range c.Args {
				ast.Inspect(a, func(n ast.Node) bool {
					if b, ok := n.(*ast.BasicLit); ok {
						patterns[b] = true
					}
					return true
				})
			}
		}
		if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING && !patterns[b] {
			out = append(out, b)
		}
		return true
	})
	return out
}

// isRegexpCompile reports whether fun is regexp.Compile or
// regexp.MustCompile.
func isRegexpCompile(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "regexp" && (sel.Sel.Name == "Compile" || sel.Sel.Name == "MustCompile")
}

// resultTextViolations returns the string literals of the Go files below
// root (test files and the directories resultDir leaves out excepted) that
// name a memgov command of cmds or a --flag, and the number of files read.
func resultTextViolations(t *testing.T, root string, cmds map[string]bool) ([]string, int) {
	t.Helper()
	return cliMentions(t, root, cmds, func(rel string) bool { return !resultDir(rel) }, stringLits)
}

// TestResultTextNamesNoCLICommand fails on text built outside cmd/ and tui/
// (gate details, report findings, alerts, metric notes, ...) that names a
// memgov command or a --flag.
func TestResultTextNamesNoCLICommand(t *testing.T) {
	found, read := resultTextViolations(t, "../..", cliCommands(t))
	if read < 50 {
		t.Fatalf("read %d Go files; the walk missed the module", read)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// The check reads a result's text wherever it is built: a gate helper's
// format, a report's field, a table entry; it passes domain words.
func TestResultTextDetector(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := mkdirWrite(p, src); err != nil {
			t.Fatal(err)
		}
	}
	write("gate/g.go", `package gate
func deny(reason, format string, args ...any) string { return reason }
var a = deny("UNAUTHORIZED", "unknown agent %q; register it with: memgov principal add --id %s", "x", "y")
var b = deny("UNAUTHORIZED", "unknown agent %q; a curator registers it", "x")
`)
	write("audit/a.go", `package audit
type Item struct{ Detail string }
var c = Item{Detail: "TTL passed; run memgov gc"}
var d = map[string]string{"x": "usage feedback (--used KEY)"}
`)
	write("guard/p.go", `package guard
import "regexp"
var forceRe = regexp.MustCompile(`+"`--force\\b`"+`)
var h = "--force"
`)
	write("cmd/memgov/h.go", `package main
var e = "memgov principal add --id X"
`)
	write("tui/t.go", `package tui
var f = "memgov drift ack"
`)
	write("audit/a_test.go", `package audit
var g = "memgov gc"
`)
	cmds := map[string]bool{"principal": true, "gc": true, "drift": true}
	found, read := resultTextViolations(t, dir, cmds)
	want := []string{
		`audit/a.go:3: memgov gc in "TTL passed; run memgov gc"`,
		`audit/a.go:4: --used in "usage feedback (--used KEY)"`,
		`gate/g.go:3: memgov principal in "unknown agent %q; register it with: memgov principal add --id %s"`,
		`guard/p.go:4: --force in "--force"`,
	}
	if read != 3 || strings.Join(found, "\n") != strings.Join(want, "\n") {
		t.Errorf("read %d files, found:\n%s\nwant 3 files and:\n%s", read, strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
}

func mkdirWrite(path, src string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(src), 0o644)
}
