package review

import (
	"regexp"
	"sort"
	"strings"

	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
)

// RuleNote is a rule a gate's finding names: the rule, the words that fired
// it as the finding quotes them ("" when it quotes none), and, for a rule
// of the judge, its one-line doc. Words are untrusted agent text, to be
// sanitised before display.
type RuleNote struct {
	Name, Words, Doc string
}

// bracketRule is the dedup gate's "[rule NAME: "w", "w"]" or "[rule NAME,
// after OTHER]".
var bracketRule = regexp.MustCompile(`\[rule ([a-z][a-z0-9]*(?:-[a-z0-9]+)*)((?:[^\]"]|"[^"]*")*)\]`)

// namedRule is "NAME: what fired it", as the contradiction gate ("(single-
// valued: ...)") and the content policy ("ORDER_TO_ACT: order to act on the
// world: ...") write a rule into their findings.
// The name begins the finding or follows a space or a parenthesis.
var namedRule = regexp.MustCompile(`\b([a-z][a-z0-9]*(?:-[a-z0-9]+)*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+): `)

// FindingRules returns the rules a finding names, in the order it names
// them, each once. A lower-case name counts only when it is a rule of the
// judge or of the contradiction gate; an upper-case one with an underscore
// is a content-policy rule.
func FindingRules(f string) []RuleNote {
	var out []RuleNote
	seen := map[string]bool{}
	add := func(n RuleNote) {
		if !seen[n.Name] {
			seen[n.Name] = true
			if r, ok := judge.LookupRule(n.Name); ok {
				n.Doc = r.Doc
			}
			out = append(out, n)
		}
	}
	type found struct {
		at int
		n  RuleNote
	}
	var all []found
	for _, m := range bracketRule.FindAllStringSubmatchIndex(f, -1) {
		name, rest := f[m[2]:m[3]], f[m[4]:m[5]]
		words, _ := strings.CutPrefix(rest, ": ")
		if strings.HasPrefix(rest, ",") {
			words = ""
		}
		all = append(all, found{m[0], RuleNote{Name: name, Words: strings.TrimSpace(words)}})
	}
	for _, m := range namedRule.FindAllStringSubmatchIndex(f, -1) {
		name := f[m[2]:m[3]]
		if m[2] > 0 && f[m[2]-1] != ' ' && f[m[2]-1] != '(' || !strings.Contains(name, "_") && !knownRule(name) {
			continue
		}
		inParens := m[2] > 0 && f[m[2]-1] == '('
		all = append(all, found{m[2], RuleNote{Name: name, Words: ruleWords(f[m[1]:], inParens)}})
	}
	// In the order the finding names them.
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	for _, a := range all {
		add(a.n)
	}
	return out
}

// knownRule reports whether name is a rule a lower-case finding names.
func knownRule(name string) bool {
	if _, ok := judge.LookupRule(name); ok {
		return true
	}
	return name == gate.RuleStructuredObject || name == gate.RuleModelJudge
}

// ruleWords is what follows "NAME: " up to the end of the rule's part of
// the finding: the closing parenthesis when the rule opened inside one,
// else the next "; ", a " (" that begins an aside, or the end. Quoted
// words are read whole.
func ruleWords(s string, inParens bool) string {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			if !inParens && depth == 0 && i > 0 && s[i-1] == ' ' {
				return strings.TrimSpace(s[:i])
			}
			depth++
		case c == ')':
			if depth == 0 {
				return strings.TrimSpace(s[:i])
			}
			depth--
		case c == ';' && depth == 0 && !inParens:
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}
