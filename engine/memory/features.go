package memory

import (
	"crypto/sha256"
	"encoding/json"
	"strings"

	"github.com/memgov/memgov/engine/similar"
)

// Features are what the dedup and contradiction gates compare, computed from a
// version's content the same way at write time and when the store indexes it.
type Features struct {
	Text        string
	Fingerprint [16]byte // tier 2: structural fingerprint (12.3.2)
	Subject     string   // normalised triple, when the content has one
	Predicate   string
	Object      string
	Embedding   similar.Vector // tier 3: hashed n-gram vector
	SimHash     similar.SimHash
}

// FeaturesOf computes the features of a canonical content object.
func FeaturesOf(content json.RawMessage) Features {
	var c struct {
		Text      string `json:"text"`
		Subject   any    `json:"subject"`
		Predicate any    `json:"predicate"`
		Object    any    `json:"object"`
	}
	_ = json.Unmarshal(content, &c)
	f := Features{Text: c.Text, Subject: normField(c.Subject), Predicate: normField(c.Predicate), Object: normField(c.Object)}
	if f.Subject != "" && f.Predicate != "" {
		// 12.3.2: f(m) = hash(subject || predicate || normalize(object)).
		h := sha256.Sum256([]byte(f.Subject + "\x00" + f.Predicate + "\x00" + f.Object))
		copy(f.Fingerprint[:], h[:16])
	} else {
		f.Fingerprint = similar.Fingerprint(c.Text)
	}
	f.Embedding = similar.Embed(c.Text)
	f.SimHash = similar.Sign(f.Embedding)
	return f
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
