package judge

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Evidence is how well an excerpt supports a claim.
type Evidence struct {
	// Score is in [0,1]: 1 when the excerpt states the claim's values and
	// key terms, 0 when it states none of them or contradicts the claim.
	Score float64
	// Contradicts is true when the excerpt states another value for the
	// claim's relation (or denies the claim).
	Contradicts bool
	// Explanation says what was found and what was missing.
	Explanation string
	// Missing are the claim's key terms the excerpt does not state: an
	// excerpt that leaves part of a claim unstated supports it partially
	// at most.
	Missing []string
	// Rule names the rule that decided (one of the Support and Rule
	// constants).
	Rule string
}

// Support rules named in Evidence.Rule.
const (
	SupportStated      = "support-stated"         // the excerpt states the claim's subject, relation and values
	SupportPartial     = "support-partial"        // the excerpt states the subject and relation, not every value
	SupportUnrelated   = "support-unrelated"      // the excerpt speaks of another subject or relation
	EvidenceRestated   = "evidence-restated"      // the excerpt states the claim denied, or an antonym in a word's place
	EvidenceOtherValue = "evidence-another-value" // the excerpt gives the claim's slot another number, date or time
	EvidenceFieldValue = "evidence-field-value"   // a "Key: value" line for the claim's subject holds another value
)

// SupportRules lists the support rules with one line each.
func SupportRules() []ContradictionRule {
	return []ContradictionRule{
		{EvidenceRestated, "the excerpt states the claim denied, or an antonym in place of one of its words"},
		{EvidenceOtherValue, "the excerpt states the claim's subject and relation with one other number, date or time"},
		{EvidenceFieldValue, "a 'Key: value' line naming the claim's subject holds another value"},
		{SupportStated, "the excerpt states the claim's subject, relation and values, abbreviations and word order aside"},
		{SupportPartial, "the excerpt states the claim's subject and relation but not every value (score at most 0.5)"},
		{SupportUnrelated, "the excerpt speaks of another subject or relation (score at most 0.25)"},
	}
}

// Support scores how well excerpt supports claimText with the default
// Judge.
func Support(claimText, excerpt string) Evidence { return defaultJudge.Support(claimText, excerpt) }

// Support reads the claims of claimText and of excerpt and compares them:
// the same subject, relation and values, in other words, abbreviations
// ("Frankfurt DC capacity: 400 racks") and word orders included. An
// excerpt that states the claim's subject and relation with all its values
// supports it fully (score 1); one that states them with another value, or
// denies them, contradicts it (score 0, Contradicts); one about something
// else does not support it (a low score: the share of the claim's words it
// states, at most one half).
func (j *Judge) Support(claimText, excerpt string) Evidence {
	if strings.TrimSpace(claimText) == "" || strings.TrimSpace(excerpt) == "" {
		return Evidence{Explanation: "empty claim or excerpt"}
	}
	if v := j.claimContradiction(claimText, excerpt); v.Contradicts {
		return Evidence{Contradicts: true, Rule: v.Rule, Explanation: "excerpt contradicts the claim: " + v.Explanation}
	}
	lex := j.lex
	wc, we := normTokens(claimText, lex), normTokens(excerpt, lex)
	if why, ok := restates(claimText, excerpt, wc, we, lex); ok {
		return Evidence{Contradicts: true, Rule: EvidenceRestated, Explanation: "excerpt contradicts the claim: " + why}
	}
	return j.compareSlots(claimText, excerpt)
}

// slotText is what support reads of a text: its content words spelled out
// (abbreviations expanded, stemmed), its quantities, and the values of a
// "Key: value" line.
type slotText struct {
	words  map[string]bool
	order  []string
	quants map[string]Value
	// labels are the "Key: value" lines: the key's words and the value's.
	labels []labelLine
}

type labelLine struct {
	key, value []string
	quants     []Value
}

func readSlots(text string) slotText {
	st := slotText{words: map[string]bool{}, quants: map[string]Value{}}
	toks := expandAbbreviations(tokenize(text))
	for i := 0; i < len(toks); {
		if v, n := quantityAt(toks, i); n > 0 {
			st.quants[slotKey(v)] = v
			i += n
			continue
		}
		if w, ok := slotWord(toks[i]); ok {
			if !st.words[w] {
				st.order = append(st.order, w)
			}
			st.words[w] = true
		}
		i++
	}
	for _, s := range sentences(toks) {
		c := -1
		for i, t := range s {
			if t.low == ":" {
				c = i
			}
		}
		if c < 1 || c+1 >= len(s) {
			continue
		}
		var l labelLine
		for _, t := range s[:c] {
			if w, ok := slotWord(t); ok {
				l.key = append(l.key, w)
			}
		}
		rest := s[c+1:]
		for i := 0; i < len(rest); {
			if v, n := quantityAt(rest, i); n > 0 {
				l.quants = append(l.quants, v)
				i += n
				continue
			}
			if w, ok := slotWord(rest[i]); ok {
				l.value = append(l.value, w)
			}
			i++
		}
		st.labels = append(st.labels, l)
	}
	return st
}

