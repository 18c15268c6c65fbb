package judge

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// dropWords are left out of the normalised form: articles, forms of "be"
// and "do", auxiliaries and possessive markers carry no fact a memory
// asserts.
var dropWords = boolClass("drop-words")

// Normalize returns the tier-3 comparison form of text: lower case,
// punctuation dropped, contractions expanded ("doesn't" is "does not"
// before function words go), numbers, amounts, percentages, dates and
// times in one canonical spelling ("$2,000" and "2000 dollars" are
// "2000 usd"; "March 3, 2025" and "3 March 2025" are "2025-03-03"),
// articles and auxiliaries dropped, words stemmed and folded to their
// synonym group's representative. Capitalised words (names) are not folded.
// Two texts that say the same thing in different spellings normalise
// closer together; a changed number or name stays changed.
func Normalize(text string) string {
	return strings.Join(normTokens(text, DefaultLexicon()), " ")
}

func normTokens(text string, lex *Lexicon) []string {
	ws := normWords(text, lex)
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.norm
	}
	return out
}

// A word is a normalised word of a text with the lower-case word it was
// written as; raw is empty for values (numbers, dates) and names, which
// only ever match themselves. name holds a name's lower-case form: a
// capital at the start of a sentence may mark a common word ("Backups run
// nightly") that the other text writes in lower case.
type word struct{ norm, raw, name string }

// normWords returns the normalised words of text (see Normalize) with the
// words they were written as.
func normWords(text string, lex *Lexicon) []word {
	toks := tokenize(text)
	var out []word
	first := true // at a sentence start
	for i := 0; i < len(toks); {
		if i > 0 {
			switch toks[i-1].low {
			case ".", "!", "?", ";", ":", "\n":
				first = true
			}
		}
		if first && toks[i].capitalized() && lex.common(toks[i].low) && !personalTitles[toks[i].low] {
			// A capital that only marks the start of a sentence.
			toks[i].text = toks[i].low
		}
		if hasLetterOrDigit(toks[i].low) {
			first = false
		}
		if v, n := quantityAt(toks, i); n > 0 {
			for _, f := range strings.Fields(v.Text) {
				out = append(out, word{norm: f})
			}
			i += n
			continue
		}
		t := toks[i]
		i++
		if !hasLetterOrDigit(t.low) {
			continue
		}
		if t.low == "n't" || t.low == "never" {
			out = append(out, word{norm: "not"})
			continue
		}
		if strings.Contains(t.low, "-") && !strings.ContainsAny(t.low, "0123456789") {
			// "left-handed" and "left handed" meet.
			for _, part := range strings.Split(t.text, "-") {
				if part != "" {
					pt := token{part, strings.ToLower(part)}
					out = append(out, word{norm: foldWord(pt, lex), raw: rawOf(pt)})
				}
			}
			continue
		}
		if dropWords[t.low] || stopWords[t.low] || t.capitalized() && honorifics[strings.TrimSuffix(t.low, ".")] {
			continue
		}
		w := word{norm: foldWord(t, lex), raw: rawOf(t)}
		if w.raw == "" && t.capitalized() && !strings.ContainsAny(t.low, "0123456789") {
			w.name = t.low
		}
		out = append(out, w)
	}
	return out
}

// rawOf is the lower-case form of a common word or short form, or "" for
// a name or a word with digits.
func rawOf(t token) string {
	switch {
	case strings.ContainsAny(t.low, "0123456789"):
		return ""
	case t.capitalized() && !(t.text == strings.ToUpper(t.text) && shortForms[t.low] != ""):
		// A name; an upper-case short form ("DB") is still a word.
		return ""
	}
	return t.low
}

