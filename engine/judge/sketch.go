package judge

import (
	"slices"
	"sync"
)

// A write is compared with tens of stored texts, most of them far from it:
// the dedup gate asks whether each is near enough by its words
// (SimilarAtLeast), the contradiction gate whether any rule sets it against
// the write (Contradiction). A full reading of a text (prepared, sceneText)
// takes some 10 kB, so a Judge keeps a few thousand of them; what decides
// those questions for a far text fits in a tenth of that. A Judge keeps
// that too, for many more texts (a sketch): the words SimilarAtLeast's
// bound reads, and what every contradiction rule needs the two texts to
// share before it can fire. A stored text met again is answered from its
// sketch whenever the sketch proves the answer (not near enough; no rule
// can fire), and read in full otherwise: the answer is always the one the
// full reading gives.

// simSketch is what SimilarAtLeast's bound reads of a text: its content
// words (normalised, as written, and the name each normalises to), which of
// them could pair with a word of another text by themselves, and the first
// word of each norm. The strings are spans of buf.
type simSketch struct {
	buf   string
	words []skWord
	// nset is the number of distinct content norms (len(prepared.set)).
	nset int
	// rawLens, joinedLens and namedLens are prepared's length masks.
	rawLens, joinedLens, namedLens uint64
	// plain is prepared.plain.
	plain bool
	// rawB, joinedB and namedB are prepared's filters, computed from the
	// words (index), not stored.
	rawB, joinedB, namedB bloom
}

// skWord is one word of a simSketch: spans of buf and flags.
type skWord struct {
	// name is the normalised name (prepared.nameNorm), lname the name as
	// the word holds it (word.name).
	norm, raw, name, lname span
	// id is the index of the first word with the same norm.
	id uint16
	// flags: skPairable (prepared.pairable), skCounted (the first word of
	// a norm of prepared.set), skNamed (a name: its normalised form is
	// in prepared.named).
	flags uint8
	// hn, hr and hj are the wordHash of the norm, of the raw and of the
	// raw followed by the next word's (prepared.hNorm, hRaw, hNext),
	// computed by index, not stored.
	hn, hr, hj uint32
}

type span struct{ off, n uint16 }

const (
	skPairable = 1 << iota
	skCounted
	skNamed
)

// maxSketchWords bounds the words of a sketched text (spans are 16 bits).
const maxSketchWords = 1 << 10

func (s *simSketch) str(p span) string { return s.buf[p.off : p.off+p.n] }

// rawName is a name word as it was written, lower case (word.name).
func (s *simSketch) rawName(w skWord) string { return s.str(w.lname) }

// simSketchOf returns the sketch of a prepared text; nil when it does not
// fit the spans.
func simSketchOf(p *prepared) *simSketch {
	n := 0
	for _, w := range p.words {
		n += len(w.norm) + len(w.raw) + 2*len(w.name) + 8
	}
	if n >= 1<<16 || len(p.words) > maxSketchWords {
		return nil
	}
	buf := make([]byte, 0, n)
	put := func(s string) span {
		sp := span{uint16(len(buf)), uint16(len(s))}
		buf = append(buf, s...)
		return sp
	}
	s := &simSketch{words: make([]skWord, len(p.words)), nset: len(p.set), rawLens: p.rawLens, joinedLens: p.joinedLens, namedLens: p.namedLens,
		plain: p.plain}
	for i, w := range p.words {
		sw := skWord{norm: put(w.norm), raw: put(w.raw), name: put(p.nameNorm[i]), lname: put(w.name), id: uint16(p.normID[i])}
		if p.pairable[i] {
			sw.flags |= skPairable
		}
		if p.normID[i] == i && p.set[w.norm] {
			sw.flags |= skCounted
		}
		if w.name != "" {
			sw.flags |= skNamed
		}
		s.words[i] = sw
	}
	s.buf = string(buf)
	s.index()
	return s
}

// index computes what a sketch keeps in memory only: its words' hashes
// and its filters (prepared's).
func (s *simSketch) index() {
	s.rawB, s.joinedB, s.namedB = bloom{}, bloom{}, bloom{}
	for i := range s.words {
		w := &s.words[i]
		raw := s.str(w.raw)
		w.hn, w.hr = wordHash(s.str(w.norm)), wordHash(raw)
		next := ""
		if i+1 < len(s.words) {
			next = s.str(s.words[i+1].raw)
		}
		w.hj = joinedHash(raw, next)
		if raw != "" {
			s.rawB.add(w.hr)
			if next != "" {
				s.joinedB.add(w.hj)
			}
		}
		if w.flags&skNamed != 0 {
			s.namedB.add(wordHash(s.str(w.name)))
		}
	}
}

