package canon

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// CompareKeys compares two object keys in RFC 8785 order: lexicographically
// by their UTF-16 code units. It returns -1 if a sorts before b, +1 if after
// and 0 if a == b.
//
// UTF-16 order differs from the byte order of UTF-8 (and so from Go's string
// comparison and SQLite's default collation) only where a character above
// U+FFFF meets one in U+E000..U+FFFF: the former sorts first in UTF-16.
//
// Keys are expected to be valid UTF-8. For invalid UTF-8, each invalid byte
// counts as U+FFFD and ties are broken by byte order, so CompareKeys is a
// total order on all strings and returns 0 only for equal strings.
func CompareKeys(a, b string) int {
	// Fast path: while the common prefix is ASCII, the first differing
	// byte decides if either of the two bytes is ASCII, whatever follows.
	n := min(len(a), len(b))
	i := 0
	var seen byte
	for i < n && a[i] == b[i] {
		seen |= a[i]
		i++
	}
	if seen < utf8.RuneSelf {
		if i == n {
			return compareInt(len(a), len(b))
		}
		if a[i] < utf8.RuneSelf || b[i] < utf8.RuneSelf {
			return compareInt(a[i], b[i])
		}
	}
	if utf8.ValidString(a) && utf8.ValidString(b) {
		return compareValid(a, b)
	}
	return compareLossy(a, b)
}

// compareValid compares valid UTF-8 strings by UTF-16 code units. The
// first differing byte lies in the first differing character; only that
// pair of characters needs to be compared.
func compareValid(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		// One is a prefix of the other; in valid UTF-8 that also holds
		// for their characters and so for their UTF-16 code units.
		return compareInt(len(a), len(b))
	}
	// In valid UTF-8 a shared lead byte fixes the length of the
	// character, so both strings have a character starting at i.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	return compareRunes(ra, rb)
}

// compareRunes compares two different characters by their UTF-16 code
// units.
func compareRunes(ra, rb rune) int {
	ua, ub := firstUnit(ra), firstUnit(rb)
	if ua != ub {
		return compareInt(ua, ub)
	}
	// Both are above U+FFFF with the same high surrogate; the low
	// surrogates are in code point order.
	return compareInt(ra, rb)
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// compareLossy compares strings that may hold invalid UTF-8, each invalid
// byte decoding to U+FFFD, then breaks ties by byte order.
func compareLossy(a, b string) int {
	var pa, pb rune // pending low surrogates
	i, j := 0, 0
	for {
		var ua, ub rune
		var okA, okB bool
		ua, pa, okA = nextUnit(a, &i, pa)
		ub, pb, okB = nextUnit(b, &j, pb)
		switch {
		case !okA && !okB:
			return strings.Compare(a, b)
		case !okA:
			return -1
		case !okB:
			return +1
		case ua != ub:
			return compareInt(ua, ub)
		}
	}
}

// nextUnit returns the next UTF-16 code unit of s at *i, given a pending
// low surrogate, and the new pending low surrogate.
func nextUnit(s string, i *int, pending rune) (unit, next rune, ok bool) {
	if pending != 0 {
		return pending, 0, true
	}
	if *i >= len(s) {
		return 0, 0, false
	}
	r, size := utf8.DecodeRuneInString(s[*i:])
	*i += size
	if r >= 0x10000 {
		r -= 0x10000
		return 0xD800 + r>>10, 0xDC00 + r&0x3FF, true
	}
	return r, 0, true
}

func compareInt[T int | rune | byte](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return +1
	}
	return 0
}

// An Entry is one member of a key-value map: a key and its canonical JSON
// value, as returned by [Canonicalize] or [Marshal].
type Entry struct {
	Key   string
	Value []byte
}

// SortEntries sorts entries by key in RFC 8785 order ([CompareKeys]). It is
// fast on input that is already nearly in that order, such as rows that
// SQLite returns sorted by the UTF-8 bytes of their keys. Entries with equal
// keys stay in their input order; a [Hasher] rejects them.
func SortEntries(entries []Entry) {
	cmp := func(x, y Entry) int { return CompareKeys(x.Key, y.Key) }
	if slices.IsSortedFunc(entries, cmp) {
		return
	}
	slices.SortStableFunc(entries, cmp)
}
