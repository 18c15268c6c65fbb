package oplog

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
)

// Entry is one row of the append-only log. The log keeps identifiers and
// hashes; the payload (content, reasons) is stored apart so that an erasure can
// remove it while the Merkle log still verifies.
type Entry struct {
	LSN           int64           `json:"lsn"`
	Time          time.Time       `json:"ts"`
	Op            Op              `json:"op"`
	MemoryRef     string          `json:"memory_ref,omitempty"`
	ItemID        string          `json:"item_id,omitempty"`
	VersionID     string          `json:"version_id,omitempty"`
	PrevVersionID string          `json:"previous_version_id,omitempty"`
	Actor         string          `json:"actor"`
	Payload       json.RawMessage `json:"payload,omitempty"` // canonical JSON; nil once erased
	PayloadHash   string          `json:"payload_hash"`
	Leaf          merkle.Hash     `json:"-"`
	Chain         merkle.Hash     `json:"-"`

	// sealed is the decoding of the payload Seal produced, which the
	// store's derived rows read several times while appending the entry;
	// it stands for Payload only while Payload is still those bytes.
	sealed *sealedPayload
}

type sealedPayload struct {
	raw json.RawMessage
	p   Payload
}

// canonicalEntry is the part of an entry that its Merkle leaf commits to.
type canonicalEntry struct {
	Actor         string `json:"actor"`
	ItemID        string `json:"item_id"`
	LSN           int64  `json:"lsn"`
	MemoryRef     string `json:"memory_ref"`
	Op            Op     `json:"op"`
	PayloadHash   string `json:"payload_hash"`
	PrevVersionID string `json:"previous_version_id"`
	Time          string `json:"ts"`
	VersionID     string `json:"version_id"`
}

// TimeFormat is how log times are written: RFC 3339 UTC with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Canonical returns the RFC 8785 JSON the entry's leaf commits to.
func (e *Entry) Canonical() ([]byte, error) {
	c := canonicalEntry{
		Actor: e.Actor, ItemID: e.ItemID, LSN: e.LSN, MemoryRef: e.MemoryRef, Op: e.Op,
		PayloadHash: e.PayloadHash, PrevVersionID: e.PrevVersionID,
		Time: e.Time.UTC().Format(TimeFormat), VersionID: e.VersionID,
	}
	if b, ok := c.canonical(); ok {
		return b, nil
	}
	return canon.Marshal(c)
}

// ComputeLeaf returns the spec §3.2.7.1 entry leaf:
// SHA-256(0x00 || "am-trace-entry\x00" || canonical_entry).
func (e *Entry) ComputeLeaf() (merkle.Hash, error) {
	c, err := e.Canonical()
	if err != nil {
		return merkle.Hash{}, fmt.Errorf("canonical log entry %d: %w", e.LSN, err)
	}
	return merkle.LeafHash(merkle.TagTraceEntry, c), nil
}

// ChainNext returns the keyed chain value of an entry: HMAC-SHA256(key, prev || leaf).
// Without the key, a forger who recomputes leaves cannot recompute the chain.
func ChainNext(key []byte, prev, leaf merkle.Hash) merkle.Hash {
	m := hmac.New(sha256.New, key)
	m.Write(prev[:])
	m.Write(leaf[:])
	var out merkle.Hash
	copy(out[:], m.Sum(nil))
	return out
}

// HashPayload returns sha256:<hex> of a payload's bytes.
func HashPayload(p []byte) string {
	sum := sha256.Sum256(p)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Payload is the erasable body of a log entry. Memory operations fill the version
// fields; other operations use Data, the JSON of the operation's typed data
// (see data.go). Salt makes the payload hash useless for confirming a guess
// about erased content.
type Payload struct {
	Reason          string          `json:"reason,omitempty"`
	Salt            string          `json:"salt"`
	Key             string          `json:"key,omitempty"`
	Layer           string          `json:"layer,omitempty"`
	Content         json.RawMessage `json:"content,omitempty"`
	ContentHash     string          `json:"content_hash,omitempty"`
	Tags            []string        `json:"tags,omitempty"`
	Confidence      *float64        `json:"confidence,omitempty"`
	ValidationScore *float64        `json:"validation_score,omitempty"`
	Classification  string          `json:"classification,omitempty"`
	ExpiresAt       string          `json:"expires_at,omitempty"`
	MergedFrom      string          `json:"merged_from,omitempty"`
	Data            json.RawMessage `json:"data,omitempty"`
}

// Seal canonicalises the payload into the entry and sets its hash.
func (e *Entry) Seal(p Payload) error {
	if p.Salt == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("payload salt: %w", err)
		}
		p.Salt = hex.EncodeToString(b[:])
	}
	raw, ok, err := p.canonical()
	if err == nil && !ok {
		raw, err = canon.Marshal(p)
	}
	if err != nil {
		return fmt.Errorf("canonical payload: %w", err)
	}
	e.Payload = raw
	e.PayloadHash = HashPayload(raw)
	// Decoded once here, from the canonical bytes, exactly as a replay
	// decodes them: the rows applied now equal the rows a replay applies.
	var d Payload
	if err := json.Unmarshal(raw, &d); err != nil {
		return fmt.Errorf("canonical payload: %w", err)
	}
	e.sealed = &sealedPayload{raw: raw, p: d}
	return nil
}

// DecodePayload decodes the entry's payload; an erased payload decodes empty.
func (e *Entry) DecodePayload() (Payload, error) {
	var p Payload
	if len(e.Payload) == 0 {
		return p, nil
	}
	if s := e.sealed; s != nil && len(s.raw) == len(e.Payload) && &s.raw[0] == &e.Payload[0] {
		return s.p.clone(), nil
	}
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return p, fmt.Errorf("log entry %d payload: %w", e.LSN, err)
	}
	return p, nil
}

// clone returns a copy of p that shares no memory with it, so that a caller
// that changes what DecodePayload returned changes nothing another reads.
func (p Payload) clone() Payload {
	p.Content = bytes.Clone(p.Content)
	p.Data = bytes.Clone(p.Data)
	p.Tags = slices.Clone(p.Tags)
	if p.Confidence != nil {
		c := *p.Confidence
		p.Confidence = &c
	}
	if p.ValidationScore != nil {
		v := *p.ValidationScore
		p.ValidationScore = &v
	}
	return p
}

// DecodeOptionalData is DecodeData for an entry that may carry no data (an
// erased payload, or an operation written without any): that is the zero T.
func DecodeOptionalData[T any](e *Entry) (T, error) {
	var d T
	p, err := e.DecodePayload()
	if err != nil || len(p.Data) == 0 {
		return d, err
	}
	if err := json.Unmarshal(p.Data, &d); err != nil {
		return d, fmt.Errorf("log entry %d: %s data: %w", e.LSN, e.Op, err)
	}
	return d, nil
}

// DecodeData decodes the typed data of the entry's payload into a T.
func DecodeData[T any](e *Entry) (T, error) {
	var d T
	p, err := e.DecodePayload()
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(p.Data, &d); err != nil {
		return d, fmt.Errorf("log entry %d: %s data: %w", e.LSN, e.Op, err)
	}
	return d, nil
}