// size is about what the sketch holds in memory, in bytes.
func (s *simSketch) size() int { return 168 + len(s.buf) + 32*len(s.words) }

// hasRaw reports whether one of the sketch's words is written x
// (prepared.raws); h is wordHash(x).
func (s *simSketch) hasRaw(x string, h uint32) bool {
	if s.rawLens&lenBit(x) == 0 || !s.rawB.has(h) {
		return false
	}
	for _, w := range s.words {
		if w.raw.n > 0 && s.str(w.raw) == x {
			return true
		}
	}
	return false
}

// hasJoined reports whether two neighbouring words of the sketch, each
// written, are x written together (prepared.joined); h is wordHash(x).
func (s *simSketch) hasJoined(x string, h uint32) bool {
	if s.joinedLens&lenBit(x) == 0 || !s.joinedB.has(h) {
		return false
	}
	for i := 0; i+1 < len(s.words); i++ {
		a, b := s.str(s.words[i].raw), s.str(s.words[i+1].raw)
		if a != "" && b != "" && len(a)+len(b) == len(x) && x[:len(a)] == a && x[len(a):] == b {
			return true
		}
	}
	return false
}

// hasNamed reports whether a name of the sketch normalises to x
// (prepared.named); h is wordHash(x).
func (s *simSketch) hasNamed(x string, h uint32) bool {
	if s.namedLens&lenBit(x) == 0 || !s.namedB.has(h) {
		return false
	}
	for _, w := range s.words {
		if w.flags&skNamed != 0 && s.str(w.name) == x {
			return true
		}
	}
	return false
}