// slotWord is a token's comparable form, or false for a function word.
func slotWord(t token) (string, bool) {
	if !hasLetterOrDigit(t.low) || stopWords[t.low] || isDeterminer(t.low) || fillerWords[t.low] {
		return "", false
	}
	return normWord(DefaultLexicon().Lemma(t.low)), true
}

// slotKey compares quantities by amount for numbers, money and shares
// ("EUR 50,000" and "50,000 euros"), and by what they name for dates and
// times.
func slotKey(v Value) string {
	switch v.Kind {
	case KindMoney, KindPercent, KindNumber:
		return "n" + formatNum(v.Num)
	}
	return quantityKey(v)
}

var (
	abbrevOnce sync.Once
	abbrevs    map[string][]token
)

//go:embed abbreviations.tsv
var abbreviationsTable string

// expandAbbreviations spells out the short forms of abbreviations.tsv.
func expandAbbreviations(toks []token) []token {
	abbrevOnce.Do(func() {
		abbrevs = map[string][]token{}
		for _, line := range strings.Split(abbreviationsTable, "\n") {
			if strings.HasPrefix(line, "#") {
				continue
			}
			short, long, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			abbrevs[strings.TrimSpace(short)] = tokenize(strings.TrimSpace(long))
		}
	})
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if x, ok := abbrevs[t.low]; ok {
			out = append(out, x...)
			continue
		}
		out = append(out, t)
	}
	return out
}

