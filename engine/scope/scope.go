// Package scope parses and validates memoryRef strings, the scope of an
// agent's memory, so that every lookup is confined to a single tenant (CTI-1).
//
// memgov encodes a memoryRef as
//
//	<tenant>/<agent>[/<namespace>...]
//
// Each segment is 1 to 64 bytes drawn from [A-Za-z0-9._-] and may not consist
// only of dots, so "." and ".." (path traversal) can never appear. A ref has
// between 2 and 8 segments and is at most 256 bytes long. Anything else —
// empty segments, leading or trailing slashes, backslashes, percent
// encodings, control bytes, whitespace, non-ASCII lookalikes — is rejected.
//
// Errors never repeat the input, which may carry data; they name only the
// position of the problem.
package scope

import (
	"errors"
	"fmt"
	"strings"
)

// Limits of the memoryRef encoding.
const (
	MinSegments   = 2   // tenant and agent
	MaxSegments   = 8   // tenant, agent and up to six namespace segments
	MaxSegmentLen = 64  // bytes per segment
	MaxRefLen     = 256 // bytes per ref
)

// ErrMalformed is wrapped by every error Parse returns.
var ErrMalformed = errors.New("malformed memoryRef")

// Ref is a parsed memoryRef.
type Ref struct {
	Tenant    string
	Agent     string
	Namespace []string
}

// Parse parses s as a memoryRef. A non-nil error wraps ErrMalformed and does
// not contain s.
func Parse(s string) (Ref, error) {
	if s == "" {
		return Ref{}, malformed("empty")
	}
	if len(s) > MaxRefLen {
		return Ref{}, malformed(fmt.Sprintf("longer than %d bytes", MaxRefLen))
	}
	if s[0] == '/' {
		return Ref{}, malformed("leading slash")
	}
	if s[len(s)-1] == '/' {
		return Ref{}, malformed("trailing slash")
	}
	segs := strings.Split(s, "/")
	if len(segs) < MinSegments {
		return Ref{}, malformed(fmt.Sprintf("fewer than %d segments", MinSegments))
	}
	if len(segs) > MaxSegments {
		return Ref{}, malformed(fmt.Sprintf("more than %d segments", MaxSegments))
	}
	for i, seg := range segs {
		if err := checkSegment(seg); err != nil {
			return Ref{}, malformed(fmt.Sprintf("segment %d %s", i+1, err))
		}
	}
	r := Ref{Tenant: segs[0], Agent: segs[1]}
	if len(segs) > 2 {
		r.Namespace = segs[2:]
	}
	return r, nil
}

// segmentError describes a bad segment without repeating it.
type segmentError string

func (e segmentError) Error() string { return string(e) }

func checkSegment(seg string) error {
	if seg == "" {
		return segmentError("is empty")
	}
	if len(seg) > MaxSegmentLen {
		return segmentError(fmt.Sprintf("is longer than %d bytes", MaxSegmentLen))
	}
	dots := true
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if !allowed(c) {
			return segmentError(fmt.Sprintf("contains a disallowed byte at offset %d", i))
		}
		if c != '.' {
			dots = false
		}
	}
	if dots {
		return segmentError("is made only of dots")
	}
	return nil
}

func allowed(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '.', c == '_', c == '-':
		return true
	}
	return false
}

func malformed(reason string) error {
	return fmt.Errorf("%w: %s", ErrMalformed, reason)
}

// Valid reports whether s is a well-formed memoryRef.
func Valid(s string) bool {
	_, err := Parse(s)
	return err == nil
}

// ValidSegment reports whether s is a well-formed single segment. Tenant and
// principal ids use the same alphabet and limits as memoryRef segments.
func ValidSegment(s string) bool {
	return checkSegment(s) == nil
}

// String returns the encoded form of r. For a Ref returned by Parse it is the
// string that was parsed.
func (r Ref) String() string {
	var b strings.Builder
	b.WriteString(r.Tenant)
	b.WriteByte('/')
	b.WriteString(r.Agent)
	for _, ns := range r.Namespace {
		b.WriteByte('/')
		b.WriteString(ns)
	}
	return b.String()
}

// Valid reports whether r is well formed: its fields are valid segments and
// their number is within the limits. A Ref built by hand rather than by Parse
// should be checked before use.
func (r Ref) Valid() bool {
	p, err := Parse(r.String())
	if err != nil || p.Tenant != r.Tenant || p.Agent != r.Agent || len(p.Namespace) != len(r.Namespace) {
		return false
	}
	for i := range p.Namespace {
		if p.Namespace[i] != r.Namespace[i] {
			return false
		}
	}
	return true
}

// Within reports whether r belongs to tenant. Tenant ids compare exactly, so
// "acme" and "ACME" are different tenants. An invalid Ref or tenant is never
// within anything.
func (r Ref) Within(tenant string) bool {
	return ValidSegment(tenant) && r.Tenant == tenant && r.Valid()
}
