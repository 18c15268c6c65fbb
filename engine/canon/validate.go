package canon

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrInvalidJSON is the error that every [SyntaxError] wraps, so callers can
// test for rejected input with errors.Is.
var ErrInvalidJSON = errors.New("canon: invalid JSON")

// MaxDepth is the deepest nesting of arrays and objects that [Canonicalize]
// accepts.
const MaxDepth = 1000

// A SyntaxError describes input that is not strict JSON: what is wrong and
// the byte offset in the input where it was found.
type SyntaxError struct {
	Offset int64  // byte offset in the input
	Msg    string // description, never a long excerpt of the input
}

// Error returns the message with its offset.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("canon: invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// Unwrap returns [ErrInvalidJSON].
func (e *SyntaxError) Unwrap() error { return ErrInvalidJSON }

// maxQuoted is the longest excerpt of the input an error message repeats.
const maxQuoted = 32

// excerpt quotes s for an error message, truncated to maxQuoted bytes.
func excerpt(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// validator checks that its input is strict JSON (RFC 8259) restricted as
// RFC 8785 requires: valid UTF-8, no lone surrogates, no duplicate object
// keys (compared after unescaping), and only numbers that are finite
// IEEE-754 doubles.
type validator struct {
	data []byte
	pos  int
	buf  []byte // scratch space for decoding strings
}

// validate reports whether data is a single strict JSON value, surrounded
// only by JSON whitespace. It also reports whether that value is a scalar
// (not an object or array).
func validate(data []byte) (scalar bool, err error) {
	v := validator{data: data}
	v.skipSpace()
	if v.pos < len(data) {
		c := data[v.pos]
		scalar = c != '{' && c != '['
	}
	if err := v.value(0); err != nil {
		return false, err
	}
	v.skipSpace()
	if v.pos < len(data) {
		return false, v.errorf("unexpected %s after top-level value", v.describe())
	}
	return scalar, nil
}

func (v *validator) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: int64(v.pos), Msg: fmt.Sprintf(format, args...)}
}

// describe names the byte at the current position for an error message.
func (v *validator) describe() string {
	if v.pos >= len(v.data) {
		return "end of input"
	}
	c := v.data[v.pos]
	if c < utf8.RuneSelf {
		return "character " + strconv.QuoteRune(rune(c))
	}
	r, size := utf8.DecodeRune(v.data[v.pos:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("invalid UTF-8 byte 0x%02x", c)
	}
	return "character " + strconv.QuoteRune(r)
}

func (v *validator) skipSpace() {
	for v.pos < len(v.data) {
		switch v.data[v.pos] {
		case ' ', '\t', '\n', '\r':
			v.pos++
		default:
			return
		}
	}
}

func (v *validator) value(depth int) error {
	if v.pos >= len(v.data) {
		return v.errorf("unexpected end of input, want a value")
	}
	switch c := v.data[v.pos]; {
	case c == '{':
		return v.object(depth + 1)
	case c == '[':
		return v.array(depth + 1)
	case c == '"':
		_, err := v.str()
		return err
	case c == '-' || ('0' <= c && c <= '9'):
		return v.number()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	default:
		return v.errorf("unexpected %s, want a value", v.describe())
	}
}

func (v *validator) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if v.pos >= len(v.data) || v.data[v.pos] != lit[i] {
			return v.errorf("unexpected %s in literal %s", v.describe(), lit)
		}
		v.pos++
	}
	return nil
}

func (v *validator) object(depth int) error {
	if depth > MaxDepth {
		return v.errorf("nesting deeper than %d", MaxDepth)
	}
	v.pos++ // '{'
	v.skipSpace()
	if v.pos < len(v.data) && v.data[v.pos] == '}' {
		v.pos++
		return nil
	}
	var seen map[string]struct{}
	for {
		if v.pos >= len(v.data) || v.data[v.pos] != '"' {
			return v.errorf("unexpected %s, want an object key", v.describe())
		}
		keyStart := v.pos
		key, err := v.str()
		if err != nil {
			return err
		}
		if seen == nil {
			seen = make(map[string]struct{})
		}
		if _, dup := seen[key]; dup {
			v.pos = keyStart
			return v.errorf("duplicate object key %s", excerpt(key))
		}
		seen[key] = struct{}{}
		v.skipSpace()
		if v.pos >= len(v.data) || v.data[v.pos] != ':' {
			return v.errorf("unexpected %s, want ':' after object key", v.describe())
		}
		v.pos++
		v.skipSpace()
		if err := v.value(depth); err != nil {
			return err
		}
		v.skipSpace()
		if v.pos >= len(v.data) {
			return v.errorf("unexpected end of input in object")
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.skipSpace()
		case '}':
			v.pos++
			return nil
		default:
			return v.errorf("unexpected %s, want ',' or '}' in object", v.describe())
		}
	}
}

