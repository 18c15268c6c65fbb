package merkle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Size is the length in bytes of a [Hash].
const Size = sha256.Size

// Prefix is the algorithm prefix of a hash in its textual form, as in
// "sha256:<64 hex>".
const Prefix = "sha256:"

// Leaf tags of agent-manifest v0.2. Each includes its terminating NUL byte.
const (
	TagTraceEntry = "am-trace-entry\x00" // audit-chain entry (spec §3.2.7.1)
	TagKV         = "am-mem-kv\x00"      // key-value operation (spec §3.2.6.2)
	TagVec        = "am-mem-vec\x00"     // vector-store operation (spec §3.2.6.2)
	TagGraphNode  = "am-mem-gnode\x00"   // graph node operation (spec §3.2.6.2)
	TagGraphEdge  = "am-mem-gedge\x00"   // graph edge operation (spec §3.2.6.2)
)

// ErrMalformedHash is returned when a textual hash cannot be parsed.
var ErrMalformedHash = errors.New("merkle: malformed hash")

// A Hash is a SHA-256 digest: a leaf hash, an interior node or a root.
type Hash [Size]byte

// String returns h as 64 lower-case hexadecimal digits.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Prefixed returns h as "sha256:" followed by 64 lower-case hexadecimal
// digits, the form agent-manifest uses in JSON documents.
func (h Hash) Prefixed() string { return Prefix + h.String() }

// ParseHash parses 64 hexadecimal digits, without a prefix. Upper-case
// digits are accepted.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*Size {
		return h, fmt.Errorf("%w: want %d hex digits, got %d characters", ErrMalformedHash, 2*Size, len(s))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, fmt.Errorf("%w: %w", ErrMalformedHash, err)
	}
	return h, nil
}

// ParsePrefixed parses the "sha256:<64 hex>" form produced by
// [Hash.Prefixed]. The prefix is required, so a digest of another algorithm
// is never mistaken for a SHA-256 one.
func ParsePrefixed(s string) (Hash, error) {
	rest, ok := strings.CutPrefix(s, Prefix)
	if !ok {
		return Hash{}, fmt.Errorf("%w: missing %q prefix", ErrMalformedHash, Prefix)
	}
	return ParseHash(rest)
}

// LeafHash returns SHA-256(0x00 || tag || canonical), the RFC 9162 leaf hash
// with an agent-manifest domain tag such as [TagKV]. canonical should be the
// RFC 8785 form of the leaf's JSON document.
func LeafHash(tag string, canonical []byte) Hash {
	d := sha256.New()
	d.Write([]byte{0x00})
	io.WriteString(d, tag)
	d.Write(canonical)
	var h Hash
	d.Sum(h[:0])
	return h
}

// NodeHash returns SHA-256(0x01 || l || r), the RFC 9162 interior node hash.
func NodeHash(l, r Hash) Hash {
	var buf [1 + 2*Size]byte
	buf[0] = 0x01
	copy(buf[1:], l[:])
	copy(buf[1+Size:], r[:])
	return sha256.Sum256(buf[:])
}

// EmptyRoot returns SHA-256(""), the root of the empty log in both the
// merkle-log and the hash-chained mode.
func EmptyRoot() Hash { return sha256.Sum256(nil) }

// Hexes returns the hex form of each hash, as proofs print them.
func Hexes(hs []Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}
