package judge

import (
	"fmt"
	"slices"
	"strings"
)

// sleepWords describe being asleep; activeWords are activities that need
// the actor awake.
var (
	sleepWords  = setOfClass("sleep_words")
	activeWords = setOfClass("active_words")
)

// maxSceneWords bounds the scene rules to sentence-sized descriptions; the
// pairwise word comparison is quadratic.
const maxSceneWords = 60

type sceneWord struct {
	w    string // normalised
	low  string
	i    int // position among content words
	sent int // the statement it is in
	pos  int // position among the content words of its statement
}

// subjectSpan is how many content words open a statement's subject: "the
// small dog", "factory workers", "the user's cat".
const subjectSpan = 3

// sceneText is what the scene rules read of a text, read once per text
// (a Judge's scenes cache).
type sceneText struct {
	toks []token // the scene statements
	// allToks are every statement's tokens: what a scene statement denies
	// of a thing ("the staging server is not encrypted") is contradicted
	// by any mention of it ("we run an encrypted staging server").
	allToks []token
	// allWords counts the content words of every statement.
	allWords int
	words    []sceneWord
	negated  bool
	counts   []Value             // countsOf
	stems    map[string]bool     // normWord of every token
	colors   map[string][]string // thing -> the colours written before it
	// claims are the text's claims (Extract), read with the rest so that
	// a stored text met by many writes is read once; pref and hasPref its
	// preference (preferenceOf).
	claims  []Claim
	pref    preference
	hasPref bool
}

func newSceneText(text string) *sceneText {
	// What a scene is read from: the statements of the text, without a
	// chat turn's clock time and speaker label, and without questions.
	_, body := chatBody(tokenize(text))
	st := &sceneText{stems: map[string]bool{}, claims: Extract(text)}
	st.pref, st.hasPref = preferenceOf(text)
	n := 0
	for _, s := range statements(body) {
		// Negation anywhere keeps the scene rules out (see scene), so it
		// is read from every statement, scene or not.
		if len(st.allToks) > 0 {
			st.allToks = append(st.allToks, token{text: ".", low: "."})
		}
		st.allToks = append(st.allToks, s...)
		for _, t := range s {
			if negators[t.low] {
				st.negated = true
			}
			st.stems[normWord(t.low)] = true
			if !stopWords[t.low] && hasLetterOrDigit(t.low) && !isDeterminer(t.low) {
				st.allWords++
			}
		}
		if !sceneStatement(s) {
			continue
		}
		if n > 0 {
			st.toks = append(st.toks, token{text: ".", low: "."})
		}
		st.toks = append(st.toks, s...)
		pos := 0
		for _, t := range s {
			if stopWords[t.low] || !hasLetterOrDigit(t.low) || isDeterminer(t.low) {
				continue
			}
			st.words = append(st.words, sceneWord{w: normWord(t.low), low: t.low, i: len(st.words), sent: n, pos: pos})
			pos++
		}
		n++
	}
	st.counts = countsOf(st.toks)
	st.colors = colorsOf(st.toks)
	return st
}

// sceneArticles open a noun phrase that names a thing or person seen from
// outside: "a man", "the dog", "their kids", "these boxes".
var sceneArticles = map[string]bool{"a": true, "an": true, "the": true, "these": true, "those": true,
	"his": true, "her": true, "their": true, "its": true, "another": true}

