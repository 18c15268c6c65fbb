package judge

import (
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
)

// prepared is a text read for word comparison once: its normalised content
// words, with what the lexicon knows of each. It is immutable once built
// and shared between goroutines through a Judge's cache.
type prepared struct {
	words []word
	norms []string
	set   map[string]bool
	// keys holds the relKeys of each word (none for values and names).
	keys []relKeys
	// pairable marks the words a word of another text could stand for
	// whatever that text is: a name, a short form, or a word with
	// inflected forms or lexicon relations.
	pairable []bool
	// raws holds the written words, joined each two neighbours written
	// together, named the names as a word would be normalised.
	raws, joined, named map[string]bool
	// distinct holds the keys of set once each, in the order the words
	// first give them: a comparison ranges over it rather than the map.
	distinct []string
	// next holds each word's written form followed by the next word's
	// (words[i].raw + words[i+1].raw; "" for the last word), and normID
	// the index of the first word with the same norm: what
	// SimilarAtLeast's bound reads of a text, read once.
	next   []string
	normID []int
	// short holds each word's short form or long form (shortForms of its
	// written form), and nameNorm each name normalised as a word is
	// (normWord): what align pairs words by, read once.
	short, nameNorm []string
	// rawLens, joinedLens and namedLens have bit min(len(s), 63) set for
	// each key s of raws, joined and named: a word of another length is
	// not there, and SimilarAtLeast's bound does not look it up.
	rawLens, joinedLens, namedLens uint64
	// plain: every norm is one word (not empty, no space), so that the
	// words dice reads back from align are the norms themselves.
	plain bool
	// hNorm, hRaw and hNext are the wordHash of each word's norms, raw
	// and next; setB, rawB, joinedB and namedB the filters of set, raws,
	// joined and named: what a sketch's bound asks of a text is answered
	// by a filter first, and looked up only where the filter lets it by.
	hNorm, hRaw, hNext          []uint32
	setB, rawB, joinedB, namedB bloom
}

// wordHash is a word's hash in the filters of this process (never
// stored).
func wordHash(s string) uint32 {
	h := maphash.String(wordSeed, s)
	return uint32(h ^ h>>32)
}

var wordSeed = maphash.MakeSeed()

// joinedHash is wordHash(x + y), without joining them where they are
// short.
func joinedHash(x, y string) uint32 {
	var buf [64]byte
	if len(x)+len(y) > len(buf) {
		return wordHash(x + y)
	}
	n := copy(buf[:], x)
	n += copy(buf[n:], y)
	h := maphash.Bytes(wordSeed, buf[:n])
	return uint32(h ^ h>>32)
}

// bloom is a filter of words by their wordHash: a word whose two bits are
// not both set is not among them (has false proves it); one whose bits
// are may be.
type bloom [4]uint64

func (b *bloom) add(h uint32) {
	b[h&255>>6] |= 1 << (h & 63)
	b[h>>8&255>>6] |= 1 << (h >> 8 & 63)
}

func (b *bloom) has(h uint32) bool {
	return b[h&255>>6]&(1<<(h&63)) != 0 && b[h>>8&255>>6]&(1<<(h>>8&63)) != 0
}

// lenBit is the bit of a string's length in a prepared's length masks.
func lenBit(s string) uint64 { return 1 << min(len(s), 63) }

