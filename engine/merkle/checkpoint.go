package merkle

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
)

// TTL bounds, in seconds.
const (
	MinAuditTTL  = 60      // least ttl_seconds of an audit checkpoint (spec §3.2.7.1)
	MinMemoryTTL = 3600    // least ttl_seconds of a memory baseline (spec §3.2.6)
	MaxTTL       = 7776000 // greatest ttl_seconds of both (90 days)
)

// EventMemoryDrift is the audit event a drift verdict calls for (spec §3.2.6.1).
const EventMemoryDrift = "MEMORY_DRIFT_DETECTED"

// A Code is the outcome of a checkpoint acceptance rule.
type Code string

// Verdict codes.
const (
	CodeAccept   Code = "ACCEPT"   // every rule holds
	CodeRollback Code = "rollback" // the sequence number did not advance
	CodeExpired  Code = "expired"  // the checkpoint's TTL has passed
	CodeMismatch Code = "MISMATCH" // audit continuity not shown (spec §3.2.7.1)
	CodeDrift    Code = "drift"    // memory log not an append-only extension (spec §3.2.6.2)
	CodeBudget   Code = "budget"   // the delta exceeds the declared budget (spec §3.2.6.2)
)

// A Verdict is the result of checking a checkpoint: its Code and a
// human-readable Detail saying why.
type Verdict struct {
	Code   Code
	Detail string
}

// Accepted reports whether the verdict is [CodeAccept].
func (v Verdict) Accepted() bool { return v.Code == CodeAccept }

// String returns the code, then the detail if there is one.
func (v Verdict) String() string {
	if v.Detail == "" {
		return string(v.Code)
	}
	return string(v.Code) + ": " + v.Detail
}

func verdict(c Code, format string, args ...any) Verdict {
	return Verdict{Code: c, Detail: fmt.Sprintf(format, args...)}
}

// ErrInvalidCheckpoint is returned for a checkpoint that breaks a field rule.
var ErrInvalidCheckpoint = errors.New("merkle: invalid checkpoint")

// An AuditCheckpoint binds the state of memgov's audit log (spec §3.2.7.1).
// Its JSON form is {"audit_chain_root":"sha256:<hex>","tree_size":...,
// "seq":...,"observed_at":"<RFC 3339 UTC>","ttl_seconds":...}.
type AuditCheckpoint struct {
	Root       Hash
	TreeSize   uint64
	Seq        uint64
	ObservedAt time.Time
	TTLSeconds int64
}

type auditJSON struct {
	Root       string `json:"audit_chain_root"`
	TreeSize   uint64 `json:"tree_size"`
	Seq        uint64 `json:"seq"`
	ObservedAt string `json:"observed_at"`
	TTLSeconds int64  `json:"ttl_seconds"`
}

// Validate checks the field rules of spec §3.2.7.1: ttl_seconds in
// [MinAuditTTL, MaxTTL] and a set observation time.
func (c AuditCheckpoint) Validate() error {
	if c.TTLSeconds < MinAuditTTL || c.TTLSeconds > MaxTTL {
		return fmt.Errorf("%w: ttl_seconds %d outside %d..%d", ErrInvalidCheckpoint, c.TTLSeconds, MinAuditTTL, MaxTTL)
	}
	if c.ObservedAt.IsZero() {
		return fmt.Errorf("%w: observed_at is not set", ErrInvalidCheckpoint)
	}
	return nil
}

// MaxSafeInteger is the largest integer RFC 8785 (through I-JSON, RFC 7493)
// represents exactly; checkpoints with a larger number do not marshal, so
// two checkpoints never share a canonical form or a signature.
const MaxSafeInteger = 1<<53 - 1

func checkSafe(treeSize, seq uint64, ttl int64) error {
	if treeSize > MaxSafeInteger || seq > MaxSafeInteger || ttl > MaxSafeInteger || ttl < -MaxSafeInteger {
		return fmt.Errorf("%w: tree_size, seq or ttl_seconds beyond %d", ErrInvalidCheckpoint, int64(MaxSafeInteger))
	}
	return nil
}

// MarshalJSON implements [json.Marshaler].
func (c AuditCheckpoint) MarshalJSON() ([]byte, error) {
	if err := checkSafe(c.TreeSize, c.Seq, c.TTLSeconds); err != nil {
		return nil, err
	}
	return json.Marshal(auditJSON{
		Root:       c.Root.Prefixed(),
		TreeSize:   c.TreeSize,
		Seq:        c.Seq,
		ObservedAt: formatTime(c.ObservedAt),
		TTLSeconds: c.TTLSeconds,
	})
}

// UnmarshalJSON implements [json.Unmarshaler]. It requires a
// "sha256:"-prefixed root and a UTC time; it does not call Validate.
func (c *AuditCheckpoint) UnmarshalJSON(data []byte) error {
	var j auditJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("merkle: audit checkpoint: %w", err)
	}
	root, err := ParsePrefixed(j.Root)
	if err != nil {
		return fmt.Errorf("merkle: audit checkpoint: audit_chain_root: %w", err)
	}
	at, err := parseTime(j.ObservedAt)
	if err != nil {
		return fmt.Errorf("merkle: audit checkpoint: observed_at: %w", err)
	}
	*c = AuditCheckpoint{Root: root, TreeSize: j.TreeSize, Seq: j.Seq, ObservedAt: at, TTLSeconds: j.TTLSeconds}
	return nil
}

