package writes

import (
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/redact"
)

// redactRequest replaces every registered secret in everything a write could
// store, hash, embed or log (SR-1): content, tags, evidence, every free field
// of the request (ids, tokens, types) and the raw request. Identifiers that
// cannot be redacted (memoryRef, key, agent) are refused before this, with
// SECRET_IN_IDENTIFIER.
func redactRequest(r *memgov.WriteRequest, red *redact.Redactor) error {
	if len(r.Content) > 0 {
		c, err := red.JSON(r.Content)
		if err != nil {
			return fmt.Errorf("%w: content: %v", memgov.ErrInvalid, err)
		}
		r.Content = c
	}
	for i, t := range r.Tags {
		r.Tags[i] = red.String(t)
	}
	for i := range r.EvidenceRefs {
		ev := &r.EvidenceRefs[i]
		ev.Excerpt = red.String(ev.Excerpt)
		ev.SourceURI = red.String(ev.SourceURI)
		ev.SourceItemID = red.String(ev.SourceItemID)
		ev.SourceType = red.String(ev.SourceType)
	}
	for _, f := range []*string{&r.RequestID, &r.IdempotencyToken, &r.RunID, &r.SessionID, &r.ObservationType,
		&r.Classification, &r.Residency} {
		*f = red.String(*f)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	r.Raw = raw
	return nil
}
