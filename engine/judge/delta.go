package judge

import (
	"fmt"
	"strings"
	"sync"
)

// A Delta is what a new text adds to an old one it reads like, and what it
// leaves out: the information delta of spec §12.3.3, read on the words and
// values of plain text.
type Delta struct {
	// Conflict is set when the texts state something differently: another
	// number or date where both give one, another name where both name
	// one, negation, subject and object swapped, an antonym. Such texts are
	// never duplicates of each other.
	Conflict *Difference
	// Reordered is set when the texts hold the same words in another order
	// ("flights from Oslo to Rome" / "flights from Rome to Oslo"): the
	// roles may have changed.
	Reordered bool
	// Similarity is the Dice coefficient of the two texts' normalised
	// content words (see Normalize), in [0,1].
	Similarity float64
	// Added are the content words of the new text that the old one lacks,
	// Dropped those of the old text that the new one lacks, in their
	// normalised form. Attribution and discourse words ("said",
	// "according", "however") carry no fact and are left out of both.
	Added, Dropped []string
	// Substitutions counts the places where, between words both texts
	// share, each text has words the other lacks: one word put for another.
	Substitutions int
	// Words is the number of content words of the shorter text.
	Words int
	// InOrder is set when the texts use the words they share in the same
	// order.
	InOrder bool
	// DroppedValues are the numbers, dates and names among Dropped.
	DroppedValues []string
}

// Kinds of near-duplicate resolution (spec §12.3.2).
const (
	// ResolveDuplicate: the new text adds nothing; it may be rejected.
	ResolveDuplicate = "duplicate"
	// ResolveMerge: the new text says what the old one says and more; it
	// may replace the old one as its next version, which keeps the old
	// text in its history.
	ResolveMerge = "merge"
	// ResolveConflict: the texts differ in what they state; a person
	// decides.
	ResolveConflict = "conflict"
)

// Resolve says how a dedup gate may resolve the new text of d against the
// old one, given that the two are near-duplicates. Only a new text that
// adds no content word, value or name, and uses the words it shares in the
// old one's order, is a duplicate. A new text that adds
// words is merged when it keeps what the old one says, or, in a statement
// of at least mergeWords content words, when what it leaves out is words
// moved or reworded in at most one place with most words shared. Anything
// else, and every conflict, role change or word swap in a short
// statement, goes to a person.
func (d Delta) Resolve() string {
	switch {
	case d.Conflict != nil || d.Reordered:
		return ResolveConflict
	case len(d.Added) == 0 && d.InOrder:
		return ResolveDuplicate
	case len(d.Added) == 0:
		// The same words rearranged may say another thing ("the drug was
		// approved by the Food and Drug Administration").
		return ResolveConflict
	case len(d.Dropped) == 0:
		return ResolveMerge
	case len(d.DroppedValues) > 0:
		// The merged text would lose a number, date or name.
		return ResolveConflict
	case d.Words >= mergeWords && d.Substitutions == 0 && d.Similarity >= 0.6,
		d.Words >= mergeWords && d.Substitutions == 1 && d.Similarity >= 0.8:
		return ResolveMerge
	}
	return ResolveConflict
}

// mergeWords is the length from which a statement that rewords one place
// is read as a paraphrase rather than as a changed fact: in a short
// statement ("the user's dog is named Biscuit" / "the user's cat is named
// Biscuit") one word is the fact.
const mergeWords = 8

// String describes the delta for a person.
func (d Delta) String() string {
	switch {
	case d.Conflict != nil:
		return d.Conflict.Explanation
	case d.Reordered:
		return "the same words in another order"
	}
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "adds "+quoteWords(d.Added))
	}
	if len(d.Dropped) > 0 {
		parts = append(parts, "leaves out "+quoteWords(d.Dropped))
	}
	if len(parts) == 0 {
		return "adds nothing"
	}
	return strings.Join(parts, ", ")
}

func quoteWords(ws []string) string {
	const most = 6
	if len(ws) > most {
		return fmt.Sprintf("%q and %d more", strings.Join(ws[:most], " "), len(ws)-most)
	}
	return fmt.Sprintf("%q", strings.Join(ws, " "))
}

// Compare reads the delta of newText against oldText with the built-in
// lexicon and the default cardinalities.
func Compare(oldText, newText string) Delta { return defaultJudge.Compare(oldText, newText) }

