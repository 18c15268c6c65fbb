package judge

import "sync"

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
}

func newPrepared(text string, lex *Lexicon) *prepared {
	ws := contentWords(normWords(text, lex))
	p := &prepared{
		words: ws, norms: norms(ws), keys: make([]relKeys, len(ws)), pairable: make([]bool, len(ws)),
		raws: make(map[string]bool, len(ws)), joined: map[string]bool{}, named: map[string]bool{},
	}
	p.set = wordSet(p.norms)
	for i, w := range ws {
		if w.name != "" {
			p.named[normWord(w.name)] = true
		}
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
}

// cached reports whether text is in j's caches.
func (j *Judge) cached(text string) bool { return j.prepared.has(text) || j.scenes.has(text) }

// measureWords are units of time, size, length, weight and volume.
var measureWords = map[string]bool{
	"second": true, "minute": true, "hour": true, "day": true, "week": true, "month": true, "year": true,
	"decade": true, "century": true, "millisecond": true, "microsecond": true, "nanosecond": true,
	"byte": true, "kilobyte": true, "megabyte": true, "gigabyte": true, "terabyte": true, "bit": true,
	"meter": true, "metre": true, "kilometer": true, "kilometre": true, "centimeter": true, "millimeter": true,
	"mile": true, "foot": true, "feet": true, "inch": true, "yard": true, "pound": true, "ounce": true,
	"gram": true, "kilogram": true, "ton": true, "tonne": true, "liter": true, "litre": true, "gallon": true,
	"pint": true, "quart": true, "degree": true, "percent": true, "cent": true, "dollar": true, "euro": true,
}

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
