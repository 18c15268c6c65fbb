// Package memory computes the judge-derived features of a memory's content:
// the structural fingerprint, the subject, predicate and object read from it,
// and its hashed-vector embedding with the SimHash bands, which the dedup and
// contradiction gates compare and the engine indexes. The domain types of
// governed memory are in the root package memgov.
package memory

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/similar"
)

// Features are what the dedup and contradiction gates compare, computed from a
// version's content the same way at write time and when the store indexes it.
type Features struct {
	Text        string
	Fingerprint [16]byte // tier 2: structural fingerprint (spec §12.3.2)
	Subject     string   // normalised triple, when the content has one
	Predicate   string
	Object      string
	Embedding   similar.Vector // tier 3: hashed n-gram vector
	SimHash     similar.SimHash
}

// FeaturesOf computes the features of a canonical content with the built-in
// judge. A content that is not valid JSON (a corrupt stored row) is an error,
// never the features of an empty text; valid JSON that is not an object with
// a text string (a memory map's value) has the features of no text.
func FeaturesOf(content json.RawMessage) (Features, error) {
	var c struct {
		Text      string `json:"text"`
		Subject   any    `json:"subject"`
		Predicate any    `json:"predicate"`
		Object    any    `json:"object"`
	}
	if !json.Valid(content) {
		return Features{}, fmt.Errorf("content is not valid JSON")
	}
	if json.Unmarshal(content, &c) != nil {
		c.Text, c.Subject, c.Predicate, c.Object = "", nil, nil, nil
	}
	f := Features{Text: c.Text, Subject: normField(c.Subject), Predicate: normField(c.Predicate), Object: normField(c.Object)}
	if f.Subject != "" && f.Predicate != "" {
		// spec §12.3.2: f(m) = hash(subject || predicate || normalize(object)).
		h := sha256.Sum256([]byte(f.Subject + "\x00" + f.Predicate + "\x00" + f.Object))
		copy(f.Fingerprint[:], h[:16])
	} else {
		// Plain text: a role-preserving fingerprint ("Acme acquired Globex"
		// and "Globex acquired Acme" differ), and the subject of its first
		// claim, which finds the write's same-subject neighbours.
		f.Fingerprint = judge.Fingerprint(c.Text)
		if f.Subject == "" {
			for _, cl := range judge.Extract(c.Text) {
				if cl.Subject != "" {
					f.Subject = cl.Subject
					break
				}
			}
		}
	}
	// Tier 3 compares normalised text: case, punctuation, stems, number and
	// date formats and synonyms folded.
	f.Embedding = similar.Embed(judge.Normalize(joinHyphens(c.Text)))
	f.SimHash = similar.Sign(f.Embedding)
	return f, nil
}

func normField(v any) string {
	switch x := v.(type) {
	case string:
		return similar.Normalize(x)
	case nil:
		return ""
	default:
		b, _ := json.Marshal(x)
		return strings.ToLower(string(b))
	}
}

// joinHyphens joins words split by a hyphen ("e-mail", "follow-up"), so that
// the hyphenated and the solid spelling compare alike.
func joinHyphens(s string) string {
	b := []byte(s)
	out := b[:0:0]
	for i, c := range b {
		if c == '-' && i > 0 && i+1 < len(b) && isLetter(b[i-1]) && isLetter(b[i+1]) {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
