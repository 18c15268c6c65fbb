package writes

import (
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/redact"
)

// ReasonSecretInIdentifier rejects a write whose memoryRef or key holds a
// registered secret (SR-1): an identifier cannot be redacted, since the
// redacted string would name another entry.
const ReasonSecretInIdentifier = "SECRET_IN_IDENTIFIER"

// checkIdentifiers refuses the request's identifiers and short fields that
// hold control, escape, bidirectional or zero-width characters: they are
// stored, logged and printed, and would reach a terminal or hide text.
func checkIdentifiers(r *memgov.WriteRequest) error {
	fields := []struct{ name, v string }{
		{"memory_ref", r.MemoryRef}, {"key", r.Key}, {"source_agent_id", r.SourceAgentID},
		{"request_id", r.RequestID}, {"idempotency_token", r.IdempotencyToken}, {"run_id", r.RunID},
		{"session_id", r.SessionID}, {"observation_type", r.ObservationType}, {"classification", r.Classification},
		{"residency", r.Residency}, {"target_layer", string(r.TargetLayer)},
	}
	for i, ev := range r.EvidenceRefs {
		fields = append(fields,
			struct{ name, v string }{fmt.Sprintf("evidence_refs[%d].source_uri", i), ev.SourceURI},
			struct{ name, v string }{fmt.Sprintf("evidence_refs[%d].source_item_id", i), ev.SourceItemID},
			struct{ name, v string }{fmt.Sprintf("evidence_refs[%d].source_type", i), ev.SourceType})
	}
	for _, t := range r.Tags {
		fields = append(fields, struct{ name, v string }{"tags", t})
	}
	for _, f := range fields {
		if err := guard.CheckIdentifier(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// secretInIdentifier reports which identifier of the request holds a
// registered secret, "" when none does.
func secretInIdentifier(r *memgov.WriteRequest, red *redact.Redactor) string {
	switch {
	case red.Contains(r.MemoryRef):
		return "memory_ref"
	case red.Contains(r.Key):
		return "key"
	case red.Contains(r.SourceAgentID):
		return "source_agent_id"
	}
	return ""
}

// CheckIdentifier refuses an identifier given outside a write request (a
// proposal title, a principal id, a workspace name) that holds control,
// escape, bidirectional or zero-width characters.
func CheckIdentifier(what, s string) error {
	if err := guard.CheckIdentifier(what, s); err != nil {
		return fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	return nil
}