func (v *validator) array(depth int) error {
	if depth > MaxDepth {
		return v.errorf("nesting deeper than %d", MaxDepth)
	}
	v.pos++ // '['
	v.skipSpace()
	if v.pos < len(v.data) && v.data[v.pos] == ']' {
		v.pos++
		return nil
	}
	for {
		if err := v.value(depth); err != nil {
			return err
		}
		v.skipSpace()
		if v.pos >= len(v.data) {
			return v.errorf("unexpected end of input in array")
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.skipSpace()
		case ']':
			v.pos++
			return nil
		default:
			return v.errorf("unexpected %s, want ',' or ']' in array", v.describe())
		}
	}
}

// number checks the RFC 8259 number grammar and that the value is a finite
// IEEE-754 double. A value too small to represent rounds to zero, as it
// does in ECMAScript's JSON.parse.
func (v *validator) number() error {
	start := v.pos
	d := v.data
	if d[v.pos] == '-' {
		v.pos++
	}
	switch {
	case v.pos < len(d) && d[v.pos] == '0':
		v.pos++
		if v.pos < len(d) && '0' <= d[v.pos] && d[v.pos] <= '9' {
			return v.errorf("number with a leading zero")
		}
	case v.pos < len(d) && '1' <= d[v.pos] && d[v.pos] <= '9':
		v.digits()
	default:
		return v.errorf("unexpected %s in number, want a digit", v.describe())
	}
	if v.pos < len(d) && d[v.pos] == '.' {
		v.pos++
		if v.digits() == 0 {
			return v.errorf("unexpected %s in number, want a digit after '.'", v.describe())
		}
	}
	if v.pos < len(d) && (d[v.pos] == 'e' || d[v.pos] == 'E') {
		v.pos++
		if v.pos < len(d) && (d[v.pos] == '+' || d[v.pos] == '-') {
			v.pos++
		}
		if v.digits() == 0 {
			return v.errorf("unexpected %s in number, want a digit in the exponent", v.describe())
		}
	}
	if _, err := strconv.ParseFloat(string(d[start:v.pos]), 64); err != nil {
		v.pos = start
		return v.errorf("number is not a finite IEEE-754 double")
	}
	return nil
}

func (v *validator) digits() int {
	n := 0
	for v.pos < len(v.data) && '0' <= v.data[v.pos] && v.data[v.pos] <= '9' {
		v.pos++
		n++
	}
	return n
}

// str checks a string token starting at the opening quote and returns its
// decoded value (used to detect duplicate keys).
func (v *validator) str() (string, error) {
	v.pos++ // '"'
	d := v.data
	v.buf = v.buf[:0]
	for {
		if v.pos >= len(d) {
			return "", v.errorf("unexpected end of input in string")
		}
		c := d[v.pos]
		switch {
		case c == '"':
			v.pos++
			return string(v.buf), nil
		case c == '\\':
			if err := v.escape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", v.errorf("unescaped control character 0x%02x in string", c)
		case c < utf8.RuneSelf:
			v.buf = append(v.buf, c)
			v.pos++
		default:
			r, size := utf8.DecodeRune(d[v.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", v.errorf("invalid UTF-8 byte 0x%02x in string", c)
			}
			v.buf = append(v.buf, d[v.pos:v.pos+size]...)
			v.pos += size
		}
	}
}

// escape decodes one escape sequence starting at the backslash.
func (v *validator) escape() error {
	d := v.data
	if v.pos+1 >= len(d) {
		v.pos++
		return v.errorf("unexpected end of input in string escape")
	}
	var c byte
	switch d[v.pos+1] {
	case '"':
		c = '"'
	case '\\':
		c = '\\'
	case '/':
		c = '/'
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'u':
		return v.unicodeEscape()
	default:
		v.pos++
		return v.errorf("invalid escape '\\' followed by %s", v.describe())
	}
	v.buf = append(v.buf, c)
	v.pos += 2
	return nil
}

// unicodeEscape decodes \uXXXX, or a surrogate pair \uD8XX\uDCXX, starting
// at the backslash.
func (v *validator) unicodeEscape() error {
	start := v.pos
	r, ok := v.hex4(v.pos + 2)
	if !ok {
		return v.errorf("invalid \\u escape, want four hex digits")
	}
	v.pos += 6
	switch {
	case 0xDC00 <= r && r <= 0xDFFF:
		v.pos = start
		return v.errorf("lone low surrogate \\u%04x", r)
	case 0xD800 <= r && r <= 0xDBFF:
		d := v.data
		if v.pos+1 >= len(d) || d[v.pos] != '\\' || d[v.pos+1] != 'u' {
			v.pos = start
			return v.errorf("lone high surrogate \\u%04x", r)
		}
		lo, ok := v.hex4(v.pos + 2)
		if !ok {
			return v.errorf("invalid \\u escape, want four hex digits")
		}
		if lo < 0xDC00 || lo > 0xDFFF {
			v.pos = start
			return v.errorf("lone high surrogate \\u%04x", r)
		}
		v.pos += 6
		r = utf16.DecodeRune(r, lo)
	}
	v.buf = utf8.AppendRune(v.buf, r)
	return nil
}

// hex4 decodes four hex digits at offset i.
func (v *validator) hex4(i int) (rune, bool) {
	if i+4 > len(v.data) {
		return 0, false
	}
	var r rune
	for _, c := range v.data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
