package canon

import (
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"iter"
	"strings"
)

// An Algorithm names the hash function of a snapshot digest.
type Algorithm string

// The snapshot hash algorithms of spec §3.2.6.
const (
	SHA256   Algorithm = "sha256"   // SHA-256
	SHAKE256 Algorithm = "shake256" // SHAKE-256 with 32 bytes of output
)

// DigestSize is the length in bytes of a digest of either [Algorithm].
const DigestSize = 32

// ErrBadDigest reports a digest string or algorithm that is not valid.
var ErrBadDigest = errors.New("canon: invalid digest")

func (a Algorithm) valid() bool { return a == SHA256 || a == SHAKE256 }

// FormatDigest returns the text form of a digest, "<alg>:<lowercase hex>",
// such as "sha256:9f86d0...". sum must be [DigestSize] bytes long.
func FormatDigest(alg Algorithm, sum []byte) (string, error) {
	if !alg.valid() {
		return "", fmt.Errorf("%w: unknown algorithm %s", ErrBadDigest, excerpt(string(alg)))
	}
	if len(sum) != DigestSize {
		return "", fmt.Errorf("%w: %d-byte %s sum, want %d", ErrBadDigest, len(sum), alg, DigestSize)
	}
	return string(alg) + ":" + hex.EncodeToString(sum), nil
}

// ParseDigest parses the text form of a digest written by [FormatDigest]:
// a known algorithm, a colon and exactly 64 lowercase hex digits.
func ParseDigest(s string) (Algorithm, []byte, error) {
	name, hexSum, ok := strings.Cut(s, ":")
	if !ok {
		return "", nil, fmt.Errorf("%w: %s has no algorithm prefix", ErrBadDigest, excerpt(s))
	}
	alg := Algorithm(name)
	if !alg.valid() {
		return "", nil, fmt.Errorf("%w: unknown algorithm %s", ErrBadDigest, excerpt(name))
	}
	if len(hexSum) != 2*DigestSize {
		return "", nil, fmt.Errorf("%w: %d hex digits, want %d", ErrBadDigest, len(hexSum), 2*DigestSize)
	}
	for i := 0; i < len(hexSum); i++ {
		if c := hexSum[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", nil, fmt.Errorf("%w: byte 0x%02x at offset %d is not a lowercase hex digit",
				ErrBadDigest, c, len(name)+1+i)
		}
	}
	sum, err := hex.DecodeString(hexSum)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrBadDigest, err)
	}
	return alg, sum, nil
}

// A Digest hashes the bytes written to it with one [Algorithm]. It is the
// io.Writer sink for a [MapWriter] when a map is both exported and hashed
// in one pass:
//
//	d, _ := canon.NewDigest(canon.SHA256)
//	mw := canon.NewMapWriter(io.MultiWriter(out, d))
type Digest struct {
	alg   Algorithm
	h     hash.Hash   // SHA256
	shake *sha3.SHAKE // SHAKE256
	sum   string      // set by Sum
}

// NewDigest returns a Digest for alg.
func NewDigest(alg Algorithm) (*Digest, error) {
	switch alg {
	case SHA256:
		return &Digest{alg: alg, h: sha256.New()}, nil
	case SHAKE256:
		return &Digest{alg: alg, shake: sha3.NewSHAKE256()}, nil
	}
	return nil, fmt.Errorf("%w: unknown algorithm %s", ErrBadDigest, excerpt(string(alg)))
}

// Write adds p to the hash. It returns [ErrClosed] after Sum.
func (d *Digest) Write(p []byte) (int, error) {
	if d.sum != "" {
		return 0, ErrClosed
	}
	if d.shake != nil {
		return d.shake.Write(p)
	}
	return d.h.Write(p)
}

// Sum finishes the hash and returns its text form, as [FormatDigest]
// writes it. Later calls return the same value.
func (d *Digest) Sum() string {
	if d.sum != "" {
		return d.sum
	}
	var sum [DigestSize]byte
	if d.shake != nil {
		// Read never fails.
		_, _ = d.shake.Read(sum[:])
	} else {
		d.h.Sum(sum[:0])
	}
	d.sum = string(d.alg) + ":" + hex.EncodeToString(sum[:])
	return d.sum
}

// A Hasher computes the snapshot_hash of a key-value map (agent-manifest
// spec §3.2.6.1): the digest of the map's RFC 8785 canonical JSON, streamed from
// members added in key order. It writes the bytes through a [MapWriter],
// so they are exactly what [WriteMap] exports for the same entries. A
// Hasher is not safe for concurrent use.
type Hasher struct {
	d  *Digest
	mw *MapWriter
}

// NewHasher returns a Hasher using alg.
func NewHasher(alg Algorithm) (*Hasher, error) {
	d, err := NewDigest(alg)
	if err != nil {
		return nil, err
	}
	return &Hasher{d: d, mw: NewMapWriter(d)}, nil
}

// Add hashes the member key:canonicalValue, as [MapWriter.Add] writes it.
// Keys must come in strictly increasing [CompareKeys] order; an error
// wrapping [ErrKeyOrder] or [ErrInvalidEntry] is returned otherwise, and
// the Hasher stays failed.
func (h *Hasher) Add(key string, canonicalValue []byte) error {
	return h.mw.Add(key, canonicalValue)
}

// Err returns the error of the first failed Add, or nil.
func (h *Hasher) Err() error { return h.mw.err }

// Sum finishes the map and returns its digest, "sha256:<64 hex>" or
// "shake256:<64 hex>". An empty map hashes as "{}". If any Add failed, Sum
// returns the empty string, which matches no digest, rather than the hash
// of an incomplete map. After Sum, Add returns [ErrClosed].
func (h *Hasher) Sum() string {
	if err := h.mw.Close(); err != nil {
		return ""
	}
	return h.d.Sum()
}

// HashMap returns the snapshot_hash of entries, which must come in strictly
// increasing key order with canonical values.
func HashMap(alg Algorithm, entries iter.Seq2[string, []byte]) (string, error) {
	h, err := NewHasher(alg)
	if err != nil {
		return "", err
	}
	for k, v := range entries {
		if err := h.Add(k, v); err != nil {
			return "", err
		}
	}
	return h.Sum(), nil
}
