package judge

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Rules named in a Verdict. The names are stable: reviews, traces and
// the rule table refer to them.
const (
	RuleSingleValued    = "single-valued"          // another value for a one-value relation
	RuleNegation        = "negation"               // the same claim asserted and denied
	RuleAntonym         = "antonym"                // the same value but for one word and its antonym
	RuleRelationAntonym = "relation-antonym"       // the same value under antonymous relations
	RuleQuantity        = "quantity"               // another number or date for the same thing
	RuleQuantityInText  = "quantity-in-text"       // the same words around another number
	RuleScene           = "scene-antonym"          // one scene's subject given exclusive states
	RuleSceneDenied     = "scene-denied-attribute" // an attribute one text gives a thing and the other denies
	RuleSceneNobody     = "scene-nobody"           // nobody does in one text what someone does in the other
	RuleSceneColour     = "scene-colour"           // another colour of the same worn thing
	RuleSceneCount      = "scene-count"            // one scene with another count of the same thing
	RuleActivity        = "scene-activity"         // asleep in one text, active in the other
	RulePreferenceSwap  = "preference-swap"        // the same two things preferred the other way round
)

// A ContradictionRule names a contradiction rule and says in one line
// what it finds.
type ContradictionRule struct{ Name, Doc string }

// ContradictionRules lists the contradiction rules in the order they are
// tried.
func ContradictionRules() []ContradictionRule {
	return []ContradictionRule{
		{RulePreferenceSwap, "the same subject prefers the same two things the other way round (prefers tea to coffee / coffee to tea)"},
		{RuleSingleValued, "claims about the same subject give a single-valued relation (relations.tsv, policy cardinalities) another value; a bound (under 30, at most 500) is not a value"},
		{RuleNegation, "one text asserts a claim the other denies, or has none of what the other counts"},
		{RuleAntonym, "the same subject and relation with values that differ by one word and its antonym (open/closed)"},
		{RuleRelationAntonym, "the same subject and value under antonymous relations (passes/fails, rents/owns)"},
		{RuleQuantity, "the same subject and relation with another number, amount, date or time"},
		{RuleQuantityInText, "the same words around one changed number, date or time (runs at 2 am / at 4 am)"},
		{RuleSceneDenied, "a thing one text describes with an attribute the other denies it (a shaggy dog / the dog isn't shaggy)"},
		{RuleSceneNobody, "what one text says nobody does and the other says someone does"},
		{RuleSceneColour, "another colour of the same worn thing"},
		{RuleScene, "the subject that opens a statement in both texts given exclusive states in the same statement (standing / sitting)"},
		{RuleActivity, "the subject that opens a statement asleep in one text and active in the other"},
		{RuleSceneCount, "another count of the counted subject (two women / three women)"},
	}
}

// A Verdict is the result of comparing two texts for contradiction.
type Verdict struct {
	// Contradicts is true when a rule found the texts cannot both hold.
	Contradicts bool
	// Confidence is in [0,1]: how sure the rule is; 0 when no rule fired.
	Confidence float64
	// Rule names the rule that fired, one of the Rule constants.
	Rule string
	// Explanation says which claims or words conflict, for a person.
	Explanation string
	// A and B are the conflicting claims, when the rule compared claims.
	A, B *Claim
}

// A Judge compares texts. The zero value is not usable; build one with New.
type Judge struct {
	lex  *Lexicon
	card map[string]Cardinality
	// The texts this judge read, each once (prepared.go), and the
	// sketches of many more (sketch.go).
	prepared    *textCache[*prepared]
	scenes      *textCache[*sceneText]
	simSketches *sketchCache[*simSketch]
	conSketches *sketchCache[*conSketch]
}

// New returns a Judge on the built-in lexicon whose relation cardinalities
// are DefaultCardinality overridden by overrides (relation names as
// Claim.Relation spells them).
func New(overrides map[string]Cardinality) *Judge {
	card := make(map[string]Cardinality, len(DefaultCardinality)+len(overrides))
	for k, v := range DefaultCardinality {
		card[k] = v
	}
	for k, v := range overrides {
		card[strings.ToLower(strings.TrimSpace(k))] = v
	}
	lex := DefaultLexicon()
	j := &Judge{lex: lex, card: card, simSketches: newSketchCache[*simSketch](), conSketches: newSketchCache[*conSketch]()}
	// A text read in full is sketched too: the sketch outlives the
	// reading in the caches.
	j.prepared = newTextCache(func(text string) *prepared {
		p := newPrepared(text, lex)
		if s := simSketchOf(p); s != nil {
			j.simSketches.put(text, s)
		}
		return p
	})
	j.scenes = newTextCache(func(text string) *sceneText {
		st := newSceneText(text)
		j.conSketches.put(text, conSketchOf(st))
		return st
	})
	return j
}

