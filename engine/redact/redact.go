// Package redact implements memgov's secret-redaction invariant (SR-1): when a
// memory write would persist a value the run's vault resolved during the run,
// the persisted content carries [REDACTED:<secretId>] in place of the
// plaintext.
//
// Redaction is plain substring replacement, never a regular expression, so a
// secret containing metacharacters cannot change its behaviour. Values shorter
// than MinSecretLen bytes are not redacted (the gitleaks and TruffleHog
// convention): short strings occur too often by chance.
package redact

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// MinSecretLen is the shortest value, in bytes, that is redacted.
const MinSecretLen = 8

// MaxSecretIDLen is the longest secret id, in bytes.
const MaxSecretIDLen = 64

// ErrInvalidSecretID is wrapped by the error Register returns for a secret id
// outside [A-Za-z0-9._-]{1,64}.
var ErrInvalidSecretID = errors.New("invalid secret id")

// ValidSecretID reports whether id matches [A-Za-z0-9._-]{1,64}.
func ValidSecretID(id string) bool {
	if id == "" || len(id) > MaxSecretIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '.' || c == '_' || c == '-'
		if !ok {
			return false
		}
	}
	return true
}

// Marker returns the text that replaces the value of the secret id.
func Marker(id string) string { return "[REDACTED:" + id + "]" }