// Compare reads the delta of newText against oldText with the built-in
// lexicon; j's cardinalities decide which changed values are conflicts.
func (j *Judge) Compare(oldText, newText string) Delta {
	lex := DefaultLexicon()
	d := Delta{}
	w, p, q, prepChanged := prepositionChange(oldText, newText)
	if c, ok := conflict(oldText, newText, lex); ok {
		d.Conflict = &c
	} else if prepChanged {
		// Prepositions are light words, so the words below do not see
		// them: "shipped to Berlin" / "shipped from Berlin".
		d.Conflict = &Difference{Kind: DiffRole, A: p + " " + w, B: q + " " + w,
			Explanation: fmt.Sprintf("%q in one text, %q in the other", p+" "+w, q+" "+w)}
	}
	pro, prn := j.prepare(oldText), j.prepare(newText)
	po, pn := pro.words, prn.words
	wo := pro.norms
	wn, paired := align(pro, prn)
	if len(paired) > 0 && d.Conflict == nil {
		// Words that can stand for each other in some sense may still be
		// another value of a claim ("the default branch is main" /
		// "... master"): what the contradiction rules read as another
		// value is a conflict, not a rewording.
		if v := j.Contradiction(oldText, newText); v.Contradicts {
			d.Conflict = &Difference{Kind: DiffClaim, Explanation: v.Explanation}
		}
	}
	so, sn := wordSet(wo), wordSet(wn)
	shared := 0
	for w := range sn {
		if so[w] {
			shared++
		} else {
			d.Added = append(d.Added, w)
		}
	}
	for w := range so {
		if !sn[w] {
			d.Dropped = append(d.Dropped, w)
		}
	}
	if len(d.Added) > 0 {
		// A name or number the old text writes more often than the new
		// one was put for another ("Apple A5 was created by Apple" /
		// "... by Google"); sets of words alone read the new text as one
		// that only adds.
		var named map[string]bool
		co, cn := wordCounts(wo), wordCounts(wn)
		for w, k := range co {
			if k <= cn[w] || cn[w] == 0 {
				continue
			}
			if named == nil {
				named = wordSet(names(oldText, lex))
			}
			if named[w] || strings.ContainsAny(w, "0123456789") {
				d.Dropped = append(d.Dropped, w)
			}
		}
	}
	d.Added, d.Dropped = inOrder(d.Added, wn), inOrder(d.Dropped, wo)
	if len(so)+len(sn) > 0 {
		d.Similarity = 2 * float64(shared) / float64(len(so)+len(sn))
	}
	d.Words = min(len(so), len(sn))
	d.Substitutions = substitutions(wo, wn)
	if len(d.Dropped) > 0 {
		named := wordSet(names(oldText, lex))
		for _, w := range d.Dropped {
			if named[w] || strings.ContainsAny(w, "0123456789") {
				d.DroppedValues = append(d.DroppedValues, w)
			}
		}
	}
	// A word put for another may sit elsewhere ("allergic to peanuts" /
	// "a peanut allergy"): the order is read on the words both texts
	// write alike, ly-adverbs aside ("fully repaid" / "repaid fully");
	// "X is Y" says what "Y is X" says; an adverbial phrase may open or
	// close a sentence; and "X and Y" says what "Y and X" says.
	loose := floatingAdverb(lex, po, pn)
	for w := range paired {
		loose[w] = true
	}
	d.InOrder = sameOrder(without(wo, loose), without(wn, loose)) && !prepChanged ||
		copulaSwap(oldText, newText, lex) || adverbialMove(oldText, newText) || coordinationSwap(oldText, newText) ||
		prepPhraseSwap(oldText, newText)
	if len(d.Added) == 0 && len(d.Dropped) == 0 && !d.InOrder {
		d.Reordered = true
	}
	if d.Conflict == nil {
		// The head of a possessive in one text only: "Alice's sister
		// lives in Oslo" / "Alice lives in Oslo" speak of two people.
		if h, ok := possessiveHead(oldText, newText); ok {
			d.Conflict = &Difference{Kind: DiffRole, A: h, Explanation: fmt.Sprintf("%q in one text only: the other speaks of another thing", h)}
		} else if h, ok := possessiveHead(newText, oldText); ok {
			d.Conflict = &Difference{Kind: DiffRole, B: h, Explanation: fmt.Sprintf("%q in one text only: the other speaks of another thing", h)}
		}
	}
	d.Added, d.Dropped = asWritten(d.Added, pn, po), asWritten(d.Dropped, po, nil)
	return d
}

