package judge

//go:generate go run ./internal/lexgen -wordnet /usr/share/wordnet -o lexicon.txt

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed lexicon.txt
var lexiconText string

// A Lexicon holds the word knowledge the judge uses: antonym pairs, synonym
// groups and irregular inflections. The built-in one is generated from
// WordNet 3.0 (see lexicon.txt for its licence) and extended by a few
// mutually exclusive states WordNet does not list as antonyms.
type Lexicon struct {
	antonyms map[string]map[string]bool
	// stateAntonyms holds the antonym pairs of adjectives, verbs and
	// adverbs (states and actions), without the noun pairs such as
	// man/woman or mother/father that tell things apart rather than
	// exclude each other.
	stateAntonyms map[string]map[string]bool
	canon         map[string]string
	lemma         map[string]string
	// related maps a word to the groups of words that can stand for it
	// (lexicon r lines): two words are related when they share a group.
	related map[string][]int32
}

var (
	defaultLex     *Lexicon
	defaultLexOnce sync.Once
)

// DefaultLexicon returns the built-in lexicon, parsed on first use.
func DefaultLexicon() *Lexicon {
	defaultLexOnce.Do(func() { defaultLex = ParseLexicon(lexiconText) })
	return defaultLex
}

// extraAntonyms are pairs of states that cannot hold of one thing at once,
// which WordNet does not record as direct antonyms.
var extraAntonyms = [][2]string{
	{"married", "single"}, {"on", "off"}, {"asleep", "awake"}, {"sleep", "awake"},
	{"enabled", "disabled"}, {"open", "closed"}, {"open", "close"}, {"succeed", "fail"},
	{"accept", "reject"}, {"approve", "reject"}, {"pass", "fail"}, {"win", "lose"},
	{"naked", "dressed"}, {"empty", "full"}, {"inside", "outdoors"}, {"indoors", "outdoors"},
	{"indoors", "outside"}, {"rent", "own"}, {"public", "private"}, {"active", "suspended"},
	{"vegetarian", "carnivore"}, {"left-handed", "right-handed"}, {"sit", "stand"},
	{"smile", "cry"}, {"lie", "stand"}, {"lay", "stand"}, {"lie", "sit"}, {"lay", "sit"},
	{"kneel", "stand"}, {"naked", "wear"}, {"nude", "wear"}, {"naked", "wearing"}, {"nude", "dressed"}, {"laugh", "cry"}, {"sad", "happy"}, {"sad", "laugh"},
	// Access and availability, as agents record them.
	{"allow", "block"}, {"allow", "deny"}, {"permit", "deny"}, {"permit", "block"}, {"grant", "revoke"},
	{"grant", "deny"}, {"online", "offline"}, {"include", "exclude"}, {"locked", "unlocked"},
}

// ParseLexicon parses lexicon text in the format lexgen writes. Lines it
// does not understand are skipped.
func ParseLexicon(text string) *Lexicon {
	l := &Lexicon{
		antonyms:      map[string]map[string]bool{},
		stateAntonyms: map[string]map[string]bool{},
		canon:         map[string]string{},
		lemma:         map[string]string{},
		related:       map[string][]int32{},
	}
	var group int32
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		switch {
		case f[0] == "a" && len(f) == 4:
			addPair(l.antonyms, f[2], f[3])
			if f[1] != "n" {
				addPair(l.stateAntonyms, f[2], f[3])
			}
		case f[0] == "s" && len(f) >= 3:
			for _, w := range f[2:] {
				if _, ok := l.canon[w]; !ok {
					l.canon[w] = f[1]
				}
			}
		case f[0] == "r" && len(f) >= 3:
			for _, w := range f[1:] {
				l.related[w] = append(l.related[w], group)
			}
			group++
		case f[0] == "m" && len(f) == 3:
			if _, ok := l.lemma[f[1]]; !ok {
				l.lemma[f[1]] = f[2]
			}
		}
	}
	for _, p := range extraAntonyms {
		addPair(l.antonyms, p[0], p[1])
		addPair(l.stateAntonyms, p[0], p[1])
	}
	return l
}

