package merkle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// Operations of the key-value memory log (spec §3.2.6.2).
const (
	OpPut = "PUT"
	OpDel = "DEL"
)

// ErrInvalidOp is returned for a key-value operation that cannot be encoded.
var ErrInvalidOp = errors.New("merkle: invalid key-value operation")

// A KVOp is one operation of a key-value memory log (spec §3.2.6.2): a PUT of a
// JSON value under a key, or a DEL of a key. Each operation is one leaf of
// the memory log, in sequence order.
type KVOp struct {
	Key   string
	Op    string // OpPut or OpDel
	Value []byte // JSON value for OpPut; nil for OpDel
}

// Canonical returns the RFC 8785 form of the operation:
// {"key":...,"op":"PUT","value":...} for a PUT and {"key":...,"op":"DEL"}
// for a DEL. The key must be valid UTF-8. A PUT's value must be valid JSON
// (it is canonicalised, so any valid encoding of the same value gives the
// same result); a DEL must have no value.
func (o KVOp) Canonical() ([]byte, error) {
	if !utf8.ValidString(o.Key) {
		return nil, fmt.Errorf("%w: key is not valid UTF-8", ErrInvalidOp)
	}
	key, err := json.Marshal(o.Key)
	if err != nil {
		return nil, fmt.Errorf("%w: key: %w", ErrInvalidOp, err)
	}
	var b bytes.Buffer
	b.WriteString(`{"key":`)
	b.Write(key)
	switch o.Op {
	case OpPut:
		if len(o.Value) == 0 {
			return nil, fmt.Errorf("%w: PUT of %q without a value", ErrInvalidOp, o.Key)
		}
		// The canonicaliser accepts some number syntax JSON does not.
		if !json.Valid(o.Value) {
			return nil, fmt.Errorf("%w: PUT of %q: value is not valid JSON", ErrInvalidOp, o.Key)
		}
		b.WriteString(`,"op":"PUT","value":`)
		b.Write(o.Value)
	case OpDel:
		if o.Value != nil {
			return nil, fmt.Errorf("%w: DEL of %q with a value", ErrInvalidOp, o.Key)
		}
		b.WriteString(`,"op":"DEL"`)
	default:
		return nil, fmt.Errorf("%w: unknown op %q", ErrInvalidOp, o.Op)
	}
	b.WriteByte('}')
	c, err := jsoncanonicalizer.Transform(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w: canonicalising %q: %w", ErrInvalidOp, o.Key, err)
	}
	return c, nil
}

// Leaf returns the operation's leaf hash, LeafHash(TagKV, canonical op).
func (o KVOp) Leaf() (Hash, error) {
	c, err := o.Canonical()
	if err != nil {
		return Hash{}, err
	}
	return LeafHash(TagKV, c), nil
}