// sceneStatement reports whether a statement describes a scene: its
// subject is a noun phrase (an article and a noun, a count and a noun, a
// bare noun or a name before its verb), or "nobody". Speech between
// people is not a scene: a statement that opens with a first- or
// second-person pronoun, a modal or auxiliary verb, a question word, a
// conjunction or condition ("if", "but", "so"), a preposition, a
// quantifier or a greeting or filler is an offer, a request, an answer or
// small talk, and the scene rules do not read it.
func sceneStatement(s []token) bool {
	k := 0
	for k < len(s) && !hasLetterOrDigit(s[k].low) {
		k++
	}
	if k >= len(s) {
		return false
	}
	w := s[k].low
	next := func(i int) string {
		if i < len(s) {
			return s[i].low
		}
		return ""
	}
	switch {
	case w == "nobody" || w == "noone" || w == "none" || w == "no" && next(k+1) == "one":
		return true
	case w == "a" || w == "an" || w == "the":
		// An article opens a noun phrase, even one a typo cut short.
		return true
	case sceneArticles[w] || isDigitStart(w) || numberWords[w] || inClass("quantifiers", w+" "+quantifierOf(w)):
		// "their kids", "two women", "some musicians": a determiner or a
		// count and a noun. "All for me", "most of it" name nothing.
		return sceneNoun(next(k + 1))
	case w == "there" && isCopula(next(k+1)), (w == "this" || w == "it") && isCopula(next(k+1)):
		// "There is a dog laying down", "This is an outdoor market": a
		// thing presented, when an article or a noun follows.
		n := next(k + 2)
		return n == "a" || n == "an" || n == "the" || isDigitStart(n) || numberWords[n] || sceneNoun(n)
	}
	if !sceneNoun(w) || inClass("clause-words", w) || inClass("adverb-openers", w) || inClass("not_scene_subjects", w) {
		return false
	}
	// A bare noun or a name is a subject when a verb follows it: a form of
	// "be", "have" or "do", a modal, a participle or a preposition ("Man
	// lining up a putt", "Boys in Africa are playing", "Food is vital",
	// "Alice has access"), after the rest of a name ("Laura Bush reads")
	// or of a compound ("Factory workers standing"). A bare word followed
	// by an object or an adjective is a verb or an exclamation ("Sounds
	// good", "Need water", "Perfect deal").
	k++
	for k < len(s) && s[k].capitalized() && hasLetterOrDigit(s[k].low) && !inClass("scene_fillers", s[k].low) {
		k++
	}
	verbal := func(n string) bool {
		return isCopula(n) || inClass("modals", n) || n == "will" || n == "would" ||
			n == "has" || n == "have" || n == "had" || n == "does" || n == "did" ||
			len(n) > 4 && strings.HasSuffix(n, "ing")
	}
	n := next(k)
	if verbal(n) || inClass("adverb-openers", n) && n != "to" {
		return true
	}
	return sceneNoun(n) && verbal(next(k+1))
}

// quantifierOf returns the quantity the quantifiers class gives w ("" if
// none): the class lists "WORD QUANTITY".
func quantifierOf(w string) string {
	for _, l := range wordList("quantifiers") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == w {
			return f[1]
		}
	}
	return ""
}

// sceneNoun reports whether w can be the noun of a scene's subject: a
// word, not a pronoun, verb of speech, quantifier or function word.
func sceneNoun(w string) bool {
	return hasLetterOrDigit(w) && !isDigitStart(w) && !stopWords[w] && !isDeterminer(w) && !negators[w] &&
		!inClass("scene_fillers", w) && !inClass("degree_words", w) && !isCopula(w)
}