var defaultJudge = New(nil)

// Contradiction compares a and b with the default Judge.
func Contradiction(a, b string) Verdict { return defaultJudge.Contradiction(a, b) }

// Cardinality returns how many values rel holds at a time.
func (j *Judge) Cardinality(rel string) Cardinality {
	if c, ok := j.card[rel]; ok {
		return c
	}
	// Possessive attributes ("Dana's manager") are single-valued unless
	// plural; verbs and the copula default to multi.
	f := strings.Fields(rel)
	if len(f) == 0 || rel == "is" || relVerbs[f[0]] == f[0] {
		return Multi
	}
	last := f[len(f)-1]
	if strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && !strings.HasSuffix(last, "us") {
		return Multi
	}
	return Single
}

// Contradiction reports whether a and b cannot both be true, by the first
// of these rules that fires: claims about the same subject and relation
// with another value of a single-valued relation, the same claim asserted
// and denied, antonymous values or relations, conflicting numbers or dates;
// then scene-level rules for descriptive text (exclusive states of a shared
// subject, another count of the same thing, asleep versus active).
func (j *Judge) Contradiction(a, b string) Verdict { return j.ContradictionWith(b)(a) }

// ContradictionWith returns Contradiction(a, b) as a function of a, with b
// read once: a write compared with each of its neighbours reads its own
// text once, not once a neighbour.
func (j *Judge) ContradictionWith(b string) func(a string) Verdict {
	// Each text is read once (j's scene cache): its preference, its
	// claims and its scene.
	sb := j.scenes.get(b)
	kb, sketched := j.conSketches.get(b)
	return func(a string) Verdict {
		if ka, ok := j.conSketches.get(a); ok && sketched && !mayContradict(ka, kb) {
			// No rule can fire between the two (sketch.go).
			return Verdict{}
		}
		return j.contradiction(j.scenes.get(a), sb)
	}
}

// contradiction is Contradiction on the two texts read in full.
func (j *Judge) contradiction(sa, sb *sceneText) Verdict {
	if v, ok := preferencesSwap(sa.pref, sa.hasPref, sb.pref, sb.hasPref); ok {
		return v
	}
	ca, cb := sa.claims, sb.claims
	best := Verdict{}
	for i := range ca {
		for k := range cb {
			v := j.compareClaims(&ca[i], &cb[k])
			if v.Contradicts && v.Confidence > best.Confidence {
				best = v
			}
		}
	}
	if best.Contradicts {
		// The verdict's claims are the caller's: copies of those the
		// cache holds.
		best.A, best.B = claimCopy(best.A), claimCopy(best.B)
		return best
	}
	if sameClaimSubject(ca, cb) {
		// Claims about the same subject that did not conflict: the texts
		// are statements of fact, not scene descriptions; do not
		// second-guess them with scene rules.
		return Verdict{}
	}
	return j.sceneOf(sa, sb)
}

// claimCopy returns a pointer to a copy of *c (nil for nil).
func claimCopy(c *Claim) *Claim {
	if c == nil {
		return nil
	}
	d := *c
	return &d
}

func sameClaimSubject(ca, cb []Claim) bool {
	for _, x := range ca {
		for _, y := range cb {
			if x.Subject == y.Subject {
				return true
			}
		}
	}
	return false
}

// sameSubject matches subjects that are equal or where one is the other
// with more words ("priya" and "priya sharma").
func sameSubject(x, y string) bool {
	if x == y {
		return true
	}
	if x == "" || y == "" {
		return false
	}
	xs, ys := strings.Fields(x), strings.Fields(y)
	if len(xs) > len(ys) {
		xs, ys = ys, xs
	}
	// The shorter must be a prefix or suffix of the longer, and the extra
	// words must not be an attribute ("product" is not "product 's price").
	for _, w := range ys {
		if w == "'s" {
			return false
		}
	}
	pre, suf := true, true
	for i := range xs {
		if xs[i] != ys[i] {
			pre = false
		}
		if xs[len(xs)-1-i] != ys[len(ys)-1-i] {
			suf = false
		}
	}
	return pre || suf
}