// A MemoryCheckpoint binds the state of a memory operation log (spec §3.2.6.2).
// Its JSON form is {"memory_root":"sha256:<hex>","tree_size":...,
// "seq":...,"approved_at":"<RFC 3339 UTC>","ttl_seconds":...}.
type MemoryCheckpoint struct {
	Root       Hash
	TreeSize   uint64
	Seq        uint64
	ApprovedAt time.Time
	TTLSeconds int64
}

type memoryJSON struct {
	Root       string `json:"memory_root"`
	TreeSize   uint64 `json:"tree_size"`
	Seq        uint64 `json:"seq"`
	ApprovedAt string `json:"approved_at"`
	TTLSeconds int64  `json:"ttl_seconds"`
}

// Validate checks the field rules that spec §3.2.6 sets for a memory baseline:
// ttl_seconds in [MinMemoryTTL, MaxTTL] and a set approval time.
func (c MemoryCheckpoint) Validate() error {
	if c.TTLSeconds < MinMemoryTTL || c.TTLSeconds > MaxTTL {
		return fmt.Errorf("%w: ttl_seconds %d outside %d..%d", ErrInvalidCheckpoint, c.TTLSeconds, MinMemoryTTL, MaxTTL)
	}
	if c.ApprovedAt.IsZero() {
		return fmt.Errorf("%w: approved_at is not set", ErrInvalidCheckpoint)
	}
	return nil
}

// MarshalJSON implements [json.Marshaler].
func (c MemoryCheckpoint) MarshalJSON() ([]byte, error) {
	if err := checkSafe(c.TreeSize, c.Seq, c.TTLSeconds); err != nil {
		return nil, err
	}
	return json.Marshal(memoryJSON{
		Root:       c.Root.Prefixed(),
		TreeSize:   c.TreeSize,
		Seq:        c.Seq,
		ApprovedAt: formatTime(c.ApprovedAt),
		TTLSeconds: c.TTLSeconds,
	})
}

// UnmarshalJSON implements [json.Unmarshaler]. It requires a
// "sha256:"-prefixed root and a UTC time; it does not call Validate.
func (c *MemoryCheckpoint) UnmarshalJSON(data []byte) error {
	var j memoryJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("merkle: memory checkpoint: %w", err)
	}
	root, err := ParsePrefixed(j.Root)
	if err != nil {
		return fmt.Errorf("merkle: memory checkpoint: memory_root: %w", err)
	}
	at, err := parseTime(j.ApprovedAt)
	if err != nil {
		return fmt.Errorf("merkle: memory checkpoint: approved_at: %w", err)
	}
	*c = MemoryCheckpoint{Root: root, TreeSize: j.TreeSize, Seq: j.Seq, ApprovedAt: at, TTLSeconds: j.TTLSeconds}
	return nil
}

// formatTime writes t in UTC as RFC 3339 with as many fractional digits as
// it needs, so that parsing gives back the same instant.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// parseTime parses an RFC 3339 time that must be in UTC ("Z").
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	if len(s) == 0 || s[len(s)-1] != 'Z' {
		return time.Time{}, fmt.Errorf("time %q is not in UTC", s)
	}
	return t.UTC(), nil
}

// withinTTL reports whether now <= start + ttl seconds. A negative TTL is
// never within; a TTL too large for time.Duration is capped, not wrapped.
func withinTTL(start time.Time, ttl int64, now time.Time) bool {
	if ttl < 0 {
		return false
	}
	ttl = min(ttl, math.MaxInt64/int64(time.Second))
	return !now.After(start.Add(time.Duration(ttl) * time.Second))
}