// compareSlots compares what the claim says of its subject with what the
// excerpt says: the subject's and the relation's words, then the values.
func (j *Judge) compareSlots(claimText, excerpt string) Evidence {
	c, e := readSlots(claimText), readSlots(excerpt)
	lex := j.lex
	has := func(w string) bool {
		if e.words[w] {
			return true
		}
		for x := range e.words {
			if len(w) > 3 && len(x) > 3 && lex.Related(w, x) {
				return true
			}
		}
		return false
	}
	// The claim's values: its quantities and the words of each claim's
	// value; its context: every other content word; its subject: the
	// words of each claim's subject.
	valueWords := map[string]bool{}
	subject := map[string]bool{}
	claims := Extract(claimText)
	for _, cl := range claims {
		if cl.Value.Kind == KindText {
			// Quantities in a value are compared as quantities.
			vt := expandAbbreviations(tokenize(cl.Value.Text))
			for i := 0; i < len(vt); {
				if _, n := quantityAt(vt, i); n > 0 {
					i += n
					continue
				}
				if w, ok := slotWord(vt[i]); ok && c.words[w] {
					valueWords[w] = true
				}
				i++
			}
		}
		for _, t := range expandAbbreviations(tokenize(cl.Subject)) {
			if w, ok := slotWord(t); ok {
				subject[w] = true
			}
		}
	}
	if len(subject) == 0 {
		// No claim read: the words that open the text stand for its
		// subject.
		for _, w := range c.order[:min(1, len(c.order))] {
			subject[w] = true
		}
	}
	var context, missing []string
	found := 0
	for _, w := range c.order {
		if valueWords[w] {
			continue
		}
		context = append(context, w)
		if has(w) {
			found++
		} else {
			missing = append(missing, w)
		}
	}
	subjFound := 0
	for w := range subject {
		if has(w) {
			subjFound++
		}
	}
	ctxShare := 1.0
	if len(context) > 0 {
		ctxShare = float64(found) / float64(len(context))
	}
	// Values.
	var lostQ []Value
	subjectLost := false
	inSubject := map[string]bool{}
	for _, cl := range claims {
		for _, f := range strings.Fields(cl.Subject) {
			inSubject[f] = true
		}
	}
	for _, q := range c.quants {
		if !hasQuantity(e.quants, q) {
			if q.Kind == KindNumber && inSubject[formatNum(q.Num)] {
				// A number that names the subject ("the printer on floor
				// 3") is not a value: another one names another thing.
				missing = append(missing, q.Text)
				subjectLost = true
				continue
			}
			lostQ = append(lostQ, q)
		}
	}
	var lostW []string
	for w := range valueWords {
		if !has(w) {
			lostW = append(lostW, w)
		}
	}
	sort.Strings(lostW)
	// Related: the excerpt names the subject and states most of what the
	// claim says of it, or all its values, a quantity among them ("at most
	// 100 requests per minute to the API").
	numeric := false
	for _, q := range c.quants {
		numeric = numeric || q.Kind == KindMoney || q.Kind == KindPercent || q.Kind == KindNumber && q.Unit != ""
	}
	allValues := len(lostQ) == 0 && len(lostW) == 0 && numeric && !subjectLost
	related := (ctxShare >= 0.5 || allValues) && (len(subject) == 0 || subjFound > 0)
	// What the excerpt may say in other words: the relation's words, which
	// a document often leaves to its layout ("Elena's manager: Marco" for
	// "Elena reports to Marco"). A text read as no claim has none: every
	// word must be stated.
	relationOnly := len(missing) == 0 || len(claims) > 0
	for _, w := range missing {
		relationOnly = relationOnly && !subject[w]
	}
	subjectAll := subjFound == len(subject) && !subjectLost
	hasValue := len(c.quants) > 0 || len(valueWords) > 0
	total := len(c.order) + len(c.quants)
	stated := found + len(c.quants) - len(lostQ)
	for w := range valueWords {
		if has(w) {
			stated++
		}
	}
	share := 0.0
	if total > 0 {
		share = float64(stated) / float64(total)
	}
	if !related {
		exp := fmt.Sprintf("the excerpt speaks of something else: %d of %d of the claim's words", stated, total)
		return Evidence{Score: min(share, 0.5) * 0.5, Rule: SupportUnrelated, Explanation: exp, Missing: append(missing, lostW...)}
	}
	if len(lostQ) == 0 && len(lostW) == 0 && (hasValue && subjectAll && relationOnly || allValues && subjFound > 0) {
		exp := fmt.Sprintf("the excerpt states the claim's subject, relation and values (%d of %d words)", stated, total)
		return Evidence{Score: 1, Rule: SupportStated, Explanation: exp}
	}
	// The subject and relation are there; a value is not. Another value
	// in its place contradicts the claim.
	for _, q := range lostQ {
		if len(lostW) > 0 || len(missing) > 0 && (!relationOnly || !subjectAll || statesVerb(excerpt)) {
			// Another number where the claim's subject and other values
			// are not all stated, or where the excerpt states another
			// relation in words of its own, is another fact ("the store
			// closes at 8 pm" / "opens at 8 am").
			break
		}
		if len(lostQ) > 1 {
			// Several numbers changed at once: another record.
			break
		}
		for _, x := range e.quants {
			if hasQuantity(c.quants, x) {
				continue
			}
			if comparableQuantities(q, x) {
				return Evidence{Contradicts: true, Rule: EvidenceOtherValue, Explanation: fmt.Sprintf("excerpt contradicts the claim: it gives %s where the claim says %s", x.Text, q.Text)}
			}
		}
	}
	if len(lostW) > 0 && subjectAll && relationOnly {
		for _, l := range e.labels {
			// A "Key: value" line whose key states the claim's subject and
			// relation holds the one value of that field.
			if !labelCovers(l, subject, has) || len(l.value) == 0 {
				continue
			}
			other := []string{}
			for _, w := range l.value {
				if !valueWords[w] && !c.words[w] {
					other = append(other, w)
				}
			}
			if len(other) > 0 {
				return Evidence{Contradicts: true, Rule: EvidenceFieldValue, Explanation: fmt.Sprintf("excerpt contradicts the claim: its %q is %q where the claim says %q",
					strings.Join(l.key, " "), strings.Join(other, " "), strings.Join(lostW, " "))}
			}
		}
	}
	var lost []string
	for _, q := range lostQ {
		lost = append(lost, q.Text)
	}
	lost = append(lost, lostW...)
	return Evidence{Score: min(share, 0.5), Rule: SupportPartial, Explanation: "the excerpt does not state " + strings.Join(lost, ", "), Missing: lost}
}

// labelCovers reports whether a label's key names the claim's subject.
func labelCovers(l labelLine, subject map[string]bool, has func(string) bool) bool {
	keyed := map[string]bool{}
	for _, w := range l.key {
		keyed[w] = true
	}
	for _, w := range l.value {
		keyed[w] = true
	}
	n := 0
	for w := range subject {
		if keyed[w] {
			n++
		}
	}
	return len(subject) > 0 && 2*n >= len(subject)
}