func addPair(m map[string]map[string]bool, a, b string) {
	if m[a] == nil {
		m[a] = map[string]bool{}
	}
	if m[b] == nil {
		m[b] = map[string]bool{}
	}
	m[a][b] = true
	m[b][a] = true
}

// Antonyms reports whether a and b (lower-case words, inflected or not) are
// antonyms.
func (l *Lexicon) Antonyms(a, b string) bool {
	for _, x := range l.forms(a) {
		for _, y := range l.forms(b) {
			if l.antonyms[x][y] {
				return true
			}
		}
	}
	return false
}

// StateAntonyms reports whether a and b are antonymous states or actions
// (adjectives, verbs, adverbs): "asleep"/"awake", "sit"/"stand".
func (l *Lexicon) StateAntonyms(a, b string) bool {
	return l.antonymForms(l.stateForms(a), l.forms(b))
}

// stateForms returns the forms of w that have state antonyms.
func (l *Lexicon) stateForms(w string) []string {
	var out []string
	for _, x := range l.forms(w) {
		if len(l.stateAntonyms[x]) > 0 {
			out = append(out, x)
		}
	}
	return out
}

// antonymForms reports whether a form in xs is a state antonym of one in
// ys.
func (l *Lexicon) antonymForms(xs, ys []string) bool {
	for _, x := range xs {
		for _, y := range ys {
			if l.stateAntonyms[x][y] {
				return true
			}
		}
	}
	return false
}

// Related reports whether a and b (lower-case words, inflected or not) can
// stand for each other: they share a sense among their most frequent ones
// ("cost"/"price"), or one is derived from the other ("allergy"/"allergic",
// "night"/"nightly"). Identical words are related.
func (l *Lexicon) Related(a, b string) bool {
	return a == b || l.keys(a).meet(l.keys(b))
}

// Known reports whether the lexicon lists w (or its base form) as a word.
func (l *Lexicon) Known(w string) bool {
	for _, x := range l.forms(w) {
		if _, ok := l.related[x]; ok {
			return true
		}
		if _, ok := l.canon[x]; ok {
			return true
		}
	}
	return false
}

// Canonical returns the representative of w's synonym group, or w.
func (l *Lexicon) Canonical(w string) string {
	if c, ok := l.canon[w]; ok {
		return c
	}
	return w
}

// Lemma returns the base form of an irregular or regularly inflected word
// when the lexicon knows it, or w.
func (l *Lexicon) Lemma(w string) string {
	if m, ok := l.lemma[w]; ok {
		return m
	}
	return w
}

// forms returns w and the base forms it may be an inflection of.
func (l *Lexicon) forms(w string) []string {
	out := []string{w}
	if m, ok := l.lemma[w]; ok {
		out = append(out, m)
	}
	return append(out, suffixForms(w)...)
}

// suffixForms undoes the regular English inflections: -s, -es, -ies, -ed,
// -ing, -er, -est, with a doubled final consonant or a dropped e.
func suffixForms(w string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 2 {
			out = append(out, s)
		}
	}
	n := len(w)
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		add(w[:n-3] + "y")
	case strings.HasSuffix(w, "es") && n > 3:
		add(w[:n-2])
		add(w[:n-1])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && n > 3:
		add(w[:n-1])
	}
	for _, suf := range []string{"ing", "ed", "er", "est"} {
		if strings.HasSuffix(w, suf) && n > len(suf)+2 {
			base := w[:n-len(suf)]
			add(base)
			add(base + "e")
			if m := len(base); m >= 2 && base[m-1] == base[m-2] {
				add(base[:m-1])
			}
			if strings.HasSuffix(base, "i") {
				add(base[:len(base)-1] + "y")
			}
		}
	}
	return out
}
