package judge

import (
	"fmt"
	"sort"
	"strings"
)

// A Rule is one named rule of the judge: what a verdict says decided it.
// Every name a Difference, a Decision or a Verdict can carry is a row of
// RuleTable, so a curator reading a verdict finds what the rule does, and
// whoever tunes the judge finds the rule to change.
type Rule struct {
	// Name is what verdicts carry ("role-swap").
	Name string
	// Family groups the rules: "difference" rules find a material
	// difference between a stored text and a new one; "verdict" rules
	// decide what the dedup gate does with a near text; "gate" rules are
	// the dedup gate's own tiers and its model; "contradiction" rules are
	// Judge.Contradiction's.
	Family string
	// Doc says in one line what the rule reads.
	Doc string
	// Differs, for a difference rule, reads the difference of new text b
	// against old text a (nil for the other families).
	Differs func(a, b string, lex *Lexicon) (Difference, bool)
	// Decides, for a verdict rule, reports whether the rule decides the
	// delta, and what it decides (a Resolve kind).
	Decides func(d *Delta) (string, bool)
}

// Rule families.
const (
	FamilyDifference    = "difference"
	FamilyVerdict       = "verdict"
	FamilyGate          = "gate"
	FamilyContradiction = "contradiction"
	FamilySupport       = "support"
)

// Difference rules, in the order Compare tries them.
const (
	RuleNumberDiffers      = "number-differs"
	RuleDateDiffers        = "date-differs"
	RuleNegationDiffers    = "negation-differs"
	RuleNameDiffers        = "name-differs"
	RuleRoleSwap           = "role-swap"
	RuleModalDiffers       = "modal-differs"
	RuleConjunctionDiffers = "conjunction-differs"
	RuleHedgeDiffers       = "hedge-differs"
	RuleOnlyFocus          = "only-focus"
	RuleBoundDiffers       = "bound-differs"
	RuleQuantifierDiffers  = "quantifier-differs"
	RuleDeixisDiffers      = "deixis-differs"
	RuleAntonymWord        = "antonym-word"
	RulePrepositionRole    = "preposition-role"
	RuleClaimValue         = "claim-value"
	RulePossessiveHead     = "possessive-head"
)

// Verdict rules, in the order Delta.Decide tries them (after the
// difference rules, any of which keeps the texts apart).
const (
	RuleReordered         = "reordered"
	RuleSameWords         = "same-words"
	RuleSubset            = "says-less"
	RuleAddsStatement     = "adds-a-statement"
	RuleStrictSuperset    = "strict-superset"
	RuleSupersetReordered = "superset-reordered"
	RuleLeavesOut         = "leaves-out"
)

// Gate rules: the dedup gate's tiers and its model.
const (
	RuleExactHash      = "exact-hash"
	RuleSameClaims     = "same-claims"
	RuleModelEntails   = "model-entails"
	RuleModelExtends   = "model-extends"
	RuleExtendsPending = "extends-pending"
	// RuleRepeatsEvent and RuleExtendsEvent are the event layers' answer
	// to what RuleExactHash, RuleSameClaims, RuleSameWords,
	// RuleModelEntails (a duplicate) and RuleStrictSuperset,
	// RuleModelExtends (a merge) decide elsewhere: EPISODIC memory
	// records what happened, and the same words said at another time are
	// another event, not the same claim stated twice.
	RuleRepeatsEvent = "repeats-event"
	RuleExtendsEvent = "extends-event"
)

