package guard

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// Encoded payloads: instructions hidden as base64, hex, URL encoding or
// rot13 are decoded and scanned again. The work is bounded: at most
// maxEncoded candidate runs per text, at most maxDecoded bytes each, and
// one level of nesting (a base64 payload inside a decoded payload is still
// read, one inside that is not).
const (
	maxEncoded   = 8
	maxDecoded   = 4096
	maxEncodeDep = 2
)

// runs returns the [start, end) offsets of the maximal runs of bytes in
// text for which in is true that are at least min bytes long.
func runs(text string, min int, in func(byte) bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if !in(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && in(text[j]) {
			j++
		}
		if j-i >= min {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

func isBase64Byte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' || c == '='
}

// urlEscapes counts the %XX escapes in s, up to limit.
func urlEscapes(s string, limit int) int {
	n := 0
	for i := 0; i+2 < len(s) && n < limit; i++ {
		if s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) {
			n++
		}
	}
	return n
}

// functionWordCounts counts the common English function words of s as
// written and after rot13, in one pass without allocating: plain text has
// many, rot13 text next to none until it is decoded.
func functionWordCounts(s string) (plain, rotated int) {
	var w, r [8]byte
	n := 0
	flush := func() {
		if n > 0 && n <= len(w) {
			if isFunctionWord(w[:n]) {
				plain++
			}
			if isFunctionWord(r[:n]) {
				rotated++
			}
		}
		n = 0
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' || s[i] < 'A' {
			flush()
			continue
		}
		if n < len(w) {
			w[n] = c
			r[n] = 'a' + (c-'a'+13)%26
		}
		n++
	}
	flush()
	return plain, rotated
}

func isFunctionWord(w []byte) bool {
	switch string(w) {
	case "the", "and", "to", "of", "a", "is", "in", "you", "your", "all", "for", "that", "it", "on", "with", "this", "be", "are", "or", "not":
		return true
	}
	return false
}

// checkEncoded decodes the encoded runs of text and applies the patterns
// to what they hide. Findings are placed at the run's offset and say how
// the text was encoded.
func checkEncoded(text string, depth int) []Finding {
	if depth >= maxEncodeDep || len(text) < 16 {
		return nil
	}
	var fs []Finding
	scan := func(decoded, how string, at int) {
		for _, f := range matchPatterns(nil, decoded) {
			f.Offset = at
			f.Detail = "in " + how + " text: " + f.Detail
			fs = append(fs, f)
		}
		for _, f := range checkEncoded(decoded, depth+1) {
			f.Offset = at
			f.Detail = "in " + how + " text: " + f.Detail
			fs = append(fs, f)
		}
	}
	n := 0
	for _, loc := range runs(text, 16, isBase64Byte) {
		if n == maxEncoded {
			break
		}
		run := text[loc[0]:loc[1]]
		if !mixedBase64(run) {
			continue
		}
		if d, ok := decodeBase64(run); ok {
			n++
			scan(d, "base64-decoded", loc[0])
		}
	}
	for _, loc := range runs(text, 16, isHex) {
		if n == maxEncoded {
			break
		}
		run := text[loc[0]:loc[1]]
		if len(run)%2 == 1 {
			run = run[:len(run)-1]
		}
		if len(run) > 2*maxDecoded {
			run = run[:2*maxDecoded]
		}
		if b, err := hex.DecodeString(run); err == nil && readable(b) {
			n++
			scan(string(b), "hex-decoded", loc[0])
		}
	}
	// Hex written as bytes apart ("65 6d 61 69 6c", "65:6d:61"): the
	// pairs joined.
	for _, loc := range runs(text, 23, isSpacedHex) {
		if n == maxEncoded {
			break
		}
		if joined, ok := hexPairs(text[loc[0]:loc[1]]); ok {
			if b, err := hex.DecodeString(joined); err == nil && readable(b) {
				n++
				scan(string(b), "hex-decoded", loc[0])
			}
		}
	}
	if urlEscapes(text, 3) >= 3 {
		if d := unescapeURL(text); d != text && readable([]byte(d)) {
			scan(d, "URL-decoded", 0)
		}
	}
	// rot13 is its own inverse: applied to decoded text it would only
	// restore what was already scanned, so it runs on the outer text only.
	if depth == 0 && letters(text) >= 16 {
		// Text announced as rot13 ("ROT13 for the assistant: ...") is
		// decoded whatever its function words say.
		if plain, rotated := functionWordCounts(text); rotated > plain || announcedRot13(text) {
			scan(rot13(text), "rot13-decoded", 0)
		}
	}
	return fs
}

// mixedBase64 reports whether run looks like base64 rather than a long
// word or number: it mixes lower and upper case or digits.
func mixedBase64(run string) bool {
	var lower, upper, digit bool
	for i := 0; i < len(run); i++ {
		c := run[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return lower && (upper || digit)
}

func decodeBase64(run string) (string, bool) {
	if len(run) > maxDecoded*4/3+4 {
		run = run[:maxDecoded*4/3]
		run = run[:len(run)/4*4]
	}
	trimmed := strings.TrimRight(run, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(trimmed); err == nil && readable(b) {
			return string(b), true
		}
	}
	return "", false
}

// readable reports whether b is UTF-8 text of mostly printable characters.
func readable(b []byte) bool {
	if len(b) < 8 || !utf8.Valid(b) {
		return false
	}
	printable, total := 0, 0
	for _, r := range string(b) {
		total++
		if r == '\n' || r == '\t' || r == '\r' || (r >= 0x20 && r != 0x7f && r != utf8.RuneError) {
			printable++
		}
	}
	spaces := strings.Count(string(b), " ")
	return printable*100 >= total*95 && spaces > 0
}

// unescapeURL decodes %XX escapes and, in text that uses them, + as space.
func unescapeURL(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := hex.DecodeString(s[i+1 : i+3])
			b.WriteByte(v[0])
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isSpacedHex(c byte) bool { return isHex(c) || c == ' ' || c == ':' }

// hexPairs joins the bytes of a run of hex written apart, each two
// digits between single separators, at least eight of them; it reports
// false for any other run (words, numbers, times).
func hexPairs(run string) (string, bool) {
	run = strings.Trim(run, " :")
	if len(run) > 3*maxDecoded {
		run = run[:3*maxDecoded]
	}
	var b strings.Builder
	pairs := 0
	for i := 0; i < len(run); i += 3 {
		if i+2 > len(run) || !isHex(run[i]) || !isHex(run[i+1]) || i+2 < len(run) && run[i+2] != ' ' && run[i+2] != ':' {
			break
		}
		b.WriteString(run[i : i+2])
		pairs++
	}
	return b.String(), pairs >= 8
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func letters(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// announcedRot13 reports whether text names rot13 as its encoding.
func announcedRot13(text string) bool {
	if !strings.Contains(text, "13") {
		return false
	}
	l := strings.ToLower(text)
	return strings.Contains(l, "rot13") || strings.Contains(l, "rot-13") || strings.Contains(l, "rot 13")
}
