package guard

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Unsafe reports whether r has no place in an identifier or on a terminal
// as is: a C0 or C1 control (ESC among them), DEL, or a character Sanitize
// shows as a marker (zero-width, bidirectional and other format
// characters).
func Unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isHidden(r)
}

// CheckIdentifier refuses an identifier (a key, a memoryRef, a source URI,
// a run or session id, a title, a principal id) that holds a control,
// escape, bidirectional or zero-width character, or is not UTF-8. The
// error names the character by code point and byte offset, never printing it.
func CheckIdentifier(what, s string) error {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Errorf("%s is not valid UTF-8 (byte %d)", what, i)
			}
		}
		if Unsafe(r) {
			return fmt.Errorf("%s holds the control or invisible character U+%04X at byte %d: identifiers may not carry control, escape, bidirectional or zero-width characters", what, r, i)
		}
	}
	return nil
}

// EscapeJSON rewrites every Unsafe character that encoding/json leaves as
// is (DEL, C1 controls, zero-width and bidirectional characters) as a \u
// escape, so JSON output carries the same strings but no byte that a
// terminal would act on. It is only correct on encoding/json output, where
// such characters can occur only inside strings.
func EscapeJSON(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x20 && Unsafe(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x20 && Unsafe(r) {
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