// possessiveHead finds a possessor both texts name, with a head in a
// ("Alice's sister") that b does not write at all: b speaks of the
// possessor itself ("Alice lives in Oslo"). A possessor only one text
// names is a detail it adds ("the scandal over Stewart's company"); "he's"
// is "he is".
func possessiveHead(a, b string) (string, bool) {
	key := func(w string) string { return normWord(strings.ReplaceAll(w, "-", "")) }
	inB := map[string]bool{}
	for _, t := range tokenize(b) {
		inB[key(t.low)] = true
	}
	ts := tokenize(a)
	for i := 1; i+1 < len(ts); i++ {
		var owner, head string
		// Only "'s": "X of Y" is written for too many things that are not
		// Y ("64 GB of memory", "the first quarter of the year").
		if ts[i].low != "'s" {
			continue
		}
		owner, head = ts[i-1].low, ts[i+1].low
		if pronouns[owner] || !hasLetterOrDigit(head) || stopWords[head] || isDigitStart(head) || !hasLetterOrDigit(owner) {
			continue
		}
		if inB[key(owner)] && !inB[key(head)] {
			return head, true
		}
	}
	return "", false
}

// pronouns contract with "is" ("he's", "it's"); they own nothing there.
var pronouns = map[string]bool{
	"he": true, "she": true, "it": true, "that": true, "there": true, "what": true, "who": true,
	"here": true, "where": true, "let": true, "how": true, "this": true,
}

// Similarity is the Dice coefficient of the normalised content words of a
// and b: the share of words the two texts have in common, a word of b that
// can stand for one of a (Lexicon.Related) counting as shared.
//
// Pairing is greedy, so it is read both ways and the better reading kept:
// the measure is symmetric.
func Similarity(a, b string) float64 { return defaultJudge.Similarity(a, b) }

// Similarity is the package's Similarity, from j's caches.
func (j *Judge) Similarity(a, b string) float64 {
	pa, pb := j.prepare(a), j.prepare(b)
	return max(dice(pa, pb), dice(pb, pa))
}

// SimilarAtLeast reports whether Similarity(a, b) reaches t, and a
// similarity of at least t when it does. It pairs words only when the
// words the texts share leave the question open, so most unrelated texts
// cost one pass.
func SimilarAtLeast(a, b string, t float64) (float64, bool) {
	return defaultJudge.SimilarAtLeast(a, b, t)
}

// SimilarAtLeast is the package's SimilarAtLeast, from j's caches.
func (j *Judge) SimilarAtLeast(a, b string, t float64) (float64, bool) {
	pa, pb := j.prepare(a), j.prepare(b)
	sa, sb := pa.set, pb.set
	if len(sa)+len(sb) == 0 {
		return 0, t <= 0
	}
	n := 0
	for w := range sa {
		if sb[w] {
			n++
		}
	}
	total := len(sa) + len(sb)
	if plain := 2 * float64(n) / float64(total); plain >= t {
		return plain, true
	}
	// Only words pair up, and only those the lexicon knows, short forms,
	// names, inflected forms and words written apart or together. A pairing
	// shares at most two more words (one written apart) and shrinks the
	// texts by at most one word: the best any alignment can do.
	pairable := func(p, o *prepared) int {
		seen := map[string]bool{}
		for i, w := range p.words {
			if o.set[w.norm] || seen[w.norm] {
				continue
			}
			joins := w.raw != "" && (i+1 < len(p.words) && o.raws[w.raw+p.words[i+1].raw] || i > 0 && o.raws[p.words[i-1].raw+w.raw] || o.joined[w.raw] || o.named[w.norm])
			if p.pairable[i] || joins {
				seen[w.norm] = true
			}
		}
		return len(seen)
	}
	ma, mb := pairable(pa, pb), pairable(pb, pa)
	// Every pairing involves a word found pairable on at least one side.
	oa, ob := len(sa)-n, len(sb)-n
	gain := min(2*(ma+mb), oa+ob)
	if gain == 0 || min(1, 2*float64(n+gain)/float64(max(1, total-min(oa, ob, ma+mb)))) < t {
		return 0, false
	}
	sim := max(dice(pa, pb), dice(pb, pa))
	return sim, sim >= t
}

