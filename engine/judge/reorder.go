package judge

import (
	"slices"
	"strings"
)

// An adverbial phrase may open or close a sentence without changing what
// the sentence states: "In 1965 he moved to Paris" / "He moved to Paris in
// 1965", "On Fridays deploys are frozen" / "Deploys are frozen on
// Fridays". A word moved anywhere else may change a role ("Acme acquired
// Globex" / "Globex acquired Acme") or attach a phrase to another clause
// ("Born in Paris in 1990, he moved to London" / "Born in Paris, he moved
// to London in 1990"), so the rule is narrow: one sentence each, the one
// phrase moved from one end to the other, that phrase opened by a
// preposition, a subordinating word or a time word, and the rest a single
// clause with no comma, conjunction or relative word inside.

// adverbOpeners open a phrase that may move to either end of a sentence.
var adverbOpeners = boolClass("adverb-openers")

// timeWords may form a moved phrase on their own ("Yesterday the build
// failed" / "The build failed yesterday").
var timeWords = func() map[string]bool {
	m := boolClass("time-adverbs", "weekdays")
	for _, d := range wordList("weekdays") {
		m[d+"s"] = true
	}
	return m
}()

// clauseWords join or open clauses: a phrase moved across one may attach to
// another clause.
var clauseWords = boolClass("clause-words")

// moveWord is a word of a sentence in the adverbial-move rule: key is what
// the two texts compare (the stem), low the word as written in lower case,
// pause whether a comma, dash, colon or parenthesis stood before it.
type moveWord struct {
	key, low string
	pause    bool
}

// moveWords returns the words of text, articles left out, or false when
// text is not one sentence.
func moveWords(text string) ([]moveWord, bool) {
	toks := tokenize(text)
	if len(sentences(toks)) != 1 {
		return nil, false
	}
	return orderWords(toks), true
}

// sentencePair returns the moveWords of a and b, or false unless each is
// one sentence.
func sentencePair(a, b string) (wa, wb []moveWord, ok bool) {
	if wa, ok = moveWords(a); !ok {
		return nil, nil, false
	}
	if wb, ok = moveWords(b); !ok {
		return nil, nil, false
	}
	return wa, wb, true
}

// orderWords returns the words of toks, articles left out.
func orderWords(toks []token) []moveWord {
	var out []moveWord
	pause := false
	for _, t := range toks {
		if !hasLetterOrDigit(t.low) {
			switch t.low {
			case ",", "-", "--", "—", "–", ":", "(", ")", "\"":
				pause = true
			}
			continue
		}
		if t.low == "a" || t.low == "an" || t.low == "the" {
			continue
		}
		out = append(out, moveWord{key: normWord(t.low), low: t.low, pause: pause})
		pause = false
	}
	return out
}

// prepositions mark the role of the word they govern ("from Monday",
// "to Friday").
var prepositions = boolClass("prepositions")

// looseRoles are pairs of prepositions that may give a word the same role
// ("a spokesman of Child" / "a spokesman for Child", "at the meeting" /
// "in the meeting"); "to" and "from", "on" and "under", "for" and
// "against" never do.
var looseRoles = pairSet("loose-roles")

func looseRole(p, q string) bool { return looseRoles[[2]string{p, q}] || looseRoles[[2]string{q, p}] }

// prepositionForms folds prepositions that give a word one role: "in
// 2019" / "during 2019", "onto the shelf" / "on the shelf".
var prepositionForms = wordPairs("preposition-forms")

// prepositionChange finds a word the two texts share that one preposition
// governs in a and another in b: "moved from Monday to Friday" and "moved
// to Monday from Friday" share their content words in order, but not the
// roles their prepositions give them; "shipped to Berlin" and "shipped
// from Berlin" state two shipments. A word with no preposition in one text
// ("Friday" / "on Friday") is no change of role, nor are prepositions of
// one role ("in 2019" / "during 2019").
func prepositionChange(a, b string) (word, p, q string, changed bool) {
	cs := prepositionChanges(a, b)
	if len(cs) == 0 {
		return "", "", "", false
	}
	return cs[0][0], cs[0][1], cs[0][2], true
}