func (j *Judge) compareClaims(x, y *Claim) Verdict {
	if !sameSubject(x.Subject, y.Subject) || subKind(x, y) || subKind(y, x) || personal(x.Subject) || personal(y.Subject) {
		return Verdict{}
	}
	if !onceRelation[x.Relation] && pastTense(x) != pastTense(y) {
		// What held and what holds: "Alice lived in Munich in 2015" /
		// "Alice lives in Berlin", "Bob's manager was Tomás" / "... is
		// Priya". A change over time, not two values at once.
		return Verdict{}
	}
	if scopeOf(x) != scopeOf(y) {
		// Another scope: "prefers email" / "prefers phone calls for
		// urgent issues", "opens at 9 am" / "opens at 10 am on Saturdays".
		return Verdict{}
	}
	explain := func(rule, why string, conf float64) Verdict {
		return Verdict{Contradicts: true, Confidence: conf, Rule: rule, A: x, B: y,
			Explanation: fmt.Sprintf("%s: %q vs %q: %s", rule, x.String(), y.String(), why)}
	}
	if x.Relation != y.Relation && foldSpelling(x.Relation) == foldSpelling(y.Relation) {
		// One relation however spelled: "favourite colour" / "favorite color".
		yc := *y
		yc.Relation = x.Relation
		y = &yc
	}
	if x.Relation != y.Relation {
		// Antonymous relations with the same value: "passes"/"fails",
		// "rents"/"owns", "approved"/"rejected".
		if x.Negated == y.Negated && valuesEqual(x.Value, y.Value) && j.relAntonyms(x.Relation, y.Relation) {
			return explain(RuleRelationAntonym, fmt.Sprintf("%q and %q are antonyms", x.Relation, y.Relation), 0.8)
		}
		return Verdict{}
	}
	rel := x.Relation
	switch {
	case x.Negated != y.Negated:
		// The value denied must be the value asserted, words, modifiers
		// and phrases alike: "not good at hunting" does not deny "good",
		// nor "does not need too much water" "needs water". A denial of
		// the whole denies each narrower case ("never drinks coffee" /
		// "drinks coffee every morning"); the converse does not hold.
		neg, pos := x, y
		if y.Negated {
			neg, pos = y, x
		}
		if valuesEqual(x.Value, y.Value) || valueRefines(neg.Value, pos.Value) || j.noneOf(x, y) || j.noneOf(y, x) {
			if x.Value.Kind == KindText && x.Value.Text == "" && y.Value.Text == "" && rel == "is" {
				return Verdict{}
			}
			return explain(RuleNegation, "one asserts what the other denies", 0.9)
		}
		return Verdict{}
	case x.Negated && y.Negated:
		return Verdict{}
	}
	// Both assert.
	if isQuantity(x.Value) && isQuantity(y.Value) {
		if conflict, why := quantitiesConflict(x.Value, y.Value); conflict {
			return explain(RuleQuantity, why, 0.85)
		}
		return Verdict{}
	}
	if x.Value.Kind == KindText && y.Value.Kind == KindText {
		if p, q, ok := j.antonymSwap(x.Value, y.Value); ok {
			return explain(RuleAntonym, fmt.Sprintf("%q and %q are antonyms", p, q), 0.85)
		}
		// The same words around another number, date or time: "runs at
		// 2 am" / "runs at 4 am", "fixed in version 2.3" / "2.5".
		if why, ok := quantityInText(x.Value, y.Value); ok {
			return explain(RuleQuantityInText, why, 0.8)
		}
	}
	if j.Cardinality(rel) != Single {
		return Verdict{}
	}
	if x.Value.Kind != y.Value.Kind {
		return Verdict{}
	}
	if valuesEqual(x.Value, y.Value) || valueRefines(x.Value, y.Value) || valueRefines(y.Value, x.Value) {
		return Verdict{}
	}
	if x.Value.Text == "" || y.Value.Text == "" {
		return Verdict{}
	}
	if x.Value.Kind == KindText && !comparableValues(x.Value, y.Value) {
		return Verdict{}
	}
	if bounded(x.Value) || bounded(y.Value) {
		// A bound says where a value lies, not what it is: "under $500" /
		// "below $500" / "at most $500" can all hold of one budget.
		return Verdict{}
	}
	return explain(RuleSingleValued, fmt.Sprintf("%q holds one value at a time", rel), 0.8)
}