// comparableQuantities reports whether x may be another value of what q
// measures: the same kind, and the same unit when both name one.
func comparableQuantities(q, x Value) bool {
	switch {
	case q.Kind == x.Kind:
	case (q.Kind == KindNumber || q.Kind == KindMoney) && (x.Kind == KindNumber || x.Kind == KindMoney):
	default:
		return false
	}
	if q.Kind == KindNumber && x.Kind == KindNumber && q.Unit != "" && x.Unit != "" && normWord(q.Unit) != normWord(x.Unit) {
		return false
	}
	return true
}

// maxGapWords is the longest run of excerpt words read as standing in for
// a claim word.
const maxGapWords = 3

// restates finds an excerpt that states the claim with something else in
// its place (wc and we are their normalised words): the claim denied (the excerpt affirms what the claim negates,
// or the reverse, all else stated), or, between words both share, the
// antonym of a claim word in its place ("the users are awake at the demo" /
// "the users are asleep at the demo"). Another name in a word's place is
// not a contradiction by itself ("Grace speaks French" does not deny
// "Grace speaks Spanish"); it leaves the claim unsupported. It returns
// what differs.
func restates(claimText, excerpt string, wc, we []string, lex *Lexicon) (string, bool) {
	have := wordSet(we)
	stated := 0
	for _, w := range wc {
		if have[w] || w == "not" {
			stated++
		}
	}
	if len(wc) > 0 && stated == len(wc) && negations(claimText)%2 != negations(excerpt)%2 && (negations(claimText) == 0 || negations(excerpt) == 0) {
		return "one of them is negated and the other is not", true
	}
	if len(we) > maxAlignWords {
		we = we[:maxAlignWords]
	}
	for _, g := range gaps(wc, we) {
		if len(g.b) == 0 || len(g.b) > maxGapWords || len(g.a) == 0 || len(g.a) > maxGapWords || !g.anchored {
			continue
		}
		for _, x := range g.a {
			for _, y := range g.b {
				if x == y {
					continue
				}
				if lex.StateAntonyms(x, y) {
					return fmt.Sprintf("the excerpt says %q where the claim says %q", y, x), true
				}
			}
		}
	}
	return "", false
}

// gap is a place where an alignment of two word lists leaves words of
// either unmatched; anchored when a matched word precedes it.
type gap struct {
	a, b     []string
	anchored bool
}

// gaps aligns a and b on a longest common subsequence and returns the
// places where they differ.
func gaps(a, b []string) []gap {
	n, m := len(a), len(b)
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []gap
	cur := gap{}
	flush := func() {
		if len(cur.a) > 0 || len(cur.b) > 0 {
			out = append(out, cur)
		}
		cur = gap{anchored: true}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			flush()
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			cur.a = append(cur.a, a[i])
			i++
		default:
			cur.b = append(cur.b, b[j])
			j++
		}
	}
	cur.a = append(cur.a, a[i:]...)
	cur.b = append(cur.b, b[j:]...)
	flush()
	return out
}

// claimContradiction applies the claim-level rules only: an excerpt is
// prose, and the scene rules are for one-sentence descriptions.
func (j *Judge) claimContradiction(claimText, excerpt string) Verdict {
	ca, cb := Extract(claimText), Extract(excerpt)
	best := Verdict{}
	for i := range ca {
		for k := range cb {
			v := j.compareClaims(&ca[i], &cb[k])
			if v.Contradicts && v.Confidence > best.Confidence {
				best = v
			}
		}
	}
	return best
}

func quantityKey(v Value) string {
	switch v.Kind {
	case KindMoney:
		return "m" + formatNum(v.Num) + v.Unit
	case KindPercent, KindNumber:
		return "n" + formatNum(v.Num)
	}
	return "d" + v.Text
}

// statesVerb reports whether text states a claim by a relation verb ("the
// store closes at 8 pm"), as a sentence does and a "Key: value" line does
// not.
func statesVerb(text string) bool {
	for _, c := range Extract(text) {
		if f := strings.Fields(c.Relation); len(f) > 0 && relVerbs[f[0]] == f[0] {
			return true
		}
	}
	return false
}

// hasQuantity reports whether qs holds q: the same amount, date or time,
// in the same unit when both name one ("45 staff" and "45"; not "two
// dogs" and "two deer").
func hasQuantity(qs map[string]Value, q Value) bool {
	x, ok := qs[slotKey(q)]
	if !ok {
		return false
	}
	if q.Kind == KindNumber && x.Kind == KindNumber && q.Unit != "" && x.Unit != "" {
		return normWord(DefaultLexicon().Lemma(q.Unit)) == normWord(DefaultLexicon().Lemma(x.Unit))
	}
	return true
}