// prepositionChanges lists every change prepositionChange finds, each as
// the word and its prepositions in a and in b, in word order.
func prepositionChanges(a, b string) [][3]string {
	governed := func(text string) (map[string]string, map[string]string) {
		out, written := map[string]string{}, map[string]string{}
		prep := ""
		for _, t := range tokenize(text) {
			switch {
			case !hasLetterOrDigit(t.low):
				prep = ""
			case prepositions[t.low]:
				prep = t.low
				if f, ok := prepositionForms[prep]; ok {
					prep = f
				}
			case isDeterminer(t.low) || t.low == "'s":
			default:
				if prep != "" {
					k := normWord(t.low)
					if p, ok := out[k]; ok && p != prep {
						out[k] = "" // governed both ways within the text
					} else {
						out[k], written[k] = prep, t.low
					}
				}
				prep = ""
			}
		}
		return out, written
	}
	ga, wa := governed(a)
	gb, _ := governed(b)
	keys := make([]string, 0, len(ga))
	for k := range ga {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out [][3]string
	for _, k := range keys {
		p := ga[k]
		if q, ok := gb[k]; ok && p != "" && q != "" && p != q && !looseRole(p, q) {
			out = append(out, [3]string{wa[k], p, q})
		}
	}
	return out
}

// adverbialMove reports whether b states a with one adverbial phrase moved
// whole, the words only one text has aside: from one end of the sentence
// to the other ("In 1965 he moved to Paris" / "He moved to Paris in
// 1965"), or from the end to a parenthesis after the opening words and
// back ("Paracha, if convicted, faces 17 years" / "Paracha faces 17 years
// if convicted").
func adverbialMove(a, b string) bool {
	wa, wb, ok := sentencePair(a, b)
	if !ok {
		return false
	}
	wa, wb = sharedMoveWords(wa, wb), sharedMoveWords(wb, wa)
	n := len(wa)
	if n < 3 || n != len(wb) || n > maxRoleWords {
		return false
	}
	same := keysEqual
	if same(wa, wb) {
		return false
	}
	s := 0 // the opening words both texts keep in place
	for s < n && wa[s].key == wb[s].key {
		s++
	}
	ra, rb := wa[s:], wb[s:]
	m := n - s
	for k := 1; k < m; k++ {
		// a = S P Q, b = S Q P.
		p, q := ra[:k], ra[k:]
		if !same(q, rb[:m-k]) || !same(p, rb[m-k:]) {
			continue
		}
		if s == 0 {
			// Either P closes b (it moved from the front to the end) or Q
			// opens b (it moved from the end to the front): the phrase is
			// the one an adverbial can be, and the other is the clause.
			if adverbial(p) && oneClause(q) && oneClause(rb[:m-k]) ||
				adverbial(q) && oneClause(p) && oneClause(rb[m-k:]) {
				return true
			}
			continue
		}
		// The phrase sits between commas after the opening words in one
		// text and closes the other, where the sentence runs without a
		// pause: P in a, Q in b.
		if opening(wa[:s]) && opening(wb[:s]) && (adverbial(p) && oneClause(q) && oneClause(rb[:m-k]) &&
			p[0].pause && q[0].pause && !paused(wb[1:s+m-k]) ||
			adverbial(q) && oneClause(p) && oneClause(rb[m-k:]) &&
				rb[0].pause && rb[m-k].pause && !paused(wa[1:s+k])) {
			return true
		}
	}
	return false
}

// opening reports whether ws can open a sentence before a parenthesis:
// no clause word, no pause inside.
func opening(ws []moveWord) bool {
	for i, w := range ws {
		if clauseWords[w.low] || i > 0 && w.pause {
			return false
		}
	}
	return true
}

// paused reports whether a pause stands before any of ws.
func paused(ws []moveWord) bool {
	for _, w := range ws {
		if w.pause {
			return true
		}
	}
	return false
}

// sharedMoveWords keeps the words of x whose key y has too. A pause before
// a word left out stands before the next word kept.
func sharedMoveWords(x, y []moveWord) []moveWord {
	keys := make(map[string]bool, len(y))
	for _, w := range y {
		keys[w.key] = true
	}
	var out []moveWord
	pause := false
	for _, w := range x {
		if !keys[w.key] {
			pause = pause || w.pause
			continue
		}
		w.pause = w.pause || pause
		pause = false
		out = append(out, w)
	}
	return out
}

// adverbial reports whether ws can be a phrase that moves whole: opened by
// an adverbOpener and followed by what it governs, or time words alone; no
// clause word or pause inside.
func adverbial(ws []moveWord) bool {
	if len(ws) == 0 {
		return false
	}
	for i, w := range ws {
		if i > 0 && (clauseWords[w.low] || w.pause) {
			return false
		}
	}
	if adverbOpeners[ws[0].low] {
		return len(ws) >= 2 || timeWords[ws[0].low]
	}
	for _, w := range ws {
		if !timeWords[w.low] && !isDigitStart(w.low) {
			return false
		}
	}
	return true
}

// oneClause reports whether ws holds no pause, clause word or subordinate
// opener after its first word: a single clause a phrase can sit at either
// end of.
func oneClause(ws []moveWord) bool {
	if len(ws) < 2 {
		return false
	}
	for i, w := range ws {
		if clauseWords[w.low] || i > 0 && w.pause {
			return false
		}
	}
	return true
}

// lyAdverb reports whether w is an adverb formed from a word the lexicon
// knows ("quickly", "fully", "happily", "basically"): such an adverb may
// stand before or after its verb ("fully repaid it" / "repaid it fully")
// without changing a role.
func (l *Lexicon) lyAdverb(w string) bool {
	n := len(w)
	if n < 5 || !strings.HasSuffix(w, "ly") {
		return false
	}
	bases := []string{w[:n-2], w[:n-1]}
	if strings.HasSuffix(w, "ily") {
		bases = append(bases, w[:n-3]+"y")
	}
	if strings.HasSuffix(w, "ally") {
		bases = append(bases, w[:n-4])
	}
	for _, b := range bases {
		if len(b) >= 3 && l.Known(b) {
			return true
		}
	}
	return false
}

// floatingAdverb returns the ly-adverb that may stand elsewhere in b than
// in a: the one ly-adverb both texts write, once each. With two or more,
// none floats: adverbs swapped between places ("mostly stable and rarely
// slow" / "rarely stable and mostly slow") change what is said.
func floatingAdverb(lex *Lexicon, a, b []word) map[string]bool {
	// An adverb written once as a phrase ("in full" / "fully") shares
	// the adverb's normalised form.
	ly := map[string]bool{}
	for _, ws := range [][]word{a, b} {
		for _, w := range ws {
			if w.raw != "" && lex.lyAdverb(w.raw) {
				ly[w.norm] = true
			}
		}
	}
	count := func(ws []word) map[string]int {
		m := map[string]int{}
		for _, w := range ws {
			if ly[w.norm] {
				m[w.norm]++
			}
		}
		return m
	}
	ca, cb := count(a), count(b)
	var shared []string
	for w := range ca {
		if cb[w] > 0 {
			shared = append(shared, w)
		}
	}
	if len(shared) != 1 || ca[shared[0]] != 1 || cb[shared[0]] != 1 {
		return map[string]bool{}
	}
	return map[string]bool{shared[0]: true}
}

// coordinationSwap reports whether b states a with the two sides of its one
// coordination exchanged: "makes tents and backpacks" / "makes backpacks
// and tents", "Alice and Bob own the repository" / "Bob and Alice own the
// repository". Each text is one sentence with a single "and" or "or" and
// no word that orders its sides ("then", "respectively", "first"); each
// side is at most four words, set off by no comma, and is exactly the
// words around the conjunction, so the rest of the sentence is the same
// on both sides ("the primary is in Oslo and the replica is in Rome" /
// "... in Rome and ... in Oslo" exchanges no sides).
func coordinationSwap(a, b string) bool {
	wa, wb, ok := sentencePair(a, b)
	if !ok {
		return false
	}
	conj := func(ws []moveWord) int {
		at := -1
		for i, w := range ws {
			switch w.low {
			case "and", "or":
				if at >= 0 {
					return -1
				}
				at = i
			case "then", "respectively", "first", "second", "third", "last", "before", "after", "finally", "later":
				return -1
			}
		}
		return at
	}
	ca, cb := conj(wa), conj(wb)
	if ca <= 0 || cb <= 0 || len(wa) != len(wb) || wa[ca].low != wb[cb].low {
		return false
	}
	// a = S X c Y T and b = S Y c X T, for the shortest sides that fit.
	n := len(wa)
	for s := 0; s < ca; s++ {
		x := wa[s:ca]
		if len(x) > 4 {
			continue
		}
		for e := ca + 2; e <= n && e-ca-1 <= 4; e++ {
			y := wa[ca+1 : e]
			if len(x) == len(y) && keysEqual(x, y) {
				continue
			}
			// In b: S, then Y, the conjunction, X, then T.
			if cb != s+len(y) || !keysEqual(wb[:s], wa[:s]) || !keysEqual(wb[s:cb], y) ||
				!keysEqual(wb[cb+1:cb+1+len(x)], x) || !keysEqual(wb[cb+1+len(x):], wa[e:]) {
				continue
			}
			if paused(x[1:]) || paused(y[1:]) || paused(wb[cb+1 : cb+1+len(x)][1:]) || paused(wb[s+1:cb]) ||
				wa[ca].pause || wa[ca+1].pause {
				continue
			}
			return true
		}
	}
	return false
}

// keysEqual reports whether two runs of words have the same keys.
func keysEqual(x, y []moveWord) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].key != y[i].key {
			return false
		}
	}
	return true
}