func isQuantity(v Value) bool { return v.Kind != KindText }

// quantitiesConflict reports whether two quantities for the same relation
// cannot both hold.
func quantitiesConflict(x, y Value) (bool, string) {
	if x.Kind != y.Kind {
		// A bare number against money or a percentage: compare amounts.
		if (x.Kind == KindNumber || y.Kind == KindNumber) && x.Kind != KindDate && y.Kind != KindDate && x.Kind != KindTime && y.Kind != KindTime {
			if x.Unit != "" && y.Unit != "" && x.Unit != y.Unit {
				return false, ""
			}
			if !numEqual(x.Num, y.Num) {
				return true, fmt.Sprintf("%s vs %s", x.Text, y.Text)
			}
		}
		// A year against a full date.
		if x.Kind == KindDate && y.Kind == KindNumber && y.Unit == "" {
			return x.Year != 0 && int(y.Num) != x.Year, fmt.Sprintf("%s vs %s", x.Text, y.Text)
		}
		if y.Kind == KindDate && x.Kind == KindNumber && x.Unit == "" {
			return y.Year != 0 && int(x.Num) != y.Year, fmt.Sprintf("%s vs %s", x.Text, y.Text)
		}
		return false, ""
	}
	switch x.Kind {
	case KindDate:
		if x.Weekday != 0 && y.Weekday != 0 && x.Weekday != y.Weekday {
			return true, fmt.Sprintf("days %s vs %s", x.Text, y.Text)
		}
		if (x.Year != 0 && y.Year != 0 && x.Year != y.Year) ||
			(x.Month != 0 && y.Month != 0 && x.Month != y.Month) ||
			(x.Day != 0 && y.Day != 0 && x.Day != y.Day && x.Month == y.Month) {
			return true, fmt.Sprintf("dates %s vs %s", x.Text, y.Text)
		}
		return false, ""
	case KindMoney:
		if x.Unit != y.Unit {
			return false, ""
		}
	case KindNumber:
		if x.Unit != y.Unit && x.Unit != "" && y.Unit != "" {
			return false, ""
		}
	}
	if !numEqual(x.Num, y.Num) {
		return true, fmt.Sprintf("%s vs %s", x.Text, y.Text)
	}
	return false, ""
}