var ruleTable = []Rule{
	{Name: RuleNumberDiffers, Family: FamilyDifference, Doc: "both texts give a number, amount or percentage, and another one", Differs: func(a, b string, _ *Lexicon) (Difference, bool) {
		d, ok := quantityDiff(a, b)
		return d, ok && d.A != "" && d.B != "" && d.Rule == RuleNumberDiffers
	}},
	{Name: RuleDateDiffers, Family: FamilyDifference, Doc: "both texts give a date or time, and another one", Differs: func(a, b string, _ *Lexicon) (Difference, bool) {
		d, ok := quantityDiff(a, b)
		return d, ok && d.A != "" && d.B != "" && d.Rule == RuleDateDiffers
	}},
	{Name: RuleNegationDiffers, Family: FamilyDifference, Doc: "one text is negated (not, never, no, except) and the other is not", Differs: negationDiff},
	{Name: RuleNameDiffers, Family: FamilyDifference, Doc: "both texts name someone or something, and another name", Differs: func(a, b string, lex *Lexicon) (Difference, bool) {
		d, ok := nameDiff(a, b, lex)
		return d, ok && d.A != "" && d.B != ""
	}},
	{Name: RuleRoleSwap, Family: FamilyDifference, Doc: "the same words with the words around one of them changed sides (subject and object swapped)", Differs: roleDiff},
	{Name: RuleModalDiffers, Family: FamilyDifference, Doc: "a modal verb of another kind: must, should, may", Differs: lightRule(RuleModalDiffers)},
	{Name: RuleConjunctionDiffers, Family: FamilyDifference, Doc: `"and" in one text where the other writes "or"`, Differs: lightRule(RuleConjunctionDiffers)},
	{Name: RuleHedgeDiffers, Family: FamilyDifference, Doc: "a hedge or an intention in one text only (almost, mostly, wants to)", Differs: lightRule(RuleHedgeDiffers)},
	{Name: RuleOnlyFocus, Family: FamilyDifference, Doc: `"only" restricts another word, or stands in one text only`, Differs: lightRule(RuleOnlyFocus)},
	{Name: RuleBoundDiffers, Family: FamilyDifference, Doc: "another bound on a number (up to, at least, more than, exactly)", Differs: lightRule(RuleBoundDiffers)},
	{Name: RuleQuantifierDiffers, Family: FamilyDifference, Doc: "another quantifier, or one in one text only (all, every, each / some, any / many / both)", Differs: quantifierDiff},
	{Name: RuleDeixisDiffers, Family: FamilyDifference, Doc: "both point to a time from now, and to another one (last week / this week)", Differs: lightRule(RuleDeixisDiffers)},
	{Name: RuleAntonymWord, Family: FamilyDifference, Doc: "a word of one text is an antonym of a word of the other", Differs: func(a, b string, lex *Lexicon) (Difference, bool) {
		p, q, ok := antonymChange(a, b, lex)
		if !ok {
			return Difference{}, false
		}
		return Difference{Rule: RuleAntonymWord, A: p, B: q, Explanation: fmt.Sprintf("%q and %q are antonyms", p, q)}, true
	}},
	{Name: RulePrepositionRole, Family: FamilyDifference, Doc: "a word both texts write is governed by another preposition (to Berlin / from Berlin)", Differs: func(a, b string, _ *Lexicon) (Difference, bool) {
		w, p, q, ok := prepositionChange(a, b)
		if !ok {
			return Difference{}, false
		}
		return Difference{Rule: RulePrepositionRole, A: p + " " + w, B: q + " " + w,
			Explanation: fmt.Sprintf("%q in one text, %q in the other", p+" "+w, q+" "+w)}, true
	}},
	{Name: RuleClaimValue, Family: FamilyDifference, Doc: "the contradiction rules read another value of a claim (words that may stand for each other, main / master)", Differs: func(a, b string, lex *Lexicon) (Difference, bool) {
		return defaultJudge.claimValue(a, b, lex)
	}},
	{Name: RulePossessiveHead, Family: FamilyDifference, Doc: `one text speaks of X's thing, the other of X itself ("Alice's sister lives in Oslo" / "Alice lives in Oslo")`, Differs: func(a, b string, _ *Lexicon) (Difference, bool) {
		if h, ok := possessiveHead(a, b); ok {
			return Difference{Rule: RulePossessiveHead, A: h, Explanation: fmt.Sprintf("%q in one text only: the other speaks of another thing", h)}, true
		}
		if h, ok := possessiveHead(b, a); ok {
			return Difference{Rule: RulePossessiveHead, B: h, Explanation: fmt.Sprintf("%q in one text only: the other speaks of another thing", h)}, true
		}
		return Difference{}, false
	}},

	{Name: RuleReordered, Family: FamilyVerdict, Doc: "the same words in another order: the roles may have changed, so both are kept", Decides: func(d *Delta) (string, bool) {
		return ResolveConflict, d.Reordered
	}},
	{Name: RuleSameWords, Family: FamilyVerdict, Doc: "the same content words, values and names in the same order: the write states the same claims (REJECTED; in EPISODIC memory see repeats-event)", Decides: func(d *Delta) (string, bool) {
		return ResolveDuplicate, len(d.Added) == 0 && len(d.Dropped) == 0 && d.InOrder
	}},
	{Name: RuleSubset, Family: FamilyVerdict, Doc: "the write adds nothing but leaves words out: it states less, and is kept beside the other", Decides: func(d *Delta) (string, bool) {
		return ResolveConflict, len(d.Added) == 0
	}},
	{Name: RuleAddsStatement, Family: FamilyVerdict, Doc: "the write keeps every word of the stored text but adds more than half as many again: a new statement that repeats the old one, kept beside it", Decides: func(d *Delta) (string, bool) {
		return ResolveConflict, len(d.Dropped) == 0 && d.InOrder && 2*len(d.Added) > d.OldWords
	}},
	{Name: RuleStrictSuperset, Family: FamilyVerdict, Doc: "the write keeps every content word, number and name of the stored text in the same order and adds to it (MERGED; in EPISODIC memory see extends-event)", Decides: func(d *Delta) (string, bool) {
		return ResolveMerge, len(d.Dropped) == 0 && d.InOrder
	}},
	{Name: RuleSupersetReordered, Family: FamilyVerdict, Doc: "the write keeps every word of the stored text and adds to it, but in another order: kept beside it", Decides: func(d *Delta) (string, bool) {
		return ResolveConflict, len(d.Dropped) == 0
	}},
	{Name: RuleLeavesOut, Family: FamilyVerdict, Doc: "the write adds words and leaves others out: merging would lose them, so both are kept", Decides: func(*Delta) (string, bool) {
		return ResolveConflict, true
	}},

	{Name: RuleExactHash, Family: FamilyGate, Doc: "the same content, byte for byte once canonical (REJECTED; in EPISODIC memory only a rewrite of the same item, see repeats-event)"},
	{Name: RuleSameClaims, Family: FamilyGate, Doc: "the same structural fingerprint and the same claims in the same roles, in other words (passive for active, a relation reworded) (REJECTED; in EPISODIC memory see repeats-event)"},
	{Name: RuleModelEntails, Family: FamilyGate, Doc: "the configured judge model reads the stored text as stating all the write states (REJECTED; in EPISODIC memory see repeats-event)"},
	{Name: RuleModelExtends, Family: FamilyGate, Doc: "the configured judge model reads the write as stating all the stored text states and more (MERGED; in EPISODIC memory see extends-event)"},
	{Name: RuleExtendsPending, Family: FamilyGate, Doc: "the write would merge into a draft still waiting for a curator: both go to the curator"},
	{Name: RuleRepeatsEvent, Family: FamilyGate, Doc: "EPISODIC (and SESSION) memory: the write says what an earlier episode said (the same content, words or claims); said again, at another time, it is another event, committed as its own item linked NEAR_DUPLICATE to the earlier one"},
	{Name: RuleExtendsEvent, Family: FamilyGate, Doc: "EPISODIC (and SESSION) memory: the write says all an earlier episode said and more; a merge would put the later event in place of the earlier one, so it is committed as its own item linked NEAR_DUPLICATE to it"},
}

