package canon

import (
	"unicode/utf8"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// AppendString appends the canonical JSON of the string s to dst, as
// [Marshal] would write it, and reports true; for s that is not valid UTF-8
// (which [Marshal] would change) it appends nothing and reports false.
func AppendString(dst []byte, s string) ([]byte, bool) {
	if !utf8.ValidString(s) {
		return dst, false
	}
	return appendString(dst, s), true
}

// AppendNumber appends the canonical JSON of the number f to dst (ECMAScript
// format, as [Marshal] writes it); NaN and the infinities are an error.
func AppendNumber(dst []byte, f float64) ([]byte, error) {
	s, err := jsoncanonicalizer.NumberToJSON(f)
	if err != nil {
		return dst, err
	}
	return append(dst, s...), nil
}
