package engine

import "context"

// ProposalReader reads proposals (reviewed changes to skills, policy and
// other artifacts) and their revisions.
type ProposalReader interface {
	// Proposals returns the proposals of q.Tenant ("" or "*": every tenant)
	// with q.State, q.Kind and q.ArtifactHash (each when set), newest first,
	// at most q.Limit (0: 200).
	Proposals(ctx context.Context, q ProposalQuery) ([]Proposal, error)
	// Proposal returns the proposal with id at its latest revision; an
	// unknown id is ErrNotFound.
	Proposal(ctx context.Context, id string) (Proposal, error)
	// ProposalRevisions returns every revision of proposal id, by revision
	// number; an unknown id has none.
	ProposalRevisions(ctx context.Context, id string) ([]ProposalRevision, error)
}
