package host

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/guard"
)

// checkProposalContent passes a proposal's title, rationale and artifact
// strings through the guard of the content policy gate that protects memory
// writes: a proposal that would carry an injection into what agents read is
// refused the same way.
func checkProposalContent(in memgov.ProposalInput, artifact json.RawMessage) error {
	content := artifact
	if len(content) == 0 || content[0] != '{' {
		// The gate reads a JSON object's strings: wrap any other value.
		content, _ = json.Marshal(map[string]json.RawMessage{"artifact": artifact})
	}
	texts := []string{in.Title, in.Rationale}
	var c map[string]any
	if err := json.Unmarshal(content, &c); err == nil {
		texts = append(texts, gate.StringsIn(c)...)
	}
	for _, t := range texts {
		if t == "" {
			continue
		}
		// Control and invisible characters in a proposal are a rendering
		// hazard the doors neutralise when they show it (an artifact may be
		// a terminal template); every other rule of the gate applies.
		var parts []string
		for _, f := range guard.Check(t).Findings {
			if f.Rule != guard.RuleControl && f.Rule != guard.RuleInvisible {
				parts = append(parts, f.Rule+": "+f.Detail)
			}
		}
		if len(parts) > 0 {
			if len(parts) > 3 {
				parts = parts[:3]
			}
			return fmt.Errorf("%w: %s: %s", memgov.ErrInvalid, gate.ReasonContentPolicy, strings.Join(parts, "; "))
		}
	}
	return nil
}
