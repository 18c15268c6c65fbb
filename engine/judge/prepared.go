package judge

import "sync"

// prepared is a text read for word comparison once: its normalised content
// words, with what the lexicon knows of each. It is immutable once built
// and shared between goroutines through preparedCache.
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
		p.pairable[i] = w.name != "" || shortForms[w.raw] != "" || len(p.keys[i].groups) > 0 || len(p.keys[i].forms) > 1
	}
	return p
}

// The prepared texts of recent comparisons: a write is compared with its
// neighbours, and the same neighbours come up for the next writes on the
// topic. The cache is bounded by entries and by the bytes of the texts.
const (
	preparedCacheEntries = 4096
	preparedCacheBytes   = 8 << 20
	preparedMaxText      = 16 << 10 // longer texts are prepared each time
)

var preparedCache = struct {
	sync.Mutex
	m     map[string]*prepared
	order []string // insertion order, for eviction
	bytes int
}{m: map[string]*prepared{}}

// prepare returns text prepared with the built-in lexicon, from the cache
// when it is there.
func prepare(text string) *prepared {
	lex := DefaultLexicon()
	if len(text) > preparedMaxText {
		return newPrepared(text, lex)
	}
	c := &preparedCache
	c.Lock()
	p, ok := c.m[text]
	c.Unlock()
	if ok {
		return p
	}
	p = newPrepared(text, lex)
	c.Lock()
	defer c.Unlock()
	if _, ok := c.m[text]; ok {
		return p
	}
	for len(c.order) > 0 && (len(c.m) >= preparedCacheEntries || c.bytes+len(text) > preparedCacheBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(old)
		delete(c.m, old)
	}
	c.m[text] = p
	c.order = append(c.order, text)
	c.bytes += len(text)
	return p
}

// Forget empties the cache of prepared texts. An erasure calls it: the
// words of an erased text must not outlive it in the process's memory.
func Forget() {
	c := &preparedCache
	c.Lock()
	defer c.Unlock()
	c.m, c.order, c.bytes = map[string]*prepared{}, nil, 0
}

// cached reports whether text is in the cache.
func cached(text string) bool {
	c := &preparedCache
	c.Lock()
	defer c.Unlock()
	_, ok := c.m[text]
	return ok
}
