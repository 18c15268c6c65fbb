//go:build ignore

// citations applies docs/citations.sed to the comments of Go files, so that
// comments cite docs/spec.md, and reports the citations it could not map.
//
// Usage:
//
//	go run docs/citations.go [-w] [-strings] [-sed docs/citations.sed] FILE...
//
// Without -w it prints the lines it would change. Only comment text changes:
// each source line that holds a comment is passed through sed whole (so that a
// rule can see the code beside the comment), and the result is kept only when
// the code before the comment is unchanged; otherwise the comment alone is
// passed through sed. With -strings, string literals are rewritten too, line by
// line; they are user-visible text (help, errors, test names), so check the
// tests after. It needs GNU sed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// legacy matches the citation forms that should no longer appear.
var legacy = regexp.MustCompile(`[Ss]eed[- ]?0?0[0-4]|[Ss]eed 12\.|(^|[^0-9.§A-Za-z_-])(12\.[0-9]{1,2}(\.[0-9]{1,2})?|3\.2\.[67](\.[0-9])?)([^0-9]|$)|RFC 00[0-9][0-9]|agent-manifest (v0\.2 )?(section )?[0-9]`)

// newCite matches a citation of the spec in its new form.
var newCite = regexp.MustCompile(`§[0-9]+(\.[0-9x]+)*`)

// unit is one line of a comment or string literal to rewrite: the source line
// (1-based) and the byte offset in it where the rewritable text starts and
// ends.
type unit struct {
	line       int
	start, end int
	kind       string // "comment" or "string"
}

func main() {
	write := flag.Bool("w", false, "write the files")
	withStrings := flag.Bool("strings", false, "rewrite string literals too")
	sedFile := flag.String("sed", "docs/citations.sed", "the sed script")
	flag.Parse()

	var changedLines, newCites int
	var unmapped []string
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			fail(err)
		}
		out, n, c, left, err := rewrite(path, src, *sedFile, *withStrings)
		if err != nil {
			fail(fmt.Errorf("%s: %w", path, err))
		}
		changedLines += n
		newCites += c
		unmapped = append(unmapped, left...)
		if n == 0 {
			continue
		}
		if *write {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				fail(err)
			}
		}
	}
	sort.Strings(unmapped)
	fmt.Printf("%d lines changed, %d spec citations written\n", changedLines, newCites)
	fmt.Printf("%d legacy citations left:\n", len(unmapped))
	for _, u := range unmapped {
		fmt.Println("  " + u)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "citations:", err)
	os.Exit(1)
}

// rewrite returns src with its comments (and strings) rewritten, the number of
// lines changed, the number of spec citations added, and the legacy citations
// left in the rewritable text.
func rewrite(path string, src []byte, sedFile string, withStrings bool) ([]byte, int, int, []string, error) {
	lines := strings.SplitAfter(string(src), "\n")
	units := scan(src, lines, withStrings)
	if len(units) == 0 {
		return src, 0, 0, nil, nil
	}

	// Pass 1: comment lines whole, for context.
	var whole []string
	for _, u := range units {
		if u.kind == "comment" {
			whole = append(whole, strings.TrimSuffix(lines[u.line-1], "\n"))
		}
	}
	wholeOut, err := sed(sedFile, whole)
	if err != nil {
		return nil, 0, 0, nil, err
	}
	// Pass 2: the text alone, for strings and for comments whose code
	// pass 1 would have changed.
	var alone []string
	for _, u := range units {
		alone = append(alone, lines[u.line-1][u.start:u.end])
	}
	aloneOut, err := sed(sedFile, alone)
	if err != nil {
		return nil, 0, 0, nil, err
	}

	newText := make(map[int]string) // unit index -> rewritten text
	w := 0
	for i, u := range units {
		old := lines[u.line-1][u.start:u.end]
		text := aloneOut[i]
		if u.kind == "comment" {
			full := wholeOut[w]
			w++
			orig := strings.TrimSuffix(lines[u.line-1], "\n")
			if len(full) >= u.start && full[:u.start] == orig[:u.start] && u.end == len(orig) {
				text = full[u.start:]
			}
		}
		if text != old {
			newText[i] = text
		}
	}

	changed, cites := 0, 0
	var left []string
	for i, u := range units {
		text := lines[u.line-1][u.start:u.end]
		if t, ok := newText[i]; ok {
			cites += len(newCite.FindAllString(t, -1)) - len(newCite.FindAllString(text, -1))
			ln := lines[u.line-1]
			lines[u.line-1] = ln[:u.start] + t + ln[u.end:]
			// Later units on the same line shift by the length difference.
			for j := i + 1; j < len(units) && units[j].line == u.line; j++ {
				units[j].start += len(t) - len(text)
				units[j].end += len(t) - len(text)
			}
			changed++
			text = t
		}
		for _, m := range legacy.FindAllString(text, -1) {
			left = append(left, fmt.Sprintf("%s:%d: %s", path, u.line, strings.TrimSpace(m)))
		}
	}
	if changed == 0 {
		return src, 0, 0, left, nil
	}
	out := []byte(strings.Join(lines, ""))
	// The result must still scan as Go with the same tokens outside comments.
	if err := sameCode(src, out); err != nil {
		return nil, 0, 0, nil, err
	}
	return out, changed, cites, left, nil
}

// scan lists the comment lines (and string literal lines) of src.
func scan(src []byte, lines []string, withStrings bool) []unit {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var units []unit
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT && !(withStrings && tok == token.STRING) {
			continue
		}
		kind := "comment"
		if tok == token.STRING {
			kind = "string"
		}
		p := fset.Position(pos)
		line, col := p.Line, p.Column-1
		for i, part := range strings.Split(lit, "\n") {
			if i > 0 {
				line, col = line+1, 0
			}
			end := col + len(part)
			if end > len(strings.TrimSuffix(lines[line-1], "\n")) {
				end = len(strings.TrimSuffix(lines[line-1], "\n"))
			}
			units = append(units, unit{line: line, start: col, end: end, kind: kind})
		}
	}
	return units
}

// sed runs the script over in, one element a line, and returns as many lines.
func sed(script string, in []string) ([]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	cmd := exec.Command("sed", "-E", "-f", script)
	cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("sed: %v: %s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != len(in) {
		return nil, fmt.Errorf("sed returned %d lines for %d", len(got), len(in))
	}
	return got, nil
}

// sameCode reports an error if a and b differ in any token but comments and
// string literals.
func sameCode(a, b []byte) error {
	ta, tb := tokens(a), tokens(b)
	if len(ta) != len(tb) {
		return fmt.Errorf("rewrite changed the token count (%d -> %d)", len(ta), len(tb))
	}
	for i := range ta {
		if ta[i] != tb[i] {
			return fmt.Errorf("rewrite changed code: %q -> %q", ta[i], tb[i])
		}
	}
	return nil
}

func tokens(src []byte) []string {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		switch tok {
		case token.COMMENT:
			continue
		case token.STRING:
			out = append(out, "STRING")
		default:
			out = append(out, tok.String()+" "+lit)
		}
	}
}