// dice is the Dice coefficient of the words of a and those of b aligned on
// them.
func dice(a, b *prepared) float64 {
	wb, _ := align(a, b)
	sa, sb := a.set, wordSet(wb)
	if len(sa)+len(sb) == 0 {
		return 0
	}
	n := 0
	for w := range sa {
		if sb[w] {
			n++
		}
	}
	return 2 * float64(n) / float64(len(sa)+len(sb))
}

func norms(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.norm
	}
	return out
}

// maxAlignPairs bounds the words of each text align tries to pair up.
const maxAlignPairs = 40

// align returns the normalised words of b with each word that only b has
// replaced by a word that only a has and that it can stand for: a synonym
// or a derived form ("costs"/"price", "allergy"/"allergic"), an
// abbreviation ("DB"/"database"), or the same word written apart or
// together ("re-entry"/"reentry"). Values and names only ever match
// themselves. Each word of a is paired at most once. paired holds the words
// of a that a word of b was paired with.
func align(pa, pb *prepared) (out []string, paired map[string]bool) {
	a, b := pa.words, pb.words
	lex := DefaultLexicon()
	out = append([]string(nil), pb.norms...)
	sa, sb := pa.set, pb.set
	var onlyA []int
	for k, w := range a {
		if !sb[w.norm] && len(onlyA) < maxAlignPairs {
			onlyA = append(onlyA, k)
		}
	}
	if len(onlyA) == 0 {
		return out, nil
	}
	used := map[string]bool{}
	pair := map[string]string{}
	tried := 0
	for i, w := range b {
		if sa[w.norm] || used[w.norm] {
			continue
		}
		if p, ok := pair[w.norm]; ok {
			out[i] = p
			continue
		}
		if tried++; tried > maxAlignPairs {
			break
		}
		kw := pb.keys[i]
		for _, k := range onlyA {
			x := a[k]
			if used[x.norm] {
				continue
			}
			switch {
			case w.raw != "" && x.raw != "" && (kw.meet(pa.keys[k]) || abbreviates(w.raw, x.raw)):
			case w.name != "" && x.raw != "" && normWord(w.name) == x.norm,
				x.name != "" && w.raw != "" && normWord(x.name) == w.norm:
				// The same word, capitalised in one text only.
			case w.name != "" && x.name != "" && lex.demonym(w.name, x.name):
				// A place and its people ("Iraq" / "Iraqi").
			case i+1 < len(b) && w.raw != "" && b[i+1].raw != "" && w.raw+b[i+1].raw == x.raw:
				// Written apart here, together there.
				out[i+1] = ""
			default:
				continue
			}
			out[i] = x.norm
			pair[w.norm] = x.norm
			used[x.norm] = true
			break
		}
	}
	// Written together here, apart there.
	for i := 0; i+1 < len(a); i++ {
		x, y := a[i], a[i+1]
		if x.raw == "" || y.raw == "" || sb[x.norm] || sb[y.norm] || used[x.norm] || used[y.norm] {
			continue
		}
		for j, w := range b {
			if out[j] == w.norm && !sa[w.norm] && w.raw == x.raw+y.raw {
				out[j] = x.norm + " " + y.norm
			}
		}
	}
	return strings.Fields(strings.Join(out, " ")), used
}

// relKeys are what Lexicon.Related compares of a word: its forms and the
// groups of words related to them.
type relKeys struct {
	forms  []string
	groups []int32
}

// keys returns the relKeys of w ("" has none).
func (l *Lexicon) keys(w string) relKeys {
	if w == "" {
		return relKeys{}
	}
	k := relKeys{forms: l.forms(w)}
	for _, f := range k.forms {
		k.groups = append(k.groups, l.related[f]...)
	}
	return k
}

// meet reports whether two words share a form or a group.
func (k relKeys) meet(o relKeys) bool {
	for _, f := range k.forms {
		for _, g := range o.forms {
			if f == g {
				return true
			}
		}
	}
	for _, g := range k.groups {
		for _, h := range o.groups {
			if g == h {
				return true
			}
		}
	}
	return false
}

