package oplog

import (
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov/engine/canon"
)

// ErasedContent replaces the content of every erased version: the version,
// its state history and its hashes in the log stay; the text does not.
var ErasedContent = json.RawMessage(`{"erased":true}`)

const erasedKeyPrefix = "erased-"

// ErasedKey is the key an erased item keeps: the caller's key may itself name
// the subject.
func ErasedKey(itemID string) string { return erasedKeyPrefix + itemID }

// ErasedSkeleton returns the content-free payload that stands in for an erased
// payload when the log is replayed: structure (layer, classification, scores,
// expiry, merge links, review and decision identifiers, MEMORY_ITEM citations)
// stays so that every derived table rebuilds exactly; text, tags, reasons,
// notes, evidence excerpts, provenance and idempotency tokens do not.
func ErasedSkeleton(itemID string, body []byte) ([]byte, error) {
	var p Payload
	if len(body) > 0 {
		if err := json.Unmarshal(body, &p); err != nil {
			return nil, fmt.Errorf("erased payload: %w", err)
		}
	}
	s := Payload{Salt: "erased", Reason: "erased", Layer: p.Layer, Classification: p.Classification,
		Confidence: p.Confidence, ValidationScore: p.ValidationScore, ExpiresAt: p.ExpiresAt, MergedFrom: p.MergedFrom}
	if p.Key != "" {
		s.Key = ErasedKey(itemID)
	}
	if len(p.Content) > 0 {
		s.Content = ErasedContent
	}
	if len(p.Data) > 0 {
		s.Data = scrubData(p.Data)
	}
	return canon.Marshal(s)
}

// scrubData keeps the structural fields of any operation's data: the
// VersionData fields replay needs (with the review's detail, the decision's
// note and every evidence field but type and item removed) and the kind, from
// and to of annotations and reclassifications.
func scrubData(data json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	out := map[string]any{}
	// A commitment's identity, tenant, source version and due time are
	// structure (its predicate, which may name a key, is not).
	for _, k := range []string{"session_id", "observation_type", "residency", "kind", "from", "to", "id", "tenant", "sourceVersionId", "dueAt"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if v, ok := m["review"]; ok {
		var r StagedReview
		if json.Unmarshal(v, &r) == nil {
			r.Detail = nil
			out["review"] = r
		}
	}
	if v, ok := m["decision"]; ok {
		var d DecisionData
		if json.Unmarshal(v, &d) == nil {
			d.Note = ""
			out["decision"] = d
		}
	}
	if v, ok := m["evidence"]; ok {
		var ev []EvidenceRef
		if json.Unmarshal(v, &ev) == nil {
			kept := []EvidenceRef{}
			for _, r := range ev {
				kept = append(kept, EvidenceRef{SourceType: r.SourceType, SourceItemID: r.SourceItemID})
			}
			out["evidence"] = kept
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return b
}