// AcceptAudit decides whether the current state of an audit log continues
// a signed checkpoint (spec §3.2.7.1 merkle-log mode), checking in order:
//
//  1. both checkpoints are valid, and current.TreeSize >= signed.TreeSize > 0
//     (the hash algorithm is SHA-256 for both by construction), else
//     MISMATCH;
//  2. proof is an RFC 9162 consistency proof that signed.Root is a prefix of
//     current.Root, else MISMATCH;
//  3. current.Seq >= signed.Seq, and current.Seq > signed.Seq when the sizes
//     differ, else rollback;
//  4. now <= signed.ObservedAt + signed.TTLSeconds, else expired: the TTL
//     bounds how long the signed checkpoint may anchor continuity.
//
// If all hold the verdict is ACCEPT.
func AcceptAudit(signed, current AuditCheckpoint, proof []Hash, now time.Time) Verdict {
	if err := signed.Validate(); err != nil {
		return verdict(CodeMismatch, "signed checkpoint: %v", err)
	}
	if err := current.Validate(); err != nil {
		return verdict(CodeMismatch, "current checkpoint: %v", err)
	}
	if signed.TreeSize == 0 {
		return verdict(CodeMismatch, "signed checkpoint has tree_size 0")
	}
	if current.TreeSize < signed.TreeSize {
		return verdict(CodeMismatch, "current tree_size %d is below signed tree_size %d", current.TreeSize, signed.TreeSize)
	}
	if err := VerifyConsistency(signed.TreeSize, current.TreeSize, signed.Root, current.Root, proof); err != nil {
		return verdict(CodeMismatch, "signed root is not shown to be a prefix: %v", err)
	}
	if current.Seq < signed.Seq || (current.TreeSize != signed.TreeSize && current.Seq == signed.Seq) {
		return verdict(CodeRollback, "current seq %d does not follow signed seq %d (tree_size %d -> %d)", current.Seq, signed.Seq, signed.TreeSize, current.TreeSize)
	}
	if !withinTTL(signed.ObservedAt, signed.TTLSeconds, now) {
		return verdict(CodeExpired, "signed checkpoint observed at %s with ttl %ds has expired at %s", formatTime(signed.ObservedAt), signed.TTLSeconds, formatTime(now))
	}
	return verdict(CodeAccept, "tree_size %d -> %d, seq %d -> %d", signed.TreeSize, current.TreeSize, signed.Seq, current.Seq)
}

// A Budget bounds how much a memory log may change in one advance.
type Budget struct {
	// MaxOps is the largest number of operations one advance may append;
	// 0 means no limit.
	MaxOps uint64
}

// AcceptAdvance decides whether a memory log may advance from checkpoint
// prev to checkpoint next (spec §3.2.6.2), checking in order:
//
//  1. proof is an RFC 9162 consistency proof that prev.Root is an
//     append-only prefix of next.Root, else drift (the caller emits
//     MEMORY_DRIFT_DETECTED and applies its drift policy);
//  2. next.Seq > prev.Seq, else rollback;
//  3. now <= next.ApprovedAt + next.TTLSeconds, else expired;
//  4. next.TreeSize - prev.TreeSize <= budget.MaxOps (unless 0), else budget.
//
// If all hold the verdict is ACCEPT. An advance is never accepted without a
// proof that verifies; see [VerifyConsistency] for the sizes RFC 9162 does
// not cover: from an empty log (prev.TreeSize 0) the proof is empty and
// prev.Root must be [EmptyRoot]; between equal sizes it is empty and the
// roots must be equal. Callers should [MemoryCheckpoint.Validate] the
// checkpoints they receive.
func AcceptAdvance(prev, next MemoryCheckpoint, proof []Hash, now time.Time, budget Budget) Verdict {
	if err := VerifyConsistency(prev.TreeSize, next.TreeSize, prev.Root, next.Root, proof); err != nil {
		return verdict(CodeDrift, "%s: prior root is not shown to be an append-only prefix: %v", EventMemoryDrift, err)
	}
	if next.Seq <= prev.Seq {
		return verdict(CodeRollback, "seq %d does not exceed prior seq %d", next.Seq, prev.Seq)
	}
	if !withinTTL(next.ApprovedAt, next.TTLSeconds, now) {
		return verdict(CodeExpired, "checkpoint approved at %s with ttl %ds has expired at %s", formatTime(next.ApprovedAt), next.TTLSeconds, formatTime(now))
	}
	delta := next.TreeSize - prev.TreeSize
	if budget.MaxOps != 0 && delta > budget.MaxOps {
		return verdict(CodeBudget, "%d operations exceed the budget of %d", delta, budget.MaxOps)
	}
	return verdict(CodeAccept, "tree_size %d -> %d (%d operations), seq %d -> %d", prev.TreeSize, next.TreeSize, delta, prev.Seq, next.Seq)
}

// ErrBadSignature is returned by [VerifySignature] when a signature does not
// match.
var ErrBadSignature = errors.New("merkle: signature does not match")

// Sign returns the hex HMAC-SHA256, under key, of the RFC 8785 canonical
// JSON of v, typically an [AuditCheckpoint] or a [MemoryCheckpoint].
func Sign(key []byte, v any) (string, error) {
	mac, err := macOf(key, v)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(mac), nil
}

// VerifySignature checks that sig is the signature [Sign] gives for key and
// v, in constant time. It returns an error wrapping [ErrBadSignature] if not.
func VerifySignature(key []byte, v any, sig string) error {
	want, err := macOf(key, v)
	if err != nil {
		return err
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("%w: not hex: %w", ErrBadSignature, err)
	}
	if !hmac.Equal(got, want) {
		return ErrBadSignature
	}
	return nil
}

func macOf(key []byte, v any) ([]byte, error) {
	if len(key) == 0 {
		return nil, errors.New("merkle: empty signing key")
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("merkle: signing: %w", err)
	}
	canon, err := jsoncanonicalizer.Transform(raw)
	if err != nil {
		return nil, fmt.Errorf("merkle: signing: canonicalising: %w", err)
	}
	m := hmac.New(sha256.New, key)
	m.Write(canon)
	return m.Sum(nil), nil
}