// farBySketch answers SimilarAtLeast(a, b, t) from a's sketch and b read in
// full, where the sketch decides it: the same answer as SimilarAtLeast
// (the same shared words, the same bound, and where the bound leaves it
// open, no word that align could pair), computed from the sketch; the
// similarity is read only when it reaches t, as SimilarAtLeast's callers
// read it. ok is false when the question is open and both must be read in
// full. A change to similarAtLeast's bound or to align's cases must be
// made here too (TestSketchesDecideAsTheFullReading).
func farBySketch(sa *simSketch, pb *prepared, t float64) (sim float64, near, ok bool) {
	sb := pb.set
	if sa.nset+len(sb) == 0 {
		return 0, t <= 0, true
	}
	var small, small2 [64]bool
	// inB: the sketched word's norm is one of pb's (of the first word of
	// each norm; a norm outside the sketch's set, a stop word, is in
	// neither set).
	var inB []bool
	if len(sa.words) <= len(small) {
		inB = small[:len(sa.words)]
	} else {
		inB = make([]bool, len(sa.words))
	}
	// The norms both texts have: few.
	var sharedBuf [16]string
	shared := sharedBuf[:0]
	for i, w := range sa.words {
		if w.flags&skCounted != 0 && pb.setB.has(w.hn) && sb[sa.str(w.norm)] {
			inB[i] = true
			shared = append(shared, sa.str(w.norm))
		}
	}
	n := len(shared)
	total := sa.nset + len(sb)
	if plain := 2 * float64(n) / float64(total); plain >= t {
		return plain, true, true
	}
	// ma: SimilarAtLeast's pairable(pa, pb), from the sketch.
	var seen []bool
	if len(sa.words) <= len(small2) {
		seen = small2[:len(sa.words)]
	} else {
		seen = make([]bool, len(sa.words))
	}
	nextIn := func(i int) bool { // pb.raws[a.words[i].raw + a.words[i+1].raw]
		if !pb.rawB.has(sa.words[i].hj) {
			return false
		}
		x, y := sa.str(sa.words[i].raw), sa.str(sa.words[i+1].raw)
		return pb.rawLens&(1<<min(len(x)+len(y), 63)) != 0 && pb.raws[x+y]
	}
	ma := 0
	for i, w := range sa.words {
		if seen[w.id] || inB[w.id] {
			continue
		}
		// A pairable word counts whether or not it joins: the joins are
		// read only for the others.
		if w.flags&skPairable == 0 {
			raw, norm := sa.str(w.raw), sa.str(w.norm)
			joins := raw != "" && (i+1 < len(sa.words) && nextIn(i) || i > 0 && nextIn(i-1) ||
				pb.joinedB.has(w.hr) && pb.joinedLens&lenBit(raw) != 0 && pb.joined[raw] ||
				pb.namedB.has(w.hn) && pb.namedLens&lenBit(norm) != 0 && pb.named[norm])
			if !joins {
				continue
			}
		}
		seen[w.id] = true
		ma++
	}
	// mb: pairable(pb, pa).
	if len(pb.words) <= len(small2) {
		seen = small2[:len(pb.words)]
		clear(seen)
	} else {
		seen = make([]bool, len(pb.words))
	}
	// hasNext[i]: sa.hasRaw(pb.next[i]), read once.
	var hasNextSmall [64]int8
	var hasNext []int8
	if len(pb.words) <= len(hasNextSmall) {
		hasNext = hasNextSmall[:len(pb.words)]
	} else {
		hasNext = make([]int8, len(pb.words))
	}
	joinsAt := func(i int) bool {
		if hasNext[i] == 0 {
			hasNext[i] = -1
			if sa.hasRaw(pb.next[i], pb.hNext[i]) {
				hasNext[i] = 1
			}
		}
		return hasNext[i] > 0
	}
	mb := 0
	for i, w := range pb.words {
		id := pb.normID[i]
		// A norm of pb is in sa's set when it is one of those they share
		// (a stop word is in neither set).
		if seen[id] || slices.Contains(shared, w.norm) {
			continue
		}
		if !pb.pairable[i] {
			joins := w.raw != "" && (i+1 < len(pb.words) && joinsAt(i) || i > 0 && joinsAt(i-1) ||
				sa.hasJoined(w.raw, pb.hRaw[i]) || sa.hasNamed(w.norm, pb.hNorm[i]))
			if !joins {
				continue
			}
		}
		seen[id] = true
		mb++
	}
	oa, ob := sa.nset-n, len(sb)-n
	gain := min(2*(ma+mb), oa+ob)
	if gain == 0 || min(1, 2*float64(n+gain)/float64(max(1, total-min(oa, ob, ma+mb)))) < t {
		return 0, false, true
	}
	if !sa.plain || !pb.plain {
		return 0, false, false
	}
	// The bound again, with the pairings align could make in place of
	// the words that could pair: with none, align changes nothing either
	// way, and the similarity is the plain share of words, below t.
	m, joins := pairings(sa, pb, shared)
	if joins || m > 0 && min(1, 2*float64(n+min(2*m, oa+ob))/float64(max(1, total-min(oa, ob, m)))) >= t {
		return 0, false, false
	}
	return 0, false, true
}