func numEqual(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func valuesEqual(x, y Value) bool {
	if x.Kind != y.Kind {
		return false
	}
	if x.Kind == KindText {
		if strings.Join(x.Words, " ") == strings.Join(y.Words, " ") || closedUp(x.Words) == closedUp(y.Words) ||
			len(x.Lows) > 0 && foldSpelling(strings.Join(x.Lows, " ")) == foldSpelling(strings.Join(y.Lows, " ")) {
			return true
		}
		// The same words around the same quantities, however spelled:
		// "100 requests per minute", "one hundred requests per minute".
		qx, rx := splitQuantities(x.Text)
		qy, ry := splitQuantities(y.Text)
		if len(qx) == 0 || len(qx) != len(qy) || rx != ry {
			return false
		}
		for i := range qx {
			if quantityKey(qx[i]) != quantityKey(qy[i]) {
				return false
			}
		}
		return true
	}
	c, _ := quantitiesConflict(x, y)
	return !c && x.Text == y.Text || (!c && x.Kind != KindText)
}

// valueRefines reports whether y says x with more words ("Priya" and
// "Priya Sharma", "Acme Corp" and "Acme Corp as a data engineer").
func valueRefines(x, y Value) bool {
	if x.Kind != KindText || y.Kind != KindText || len(x.Words) == 0 {
		return false
	}
	have := map[string]bool{}
	for _, w := range y.Words {
		have[w] = true
	}
	for _, w := range x.Words {
		if !have[w] {
			return false
		}
	}
	return true
}

// comparableValues reports whether two different text values of a
// single-valued relation are alternatives for one slot: one-word values,
// names, or phrases with the same head word. "dark mode" and "vim
// keybindings" may both be preferences; "Python" and "Rust" may not.
func comparableValues(x, y Value) bool {
	if len(x.Words) <= 1 || len(y.Words) <= 1 {
		return true
	}
	if x.Proper && y.Proper {
		return true
	}
	return x.Words[len(x.Words)-1] == y.Words[len(y.Words)-1]
}

// quantityInText reports whether two text values hold the same words
// around conflicting quantities.
func quantityInText(x, y Value) (string, bool) {
	qx, rx := splitQuantities(x.Text)
	qy, ry := splitQuantities(y.Text)
	if len(qx) == 0 || len(qx) != len(qy) || rx != ry {
		return "", false
	}
	why, changed := "", 0
	for i := range qx {
		if c, w := quantitiesConflict(qx[i], qy[i]); c {
			why = w
			changed++
		} else if !valuesEqual(qx[i], qy[i]) {
			changed++
		}
	}
	// One number changed is another value of the same thing; several
	// changed at once are another record ("fact 1 about invoice 37" /
	// "fact 2 about invoice 74").
	return why, changed == 1 && why != ""
}

// splitQuantities returns the quantities in text and the remaining words.
func splitQuantities(text string) ([]Value, string) {
	toks := tokenize(text)
	var qs []Value
	var rest []string
	for i := 0; i < len(toks); {
		if v, n := quantityAt(toks, i); n > 0 {
			qs = append(qs, v)
			i += n
			continue
		}
		if !stopWords[toks[i].low] {
			rest = append(rest, normWord(toks[i].low))
		}
		i++
	}
	return qs, strings.Join(rest, " ")
}

// antonymSwap reports whether two text values are the same words but for
// one antonym pair ("open on saturday" / "closed on saturday").
func (j *Judge) antonymSwap(x, y Value) (string, string, bool) {
	xs, ys := x.Words, y.Words
	inY := map[string]bool{}
	for _, w := range ys {
		inY[w] = true
	}
	inX := map[string]bool{}
	for _, w := range xs {
		inX[w] = true
	}
	var onlyX, onlyY []string
	for i, w := range xs {
		if !inY[w] {
			onlyX = append(onlyX, lowAt(x, i))
		}
	}
	for i, w := range ys {
		if !inX[w] {
			onlyY = append(onlyY, lowAt(y, i))
		}
	}
	if len(onlyX) != 1 || len(onlyY) != 1 {
		return "", "", false
	}
	if p, q := onlyX[0], onlyY[0]; j.lex.Antonyms(p, q) || j.antonymWords(normWord(p), normWord(q)) {
		return p, q, true
	}
	return "", "", false
}

func lowAt(v Value, i int) string {
	if i < len(v.Lows) {
		return v.Lows[i]
	}
	return v.Words[i]
}

// antonymWords compares two normalised words through the lexicon, trying
// the stems' common completions.
func (j *Judge) antonymWords(p, q string) bool {
	for _, a := range completions(p) {
		for _, b := range completions(q) {
			if j.lex.Antonyms(a, b) {
				return true
			}
		}
	}
	return false
}

// completions returns w and the words a normWord stem may stand for.
func completions(w string) []string {
	return []string{w, w + "e", w + "ed", w + "d", w + "ing"}
}

func (j *Judge) relAntonyms(r1, r2 string) bool {
	a, b := strings.Fields(r1), strings.Fields(r2)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if len(a) > 1 && len(b) > 1 && strings.Join(a[1:], " ") != strings.Join(b[1:], " ") {
		return false
	}
	return j.lex.Antonyms(a[0], b[0]) || attitudeOpposites[a[0]] == b[0] || attitudeOpposites[b[0]] == a[0]
}

// noneOf reports whether n denies having any of what p counts: "has no
// children" / "has three kids", "has no dogs" / "has two dogs".
func (j *Judge) noneOf(n, p *Claim) bool {
	if !n.Negated || p.Negated || n.Relation != "have" || n.Value.Kind != KindText || p.Value.Kind != KindNumber || p.Value.Unit == "" {
		return false
	}
	words := strings.Fields(n.Value.Text)
	if len(words) != 1 {
		return false
	}
	w, u := j.lex.Lemma(words[0]), j.lex.Lemma(p.Value.Unit)
	return w == u || j.lex.Related(w, u)
}

// attitudeOpposites are relation verbs of liking that WordNet does not
// list as antonyms of the relation they fold into ("love" is read as
// "like"; "hate" is WordNet's antonym of "love" only).
var attitudeOpposites = func() map[string]string {
	out := map[string]string{}
	for w := range wordClass("dislike_verbs") {
		out[w] = "like"
	}
	return out
}()

// subKind reports whether y's subject is x's with leading words that name
// a kind of it ("meeting" / "retro meeting", "tokens" / "refresh tokens"),
// as opposed to a fuller name ("Sharma" / "Priya Sharma"), whose extra
// words are capitalised.
func subKind(x, y *Claim) bool {
	xs, ys := strings.Fields(x.Subject), strings.Fields(y.Subject)
	if len(xs) == 0 || len(ys) <= len(xs) || !slices.Equal(xs, ys[len(ys)-len(xs):]) {
		return false
	}
	// The extra words name it when capitalised, a capital that only
	// starts the sentence aside.
	named := map[string]bool{}
	for i, t := range tokenize(y.Text) {
		if t.capitalized() && !(i == 0 && DefaultLexicon().common(t.low)) {
			named[t.low] = true
		}
	}
	for _, w := range ys[:len(ys)-len(xs)] {
		if !named[w] {
			return true
		}
	}
	return false
}

// pastWords mark a statement of what held before.
var pastWords = setOfClass("past_markers")

// pastTense reports whether a claim states what held before: a past
// copula, "used to", "previously", "until", or the relation's verb in a
// past form ("lived", "worked").
func pastTense(c *Claim) bool {
	verb := strings.Fields(c.Relation)
	for _, t := range tokenize(c.Text) {
		if pastWords[t.low] {
			return true
		}
		if len(verb) > 0 && relVerbs[t.low] == verb[0] && t.low != verb[0] && (strings.HasSuffix(t.low, "ed") || verbForms[t.low] != "") &&
			t.low != "has" && t.low != "have" {
			return true
		}
	}
	return false
}

// scopeOpeners open a phrase that narrows what a claim covers.
var scopeOpeners = setOfClass("scope_openers")

// scopeOf returns the words that narrow a claim ("for urgent issues", "on
// Saturdays"), normalised, or "" for a claim that holds generally.
func scopeOf(c *Claim) string {
	toks := tokenize(c.Text)
	var out []string
	for i, t := range toks {
		switch {
		case scopeOpeners[t.low]:
			// The phrase runs to the verb ("the lead for payments is
			// Arjun") or the end; one that holds a number or a date is
			// the value itself ("scheduled for 14 November").
			var phrase []string
			value := false
			for _, u := range toks[i+1:] {
				if copulas[u.low] || cutWords[u.low] || relVerbs[u.low] != "" {
					break
				}
				if _, month := months[u.low]; month || isDigitStart(u.low) {
					value = true
				}
				if hasLetterOrDigit(u.low) && !stopWords[u.low] && !isDeterminer(u.low) {
					phrase = append(phrase, normWord(u.low))
				}
			}
			if !value {
				out = append(out, phrase...)
			}
		case t.low == "on" && i+1 < len(toks):
			// "on Saturdays", "on weekends": a recurring part of the week.
			n := toks[i+1].low
			if _, ok := weekdays[strings.TrimSuffix(n, "s")]; ok && strings.HasSuffix(n, "s") || n == "weekends" || n == "weekdays" {
				out = append(out, normWord(n))
			}
		}
	}
	return strings.Join(out, " ")
}

// closedUp is words written closed up, without spaces or hyphens: "e-mail"
// and "email", "New York" and "NewYork", "co-founder" and "cofounder" are
// one spelling.
func closedUp(words []string) string {
	return strings.ReplaceAll(strings.Join(words, ""), "-", "")
}

// bounded reports whether a text value is a bound on a number: a bound word
// (words/bound-words.txt) before a number ("under 30", "at most 500", "up
// to 5").
func bounded(v Value) bool {
	if v.Kind != KindText {
		return false
	}
	for i, w := range v.Lows {
		if !inClass("bound-words", w) {
			continue
		}
		for _, n := range v.Lows[i+1:] {
			if isDigitStart(n) || numberWords[n] {
				return true
			}
		}
	}
	return false
}

// preference is a preference read from a text: subject prefers first to
// second ("" when the text names no other thing).
type preference struct{ subject, first, second string }

// preferenceOf reads "X prefers A to B", "X prefers A over B", "X likes A
// more than B", "X prefers A rather than / instead of B" (verbs in
// words/preference-verbs.txt, markers in words/preference-markers.txt; "to"
// only after a form of prefer), and a bare "X prefers A" (second ""), a
// form of prefer only: liking one thing says nothing of liking another
// more. A thing ends at a punctuation mark.
func preferenceOf(text string) (preference, bool) {
	ts := tokenize(text)
	content := func(part []token) string {
		var ws []string
		for _, t := range part {
			if !inClass("stop-words", t.low) {
				ws = append(ws, t.low)
			}
		}
		return strings.Join(ws, " ")
	}
	upTo := func(from int) int {
		end := from
		for end < len(ts) && isWordToken(ts[end].low) {
			end++
		}
		return end
	}
	for i, t := range ts {
		if !inClass("preference-verbs", t.low) {
			continue
		}
		prefer := strings.HasPrefix(t.low, "prefer") || strings.HasPrefix(t.low, "favo")
		subject := content(ts[:i])
		end := upTo(i + 1)
		for k := i + 2; k < end; k++ {
			m := ts[k].low
			if !inClass("preference-markers", m) || m == "to" && !prefer {
				continue
			}
			start := k + 1
			switch m {
			case "rather", "more", "better":
				if start >= len(ts) || ts[start].low != "than" {
					continue
				}
				start++
			case "instead":
				if start >= len(ts) || ts[start].low != "of" {
					continue
				}
				start++
			}
			p := preference{subject: subject, first: content(ts[i+1 : k]), second: content(ts[start:upTo(start)])}
			if p.subject == "" || p.first == "" || p.second == "" || p.first == p.second {
				return preference{}, false
			}
			return p, true
		}
		if p := (preference{subject: subject, first: content(ts[i+1 : end])}); prefer && p.subject != "" && p.first != "" && (i+1 >= len(ts) || ts[i+1].low != "to") {
			return p, true
		}
		return preference{}, false
	}
	return preference{}, false
}

func isWordToken(low string) bool {
	for _, r := range low {
		return isWordRune(r)
	}
	return false
}

// sameThing compares two things a preference names, however spelled
// (closedUp), one allowed to say more after the other ("coffee" / "coffee
// in the morning").
func sameThing(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, y := closedUp(strings.Fields(a)), closedUp(strings.Fields(b))
	if x == y {
		return true
	}
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) > len(fb) {
		fa, fb = fb, fa
	}
	return slices.Equal(fa, fb[:len(fa)])
}

