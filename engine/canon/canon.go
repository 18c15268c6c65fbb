// Package canon implements RFC 8785 JSON Canonicalization Scheme (JCS) and
// the spec §3.2.6.1 snapshot hash of a memory store.
//
// [Canonicalize] and [Marshal] turn JSON into its canonical form: object
// keys sorted by UTF-16 code units, numbers in ECMAScript (ES6) format,
// strings with the minimal RFC 8785 escaping, no whitespace, no Unicode
// normalisation. Input is validated as strict JSON first.
//
// The snapshot_hash of a key-value map is the digest of the canonical JSON
// object {"k1":v1,"k2":v2,...}. Because the members of a canonical object
// are just the canonical key and value, in key order, a store can keep each
// item's canonical value and stream the map into a [Hasher] or a
// [MapWriter] without re-canonicalising it. Both share one code path, so an
// exported map and the bytes that were hashed are identical.
package canon

import (
	"encoding/json"
	"fmt"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// Canonicalize returns the RFC 8785 canonical form of the JSON value in
// data, which may be an object, an array or a scalar. The input must be
// strict JSON: valid UTF-8, no duplicate object keys (compared after
// unescaping), no lone surrogate escapes, and only numbers that are finite
// IEEE-754 doubles. Otherwise the error is a [*SyntaxError] wrapping
// [ErrInvalidJSON] that gives the byte offset of the problem.
func Canonicalize(data []byte) ([]byte, error) {
	scalar, err := validate(data)
	if err != nil {
		return nil, err
	}
	if !scalar {
		out, err := jsoncanonicalizer.Transform(data)
		if err != nil {
			return nil, fmt.Errorf("canon: canonicalize: %w", err)
		}
		return out, nil
	}
	// The canonicaliser accepts only an object or an array at the top
	// level, so canonicalise a scalar as the only element of an array.
	wrapped := make([]byte, 0, len(data)+2)
	wrapped = append(wrapped, '[')
	wrapped = append(wrapped, data...)
	wrapped = append(wrapped, ']')
	out, err := jsoncanonicalizer.Transform(wrapped)
	if err != nil {
		return nil, fmt.Errorf("canon: canonicalize: %w", err)
	}
	if len(out) < 3 || out[0] != '[' || out[len(out)-1] != ']' {
		return nil, fmt.Errorf("canon: canonicalize: unexpected output for a scalar")
	}
	return out[1 : len(out)-1], nil
}

// Marshal returns the RFC 8785 canonical JSON encoding of v: the
// encoding/json encoding of v, canonicalised. Note that encoding/json
// escapes '<', '>' and '&' in strings; canonicalisation undoes that.
func Marshal(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("canon: marshal: %w", err)
	}
	return Canonicalize(data)
}
