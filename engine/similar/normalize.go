// Package similar is memgov's text similarity: the normalisation and
// feature-hashed embedding behind the three-tier deduplication gate (spec §12.3)
// and the topic-similarity filter of contradiction detection (spec §12.2.4).
//
// Tier 1 (exact match) hashes canonical content bytes and lives with the caller.
// Tier 2, the structural fingerprint, is engine/judge's (it keeps roles: "Acme
// acquired Globex" and "Globex acquired Acme" differ). Tier 3 is
// [Embed]: a sparse, L2-normalised vector of hashed word and character n-grams,
// compared with [Cosine] (near-duplicate at >= 0.95). A 256-bit [SimHash] of a
// vector, split into 16 bands of 16 bits by [SimHash.Bands], finds candidates
// without an in-memory index; [BandIndex] does the same in memory.
package similar

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize returns text lower-cased, with common typographic variants folded to
// ASCII (curly quotes, dashes, the minus sign, ellipsis, full-width ASCII forms, the
// fi and fl ligatures), zero-width and control characters removed, every run of
// white space collapsed to one ASCII space and both ends trimmed. Invalid UTF-8
// bytes become U+FFFD, so the result is always valid UTF-8. Normalize is idempotent.
func Normalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	space := false // a space is pending before the next visible rune
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		f, ok := fold(r)
		if !ok {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(f)
	}
	return b.String()
}

// fold maps one non-space rune to its normalised form; ok is false for a rune
// that is dropped.
func fold(r rune) (s string, ok bool) {
	// Full-width ASCII forms first, so that their ASCII result is folded in
	// the same pass (U+FF40 becomes ` and then '): Normalize stays idempotent.
	if r >= '\uFF01' && r <= '\uFF5E' {
		r -= 0xFEE0
	}
	switch r {
	case '\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF':
		return "", false // soft hyphen, zero-width characters, byte-order mark
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u00B4', '`':
		return "'", true
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u00AB', '\u00BB':
		return `"`, true
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE63':
		return "-", true
	case '\u2026':
		return "...", true
	case '\uFB01':
		return "fi", true
	case '\uFB02':
		return "fl", true
	}
	if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
		return "", false
	}
	r = unicode.ToLower(r)
	return string(r), true
}

// wordRune reports whether r belongs to a word token.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' || unicode.IsDigit(r) }

// tokens splits normalised text into word tokens. A token is a run of letters,
// digits and combining marks. A hyphen or apostrophe between two letters joins
// its neighbours and is dropped ("e-mail" is "email", "don't" is "dont"); a dot or
// comma between two digits is kept, and so is a sign directly before a number that
// starts a token, so numbers stay verbatim ("3.14", "1,000", "-5"). Every other
// rune separates tokens.
func tokens(norm string) []string {
	var out []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	prev := rune(-1) // the previous rune, -1 at the start
	r, w := utf8.DecodeRuneInString(norm)
	for i := 0; i < len(norm); {
		next, nw := rune(-1), 0 // the next rune, -1 at the end
		if i+w < len(norm) {
			next, nw = utf8.DecodeRuneInString(norm[i+w:])
		}
		switch {
		case wordRune(r):
			cur = utf8.AppendRune(cur, r)
		case (r == '-' || r == '\'') && len(cur) > 0 && unicode.IsLetter(prev) && unicode.IsLetter(next):
			// joined: drop the connector
		case (r == '.' || r == ',') && len(cur) > 0 && isDigit(prev) && isDigit(next):
			cur = append(cur, byte(r))
		case (r == '-' || r == '+') && len(cur) == 0 && !wordRune(prev) && isDigit(next):
			cur = append(cur, byte(r))
		default:
			flush()
		}
		i += w
		prev, r, w = r, next, nw
	}
	flush()
	return out
}
