package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exported is what `go list -export -json` says of one package.
type exported struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Module     *struct{ Path string }
}

// roleComparisons type-checks every non-test package of the module and
// returns each place that compares a role or a tenant: an ==, != or switch
// case whose operand is a value of the type memgov.Role, or the Tenant field
// of a memgov.Principal ("authz/facts.go:12: role comparison"). Test files
// and test-suite packages (store/storetest) are not read.
func roleComparisons(t *testing.T) []string {
	t.Helper()
	listedPkgs, exports := listExport(t, "./...")
	var pkgs []exported
	for _, p := range listedPkgs {
		if p.Module != nil && p.Module.Path == module {
			pkgs = append(pkgs, p)
		}
	}
	fset := token.NewFileSet()
	imp := exportImporter(fset, exports)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	checked := 0
	for _, p := range pkgs {
		if strings.HasSuffix(p.ImportPath, "test") {
			continue
		}
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp}
		if _, err := conf.Check(p.ImportPath, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		checked++
		authority := func(e ast.Expr) string {
			e = ast.Unparen(e)
			if tv, ok := info.Types[e]; ok && isNamed(tv.Type, module, "Role") {
				return "role"
			}
			if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "Tenant" {
				if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal && isNamed(s.Recv(), module, "Principal") {
					return "tenant"
				}
			}
			return ""
		}
		report := func(pos token.Pos, what string) {
			at := fset.Position(pos)
			rel, err := filepath.Rel(root, at.Filename)
			if err != nil {
				rel = at.Filename
			}
			found = append(found, fmt.Sprintf("%s:%d: %s comparison", rel, at.Line, what))
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op != token.EQL && n.Op != token.NEQ {
						return true
					}
					for _, side := range []ast.Expr{n.X, n.Y} {
						if w := authority(side); w != "" {
							report(n.OpPos, w)
							break
						}
					}
				case *ast.SwitchStmt:
					if n.Tag == nil {
						return true
					}
					if w := authority(n.Tag); w != "" {
						report(n.Switch, w)
					}
				}
				return true
			})
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d packages", checked)
	}
	sort.Strings(found)
	return found
}

func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// Authority is decided in one package: nothing outside authz compares a
// principal's role or tenant; it asks authz.
func TestRolesComparedOnlyInAuthz(t *testing.T) {
	inAuthz := 0
	for _, c := range roleComparisons(t) {
		if strings.HasPrefix(c, "authz/") {
			inAuthz++
			continue
		}
		t.Errorf("%s outside authz: ask authz instead", c)
	}
	// The search finds comparisons where they are: authz makes them.
	if inAuthz == 0 {
		t.Error("no role or tenant comparison found in authz: the search finds nothing")
	}
	t.Logf("%d role and tenant comparisons, all in authz", inAuthz)
}