// The contradiction and support rules are listed where they are tried
// (ContradictionRules, SupportRules); the table holds them too, so that
// every rule a verdict can name is in one place.
func init() {
	for _, r := range ContradictionRules() {
		ruleTable = append(ruleTable, Rule{Name: r.Name, Family: FamilyContradiction, Doc: r.Doc})
	}
	for _, r := range SupportRules() {
		ruleTable = append(ruleTable, Rule{Name: r.Name, Family: FamilySupport, Doc: r.Doc})
	}
}

// RuleTable returns the judge's rules: difference rules in the order
// Compare tries them, verdict rules in the order Delta.Decide tries them,
// then the dedup gate's and the contradiction rules. The slice is a copy.
func RuleTable() []Rule { return append([]Rule(nil), ruleTable...) }

// LookupRule returns the rule named name.
func LookupRule(name string) (Rule, bool) {
	for _, r := range ruleTable {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}

// lightRule is the difference rule name of lightWordDiff.
func lightRule(name string) func(a, b string, _ *Lexicon) (Difference, bool) {
	return func(a, b string, _ *Lexicon) (Difference, bool) {
		d, ok := lightWordDiff(a, b)
		return d, ok && d.Rule == name
	}
}

func negationDiff(a, b string, _ *Lexicon) (Difference, bool) {
	if na, nb := negations(a), negations(b); na%2 != nb%2 {
		x, y := negatorsOf(a), negatorsOf(b)
		return Difference{Rule: RuleNegationDiffers, A: x, B: y, Explanation: "one text is negated and the other is not"}, true
	}
	return Difference{}, false
}

// quantifierClasses folds each quantifier to the quantity it states.
var quantifierClasses = wordPairs("quantifiers")

// quantifierDiff compares the quantifiers of a and b, each folded to the
// quantity it states, as multisets.
func quantifierDiff(a, b string, _ *Lexicon) (Difference, bool) {
	read := func(text string) (classes []string, written []string) {
		for _, t := range tokenize(text) {
			if c, ok := quantifierClasses[t.low]; ok {
				classes = append(classes, c)
				written = append(written, t.low)
			}
		}
		sort.Strings(classes)
		return classes, written
	}
	ca, wa := read(a)
	cb, wb := read(b)
	if strings.Join(ca, " ") == strings.Join(cb, " ") {
		return Difference{}, false
	}
	x, y := strings.Join(wa, " "), strings.Join(wb, " ")
	return Difference{Rule: RuleQuantifierDiffers, A: x, B: y, Explanation: fmt.Sprintf("quantifiers %q in one text, %q in the other", x, y)}, true
}

// negatorsOf returns the negators of text as written.
func negatorsOf(text string) string {
	var out []string
	ts := tokenize(text)
	for i, t := range ts {
		if negators[t.low] && t.low != "without" && !boundNegator(ts, i) || exceptions[t.low] {
			out = append(out, t.low)
		}
	}
	return strings.Join(out, " ")
}

func claimText(c *Claim) string {
	if c == nil {
		return ""
	}
	return c.Text
}

// Words returns the words that fired the rule, those of the stored text
// first: what a curator reads beside the rule's name.
func (d Difference) Words() []string {
	var out []string
	for _, s := range []string{d.A, d.B} {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// A Decision is how the dedup rules resolve a near text against a stored
// one, with the rule that decided and the rules that fired on the way.
type Decision struct {
	// Kind is a Resolve kind: ResolveDuplicate, ResolveMerge or
	// ResolveConflict (kept beside the other: linked, or for a person).
	Kind string
	// Rule names the rule that decided, a row of RuleTable.
	Rule string
	// Words are the words that fired it.
	Words []string
	// Why says it for a person.
	Why string
}

// claimValue is the claim-value rule read with j's cardinalities: another
// value of a claim, by j's contradiction rules.
func (j *Judge) claimValue(a, b string, _ *Lexicon) (Difference, bool) {
	v := j.Contradiction(a, b)
	if !v.Contradicts {
		return Difference{}, false
	}
	return Difference{Rule: RuleClaimValue, A: claimText(v.A), B: claimText(v.B), Explanation: v.Explanation + " (" + v.Rule + ")"}, true
}