// prepPhraseSwap reports whether b is a with two adjacent prepositional
// phrases exchanged, each whole with its own preposition: "the flight from
// Boston to Denver" / "the flight to Denver from Boston". "Moved from
// Monday to Friday" / "moved to Monday from Friday" keeps the prepositions
// in place and exchanges their objects: another fact.
func prepPhraseSwap(a, b string) bool {
	wa, wb, ok := sentencePair(a, b)
	if !ok || len(wa) != len(wb) {
		return false
	}
	n := len(wa)
	s := 0
	for s < n && wa[s].key == wb[s].key {
		s++
	}
	e := n
	for e > s && wa[e-1].key == wb[e-1].key {
		e--
	}
	if e-s < 4 {
		return false
	}
	mid := wa[s:e]
	if !prepositions[mid[0].low] {
		return false
	}
	// The second phrase opens at the middle's only other preposition.
	split := -1
	for i := 1; i < len(mid); i++ {
		if prepositions[mid[i].low] {
			if split >= 0 {
				return false
			}
			split = i
		}
		switch mid[i].low {
		case "and", "or", "but", "than", "then":
			return false
		}
	}
	if split < 2 || len(mid)-split < 2 || split > 5 || len(mid)-split > 5 || paused(mid[1:]) {
		return false
	}
	x, y := mid[:split], mid[split:]
	got := wb[s:e]
	return !paused(got[1:]) && keysEqual(got[:len(y)], y) && keysEqual(got[len(y):], x)
}
