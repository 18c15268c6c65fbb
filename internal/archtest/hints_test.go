package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Errors say what failed in memgov's terms; the CLI (cmd/memgov/hints.go)
// and the TUI add the command or the flag that helps, since the same error
// reaches the HTTP and MCP doors, where no command line exists.

// cliCommands returns the names of memgov's commands and subcommands: the
// first word of every cobra Use string in cmd/memgov.
func cliCommands(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("../../cmd/memgov/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("reading cmd/memgov: %v (%d files)", err, len(files))
	}
	use := regexp.MustCompile(`Use:\s*"([a-z][a-z-]*)`)
	cmds := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range use.FindAllSubmatch(b, -1) {
			cmds[string(m[1])] = true
		}
	}
	delete(cmds, "memgov")
	if !cmds["principal"] || !cmds["drift"] {
		t.Fatalf("found no command principal or drift in cmd/memgov: %v", cmds)
	}
	return cmds
}

var (
	mentionRe = regexp.MustCompile(`\bmemgov ([a-z][a-z-]*)`)
	flagRe    = regexp.MustCompile("(?:^|[\\s(`])--[a-z][a-z-]*")
)

// cliHint returns the command or flag s names, or "": "memgov COMMAND" for
// a command of cmds (not "a memgov token", which names a thing), or a
// "--flag".
func cliHint(s string, cmds map[string]bool) string {
	for _, m := range mentionRe.FindAllStringSubmatchIndex(s, -1) {
		before := strings.ToLower(s[:m[0]])
		if cmds[s[m[2]:m[3]]] && !strings.HasSuffix(before, "a ") && !strings.HasSuffix(before, "the ") && !strings.HasSuffix(before, "this ") {
			return s[m[0]:m[1]]
		}
	}
	return strings.TrimLeft(flagRe.FindString(s), " \t\n(`")
}

// errorConstructor reports whether call builds an error from text:
// fmt.Errorf, errors.New, memgov.Inputf, or a package's own helper of the
// kind (a function named commitErr or ending in Errorf).
func errorConstructor(call *ast.CallExpr) bool {
	var pkg, name string
	switch f := call.Fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
		if id, ok := f.X.(*ast.Ident); ok {
			pkg = id.Name
		}
	}
	switch {
	case pkg == "fmt" && name == "Errorf", pkg == "errors" && name == "New":
		return true
	case name == "Inputf", name == "commitErr", strings.HasSuffix(name, "Errorf"):
		return true
	}
	return false
}

// errorText returns the string literals that become error text in f: the
// arguments of error constructors, and the literals inside a composite
// literal of an error type (a type named *Error, such as review.ForbiddenError).
func errorText(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	lits := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
				out = append(out, b)
			}
			return true
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if errorConstructor(n) {
				for _, a := range n.Args {
					lits(a)
				}
				return false
			}
		case *ast.CompositeLit:
			if typeName(n.Type) != "" && strings.HasSuffix(typeName(n.Type), "Error") {
				lits(n)
				return false
			}
		}
		return true
	})
	return out
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// TestErrorsNameNoCLICommand fails on an error built outside cmd/ and tui/
// (test files, docs, testdata and help text excepted) whose text names a
// memgov command or a --flag.
func TestErrorsNameNoCLICommand(t *testing.T) {
	found, read := cliMentions(t, "../..", cliCommands(t), func(rel string) bool {
		return rel == "cmd" || rel == "tui" || rel == "docs"
	}, errorText)
	if read < 50 {
		t.Fatalf("read %d Go files; the walk missed the module", read)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// cliMentions reads the Go files below root (test files, testdata, hidden
// directories and the directories skip names excepted) and returns, sorted,
// the string literals lits picks from each that name a memgov command of
// cmds or a --flag, and the number of files read.
func cliMentions(t *testing.T, root string, cmds map[string]bool, skip func(rel string) bool, lits func(*ast.File) []*ast.BasicLit) ([]string, int) {
	t.Helper()
	fset := token.NewFileSet()
	var found []string
	read := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skip(rel) || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		read++
		for _, b := range lits(f) {
			s, err := strconv.Unquote(b.Value)
			if err != nil {
				continue
			}
			if h := cliHint(s, cmds); h != "" {
				found = append(found, rel+":"+strconv.Itoa(fset.Position(b.Pos()).Line)+": "+h+" in "+strconv.Quote(s))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(found)
	return found, read
}

// The check itself: what it catches and what it lets pass.
func TestCLIHintDetector(t *testing.T) {
	cmds := map[string]bool{"principal": true, "token": true, "verify": true}
	for s, want := range map[string]string{
		"read-only: %s is not registered (memgov principal add --id %s)": "memgov principal",
		"%s was edited; run `memgov verify %s`":                          "memgov verify",
		"a write must carry its token (--fencing-token)":                 "--fencing-token",
		"%w: not a memgov token":                                         "",
		"%s was edited outside memgov; acknowledge the drift":            "",
		"ranges like 1--3 are not flags":                                 "",
	} {
		if got := cliHint(s, cmds); got != want {
			t.Errorf("cliHint(%q) = %q, want %q", s, got, want)
		}
	}
	src := `package p
import ("errors"; "fmt")
type ForbiddenError struct{ Msg string }
var a = fmt.Errorf("x (memgov principal add)")
var b = errors.New("y")
var c = &ForbiddenError{Msg: fmt.Sprintf("z --by")}
var d = fmt.Sprintf("not an error: memgov principal add")
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range errorText(f) {
		got = append(got, b.Value)
	}
	if want := "\"x (memgov principal add)\" \"y\" \"z --by\""; strings.Join(got, " ") != want {
		t.Errorf("error text = %s, want %s", strings.Join(got, " "), want)
	}
}