// without returns ws without the words in drop.
func without(ws []string, drop map[string]bool) []string {
	if len(drop) == 0 {
		return ws
	}
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if !drop[w] {
			out = append(out, w)
		}
	}
	return out
}

// copulas join the two sides of an identity.
var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true}

// copulaSwap reports whether a and b are one identity "X is Y" written
// both ways round ("Dana's manager is Priya" / "Priya is Dana's
// manager"): one sentence each, one copula each, each side the other's
// other side.
func copulaSwap(a, b string, lex *Lexicon) bool {
	sides := func(text string) (string, string, bool) {
		toks := tokenize(text)
		if len(sentences(toks)) != 1 {
			return "", "", false
		}
		at := -1
		for i, t := range toks {
			if copulas[t.low] {
				if at >= 0 {
					return "", "", false
				}
				at = i
			}
		}
		if at <= 0 || at == len(toks)-1 {
			return "", "", false
		}
		side := func(ts []token) string {
			var b strings.Builder
			for _, t := range ts {
				b.WriteString(t.text)
				b.WriteByte(' ')
			}
			return strings.Join(contentOf(b.String(), lex), " ")
		}
		return side(toks[:at]), side(toks[at+1:]), true
	}
	la, ra, ok := sides(a)
	if !ok {
		return false
	}
	lb, rb, ok := sides(b)
	return ok && la != "" && ra != "" && la == rb && ra == lb
}

// contentOf returns the normalised content words of text.
func contentOf(text string, lex *Lexicon) []string {
	return norms(contentWords(normWords(text, lex)))
}

// shortForms are short forms agents write for common words.
var shortForms = map[string]string{
	"db": "database", "max": "maximum", "info": "information", "config": "configuration",
	"repo": "repository", "app": "application", "env": "environment", "prod": "production",
	"dev": "development", "docs": "documentation", "doc": "document", "dept": "department",
	"govt": "government", "approx": "approximately", "mgr": "manager", "msg": "message",
	"pwd": "password", "qty": "quantity", "addr": "address", "univ": "university",
	"mgmt": "management", "admin": "administrator", "auth": "authentication",
	"tel": "telephone", "intl": "international", "corp": "corporation", "ppl": "people",
	"ram": "memory",
}

// abbreviates reports whether a is the short form of b or b of a.
func abbreviates(a, b string) bool {
	return shortForms[a] == b || shortForms[b] == a
}

// asWritten maps normalised words back to the words they were written as in
// ws (or, failing that, in alt), for a person to read.
func asWritten(set []string, ws, alt []word) []string {
	if len(set) == 0 {
		return set
	}
	first := map[string]string{}
	for _, list := range [][]word{ws, alt} {
		for _, w := range list {
			if _, ok := first[w.norm]; !ok && w.raw != "" {
				first[w.norm] = w.raw
			}
		}
	}
	out := make([]string, len(set))
	for i, w := range set {
		if r, ok := first[w]; ok {
			out[i] = r
		} else {
			out[i] = w
		}
	}
	return out
}

// conflict is Differs without one-sided values: a number, date or name
// that only one text gives is information the other lacks (an addition,
// counted in the delta's words), not a conflict.
func conflict(a, b string, lex *Lexicon) (Difference, bool) {
	if d, ok := quantityDiff(a, b); ok && d.A != "" && d.B != "" {
		return d, true
	}
	if na, nb := negations(a), negations(b); na%2 != nb%2 {
		return Difference{Kind: DiffNegation, Explanation: "one text is negated and the other is not"}, true
	}
	if d, ok := nameDiff(a, b, lex); ok && d.A != "" && d.B != "" {
		return d, true
	}
	if d, ok := roleDiff(a, b, lex); ok {
		return d, true
	}
	if d, ok := lightWordDiff(a, b); ok {
		return d, true
	}
	if p, q, ok := antonymChange(a, b, lex); ok {
		return Difference{Kind: DiffAntonym, A: p, B: q, Explanation: fmt.Sprintf("%q and %q are antonyms", p, q)}, true
	}
	return Difference{}, false
}

// maxAntonymWords bounds the words of each text antonymChange pairs up.
const maxAntonymWords = 40