// sceneOf applies the rules for descriptive sentences that carry no
// subject-relation-value claim a rule could compare ("A man is sleeping" /
// "The man is running").
func (j *Judge) sceneOf(sa, sb *sceneText) Verdict {
	wa, wb := sa.words, sb.words
	if len(wa) == 0 && len(wb) == 0 || sa.allWords > maxSceneWords || sb.allWords > maxSceneWords {
		return Verdict{}
	}
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, w := range wa {
		inA[w.w] = true
	}
	for _, w := range wb {
		inB[w.w] = true
	}
	// subjectOf returns the words that open the subject of the statement
	// holding ws[i], up to it: the scene's subject must be written
	// before what is said of it, in the same statement.
	subjectOf := func(ws []sceneWord, i int) []sceneWord {
		w := ws[i]
		var out []sceneWord
		for _, v := range ws[:i] {
			if v.sent == w.sent && v.pos < subjectSpan {
				out = append(out, v)
			}
		}
		return out
	}
	// sharedSubject returns the first word of x's subject that opens y's
	// subject too: a thing, not a greeting, a time or a speaker.
	sharedSubject := func(x, y []sceneWord) string {
		for _, w := range x {
			if negators[w.w] || inClass("not_scene_subjects", w.low) || isDigitStart(w.low) {
				continue
			}
			for _, v := range y {
				if v.w == w.w {
					return w.w
				}
			}
		}
		return ""
	}
	shareBefore := func(x []sceneWord, i int, y []sceneWord, k int) string {
		return sharedSubject(subjectOf(x, i), subjectOf(y, k))
	}
	// An attribute one text gives a thing and the other denies.
	for _, p := range [2][2]*sceneText{{sa, sb}, {sb, sa}} {
		if attr, thing, ok := deniedAttribute(p[0], p[1]); ok {
			return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleSceneDenied,
				Explanation: fmt.Sprintf("%s: %q is %q in one text and not in the other", RuleSceneDenied, thing, attr)}
		}
	}
	// What nobody does in one text and someone does in the other.
	for _, p := range [2][2]*sceneText{{sa, sb}, {sb, sa}} {
		if verb, ok := nobodyDoes(p[0], p[1]); ok {
			return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleSceneNobody,
				Explanation: fmt.Sprintf("%s: nobody is %q in one text, someone is in the other", RuleSceneNobody, verb)}
		}
	}
	// The rules below compare two scenes.
	if len(wa) == 0 || len(wb) == 0 {
		return Verdict{}
	}
	// Negation anywhere else flips polarity: stay out.
	if sa.negated != sb.negated {
		return Verdict{}
	}
	// Another colour of the same thing.
	if thing, x, y, ok := colorChange(sa, sb); ok {
		return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleSceneColour,
			Explanation: fmt.Sprintf("%s: the %s is %s in one text and %s in the other", RuleSceneColour, thing, x, y)}
	}
	// Exclusive states of a shared subject. Each word's forms are read
	// once, and only a word with a form that has state antonyms is paired.
	formsB := make([][]string, len(wb))
	for _, p := range wa {
		if inB[p.w] {
			continue
		}
		if inClass("degree_words", p.low) || inClass("degree_words", p.w) {
			// How much or in what order, not a state: "most"/"least".
			continue
		}
		fa := j.lex.stateForms(p.low)
		if len(fa) == 0 {
			continue
		}
		for k, q := range wb {
			if inA[q.w] || inClass("degree_words", q.low) || inClass("degree_words", q.w) {
				continue
			}
			if formsB[k] == nil {
				formsB[k] = j.lex.forms(q.low)
			}
			if !j.lex.antonymForms(fa, formsB[k]) {
				continue
			}
			if s := shareBefore(wa, p.i, wb, q.i); s != "" {
				return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleScene,
					Explanation: fmt.Sprintf("%s: %q is %q in one text and %q in the other", RuleScene, s, p.low, q.low)}
			}
		}
	}
	// Asleep in one text, active in the other.
	for _, pair := range [2][2][]sceneWord{{wa, wb}, {wb, wa}} {
		x, y := pair[0], pair[1]
		for _, p := range x {
			if !sleepWords[p.w] {
				continue
			}
			for _, q := range y {
				if activeWords[q.w] {
					if s := shareBefore(x, p.i, y, q.i); s != "" {
						return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleActivity,
							Explanation: fmt.Sprintf("%s: %q is %q in one text and %q in the other", RuleActivity, s, p.low, q.low)}
					}
				}
			}
		}
	}
	// Another count of the same thing, where the counted thing is the
	// subject: "Two women are writing" / "Three women are writing".
	qa, qb := sa.counts, sb.counts
	for _, x := range qa {
		if x.Kind != KindNumber || x.Unit == "" {
			continue
		}
		for _, y := range qb {
			if y.Kind != KindNumber || y.Unit != x.Unit || numEqual(x.Num, y.Num) {
				continue
			}
			if containsCount(qa, y) || containsCount(qb, x) {
				continue
			}
			return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleSceneCount,
				Explanation: fmt.Sprintf("%s: %s vs %s", RuleSceneCount, x.Text, y.Text)}
		}
	}
	return Verdict{}
}

// countsOf returns the counts that open a text's sentences, after at
// most a determiner: the subject's number.
func countsOf(toks []token) []Value {
	var out []Value
	for _, s := range sentences(toks) {
		i := 0
		if i < len(s) && isDeterminer(s[i].low) {
			i++
		}
		if v, n := quantityAt(s, i); n > 0 && v.Kind == KindNumber && v.Unit != "" {
			out = append(out, v)
		}
	}
	return out
}

func containsCount(vs []Value, v Value) bool {
	for _, x := range vs {
		if x.Kind == v.Kind && x.Unit == v.Unit && numEqual(x.Num, v.Num) {
			return true
		}
	}
	return false
}

// quantities returns every number, amount, percentage, date and time in
// text.
func quantities(text string) []Value {
	toks := tokenize(text)
	var out []Value
	for i := 0; i < len(toks); {
		if v, n := quantityAt(toks, i); n > 0 {
			out = append(out, v)
			i += n
			continue
		}
		i++
	}
	return out
}

// colorWords are colours: a thing has one at a time as described.
var colorWords = setOfClass("colours")

// wornWords are what a person wears, normalised: the things a scene gives
// one colour. Other things may share a name and not a colour ("the red
// team" / "the blue team" are two teams).
var wornWords = func() map[string]bool {
	out := map[string]bool{}
	for w := range wordClass("worn_things") {
		out[normWord(w)] = true
	}
	return out
}()