// preferencesSwap finds the same subject preferring the same two things the
// other way round: "The user prefers tea to coffee" / "The user prefers
// coffee over tea", or preferring outright what the other text puts below
// another thing ("prefers coffee" / "prefers tea to coffee"). It cannot be
// both; which holds now is for the contradiction gate's resolution, never a
// silent supersede. x is the preference read of the first text (if okx),
// y that of the second (if oky).
func preferencesSwap(x preference, okx bool, y preference, oky bool) (Verdict, bool) {
	if !okx {
		return Verdict{}, false
	}
	if !oky || x.subject != y.subject || x.second == "" && y.second == "" {
		return Verdict{}, false
	}
	var swapped bool
	switch {
	case x.second != "" && y.second != "":
		swapped = sameThing(x.first, y.second) && sameThing(x.second, y.first)
	case x.second == "":
		swapped = sameThing(x.first, y.second)
	default:
		swapped = sameThing(y.first, x.second)
	}
	if !swapped {
		return Verdict{}, false
	}
	say := func(p preference) string {
		if p.second == "" {
			return fmt.Sprintf("%q", p.first)
		}
		return fmt.Sprintf("%q over %q", p.first, p.second)
	}
	return Verdict{Contradicts: true, Confidence: 0.85, Rule: RulePreferenceSwap,
		Explanation: fmt.Sprintf("%s: %s vs %s: the same things preferred the other way round", RulePreferenceSwap, say(x), say(y))}, true
}

// spellings folds British spellings to American ones (words/spellings.txt).
var spellings = wordPairs("spellings")

// foldSpelling writes each word of s in its American spelling.
func foldSpelling(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		if v, ok := spellings[w]; ok {
			ws[i] = v
		}
	}
	return strings.Join(ws, " ")
}