// antonymChange finds a word of a that b lacks and a word of b that a
// lacks which are antonyms ("the light is on" / "the light is off",
// "shares rose" / "shares fell"), function words included: synonym
// folding and stop words must not hide the change.
func antonymChange(a, b string, lex *Lexicon) (string, string, bool) {
	words := func(text string) []string {
		var out []string
		seen := map[string]bool{}
		for _, t := range tokenize(text) {
			if hasLetterOrDigit(t.low) && !seen[t.low] {
				seen[t.low] = true
				out = append(out, t.low)
			}
		}
		return out
	}
	wa, wb := words(a), words(b)
	inA, inB := wordSet(wa), wordSet(wb)
	var onlyA, onlyB []string
	for _, w := range wa {
		if !inB[w] && len(onlyA) < maxAntonymWords {
			onlyA = append(onlyA, w)
		}
	}
	for _, w := range wb {
		if !inA[w] && len(onlyB) < maxAntonymWords {
			onlyB = append(onlyB, w)
		}
	}
	for _, p := range onlyA {
		for _, q := range onlyB {
			if lex.Antonyms(p, q) {
				return p, q, true
			}
		}
	}
	return "", "", false
}

// lightWords are attribution and discourse words: who said a thing and how
// sentences join carry no fact a memory asserts ("the rate rose, he said" /
// "the rate rose").
var lightWords = []string{
	"said", "say", "says", "saying", "told", "tell", "tells", "added", "adding", "according",
	"reported", "reports", "stated", "states", "noted", "explained", "announced", "commented",
	"however", "meanwhile", "moreover", "furthermore", "additionally", "indeed", "actually",
	"really", "still", "further", "but", "yet", "now", "currently", "today", "mr", "mrs", "ms",
	"statement", "spokesman", "spokeswoman",
}

var (
	lightOnce sync.Once
	lightSet  map[string]bool
)

// contentWords drops the light words of normalised words.
func contentWords(ws []word) []word {
	lightOnce.Do(func() {
		lightSet = map[string]bool{}
		lex := DefaultLexicon()
		for _, w := range lightWords {
			lightSet[w] = true
			for _, n := range normTokens(w, lex) {
				lightSet[n] = true
			}
		}
	})
	out := ws[:0:0]
	for _, w := range ws {
		if !lightSet[w.norm] {
			out = append(out, w)
		}
	}
	return out
}

// inOrder returns the words of set in the order of their first use in ws.
func inOrder(set, ws []string) []string {
	if len(set) < 2 {
		return set
	}
	want := map[string]bool{}
	for _, w := range set {
		want[w] = true
	}
	out := make([]string, 0, len(set))
	for _, w := range ws {
		if want[w] {
			out = append(out, w)
			delete(want, w)
		}
	}
	return out
}

// sameOrder reports whether a and b list their shared words in the same
// order: every word both write, as often as both write it, lines up in a
// common subsequence ("the ministry said the ministry may" / "the
// ministry said it might": the second "ministry" is the one written once).
func sameOrder(a, b []string) bool {
	ca, cb := map[string]int{}, map[string]int{}
	for _, w := range a {
		ca[w]++
	}
	for _, w := range b {
		cb[w]++
	}
	var x, y []string
	shared := 0
	for w, n := range ca {
		shared += min(n, cb[w])
	}
	for _, w := range a {
		if cb[w] > 0 {
			x = append(x, w)
		}
	}
	for _, w := range b {
		if ca[w] > 0 {
			y = append(y, w)
		}
	}
	if len(x) > maxAlignWords || len(y) > maxAlignWords {
		return strings.Join(x, " ") == strings.Join(y, " ")
	}
	return lcsLen(x, y) == shared
}

// lcsLen returns the length of a longest common subsequence of a and b.
func lcsLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			default:
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// maxAlignWords bounds the quadratic alignment of substitutions.
const maxAlignWords = 200

// substitutions aligns a and b on a longest common subsequence and counts
// the gaps between aligned words where both have words of their own.
func substitutions(a, b []string) int {
	if len(a) > maxAlignWords {
		a = a[:maxAlignWords]
	}
	if len(b) > maxAlignWords {
		b = b[:maxAlignWords]
	}
	n := 0
	for _, g := range gaps(a, b) {
		if len(g.a) > 0 && len(g.b) > 0 {
			n++
		}
	}
	return n
}