func newPrepared(text string, lex *Lexicon) *prepared {
	ws := contentWords(normWords(text, lex))
	p := &prepared{
		words: ws, norms: norms(ws), keys: make([]relKeys, len(ws)), pairable: make([]bool, len(ws)),
		raws: make(map[string]bool, len(ws)), joined: map[string]bool{}, named: map[string]bool{},
	}
	p.set = wordSet(p.norms)
	p.next, p.normID = make([]string, len(ws)), make([]int, len(ws))
	first := make(map[string]int, len(ws))
	for i, w := range ws {
		if i+1 < len(ws) {
			p.next[i] = w.raw + ws[i+1].raw
		}
		if k, ok := first[w.norm]; ok {
			p.normID[i] = k
		} else {
			first[w.norm] = i
			p.normID[i] = i
			if p.set[w.norm] {
				p.distinct = append(p.distinct, w.norm)
			}
		}
	}
	p.short, p.nameNorm = make([]string, len(ws)), make([]string, len(ws))
	for i, w := range ws {
		if w.name != "" {
			p.nameNorm[i] = normWord(w.name)
			p.named[p.nameNorm[i]] = true
		}
		p.short[i] = shortForms[w.raw]
		if w.raw == "" {
			p.pairable[i] = w.name != ""
			continue
		}
		p.raws[w.raw] = true
		if i+1 < len(ws) && ws[i+1].raw != "" {
			p.joined[w.raw+ws[i+1].raw] = true
		}
		p.keys[i] = lex.keys(w.raw)
		if measureWord(w.raw, p.keys[i].forms) {
			// A unit is a value's part: "per second" is not "per minute",
			// though WordNet lists both for "a moment".
			p.keys[i].groups = nil
		}
		p.pairable[i] = w.name != "" || shortForms[w.raw] != "" || len(p.keys[i].groups) > 0 || len(p.keys[i].forms) > 1
	}
	p.plain = true
	for _, n := range p.norms {
		if n == "" || strings.IndexFunc(n, unicode.IsSpace) >= 0 {
			p.plain = false
		}
	}
	p.hNorm, p.hRaw, p.hNext = make([]uint32, len(ws)), make([]uint32, len(ws)), make([]uint32, len(ws))
	for i, w := range ws {
		p.hNorm[i], p.hRaw[i], p.hNext[i] = wordHash(w.norm), wordHash(w.raw), wordHash(p.next[i])
	}
	for k := range p.set {
		p.setB.add(wordHash(k))
	}
	for k := range p.raws {
		p.rawLens |= lenBit(k)
		p.rawB.add(wordHash(k))
	}
	for k := range p.joined {
		p.joinedLens |= lenBit(k)
		p.joinedB.add(wordHash(k))
	}
	for k := range p.named {
		p.namedLens |= lenBit(k)
		p.namedB.add(wordHash(k))
	}
	return p
}

// The texts of recent comparisons, read once: a write is compared with its
// neighbours, and the same neighbours come up for the next writes on the
// topic. Each cache is bounded by entries and by the bytes of the texts.
const (
	preparedCacheEntries = 4096
	preparedCacheBytes   = 8 << 20
	preparedMaxText      = 16 << 10 // longer texts are read each time
)

// textCache keeps what build makes of a text, first in first out.
type textCache[T any] struct {
	sync.Mutex
	m     map[string]T
	order []string // insertion order, for eviction
	bytes int
	build func(string) T
}

func newTextCache[T any](build func(string) T) *textCache[T] {
	return &textCache[T]{m: map[string]T{}, build: build}
}

// get returns build(text), from the cache when it is there.
func (c *textCache[T]) get(text string) T {
	if len(text) > preparedMaxText {
		return c.build(text)
	}
	c.Lock()
	v, ok := c.m[text]
	c.Unlock()
	if ok {
		return v
	}
	v = c.build(text)
	c.Lock()
	defer c.Unlock()
	if _, ok := c.m[text]; ok {
		return v
	}
	for len(c.order) > 0 && (len(c.m) >= preparedCacheEntries || c.bytes+len(text) > preparedCacheBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(old)
		delete(c.m, old)
	}
	c.m[text] = v
	c.order = append(c.order, text)
	c.bytes += len(text)
	return v
}

func (c *textCache[T]) forget() {
	c.Lock()
	defer c.Unlock()
	c.m, c.order, c.bytes = map[string]T{}, nil, 0
}

func (c *textCache[T]) has(text string) bool {
	c.Lock()
	defer c.Unlock()
	_, ok := c.m[text]
	return ok
}

// Each Judge keeps its own caches of the texts it read (New makes them), so
// that one engine's erasure empties that engine's caches.

// prepare returns text prepared with the built-in lexicon, from the default
// judge's cache.
func prepare(text string) *prepared { return defaultJudge.prepare(text) }

// prepare returns text prepared with j's lexicon, from j's cache.
func (j *Judge) prepare(text string) *prepared { return j.prepared.get(text) }

// Forget empties the default judge's caches of texts read for comparison.
func Forget() { defaultJudge.Forget() }

// Forget empties j's caches of texts read for comparison. An erasure calls
// it: the words of an erased text must not outlive it in the process's
// memory.
func (j *Judge) Forget() {
	j.prepared.forget()
	j.scenes.forget()
	j.simSketches.forget()
	j.conSketches.forget()
}

// cached reports whether text is in j's caches.
func (j *Judge) cached(text string) bool {
	return j.prepared.has(text) || j.scenes.has(text) || j.simSketches.has(text) || j.conSketches.has(text)
}

// measureWords are units of time, size, length, weight and volume.
var measureWords = boolClass("measure-words")

// measureWord reports whether a word (with its forms) is a unit.
func measureWord(w string, forms []string) bool {
	if measureWords[w] {
		return true
	}
	for _, f := range forms {
		if measureWords[f] {
			return true
		}
	}
	return false
}
