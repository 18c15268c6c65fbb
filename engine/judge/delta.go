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
		d.Words >= mergeWords && d.Substitutions == 1 && d.Similarity >= 0.7:
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
// lexicon.
func Compare(oldText, newText string) Delta {
	lex := DefaultLexicon()
	d := Delta{}
	if c, ok := conflict(oldText, newText, lex); ok {
		d.Conflict = &c
	}
	wo, wn := contentWords(normTokens(oldText, lex)), contentWords(normTokens(newText, lex))
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
	d.InOrder = sameOrder(wo, wn)
	if len(d.Added) == 0 && len(d.Dropped) == 0 && !d.InOrder {
		d.Reordered = true
	}
	return d
}

// Similarity is the Dice coefficient of the normalised content words of a
// and b: the share of words the two texts have in common.
func Similarity(a, b string) float64 {
	lex := DefaultLexicon()
	sa, sb := wordSet(contentWords(normTokens(a, lex))), wordSet(contentWords(normTokens(b, lex)))
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
func contentWords(ws []string) []string {
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
		if !lightSet[w] {
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
// order.
func sameOrder(a, b []string) bool {
	sa, sb := wordSet(a), wordSet(b)
	var x, y []string
	for _, w := range a {
		if sb[w] {
			x = append(x, w)
		}
	}
	for _, w := range b {
		if sa[w] {
			y = append(y, w)
		}
	}
	return strings.Join(x, " ") == strings.Join(y, " ")
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
