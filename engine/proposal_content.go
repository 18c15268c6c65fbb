package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov/engine/gate"
)

// checkProposalContent passes a proposal's title, rationale and artifact
// through the content policy gate that guards memory writes: a proposal that
// would carry an injection into what agents read is refused the same way.
func checkProposalContent(in ProposalInput, artifact json.RawMessage) error {
	content := artifact
	if len(content) == 0 || content[0] != '{' {
		// The gate reads a JSON object's strings: wrap any other value.
		content, _ = json.Marshal(map[string]json.RawMessage{"artifact": artifact})
	}
	r, err := gate.ContentPolicy{}.Evaluate(context.Background(), gate.ContentPolicyInput{Text: in.Title, Content: content, Tags: []string{in.Rationale}})
	if err != nil {
		return err
	}
	if r.Verdict != gate.Accept {
		return fmt.Errorf("%w: %s: %s", ErrInvalid, r.Reason, r.Detail)
	}
	return nil
}
