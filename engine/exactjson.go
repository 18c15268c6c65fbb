package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
	"unicode/utf8"
)

// Keys and JSON that memgov would store other than as sent are refused at
// the request's decoding, so every door (CLI, HTTP, MCP) refuses them alike:
// a key with a dot segment ("../x") that names a path outside its entry, a
// lone UTF-16 surrogate escape ("\ud800") that decoding turns into U+FFFD,
// and an integer that a JSON number (an IEEE 754 double) cannot carry
// exactly: beyond 2^53 (2^64 would be stored as 18446744073709552000).

// CheckKey refuses an entry key holding a dot segment ("." or ".." between
// slashes or backslashes), or U+FFFD, the character a lone surrogate or an
// invalid byte decodes to. Doors check the keys they read with it too, so
// reads and writes refuse the same keys.
func CheckKey(key string) error {
	if !utf8.ValidString(key) {
		return fmt.Errorf("%w: key is not valid UTF-8", ErrInvalid)
	}
	if strings.ContainsRune(key, utf8.RuneError) {
		return fmt.Errorf("%w: key holds U+FFFD, the mark of a lone UTF-16 surrogate or an invalid byte: send the key as valid text", ErrInvalid)
	}
	for _, seg := range strings.FieldsFunc(key, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == "." || seg == ".." {
			return fmt.Errorf("%w: key holds the dot segment %q: keys name entries, not paths", ErrInvalid, seg)
		}
	}
	return nil
}

// CheckExactJSON refuses JSON text that decoding would change: a \u escape
// of a lone UTF-16 surrogate (anywhere, keys and strings alike) and an
// integer literal beyond 2^53, which JSON numbers do not carry exactly. what names the part
// of the request in the error ("the request", "content").
func CheckExactJSON(what string, raw []byte) error {
	if err := checkSurrogates(what, raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // not JSON: the decoder or the schema gate says so
		}
		n, ok := tok.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			continue
		}
		i, ok := new(big.Int).SetString(string(n), 10)
		if !ok {
			continue
		}
		if i.CmpAbs(maxExactInt) > 0 {
			f, _ := new(big.Float).SetInt(i).Float64()
			shown := string(n)
			if len(shown) > 40 {
				shown = shown[:40] + "..."
			}
			return fmt.Errorf("%w: %s holds the integer %s, which a JSON number cannot carry exactly (it would be stored as %g): send it as a string", ErrInvalid, what, shown, f)
		}
	}
}

// maxExactInt is 2^53: every integer up to it is a float64 printed with
// its own digits; beyond it JSON numbers lose digits (I-JSON, RFC 7493).
var maxExactInt = new(big.Int).Lsh(big.NewInt(1), 53)

// checkSurrogates finds a \uD800-\uDFFF escape that is not half of a pair
// (a high surrogate followed at once by a low one) inside raw.
func checkSurrogates(what string, raw []byte) error {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(raw) {
				return nil
			}
			if raw[i+1] != 'u' {
				i++ // a two-character escape
				continue
			}
			r, ok := hex4(raw, i+2)
			if !ok {
				i++
				continue
			}
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				lo, ok := -1, false
				if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					lo, ok = hex4(raw, i+8)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return surrogateError(what, r)
				}
				i += 11
			case r >= 0xDC00 && r <= 0xDFFF:
				return surrogateError(what, r)
			default:
				i += 5
			}
		}
	}
	return nil
}

func surrogateError(what string, r int) error {
	return fmt.Errorf("%w: %s holds the lone UTF-16 surrogate escape \\u%04x, which is not a character: send valid text", ErrInvalid, what, r)
}

func hex4(b []byte, at int) (int, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	v := 0
	for _, c := range b[at : at+4] {
		v <<= 4
		switch {
		case '0' <= c && c <= '9':
			v |= int(c - '0')
		case 'a' <= c && c <= 'f':
			v |= int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			v |= int(c-'A') + 10
		default:
			return 0, false
		}
	}
	return v, true
}