// Registry holds the secrets resolved during each run. Secrets registered
// under the run id "" apply to every run. A Registry is safe for concurrent
// use, and its zero value is an empty Registry.
type Registry struct {
	mu   sync.RWMutex
	runs map[string]map[string]string // run id -> value -> secret id
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry {
	return &Registry{runs: make(map[string]map[string]string)}
}

// Register records value as the plaintext of secretID for runID. It reports
// whether the value was registered: values shorter than MinSecretLen bytes are
// ignored, which is not an error. Registering the same value again under
// another id replaces the id used in its marker. Register fails only for an
// invalid secretID; the error never contains the value.
func (g *Registry) Register(runID, secretID, value string) (registered bool, err error) {
	if !ValidSecretID(secretID) {
		return false, fmt.Errorf("redact: register: %w", ErrInvalidSecretID)
	}
	if len(value) < MinSecretLen {
		return false, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs == nil {
		g.runs = make(map[string]map[string]string)
	}
	m := g.runs[runID]
	if m == nil {
		m = make(map[string]string)
		g.runs[runID] = m
	}
	m[value] = secretID
	return true, nil
}

// Forget drops every secret registered for runID. Forgetting "" drops the
// secrets that apply to every run.
func (g *Registry) Forget(runID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.runs, runID)
}

// Redactor returns a snapshot of the secrets that apply to runID: those
// registered for it and those registered for "". Later changes to the
// Registry do not affect the returned Redactor. Where a value is registered
// both for runID and for "", the id registered for runID is used.
func (g *Registry) Redactor(runID string) *Redactor {
	g.mu.RLock()
	defer g.mu.RUnlock()
	merged := make(map[string]string, len(g.runs[""])+len(g.runs[runID]))
	for v, id := range g.runs[""] {
		merged[v] = id
	}
	if runID != "" {
		for v, id := range g.runs[runID] {
			merged[v] = id
		}
	}
	return newRedactor(merged)
}

// NewRedactor returns a Redactor for a fixed set of secrets, given as a map
// from secret id to value. Invalid ids and values shorter than MinSecretLen
// are skipped.
func NewRedactor(secrets map[string]string) *Redactor {
	byValue := make(map[string]string, len(secrets))
	ids := make([]string, 0, len(secrets))
	for id := range secrets {
		ids = append(ids, id)
	}
	slices.Sort(ids) // a value given under two ids gets the first id
	for _, id := range slices.Backward(ids) {
		if v := secrets[id]; ValidSecretID(id) && len(v) >= MinSecretLen {
			byValue[v] = id
		}
	}
	return newRedactor(byValue)
}

type secret struct {
	value, id string
}

// Redactor replaces the secrets of one run. It is immutable and safe for
// concurrent use. A nil *Redactor redacts nothing.
type Redactor struct {
	secrets []secret     // longest value first
	first   [256][]int32 // first byte -> indexes into secrets, longest first
	// check is set when a marker could itself spell a secret (a value
	// containing '[' or ']', or occurring inside a marker); String then
	// verifies its output.
	check bool
}

func newRedactor(byValue map[string]string) *Redactor {
	r := &Redactor{secrets: make([]secret, 0, len(byValue))}
	for v, id := range byValue {
		r.secrets = append(r.secrets, secret{value: v, id: id})
	}
	slices.SortFunc(r.secrets, func(a, b secret) int {
		if c := cmp.Compare(len(b.value), len(a.value)); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	for i, s := range r.secrets {
		r.first[s.value[0]] = append(r.first[s.value[0]], int32(i))
	}
	for _, s := range r.secrets {
		if strings.ContainsAny(s.value, "[]") {
			r.check = true
			break
		}
		for _, t := range r.secrets {
			if strings.Contains(Marker(t.id), s.value) {
				r.check = true
				break
			}
		}
	}
	return r
}

// Empty reports whether r has no secrets to redact.
func (r *Redactor) Empty() bool { return r == nil || len(r.secrets) == 0 }

// Len returns the number of secret values r redacts.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	return len(r.secrets)
}

// match returns the index of the longest secret occurring at s[i:], or -1.
func (r *Redactor) match(s string, i int) int {
	for _, k := range r.first[s[i]] {
		if strings.HasPrefix(s[i:], r.secrets[k].value) {
			return int(k)
		}
	}
	return -1
}

// String returns s with every registered value replaced by
// [REDACTED:<secretId>].
//
// It scans s once, left to right, and never re-scans replaced text. At each
// position the longest value occurring there is replaced whole, so a secret
// that contains another yields one marker. When values overlap in s (the
// tail of one is the head of the next), the whole overlapping span is
// replaced, one marker per secret, so no part of either survives.
//
// In the rare case that a marker would itself spell a registered value (a
// value containing brackets, or one that is part of "[REDACTED:<id>]"), the
// markers lose their ids, and if that is not enough, values are removed
// without a marker until none remains: the plaintext never survives.
func (r *Redactor) String(s string) string {
	if r.Empty() || len(s) < MinSecretLen {
		return s
	}
	out := r.replace(s, Marker)
	if !r.check || !r.contains(out) {
		return out
	}
	out = r.replace(s, func(string) string { return "[REDACTED]" })
	for r.contains(out) {
		// Each pass removes at least MinSecretLen bytes, so this ends.
		out = r.replace(out, func(string) string { return "" })
	}
	return out
}

func (r *Redactor) replace(s string, marker func(id string) string) string {
	var b strings.Builder
	var ids []string
	start := 0 // s[start:i] is pending plain text
	for i := 0; i < len(s); {
		k := r.match(s, i)
		if k < 0 {
			i++
			continue
		}
		// Extend the span over every secret that starts inside it and ends
		// beyond it.
		ids = append(ids[:0], r.secrets[k].id)
		end := i + len(r.secrets[k].value)
		for j := i + 1; j < end; j++ {
			if m := r.match(s, j); m >= 0 && j+len(r.secrets[m].value) > end {
				end = j + len(r.secrets[m].value)
				if !slices.Contains(ids, r.secrets[m].id) {
					ids = append(ids, r.secrets[m].id)
				}
			}
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[start:i])
		for _, id := range ids {
			b.WriteString(marker(id))
		}
		i, start = end, end
	}
	if start == 0 {
		return s
	}
	b.WriteString(s[start:])
	return b.String()
}

// contains reports whether any registered value occurs in s.
func (r *Redactor) contains(s string) bool {
	for i := 0; i < len(s); i++ {
		if r.match(s, i) >= 0 {
			return true
		}
	}
	return false
}
