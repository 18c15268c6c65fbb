package judge

import (
	"fmt"
	"slices"
)

// sleepWords describe being asleep; activeWords are activities that need
// the actor awake.
var (
	sleepWords  = map[string]bool{"sleep": true, "asleep": true, "nap": true, "napp": true, "doz": true, "slumber": true}
	activeWords = map[string]bool{
		"run": true, "runn": true, "walk": true, "jump": true, "play": true, "danc": true, "dance": true,
		"talk": true, "eat": true, "read": true, "work": true, "sing": true, "drive": true, "driv": true,
		"ride": true, "rid": true, "swim": true, "swimm": true, "climb": true, "cook": true, "write": true,
		"writ": true, "fight": true, "throw": true, "catch": true, "skat": true, "surf": true,
		"perform": true, "shop": true, "shopp": true, "paint": true, "serv": true, "kick": true,
		"chas": true, "hike": true, "hik": true, "bik": true, "ski": true, "clap": true, "clapp": true,
		"wav": true, "laugh": true, "smil": true, "shout": true, "yell": true, "stand": true,
	}
)

// maxSceneWords bounds the scene rules to sentence-sized descriptions; the
// pairwise word comparison is quadratic.
const maxSceneWords = 60

type sceneWord struct {
	w   string // normalised
	low string
	i   int // position among content words
}

// sceneText is what the scene rules read of a text, read once per text
// (a Judge's scenes cache).
type sceneText struct {
	toks    []token
	words   []sceneWord
	negated bool
	counts  []Value             // countsOf
	stems   map[string]bool     // normWord of every token
	colors  map[string][]string // thing -> the colours written before it
}

func newSceneText(text string) *sceneText {
	st := &sceneText{toks: tokenize(text), stems: map[string]bool{}}
	for _, t := range st.toks {
		if negators[t.low] {
			st.negated = true
		}
		st.stems[normWord(t.low)] = true
		if stopWords[t.low] || !hasLetterOrDigit(t.low) || isDeterminer(t.low) {
			continue
		}
		st.words = append(st.words, sceneWord{w: normWord(t.low), low: t.low, i: len(st.words)})
	}
	st.counts = countsOf(st.toks)
	st.colors = colorsOf(st.toks)
	return st
}

// scene applies the rules for descriptive sentences that carry no
// subject-relation-value claim a rule could compare ("A man is sleeping" /
// "The man is running").
func (j *Judge) scene(a, b string) Verdict {
	sa, sb := j.scenes.get(a), j.scenes.get(b)
	wa, wb := sa.words, sb.words
	if len(wa) == 0 || len(wb) == 0 || len(wa) > maxSceneWords || len(wb) > maxSceneWords {
		return Verdict{}
	}
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, w := range wa {
		inA[w.w] = true
	}
	for _, w := range wb {
		inB[w.w] = true
	}
	// before returns the words before position i of a text, in order.
	before := func(ws []sceneWord, i int) []sceneWord { return ws[:i] }
	// shareBefore returns the first word of x that y also has.
	shareBefore := func(x, y []sceneWord) string {
		for _, w := range x {
			if negators[w.w] {
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
	// An attribute one text gives a thing and the other denies.
	for _, p := range [2][2]*sceneText{{sa, sb}, {sb, sa}} {
		if attr, thing, ok := deniedAttribute(p[0], p[1]); ok {
			return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleScene,
				Explanation: fmt.Sprintf("%s: %q is %q in one text and not in the other", RuleScene, thing, attr)}
		}
	}
	// What nobody does in one text and someone does in the other.
	for _, p := range [2][2]*sceneText{{sa, sb}, {sb, sa}} {
		if verb, ok := nobodyDoes(p[0], p[1]); ok {
			return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleScene,
				Explanation: fmt.Sprintf("%s: nobody is %q in one text, someone is in the other", RuleScene, verb)}
		}
	}
	// Negation anywhere else flips polarity: stay out.
	if sa.negated != sb.negated {
		return Verdict{}
	}
	// Another colour of the same thing.
	if thing, x, y, ok := colorChange(sa, sb); ok {
		return Verdict{Contradicts: true, Confidence: 0.7, Rule: RuleScene,
			Explanation: fmt.Sprintf("%s: the %s is %s in one text and %s in the other", RuleScene, thing, x, y)}
	}
	// Exclusive states of a shared subject. Each word's forms are read
	// once, and only a word with a form that has state antonyms is paired.
	formsB := make([][]string, len(wb))
	for _, p := range wa {
		if inB[p.w] {
			continue
		}
		fa := j.lex.stateForms(p.low)
		if len(fa) == 0 {
			continue
		}
		for k, q := range wb {
			if inA[q.w] {
				continue
			}
			if formsB[k] == nil {
				formsB[k] = j.lex.forms(q.low)
			}
			if !j.lex.antonymForms(fa, formsB[k]) {
				continue
			}
			if s := shareBefore(before(wa, p.i), before(wb, q.i)); s != "" {
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
					if s := shareBefore(before(x, p.i), before(y, q.i)); s != "" {
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
var colorWords = map[string]bool{
	"red": true, "blue": true, "green": true, "yellow": true, "black": true, "white": true,
	"orange": true, "purple": true, "pink": true, "brown": true, "gray": true, "grey": true,
}

// wornWords are what a person wears, normalised: the things a scene gives
// one colour. Other things may share a name and not a colour ("the red
// team" / "the blue team" are two teams).
var wornWords = map[string]bool{}

func init() {
	for _, w := range []string{"shirt", "t-shirt", "tshirt", "top", "dress", "skirt", "hat", "cap", "helmet",
		"jacket", "coat", "sweater", "hoodie", "uniform", "pants", "jeans", "shorts", "shoes", "boots",
		"sneakers", "suit", "tie", "scarf", "gloves", "outfit", "costume", "swimsuit", "bikini", "vest", "blouse"} {
		wornWords[normWord(w)] = true
	}
}

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
	tn, tp := neg.toks, pos.toks
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
