package guard

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize makes untrusted agent-written text safe to print on a terminal.
//
// It removes ANSI escape sequences (CSI, OSC, DCS, SOS, PM, APC and the
// short two- and three-byte forms), whether introduced by ESC or by a C1
// control, and it removes every other C0 and C1 control except newline and
// tab; a carriage return is removed. Invisible characters that could hide or
// reorder text (zero-width characters, bidirectional controls, tag
// characters and other format characters) are shown as visible markers such
// as ⟨U+200B⟩. Each byte that is not part of valid UTF-8 becomes U+FFFD, so
// the result is always valid UTF-8.
//
// A string of printable ASCII, newlines and tabs is returned unchanged.
// Sanitize is idempotent: Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string {
	return sanitize(s, false)
}

// SanitizeLine is Sanitize for a single line of output, such as a table
// cell: it also turns every newline and tab into a space.
func SanitizeLine(s string) string {
	return sanitize(s, true)
}

func sanitize(s string, oneLine bool) string {
	if isPlainASCII(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c == '\n' || c == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A lone byte in 0x80..0x9F is what an 8-bit terminal reads
			// as a C1 control: treat it like one rather than print it.
			if c >= 0x80 && c <= 0x9f {
				i = skipC1(s, i, rune(c), 1)
				continue
			}
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case r >= 0x80 && r <= 0x9f:
			i = skipC1(s, i, r, size)
			continue
		case isHidden(r):
			b.WriteString(marker(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlainASCII reports whether s needs no change at all.
func isPlainASCII(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if !oneLine && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// marker returns the visible stand-in for an invisible rune, e.g. ⟨U+200B⟩.
func marker(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(h) < 4 {
		h = "0" + h
	}
	return "⟨U+" + h + "⟩"
}

// isHidden reports whether r is a character that renders as nothing (or
// reorders what follows it) and so must be shown as a marker. It covers the
// Unicode format characters (Cf: zero-width characters, bidi controls,
// invisible operators, tag characters, the soft hyphen, BOM), the line and
// paragraph separators, and the invisible Hangul fillers.
func isHidden(r rune) bool {
	switch r {
	case 0x2028, 0x2029, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F, 0x2065:
		return true
	}
	if r >= 0xE0000 && r <= 0xE007F {
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// skipEscape returns the index just past the escape sequence that starts
// with the ESC at s[i]. An unrecognised or truncated sequence drops only what
// has been read so far, so the text after it is still shown.
func skipEscape(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	c := s[j]
	switch {
	case c == '[':
		return skipCSI(s, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, j+1)
	case c >= 0x20 && c <= 0x2f:
		// nF sequence: intermediate bytes then one final byte.
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e:
		// Fp, Fe or Fs sequence: ESC and one byte.
		return j + 1
	}
	return j
}

// skipC1 returns the index past the C1 control r of the given encoded size at
// s[i], including the sequence it introduces, if any.
func skipC1(s string, i int, r rune, size int) int {
	j := i + size
	switch r {
	case 0x9b: // CSI
		return skipCSI(s, j)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return skipString(s, j)
	}
	return j
}

// skipCSI skips the parameter, intermediate and final bytes of a control
// sequence starting at s[j]. It stops early at any byte that cannot belong
// to a control sequence.
func skipCSI(s string, j int) int {
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// skipString skips a control string (the body of OSC, DCS, SOS, PM or APC)
// starting at s[j], up to and including its terminator: BEL, ESC \ or the C1
// string terminator (raw 0x9C or U+009C). If no terminator follows, only the
// introducer is dropped and the rest is treated as ordinary text.
func skipString(s string, j int) int {
	for k := j; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		switch {
		case r == 0x07, r == 0x9c, r == utf8.RuneError && size == 1 && s[k] == 0x9c:
			return k + size
		case r == 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
			return j
		}
		k += size
	}
	return j
}
