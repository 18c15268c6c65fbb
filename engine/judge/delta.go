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
	// InOrder is set when the texts use the words they share in the same
	// order.
	InOrder bool
	// OldWords is the number of content words of the old text.
	OldWords int
	// Moved are the words of the new text that stand elsewhere than in
	// the old one, when the texts hold the same words (Reordered).
	Moved []string
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
// old one, given that the two are near-duplicates (Decide's kind).
func (d Delta) Resolve() string { return d.Decide().Kind }

// Decide resolves the new text of d against the old one by the first rule
// of RuleTable that decides it. The judge discards only what it proves: a
// new text is a duplicate only when it writes the same content words,
// values and names in the same order (once normalised, the same claims);
// it merges only when it keeps every word of the old text in the same
// order and adds to it. Every difference rule that fires, a reordering,
// and a text that says less or leaves words out keep the two apart
// (ResolveConflict): the gate links them or sends them to a person.
func (d Delta) Decide() Decision {
	if d.Conflict != nil {
		return Decision{Kind: ResolveConflict, Rule: d.Conflict.Rule, Words: d.Conflict.Words(), Why: d.Conflict.Explanation}
	}
	for _, r := range ruleTable {
		if r.Decides == nil {
			continue
		}
		kind, ok := r.Decides(&d)
		if !ok {
			continue
		}
		dec := Decision{Kind: kind, Rule: r.Name, Why: d.String()}
		switch r.Name {
		case RuleReordered:
			dec.Why, dec.Words = r.Doc, d.Moved
			return dec
		case RuleSupersetReordered:
			dec.Why = d.String() + ", and keeps the stored words in another order"
		case RuleAddsStatement:
			dec.Why = d.String() + ": a statement of its own"
		}
		dec.Words = append(append(dec.Words, prefixed("+", d.Added)...), prefixed("-", d.Dropped)...)
		return dec
	}
	return Decision{Kind: ResolveConflict, Rule: RuleLeavesOut, Why: d.String()}
}

// movedWords returns the words of b that stand at another place than in
// a, once the words both open and close with are set aside.
func movedWords(a, b []string) []string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j, k := len(a), len(b)
	for j > i && k > i && a[j-1] == b[k-1] {
		j, k = j-1, k-1
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range b[i:k] {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func prefixed(p string, ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = p + w
	}
	return out
}

// Explain lists every difference rule of RuleTable that fires on b
// against a, in table order: what `memgov judge` shows beside the rule
// that decided (Compare stops at the first).
func Explain(a, b string) []Difference {
	lex := DefaultLexicon()
	var out []Difference
	for _, r := range ruleTable {
		if r.Differs == nil {
			continue
		}
		if c, ok := r.Differs(a, b, lex); ok {
			out = append(out, c)
		}
	}
	return out
}

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
	_, _, _, prepChanged := prepositionChange(oldText, newText)
	pro, prn := j.prepare(oldText), j.prepare(newText)
	po, pn := pro.words, prn.words
	wo := pro.norms
	wn, paired := align(pro, prn)
	for _, r := range ruleTable {
		if r.Differs == nil || r.Name == RulePossessiveHead {
			continue
		}
		if r.Name == RuleClaimValue && len(paired) == 0 {
			// Words that can stand for each other in some sense may still
			// be another value of a claim ("the default branch is main" /
			// "... master"): read only where such words were paired.
			continue
		}
		differs := r.Differs
		if r.Name == RuleClaimValue {
			// The claim rules read with this judge's cardinalities.
			differs = j.claimValue
		}
		if c, ok := differs(oldText, newText, lex); ok {
			d.Conflict = &c
			break
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
	d.OldWords = len(so)
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
		d.Moved = movedWords(wo, wn)
	}
	if d.Conflict == nil {
		// The head of a possessive in one text only: "Alice's sister
		// lives in Oslo" / "Alice lives in Oslo" speak of two people.
		// Read last: the words above may already tell them apart.
		if r, _ := LookupRule(RulePossessiveHead); r.Differs != nil {
			if c, ok := r.Differs(oldText, newText, lex); ok {
				d.Conflict = &c
			}
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
var pronouns = boolClass("pronouns")

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
	return j.SimilarTo(b)(a, t)
}

// SimilarTo returns SimilarAtLeast(a, b, t) as a function of a and t,
// with b read once: a write compared with each of its candidates reads
// its own text once, not once a candidate.
func (j *Judge) SimilarTo(b string) func(a string, t float64) (float64, bool) {
	pb := j.prepare(b)
	return func(a string, t float64) (float64, bool) {
		if s, ok := j.simSketches.get(a); ok {
			if sim, near, ok := farBySketch(s, pb, t); ok {
				// The sketch decides it: a is not read in full (sketch.go).
				return sim, near
			}
		}
		return similarAtLeast(j.prepare(a), pb, t)
	}
}

// similarAtLeast is SimilarAtLeast on the two texts read in full.
func similarAtLeast(pa, pb *prepared, t float64) (float64, bool) {
	sa, sb := pa.set, pb.set
	if len(sa)+len(sb) == 0 {
		return 0, t <= 0
	}
	n := 0
	for _, w := range pa.distinct {
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
		var small [64]bool
		var seen []bool
		if len(p.words) <= len(small) {
			seen = small[:len(p.words)]
		} else {
			seen = make([]bool, len(p.words))
		}
		count := 0
		for i, w := range p.words {
			id := p.normID[i]
			if o.set[w.norm] || seen[id] {
				continue
			}
			// w.raw followed by the next word's, and the previous word's
			// followed by w.raw: p.next.
			joins := w.raw != "" && (i+1 < len(p.words) && o.rawLens&lenBit(p.next[i]) != 0 && o.raws[p.next[i]] ||
				i > 0 && o.rawLens&lenBit(p.next[i-1]) != 0 && o.raws[p.next[i-1]] ||
				o.joinedLens&lenBit(w.raw) != 0 && o.joined[w.raw] || o.namedLens&lenBit(w.norm) != 0 && o.named[w.norm])
			if p.pairable[i] || joins {
				seen[id] = true
				count++
			}
		}
		return count
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
			case w.raw != "" && x.raw != "" && (kw.meet(pa.keys[k]) || pb.short[i] == x.raw || pa.short[k] == w.raw):
				// One is the short form of the other (shortForms, read once).
			case w.name != "" && x.raw != "" && pb.nameNorm[i] == x.norm,
				x.name != "" && w.raw != "" && pa.nameNorm[k] == w.norm:
				// The same word, capitalised in one text only.
			case w.name != "" && x.name != "" && lex.demonym(w.name, x.name):
				// A place and its people ("Iraq" / "Iraqi").
			case i+1 < len(b) && w.raw != "" && b[i+1].raw != "" && pb.next[i] == x.raw:
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
var copulas = boolClass("copulas")

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
var shortForms = wordPairs("short-forms")

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
var lightWords = wordList("light-words")

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

// maxAlignWords bounds the quadratic alignment of shared words.
const maxAlignWords = 200
