package engine

import (
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov/engine/redact"
)

// redactRequest replaces every registered secret in everything a write could
// store, hash, embed or log (SR-1): content, tags, evidence and the raw request.
func redactRequest(r *WriteRequest, red *redact.Redactor) error {
	if len(r.Content) > 0 {
		c, err := red.JSON(r.Content)
		if err != nil {
			return fmt.Errorf("%w: content: %v", ErrInvalid, err)
		}
		r.Content = c
	}
	for i, t := range r.Tags {
		r.Tags[i] = red.String(t)
	}
	for i := range r.EvidenceRefs {
		r.EvidenceRefs[i].Excerpt = red.String(r.EvidenceRefs[i].Excerpt)
		r.EvidenceRefs[i].SourceURI = red.String(r.EvidenceRefs[i].SourceURI)
	}
	r.Key = red.String(r.Key)
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	r.raw = raw
	return nil
}
