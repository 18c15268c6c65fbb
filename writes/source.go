package writes

import (
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Provenance classes of spec §14.4.
const (
	SourceUserStated    = "user_stated"
	SourceToolVerified  = "tool_verified"
	SourceAgentInferred = "agent_inferred"
	SourceRecalled      = "recalled"
)

// SourceOf classes a write by its strongest evidence: a person's word is
// user_stated, a tool's, an API's, a document's or executed code's output is
// tool_verified, another memory is recalled, and an agent's own reasoning, or
// no evidence at all, is agent_inferred.
func SourceOf(refs []oplog.EvidenceRef) string {
	best, rank := SourceAgentInferred, 0
	for _, r := range refs {
		s, n := SourceAgentInferred, 0
		switch r.SourceType {
		case policy.HumanInput:
			s, n = SourceUserStated, 3
		case policy.ToolOutput, policy.APIResponse, policy.Document, policy.CodeExecution:
			s, n = SourceToolVerified, 2
		case policy.MemoryItem:
			s, n = SourceRecalled, 1
		}
		if n > rank {
			best, rank = s, n
		}
	}
	return best
}
