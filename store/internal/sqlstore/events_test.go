package sqlstore

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
)

// TestEventTypesAreDocumented holds three lists together: the event types the
// store emits (every event() call in this package names an memgov.Event*
// constant or a variable set from them, never a literal), engine.EventTypes,
// and the table of spec §16.6.
func TestEventTypesAreDocumented(t *testing.T) {
	known := map[string]string{} // constant name -> value
	for _, typ := range engine.EventTypes {
		if !regexp.MustCompile(`^([a-z_]+\.)+[a-z_]+$|^[A-Z_]+$`).MatchString(typ) {
			t.Errorf("event type %q is not spelled as a dotted lower-case name or an upper-snake code", typ)
		}
	}
	// Every memgov.Event* constant used in this package is listed.
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	calls := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "memgov" && strings.HasPrefix(n.Sel.Name, "Event") && n.Sel.Name != "Event" && n.Sel.Name != "EventQuery" && n.Sel.Name != "EventTypes" {
					used[n.Sel.Name] = true
				}
			case *ast.CallExpr:
				if fn, ok := n.Fun.(*ast.Ident); ok && fn.Name == "event" && len(n.Args) == 5 {
					calls++
					if lit, ok := n.Args[3].(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						t.Errorf("%s: event type %q is a literal; use an memgov.Event* constant", fset.Position(lit.Pos()), s)
					}
					if bin, ok := n.Args[3].(*ast.BinaryExpr); ok {
						t.Errorf("%s: event type is computed; use an memgov.Event* constant", fset.Position(bin.Pos()))
					}
				}
			}
			return true
		})
	}
	if calls < 10 {
		t.Fatalf("found only %d event() calls; the scan is broken", calls)
	}
	consts := map[string]string{
		"EventMemoryWritten": memgov.EventMemoryWritten, "EventMemoryRetracted": memgov.EventMemoryRetracted,
		"EventMemoryExpired": memgov.EventMemoryExpired, "EventMemorySuperseded": memgov.EventMemorySuperseded,
		"EventMemoryQuarantined": memgov.EventMemoryQuarantined, "EventMemoryReleased": memgov.EventMemoryReleased,
		"EventMemoryErased": memgov.EventMemoryErased, "EventMemoryCompacted": memgov.EventMemoryCompacted,
		"EventMemoryConsolidated": memgov.EventMemoryConsolidated, "EventMemoryDriftDetected": memgov.EventMemoryDriftDetected,
		"EventReviewCreated": memgov.EventReviewCreated, "EventReviewApproved": memgov.EventReviewApproved,
		"EventReviewRejected": memgov.EventReviewRejected, "EventReviewEscalated": memgov.EventReviewEscalated,
		"EventAgentSuspended": memgov.EventAgentSuspended, "EventAgentReinstated": memgov.EventAgentReinstated,
		"EventCommitmentFired": memgov.EventCommitmentFired, "EventProposalCreated": memgov.EventProposalCreated,
		"EventProposalActivated": memgov.EventProposalActivated,
	}
	for name := range used {
		v, ok := consts[name]
		if !ok {
			t.Errorf("engine.%s is used by the store but missing from this test's table", name)
			continue
		}
		known[name] = v
		if !slices.Contains(engine.EventTypes, v) {
			t.Errorf("the store emits %q (engine.%s) but engine.EventTypes does not list it", v, name)
		}
	}
	for name, v := range consts {
		if !used[name] {
			t.Errorf("engine.%s (%q) is listed but the store never emits it", name, v)
		}
	}
	if len(consts) != len(engine.EventTypes) {
		t.Errorf("engine.EventTypes has %d types, the constants %d", len(engine.EventTypes), len(consts))
	}

	// The table of spec §16.6 lists exactly engine.EventTypes.
	spec, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(spec)
	i := strings.Index(sec, "### 16.6 Events")
	if i < 0 {
		t.Fatal("docs/spec.md has no section 16.6 Events")
	}
	sec = sec[i+len("### 16.6 Events"):]
	if j := strings.Index(sec, "\n#"); j >= 0 {
		sec = sec[:j]
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(sec, -1) {
		documented = append(documented, m[1])
	}
	if !slices.Equal(documented, engine.EventTypes) {
		t.Errorf("spec §16.6 lists %v\nengine.EventTypes is %v", documented, engine.EventTypes)
	}
	if slices.Contains(documented, "memory.retractd") || slices.Contains(engine.EventTypes, "memory.retractd") {
		t.Error("memory.retractd is misspelled")
	}
}