// colorsOf maps each thing worn written after a colour to its colours.
func colorsOf(ts []token) map[string][]string {
	out := map[string][]string{}
	for k := 0; k+1 < len(ts); k++ {
		if colorWords[ts[k].low] && wornWords[normWord(ts[k+1].low)] {
			n := normWord(ts[k+1].low)
			if !slices.Contains(out[n], ts[k].low) {
				out[n] = append(out[n], ts[k].low)
			}
		}
	}
	return out
}

// deniedAttribute finds a thing whose attribute one text denies ("the dog
// isn't shaggy") and the other gives it ("a shaggy dog"): the word the
// attribute is, and the thing.
func deniedAttribute(neg, pos *sceneText) (attr, thing string, ok bool) {
	tn, tp := neg.toks, pos.allToks
	if pos.negated {
		return "", "", false
	}
	// "THING is not ATTR", "THING isn't ATTR".
	for i := 0; i+3 < len(tn); i++ {
		if !copulas[tn[i+1].low] || (tn[i+2].low != "not" && tn[i+2].low != "n't") {
			continue
		}
		thing, attr := normWord(tn[i].low), tn[i+3].low
		if !hasLetterOrDigit(attr) || stopWords[attr] || isDeterminer(attr) || stopWords[tn[i].low] {
			continue
		}
		if i+4 < len(tn) && hasLetterOrDigit(tn[i+4].low) && !stopWords[tn[i+4].low] {
			// "is not shaggy haired": attr modifies what follows.
			continue
		}
		// The word that tells the thing apart, if any: "the staging server
		// is not encrypted" speaks of the staging one.
		mod := ""
		if i > 0 && hasLetterOrDigit(tn[i-1].low) && !stopWords[tn[i-1].low] && !isDeterminer(tn[i-1].low) {
			mod = normWord(tn[i-1].low)
		}
		for k := 0; k+1 < len(tp); k++ {
			if tp[k].low != attr {
				continue
			}
			// "a shaggy dog", "an encrypted staging server": the same
			// thing told apart by the same word, or by none.
			if mod == "" && normWord(tp[k+1].low) == thing ||
				mod != "" && k+2 < len(tp) && normWord(tp[k+1].low) == mod && normWord(tp[k+2].low) == thing {
				return attr, tn[i].low, true
			}
		}
	}
	return "", "", false
}

// colorChange finds a thing that has one colour in one text and another
// in the other ("a white t-shirt" / "a red t-shirt"), each text giving the
// thing one colour only.
func colorChange(a, b *sceneText) (thing, ca, cb string, ok bool) {
	xa, xb := a.colors, b.colors
	for n, cs := range xa {
		ds := xb[n]
		if len(cs) == 1 && len(ds) == 1 && cs[0] != ds[0] && !(cs[0]+ds[0] == "graygrey" || cs[0]+ds[0] == "greygray") {
			return n, cs[0], ds[0], true
		}
	}
	return "", "", "", false
}

// nobodyDoes finds what one text says nobody does ("No one is watching the
// man") and the other says someone does ("a woman watches the man"): the
// verb, when every content word after it is in the other text too.
func nobodyDoes(neg, pos *sceneText) (string, bool) {
	if pos.negated {
		return "", false
	}
	inPos := pos.stems
	for _, s := range sentences(neg.toks) {
		i := 0
		switch {
		case len(s) > 1 && s[0].low == "no" && s[1].low == "one":
			i = 2
		case len(s) > 0 && (s[0].low == "nobody" || s[0].low == "noone" || s[0].low == "none"):
			i = 1
		default:
			continue
		}
		for i < len(s) && (copulas[s[i].low] || s[i].low == "has" || s[i].low == "have" || s[i].low == "does" || s[i].low == "do" || s[i].low == "can" || s[i].low == "will") {
			i++
		}
		if i >= len(s) || !hasLetterOrDigit(s[i].low) || stopWords[s[i].low] {
			continue
		}
		verb := normWord(s[i].low)
		if !inPos[verb] {
			continue
		}
		all := true
		for _, t := range s[i+1:] {
			if hasLetterOrDigit(t.low) && !stopWords[t.low] && !isDeterminer(t.low) && !inPos[normWord(t.low)] {
				all = false
				break
			}
		}
		if all {
			return s[i].low, true
		}
	}
	return "", false
}
