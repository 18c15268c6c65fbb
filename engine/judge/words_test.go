package judge

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWordClassesLoad(t *testing.T) {
	if got := wordList("weekdays"); len(got) != 7 || got[0] != "monday" || got[6] != "sunday" {
		t.Fatalf("weekdays = %v, want monday..sunday", got)
	}
	if !inClass("weekdays", "friday") || inClass("weekdays", "fryday") {
		t.Fatal("inClass misreads the weekdays class")
	}
	// A class file lists each word once and is never empty.
	for _, name := range WordClasses() {
		b, err := wordFiles.ReadFile("words/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, l := range strings.Split(string(b), "\n") {
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i]
			}
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		if n := len(wordList(name)); n == 0 || n != lines {
			t.Errorf("word class %s: %d distinct words on %d lines (empty, or a word listed twice)", name, n, lines)
		}
	}
}

// Word classes are data, not Go: the rule files hold no map or slice
// literal that lists words (three or more string keys or elements).
func TestNoWordListsInGo(t *testing.T) {
	fset := gotoken.NewFileSet()
	for _, path := range []string{"dedup.go", "delta.go", "reorder.go", "text.go", "prepared.go", "rules.go", "words.go"} {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			words := 0
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Key
				}
				if b, ok := e.(*ast.BasicLit); ok && b.Kind == gotoken.STRING {
					words++
				}
			}
			if words >= 3 {
				t.Errorf("%s: a list of %d words in Go; put the class in engine/judge/words/", fset.Position(lit.Pos()), words)
			}
			return true
		})
	}
}

// Every class file is read by a rule.
func TestEveryWordClassIsUsed(t *testing.T) {
	var src strings.Builder
	// The package's Go files and its data tables (relations.tsv names the
	// class of a relation's values).
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	tables, err := filepath.Glob("*.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range append(paths, tables...) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
		if strings.HasSuffix(path, ".tsv") {
			// A table names a class as a bare field.
			for _, f := range strings.FieldsFunc(string(b), func(r rune) bool { return r == '\t' || r == '\n' }) {
				src.WriteString(`"` + f + `"`)
			}
		}
	}
	for _, name := range WordClasses() {
		if !strings.Contains(src.String(), `"`+name+`"`) {
			t.Errorf("word class %s is embedded but no rule reads it", name)
		}
	}
}