// pairings bounds the words align, either way round, could pair: a word
// only the sketched text has with one only pb has (shared: the norms both
// have), by any of its cases: words the lexicon relates (a form or a group
// in common), a short form, a name written as a word, a place and its
// people. Each pairing pairs a norm of each text that no other pairing
// takes, so there are at most as many as the norms of either text that
// have a partner in the other, and most is the fewer of those two counts.
// joins reports a word written apart in one text and together in the
// other: align pairs those too, two words with one, and most says
// nothing then.
func pairings(sa *simSketch, pb *prepared, shared []string) (most int, joins bool) {
	// Written apart in one text, together in the other.
	for i := 0; i+1 < len(sa.words); i++ {
		x, y := sa.str(sa.words[i].raw), sa.str(sa.words[i+1].raw)
		if x != "" && y != "" && pb.rawB.has(sa.words[i].hj) && pb.rawLens&(1<<min(len(x)+len(y), 63)) != 0 && pb.raws[x+y] {
			return 0, true
		}
	}
	for i := 0; i+1 < len(pb.words); i++ {
		if pb.words[i].raw != "" && pb.words[i+1].raw != "" && sa.hasRaw(pb.next[i], pb.hNext[i]) {
			return 0, true
		}
	}
	lex := DefaultLexicon()
	var onlyBuf [64]int
	onlyB := onlyBuf[:0]
	for i, w := range pb.words {
		if !slices.Contains(shared, w.norm) {
			onlyB = append(onlyB, i)
		}
	}
	// markA and markB mark the norms of each text (by the index of their
	// first word) that have a partner in the other.
	var smallA, smallB [64]bool
	var markA, markB []bool
	if len(sa.words) <= len(smallA) {
		markA = smallA[:len(sa.words)]
	} else {
		markA = make([]bool, len(sa.words))
	}
	if len(pb.words) <= len(smallB) {
		markB = smallB[:len(pb.words)]
	} else {
		markB = make([]bool, len(pb.words))
	}
	na, nb := 0, 0
	mark := func(i, k int) {
		if id := int(sa.words[i].id); !markA[id] {
			markA[id] = true
			na++
		}
		if id := pb.normID[k]; !markB[id] {
			markB[id] = true
			nb++
		}
	}
	for i, x := range sa.words {
		norm, raw := sa.str(x.norm), sa.str(x.raw)
		if pb.setB.has(x.hn) && pb.set[norm] {
			continue // not only the sketched text's
		}
		if x.flags&skPairable == 0 {
			// Its keys are its written form alone (prepared.pairable), and
			// it has no short form and is no name: only the same written
			// form in the other text pairs with it, or a word of the other
			// text that can pair by itself (below).
			if raw != "" && pb.rawB.has(x.hr) && pb.raws[raw] {
				for _, k := range onlyB {
					if pb.words[k].raw == raw {
						mark(i, k)
					}
				}
			}
			continue
		}
		var kx relKeys
		if raw != "" {
			kx = lex.keys(raw)
			if measureWord(raw, kx.forms) {
				kx.groups = nil
			}
		}
		for _, k := range onlyB {
			if pairs(lex, x, sa, kx, pb, k) {
				mark(i, k)
			}
		}
	}
	// Words only pb has that can pair by themselves, against the sketched
	// text's words that cannot (those that can were read above).
	for _, k := range onlyB {
		if !pb.pairable[k] {
			continue
		}
		for i, x := range sa.words {
			if x.flags&skPairable != 0 || pb.setB.has(x.hn) && pb.set[sa.str(x.norm)] {
				continue
			}
			raw := sa.str(x.raw)
			kx := relKeys{}
			one := [1]string{raw}
			if raw != "" {
				kx.forms = one[:]
			}
			if pairs(lex, x, sa, kx, pb, k) {
				mark(i, k)
			}
		}
	}
	return min(na, nb), false
}

// pairs is align's test of whether the sketched word x (with keys kx) and
// word k of pb can stand for each other, either way round.
func pairs(lex *Lexicon, x skWord, sa *simSketch, kx relKeys, pb *prepared, k int) bool {
	w := &pb.words[k]
	norm, raw, name := sa.str(x.norm), sa.str(x.raw), sa.str(x.name)
	named := x.flags&skNamed != 0
	switch {
	case w.raw != "" && raw != "" && (pb.keys[k].meet(kx) || pb.short[k] == raw || shortForms[raw] == w.raw):
	case w.name != "" && raw != "" && pb.nameNorm[k] == norm,
		named && w.raw != "" && name == w.norm:
	case w.name != "" && named && (lex.demonym(w.name, sa.rawName(x)) || lex.demonym(sa.rawName(x), w.name)):
	default:
		return false
	}
	return true
}

// conSketch is what the contradiction rules need of a text before any of
// them can fire against another: its preference, its claims' subjects, and
// of its scene what the scene rules compare.
type conSketch struct {
	pref     preference
	hasPref  bool
	subjects []string // the claims' subjects, once each
	// noScene: the scene rules read nothing of the text (no scene words),
	// big: it is too long for them (sceneText.allWords > maxSceneWords).
	noScene, big, negated bool
	// denies: a scene statement denies an attribute ("THING is not
	// ATTR", deniedAttribute's pattern); nobody: one opens with "no one",
	// "nobody", "noone" or "none" (nobodyDoes').
	denies, nobody bool
	// colored are the things the text gives a colour; units the units of
	// its counts (countsOf); openers the words that open a scene
	// statement's subject (position < subjectSpan), and subjects of them
	// those sharedSubject takes as a subject.
	colored, units, openers, subjectOpeners []string
}

func (c *conSketch) size() int {
	n := 160 + len(c.pref.subject) + len(c.pref.first) + len(c.pref.second)
	for _, l := range [][]string{c.subjects, c.colored, c.units, c.openers, c.subjectOpeners} {
		for _, s := range l {
			n += 16 + len(s)
		}
	}
	return n
}

func addOnce(l []string, s string) []string {
	if slices.Contains(l, s) {
		return l
	}
	return append(l, s)
}