// foldWord stems a word and folds it to its synonym representative.
func foldWord(t token, lex *Lexicon) string {
	w := t.low
	if t.capitalized() {
		return foldTitle(undot(w))
	}
	if c := lex.Canonical(w); c != w {
		return normWord(c)
	}
	l := lex.Lemma(w)
	if c := lex.Canonical(l); c != l {
		return normWord(c)
	}
	for _, f := range suffixForms(w) {
		if c := lex.Canonical(f); c != f {
			return normWord(c)
		}
	}
	return normWord(w)
}

// fingerprintPrefix versions Fingerprint.
const fingerprintPrefix = "memgov-judge-fp-v1\x00"

// Fingerprint is a role-preserving structural fingerprint of text: the
// first 16 bytes of the SHA-256 of its claims (subject, relation, value,
// polarity, each normalised and kept in order), or, when no claim can be
// read, of its normalised words in order. Spelling variants share a
// fingerprint; "Acme acquired Globex" and "Globex acquired Acme" do not.
func Fingerprint(text string) [16]byte {
	lex := DefaultLexicon()
	h := sha256.New()
	h.Write([]byte(fingerprintPrefix))
	claims := Extract(text)
	if len(claims) > 0 {
		for _, c := range claims {
			c = active(c)
			h.Write([]byte("c\x00"))
			h.Write([]byte(strings.Join(normTokens(c.Subject, lex), " ")))
			h.Write([]byte{0})
			h.Write([]byte(strings.Join(normTokens(c.Relation, lex), " ")))
			h.Write([]byte{0})
			if c.Value.Kind == KindText {
				h.Write([]byte(strings.Join(normTokens(c.Value.Text, lex), " ")))
			} else {
				h.Write([]byte(c.Value.Text))
			}
			h.Write([]byte{0})
			if c.Negated {
				h.Write([]byte("not"))
			}
			h.Write([]byte{0})
		}
	} else {
		h.Write([]byte("t\x00"))
		h.Write([]byte(Normalize(text)))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	var fp [16]byte
	copy(fp[:], sum[:])
	return fp
}

// A Difference is a material difference between two texts, found by one
// difference rule of RuleTable.
type Difference struct {
	// Rule names the rule that found it, a row of RuleTable.
	Rule string
	// A and B quote what differs in each text (either may be empty).
	A, B string
	// Explanation says what differs, for a person.
	Explanation string
}

// quantityDiff compares the numbers, amounts, dates and times of a and b
// as multisets.
func quantityDiff(a, b string) (Difference, bool) {
	key := func(v Value) string {
		switch v.Kind {
		case KindMoney:
			return "m" + formatNum(v.Num) + v.Unit
		case KindPercent, KindNumber:
			return "n" + formatNum(v.Num)
		}
		return "d" + v.Text
	}
	qa, qb := quantities(a), quantities(b)
	ca, cb := map[string]int{}, map[string]int{}
	for _, v := range qa {
		ca[key(v)]++
	}
	for _, v := range qb {
		cb[key(v)]++
	}
	var onlyA, onlyB []string
	kindOf, what := RuleNumberDiffers, "number"
	for _, v := range qa {
		k := key(v)
		if cb[k] < ca[k] {
			onlyA = append(onlyA, v.Text)
			if v.Kind == KindDate || v.Kind == KindTime {
				kindOf, what = RuleDateDiffers, "date"
			}
		}
	}
	for _, v := range qb {
		k := key(v)
		if ca[k] < cb[k] {
			onlyB = append(onlyB, v.Text)
			if v.Kind == KindDate || v.Kind == KindTime {
				kindOf, what = RuleDateDiffers, "date"
			}
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return Difference{}, false
	}
	sa, sb := strings.Join(dedupStrings(onlyA), ", "), strings.Join(dedupStrings(onlyB), ", ")
	return Difference{Rule: kindOf, A: sa, B: sb,
		Explanation: fmt.Sprintf("%s %q in one text, %q in the other", what, sa, sb)}, true
}

func dedupStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// negations counts the negators of text ("not", "n't", "never", "no";
// "no longer" counts once, at "no").
func negations(text string) int {
	n := 0
	ts := tokenize(text)
	for i, t := range ts {
		if negators[t.low] && t.low != "without" && !boundNegator(ts, i) || exceptions[t.low] {
			n++
		}
	}
	return n
}

// boundNegator reports whether the negator at ts[i] writes a bound rather
// than a denial: "no more than 5", "not later than Friday"
// (words/bound-comparatives.txt).
func boundNegator(ts []token, i int) bool {
	return i+2 < len(ts) && inClass("bound-comparatives", ts[i+1].low) && ts[i+2].low == "than"
}

// exceptions exclude what follows them: "granted to contractors" /
// "granted except to contractors" deny each other.
var exceptions = boolClass("exceptions")

// modalClasses fold the modal verbs by what they say of an action: that it
// is required, advised, or possible and permitted. "will" and "would" say
// when rather than whether ("hoped the guidelines would lead" / "said the
// guidelines should lead") and are left out.
var modalClasses = wordPairs("modals")

// modalChange reports the modal verbs of a and b when both write some and
// they say another thing of the action: "admins must rotate keys" /
// "admins may rotate keys".
func modalChange(a, b string) (string, string, bool) {
	modals := func(text string) (classes []string, written []string) {
		for _, t := range tokenize(text) {
			if c, ok := modalClasses[t.low]; ok && !(t.low == "may" && t.capitalized()) {
				if !slices.Contains(classes, c) {
					classes = append(classes, c)
				}
				written = append(written, t.low)
			}
		}
		slices.Sort(classes)
		return classes, written
	}
	ca, wa := modals(a)
	cb, wb := modals(b)
	if len(ca) == 0 || len(cb) == 0 || slices.Equal(ca, cb) {
		return "", "", false
	}
	return strings.Join(wa, " "), strings.Join(wb, " "), true
}

// lightWordDiff finds a change in the light words that carry a fact: a
// modal verb of another kind, and/or exchanged, a hedge or an intention
// in one text only.
func lightWordDiff(a, b string) (Difference, bool) {
	if x, y, ok := modalChange(a, b); ok {
		return Difference{Rule: RuleModalDiffers, A: x, B: y, Explanation: fmt.Sprintf("%q in one text, %q in the other", x, y)}, true
	}
	if conjunctionChange(a, b) {
		return Difference{Rule: RuleConjunctionDiffers, A: conjunctions(a), B: conjunctions(b), Explanation: `"and" in one text, "or" in the other`}, true
	}
	if w, ok := hedgeChange(a, b); ok {
		return Difference{Rule: RuleHedgeDiffers, A: w, Explanation: fmt.Sprintf("%q in one text only: it says whether the rest holds", w)}, true
	}
	if x, y, ok := focusChange(a, b); ok {
		return Difference{Rule: RuleOnlyFocus, A: x, B: y, Explanation: fmt.Sprintf("%q in one text, %q in the other", x, y)}, true
	}
	if x, y, ok := markerChange(a, b, boundOf); ok {
		return Difference{Rule: RuleBoundDiffers, A: x, B: y, Explanation: fmt.Sprintf("bounds %q in one text, %q in the other", x, y)}, true
	}
	if x, y, ok := markerChange(a, b, deixisOf); ok && x != "" && y != "" {
		// Both texts point to a time from now, and to another: "last
		// week" / "this week". One that leaves it out says less.
		return Difference{Rule: RuleDeixisDiffers, A: x, B: y, Explanation: fmt.Sprintf("%q in one text, %q in the other", x, y)}, true
	}
	return Difference{}, false
}

// markerChange compares what marker reads at each token of a and of b,
// in order, and returns both readings when they differ.
func markerChange(a, b string, marker func(ts []token, i int) string) (string, string, bool) {
	read := func(text string) []string {
		var out []string
		ts := tokenize(text)
		for i := range ts {
			if m := marker(ts, i); m != "" {
				out = append(out, m)
			}
		}
		return out
	}
	ma, mb := read(a), read(b)
	x, y := strings.Join(ma, ", "), strings.Join(mb, ", ")
	return x, y, x != y
}

// boundOf reads the bound written before a number: "up to 5" and "at most
// 5" are a most, "at least 5" a least, "over 5" more, "under 5" less. It
// reads "" at a bare number and at a token that is not a number.
func boundOf(ts []token, i int) string {
	if !isDigitStart(ts[i].low) && !numberWords[ts[i].low] {
		return ""
	}
	// A currency sign written before the number stands between it and
	// its bound: "under $500" bounds 500.
	if i > 0 {
		if _, sign := currencyWords[ts[i-1].low]; sign && !isWordToken(ts[i-1].low) {
			at := i
			w := func(k int) string {
				if k > 0 {
					k++
				}
				if at-k < 0 || at-k >= len(ts) {
					return ""
				}
				return ts[at-k].low
			}
			return boundWords(w)
		}
	}
	// w(k) is the word k places before the number; a negative k counts
	// the words after it ("5 or fewer").
	w := func(k int) string {
		if i-k < 0 || i-k >= len(ts) {
			return ""
		}
		return ts[i-k].low
	}
	return boundWords(w)
}

// boundWords reads a bound from the words around a number: w(k) is the
// word k places before it, a negative k one after it.
func boundWords(w func(k int) string) string {
	switch {
	case w(2) == "up" && w(1) == "to", w(2) == "at" && w(1) == "most", w(1) == "maximum", w(1) == "max",
		w(3) == "no" && w(2) == "more" && w(1) == "than", w(-1) == "or" && (w(-2) == "fewer" || w(-2) == "less"):
		return "at most"
	case w(2) == "at" && w(1) == "least", w(1) == "minimum", w(1) == "min",
		w(3) == "no" && (w(2) == "less" || w(2) == "fewer") && w(1) == "than", w(-1) == "or" && w(-2) == "more":
		return "at least"
	case w(2) == "more" && w(1) == "than", w(1) == "over", w(1) == "above", w(1) == "exceeding":
		return "more than"
	case (w(2) == "less" || w(2) == "fewer") && w(1) == "than", w(1) == "under", w(1) == "below":
		return "less than"
	case w(1) == "exactly", w(1) == "precisely":
		return "exactly"
	}
	return ""
}

// numberWords are numbers written as words.
var numberWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range smallNumbers {
		m[w] = true
	}
	for w := range multipliers {
		if len(w) > 2 { // "hundred", not the suffix "k" or "bn"
			m[w] = true
		}
	}
	return m
}()

// deixisOf reads a time word that points from now ("last week", "this
// month", "next Monday"); the rest of the words read the same either way.
func deixisOf(ts []token, i int) string {
	switch ts[i].low {
	case "last", "this", "next", "previous", "coming", "past", "current":
	default:
		return ""
	}
	if i+1 >= len(ts) || !timeNouns[ts[i+1].low] {
		return ""
	}
	d := ts[i].low
	if d == "previous" || d == "past" {
		d = "last"
	}
	if d == "coming" {
		d = "next"
	}
	if d == "current" {
		d = "this"
	}
	return d + " " + ts[i+1].low
}

// timeNouns name a span of time a deictic word can point to.
var timeNouns = boolClass("time-nouns", "weekdays")

// focusChange returns what "only" restricts in a and in b when they
// differ: "Only admins can delete projects" / "Admins can only delete
// projects", or "only" in one text alone.
func focusChange(a, b string) (string, string, bool) {
	focus := func(text string) []string {
		var out []string
		ts := tokenize(text)
		for i, t := range ts {
			if t.low != "only" {
				continue
			}
			next := ""
			for k := i + 1; k < len(ts) && k <= i+3; k++ {
				if w := ts[k].low; hasLetterOrDigit(w) && !isDeterminer(w) {
					next = w
					break
				}
			}
			out = append(out, "only "+next)
		}
		return out
	}
	fa, fb := focus(a), focus(b)
	if len(fa) == 0 && len(fb) == 0 {
		return "", "", false
	}
	sort.Strings(fa)
	sort.Strings(fb)
	if strings.Join(fa, "|") == strings.Join(fb, "|") {
		return "", "", false
	}
	return strings.Join(fa, ", "), strings.Join(fb, ", "), true
}

// hedges say how far, or whether, the rest of a statement holds: one text
// without it states another fact ("the test almost passed" / "the test
// passed", "Bob wants to leave the team" / "Bob left the team").
var hedges = boolClass("hedges")

// intentions are hedges when an infinitive follows ("wants to leave").
var intentions = boolClass("intentions")

// intention reports whether w is a form of an intention verb.
func intention(w string) bool { return intentions[w] || intentions[stem(w)] }

// hedgeChange returns a hedge one text writes and the other does not.
func hedgeChange(a, b string) (string, bool) {
	count := func(text string) map[string]int {
		m := map[string]int{}
		ts := tokenize(text)
		for i, t := range ts {
			if i > 0 && ts[i-1].low == "at" && inClass("bound-words", t.low) {
				continue // "at most", "at least": a bound (boundOf), not a hedge
			}
			if hedges[t.low] || intention(t.low) && i+1 < len(ts) && ts[i+1].low == "to" {
				m[t.low]++
			}
		}
		return m
	}
	ca, cb := count(a), count(b)
	for _, m := range [2][2]map[string]int{{ca, cb}, {cb, ca}} {
		for w, n := range m[0] {
			if m[1][w] == 0 && n > 0 {
				return w, true
			}
		}
	}
	return "", false
}

// conjunctionChange reports whether the and/or of a and b differ where
// they stand: "needs a receipt and an ID" / "needs a receipt or an ID".
func conjunctionChange(a, b string) bool {
	conj := func(text string) []string {
		var out []string
		for _, t := range tokenize(text) {
			if t.low == "and" || t.low == "or" || t.low == "nor" {
				out = append(out, t.low)
			}
		}
		return out
	}
	x, y := conj(a), conj(b)
	return len(x) > 0 && len(x) == len(y) && !slices.Equal(x, y)
}

// honorifics are professional titles before a name: "Adm. Gehman" and
// "Gehman" name one person. Personal titles stay names ("Mr. Smith" and
// "Mrs. Smith" are two people), as do "Jr." and "Sr.".
var honorifics = boolClass("honorifics")

// titleForms folds the spellings of one personal title: "Miss Novikova"
// is "Ms. Novikova".
var titleForms = wordPairs("title-forms")

// personalTitles are read as names even where a sentence starts with
// them ("Miss" is a common word too).
var personalTitles = boolClass("personal-titles")

// foldTitle returns a name's lower-case form with its title spelling
// folded.
func foldTitle(n string) string {
	if f, ok := titleForms[n]; ok {
		return f
	}
	return n
}

// demonym reports whether two names are a place and the word derived from
// it ("Iraq" / "Iraqi", "Russia" / "Russian"): the lexicon relates them and
// they open alike. Names related otherwise ("Russia" / "USSR") stay apart.
func (l *Lexicon) demonym(a, b string) bool {
	return a != b && len(a) >= 4 && len(b) >= 4 && a[:4] == b[:4] && l.Related(a, b)
}

// names returns the capitalised words of text that read as names, in
// order, lower case: a capitalised word after the first of its sentence,
// and a sentence's first word when it is not a function word or a word the
// lexicon knows as a common word.
func names(text string, lex *Lexicon) []string {
	var out []string
	for _, s := range sentences(tokenize(text)) {
		for i, t := range s {
			if !t.capitalized() || t.low == "i" || !hasLetterOrDigit(t.low) {
				continue
			}
			if _, ok := months[t.low]; ok {
				continue
			}
			if honorifics[strings.TrimSuffix(t.low, ".")] {
				continue
			}
			if i > 0 && len(t.low) <= 3 && t.text == strings.ToUpper(t.text) && isDigitStart(s[i-1].low) {
				// A unit after a number ("64 GB"), not a name.
				continue
			}
			if _, ok := weekdays[strings.TrimSuffix(t.low, "s")]; ok {
				continue
			}
			if i == 0 || (i == 1 && !hasLetterOrDigit(s[0].low)) {
				if !personalTitles[t.low] && (stopWords[t.low] || dropWords[t.low] || isDeterminer(t.low) || negators[t.low] || lex.common(t.low)) {
					continue
				}
			}
			out = append(out, foldTitle(undot(t.low)))
		}
	}
	return out
}

// common reports whether the lexicon knows w as a common word.
func (l *Lexicon) common(w string) bool {
	if _, ok := l.canon[w]; ok {
		return true
	}
	if _, ok := l.lemma[w]; ok {
		return true
	}
	if _, ok := l.antonyms[w]; ok {
		return true
	}
	if _, ok := l.related[w]; ok {
		return true
	}
	for _, f := range suffixForms(w) {
		if _, ok := l.canon[f]; ok {
			return true
		}
		if _, ok := l.related[f]; ok {
			return true
		}
	}
	return relVerbs[w] != "" || shortForms[w] != ""
}

// undot writes an initialism without its dots: "u.s" (from "U.S.") is
// "us", as "US" is.
func undot(w string) string {
	if len(w) < 3 || !strings.Contains(w, ".") {
		return w
	}
	for i, r := range w {
		letter := r >= 'a' && r <= 'z'
		if (i%2 == 0 && !letter) || (i%2 == 1 && r != '.') {
			return w
		}
	}
	return strings.ReplaceAll(w, ".", "")
}

// isDigitStart reports whether s begins with a digit.
func isDigitStart(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func nameDiff(a, b string, lex *Lexicon) (Difference, bool) {
	na, nb := names(a, lex), names(b, lex)
	sa, sb := map[string]bool{}, map[string]bool{}
	for _, n := range na {
		sa[n] = true
	}
	for _, n := range nb {
		sb[n] = true
	}
	// A name counts as missing only when no word of the other text has
	// its stem ("Backups" is not a name missing from "the backup").
	stems := func(text string) map[string]bool {
		m := map[string]bool{}
		for _, t := range tokenize(text) {
			m[normWord(t.low)] = true
			// "64GB" holds the unit "GB".
			m[strings.TrimLeft(t.low, "0123456789.,")] = true
			for _, part := range strings.FieldsFunc(t.low, func(r rune) bool { return r == '-' || r == '.' }) {
				m[normWord(part)] = true
			}
		}
		return m
	}
	stA, stB := stems(a), stems(b)
	derived := func(n string, other map[string]bool) bool {
		for m := range other {
			if lex.demonym(n, m) {
				return true
			}
		}
		return false
	}
	var onlyA, onlyB []string
	for n := range sa {
		if !sb[n] && !stB[normWord(n)] && !derived(n, sb) {
			onlyA = append(onlyA, n)
		}
	}
	for n := range sb {
		if !sa[n] && !stA[normWord(n)] && !derived(n, sa) {
			onlyB = append(onlyB, n)
		}
	}
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return Difference{}, false
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	x, y := strings.Join(onlyA, ", "), strings.Join(onlyB, ", ")
	return Difference{Rule: RuleNameDiffers, A: x, B: y, Explanation: fmt.Sprintf("name %q in one text, %q in the other", x, y)}, true
}

// roleDiff finds subject and object swapped around the same word: "Acme
// acquired Globex" / "Globex acquired Acme", "the client paid the vendor" /
// "the vendor paid the client". Claims that agree once normalised ("Dana's
// manager is Priya" / "Priya is Dana's manager") are not a swap.
func roleDiff(a, b string, lex *Lexicon) (Difference, bool) {
	ca, cb := Extract(a), Extract(b)
	if len(ca) > 0 && len(ca) == len(cb) {
		same := true
		for i := range ca {
			if Fingerprint(ca[i].Text) != Fingerprint(cb[i].Text) && !claimsAgree(ca[i], cb[i]) {
				same = false
			}
		}
		if same {
			return Difference{}, false
		}
	}
	if adverbialMove(a, b) {
		// "In 1965 he moved to Paris" / "He moved to Paris in 1965": a
		// phrase moved whole from one end to the other changes no role.
		return Difference{}, false
	}
	if passive(a) != passive(b) {
		// "Ravi owns the service" / "the service is owned by Ravi": the
		// passive voice moves the agent after the verb.
		return Difference{}, false
	}
	wa, wb := normTokens(a, lex), normTokens(b, lex)
	if len(wa) > maxRoleWords || len(wb) > maxRoleWords {
		// Role swaps are read in short statements; the pairwise search
		// below is quadratic.
		return Difference{}, false
	}
	for i, w := range wa {
		for k, v := range wb {
			if w != v {
				continue
			}
			a1, a2 := wordSet(wa[:i]), wordSet(wa[i+1:])
			b1, b2 := wordSet(wb[:k]), wordSet(wb[k+1:])
			if len(a1) == 0 || len(a2) == 0 || setsEqual(a1, a2) {
				continue
			}
			if overlap(a1, b2) && overlap(a2, b1) && !overlap(a1, b1) {
				return Difference{Rule: RuleRoleSwap, A: sideWords(wa[:i], wa[i+1:]), B: sideWords(wb[:k], wb[k+1:]),
					Explanation: fmt.Sprintf("the words around %q change sides", w)}, true
			}
		}
	}
	return Difference{}, false
}

// sideWords writes the words before and after a shared word, for a person
// to read what changed sides.
func sideWords(before, after []string) string {
	return strings.Join(before, " ") + " | " + strings.Join(after, " ")
}

// conjunctions returns the and/or/nor of text in order.
func conjunctions(text string) string {
	var out []string
	for _, t := range tokenize(text) {
		if t.low == "and" || t.low == "or" || t.low == "nor" {
			out = append(out, t.low)
		}
	}
	return strings.Join(out, " ")
}

// passive reports whether text has a form of "be" followed within two
// words by a word ending in -ed or -en and then "by".
func passive(text string) bool {
	ts := tokenize(text)
	for i, t := range ts {
		if !isCopula(t.low) {
			continue
		}
		for k := i + 1; k < len(ts)-1 && k <= i+3; k++ {
			w := ts[k].low
			if (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || verbForms[w] != "") && ts[k+1].low == "by" {
				return true
			}
		}
	}
	return false
}

// maxRoleWords bounds the texts roleDiff compares word by word.
const maxRoleWords = 60

func claimsAgree(x, y Claim) bool {
	x, y = active(x), active(y)
	return x.Subject == y.Subject && x.Relation == y.Relation && x.Negated == y.Negated && x.Value.Text == y.Value.Text
}

func wordSet(ws []string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		if !stopWords[w] {
			m[w] = true
		}
	}
	return m
}

// wordCounts counts the content words of ws.
func wordCounts(ws []string) map[string]int {
	m := map[string]int{}
	for _, w := range ws {
		if !stopWords[w] {
			m[w]++
		}
	}
	return m
}

func setsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// overlap reports whether the sets share most of their words: at least
// one, and at least half of the smaller set.
func overlap(a, b map[string]bool) bool {
	n := 0
	for k := range a {
		if b[k] {
			n++
		}
	}
	small := len(a)
	if len(b) < small {
		small = len(b)
	}
	return n > 0 && 2*n >= small
}
