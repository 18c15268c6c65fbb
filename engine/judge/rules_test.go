package judge

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ruleSources are the files whose verdicts carry rule names: this
// package's and the dedup gate's.
var ruleSources = []string{"*.go", "../gate/dedup.go"}

// Every rule name a Difference, a Decision, a Verdict or the dedup gate can
// carry is a row of the rule table: every Rule field set in the code is one
// of the Rule constants, and every Rule constant is in the table, once,
// with a doc and, for the difference and verdict families, a function.
func TestEveryRuleIsInTheTable(t *testing.T) {
	fset := gotoken.NewFileSet()
	consts := map[string]string{} // identifier -> rule name
	var used []string             // identifiers a Rule field is set from
	for _, pat := range ruleSources {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.ValueSpec:
					for i, name := range x.Names {
						if !strings.HasPrefix(name.Name, "Rule") || i >= len(x.Values) {
							continue
						}
						if lit, ok := x.Values[i].(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
							v, _ := strconv.Unquote(lit.Value)
							consts[name.Name] = v
						}
					}
				case *ast.KeyValueExpr:
					key, ok := x.Key.(*ast.Ident)
					if !ok || key.Name != "Rule" {
						return true
					}
					switch v := x.Value.(type) {
					case *ast.Ident:
						used = append(used, v.Name)
					case *ast.SelectorExpr:
						if pkg, ok := v.X.(*ast.Ident); ok && pkg.Name == "judge" {
							used = append(used, v.Sel.Name)
						}
					case *ast.BasicLit:
						t.Errorf("%s: a rule named by a literal %s, not a Rule constant", fset.Position(v.Pos()), v.Value)
					}
				}
				return true
			})
		}
	}
	if len(consts) < 20 {
		t.Fatalf("found %d Rule constants; the parse missed them", len(consts))
	}
	seen := map[string]bool{}
	for _, r := range RuleTable() {
		if seen[r.Name] {
			t.Errorf("rule %q is in the table twice", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || r.Family == "" {
			t.Errorf("rule %q has no doc or family", r.Name)
		}
		switch r.Family {
		case FamilyDifference:
			if r.Differs == nil {
				t.Errorf("difference rule %q has no function", r.Name)
			}
		case FamilyVerdict:
			if r.Decides == nil {
				t.Errorf("verdict rule %q has no function", r.Name)
			}
		}
	}
	for id, name := range consts {
		if !seen[name] {
			t.Errorf("rule constant %s = %q is not in the rule table", id, name)
		}
	}
	for _, id := range used {
		// Variables that carry a rule along (kindOf, rule, dec.Rule) hold
		// one of the constants; identifiers naming a constant must be one.
		if strings.HasPrefix(id, "Rule") {
			if _, ok := consts[id]; !ok {
				t.Errorf("a Rule field is set from %s, which is not a Rule constant", id)
			}
		}
	}
}

// The rules the corpus and the examples make fire all name table rows:
// what Explain and Decide return at run time, not only what the source
// spells.
func TestRulesThatFireAreInTheTable(t *testing.T) {
	pairs := [][2]string{
		{"Acme acquired Globex.", "Globex acquired Acme."},
		{"Priya is the sister of Dev and the cousin of Anil.", "Priya is the sister of Anil and the cousin of Dev."},
		{"Admins must rotate keys.", "Admins may rotate keys."},
		{"Only admins can delete projects.", "Admins can only delete projects."},
		{"Up to 5 users may join.", "At least 5 users may join."},
		{"The test almost passed.", "The test passed."},
		{"Refunds need a receipt and an ID.", "Refunds need a receipt or an ID."},
		{"Parcel 88 was shipped to Berlin.", "Parcel 88 was shipped from Berlin."},
		{"Alice's sister lives in Oslo.", "Alice lives in Oslo."},
		{"The release was last week.", "The release was this week."},
		{"The default branch is main.", "The default branch is master."},
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany."},
		{"The user prefers dark mode.", "User prefers dark mode"},
		{"Some admins can export reports.", "All admins can export reports."},
	}
	for _, r := range loadCorpus(t, "duplicate.jsonl") {
		pairs = append(pairs, [2]string{r.A, r.B})
	}
	fired := map[string]bool{}
	for _, p := range pairs {
		for _, d := range Explain(p[0], p[1]) {
			fired[d.Rule] = true
		}
		fired[Compare(p[0], p[1]).Decide().Rule] = true
		if v := Contradiction(p[0], p[1]); v.Contradicts {
			fired[v.Rule] = true
		}
	}
	for name := range fired {
		if _, ok := LookupRule(name); !ok {
			t.Errorf("rule %q fired but is not in the table", name)
		}
	}
	for _, want := range []string{RuleRoleSwap, RuleReordered, RuleModalDiffers, RuleOnlyFocus, RuleBoundDiffers, RuleHedgeDiffers,
		RuleConjunctionDiffers, RulePrepositionRole, RulePossessiveHead, RuleDeixisDiffers, RuleStrictSuperset, RuleSameWords, RuleQuantifierDiffers} {
		if !fired[want] {
			t.Errorf("no example made rule %s fire", want)
		}
	}
}