// conSketchOf returns the sketch of a text read for the contradiction rules.
func conSketchOf(st *sceneText) *conSketch {
	c := &conSketch{pref: st.pref, hasPref: st.hasPref, noScene: len(st.words) == 0, big: st.allWords > maxSceneWords, negated: st.negated}
	for _, cl := range st.claims {
		c.subjects = addOnce(c.subjects, cl.Subject)
	}
	tn := st.toks
	for i := 0; i+2 < len(tn); i++ {
		if copulas[tn[i+1].low] && (tn[i+2].low == "not" || tn[i+2].low == "n't") {
			c.denies = true
		}
	}
	for _, t := range tn {
		switch t.low {
		case "no", "nobody", "noone", "none":
			c.nobody = true
		}
	}
	for thing := range st.colors {
		c.colored = append(c.colored, thing)
	}
	slices.Sort(c.colored)
	for _, v := range st.counts {
		if v.Kind == KindNumber && v.Unit != "" {
			c.units = addOnce(c.units, v.Unit)
		}
	}
	for _, w := range st.words {
		if w.pos >= subjectSpan {
			continue
		}
		c.openers = addOnce(c.openers, w.w)
		if !negators[w.w] && !inClass("not_scene_subjects", w.low) && !isDigitStart(w.low) {
			c.subjectOpeners = addOnce(c.subjectOpeners, w.w)
		}
	}
	return c
}

func meets(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// mayContradict reports whether any rule of Contradiction could fire
// between texts sketched a and b; false proves Contradiction finds
// nothing:
//
//   - the preference swap needs both texts to prefer, the same subject;
//   - every claim comparison needs a claim of each about the same subject
//     (sameSubject), and without one the scene rules decide;
//   - the scene rules need scene words in at least one text, neither text
//     too long; a denied attribute needs a denial in one text and the
//     other not negated, "nobody" the same; the rest need scene words in
//     both, negated alike, and a thing both give a colour, a count of the
//     same unit, or a shared word opening both subjects (sharedSubject).
//
// A new contradiction rule, or one that reads more of the texts, must be
// read here too (TestSketchesDecideAsTheFullReading compares the two over
// the corpora), and the sketches' format bumped (sketchFormat).
func mayContradict(a, b *conSketch) bool {
	if a.hasPref && b.hasPref && a.pref.subject == b.pref.subject {
		return true
	}
	for _, x := range a.subjects {
		for _, y := range b.subjects {
			if sameSubject(x, y) {
				return true
			}
		}
	}
	if a.noScene && b.noScene || a.big || b.big {
		return false
	}
	if a.denies && !b.negated || b.denies && !a.negated || a.nobody && !b.negated || b.nobody && !a.negated {
		return true
	}
	if a.noScene || b.noScene || a.negated != b.negated {
		return false
	}
	return meets(a.colored, b.colored) || meets(a.units, b.units) ||
		meets(a.subjectOpeners, b.openers) || meets(b.subjectOpeners, a.openers)
}

// Sketches are kept for many more texts than full readings: bounded by
// entries and by about the bytes they and their texts hold. A stored
// version's sketch comes back with it from the store (Remember), so the
// cache need not hold a large store's.
const (
	sketchCacheEntries = 1 << 16
	sketchCacheBytes   = 32 << 20
)

// sketchCache keeps sketches of texts, first in first out.
type sketchCache[T interface{ size() int }] struct {
	sync.Mutex
	m     map[string]T
	order []string
	bytes int
}

func newSketchCache[T interface{ size() int }]() *sketchCache[T] {
	return &sketchCache[T]{m: map[string]T{}}
}

func (c *sketchCache[T]) get(text string) (T, bool) {
	c.Lock()
	defer c.Unlock()
	v, ok := c.m[text]
	return v, ok
}

func (c *sketchCache[T]) put(text string, v T) {
	if len(text) > preparedMaxText {
		return
	}
	c.Lock()
	defer c.Unlock()
	if _, ok := c.m[text]; ok {
		return
	}
	n := len(text) + v.size()
	for len(c.order) > 0 && (len(c.m) >= sketchCacheEntries || c.bytes+n > sketchCacheBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(old) + c.m[old].size()
		delete(c.m, old)
	}
	c.m[text] = v
	c.order = append(c.order, text)
	c.bytes += n
}

func (c *sketchCache[T]) forget() {
	c.Lock()
	defer c.Unlock()
	c.m, c.order, c.bytes = map[string]T{}, nil, 0
}

func (c *sketchCache[T]) has(text string) bool {
	_, ok := c.get(text)
	return ok
}
