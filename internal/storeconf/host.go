package storeconf

import (
	"context"

	"github.com/memgov/memgov"
)

func (c conformance) CreateProposal(ctx context.Context, in memgov.ProposalInput, actor string) (memgov.Proposal, error) {
	return c.Host().CreateProposal(ctx, in, actor)
}

func (c conformance) ReviseProposal(ctx context.Context, id string, in memgov.ProposalInput, actor string) (memgov.Proposal, error) {
	return c.Host().ReviseProposal(ctx, id, in, actor)
}

func (c conformance) CreateWorkspace(ctx context.Context, agent, baseRef, name string) (memgov.Workspace, error) {
	return c.Host().CreateWorkspace(ctx, agent, baseRef, name)
}

func (c conformance) RemoveFromWorkspace(ctx context.Context, id, agent, key string) (int64, error) {
	return c.Host().RemoveFromWorkspace(ctx, id, agent, key)
}

func (c conformance) SubmitWorkspace(ctx context.Context, id, agent string) (memgov.MergeRequest, error) {
	return c.Host().SubmitWorkspace(ctx, id, agent)
}

func (c conformance) TickCommitments(ctx context.Context, ref, actor string) (memgov.TickResult, error) {
	return c.Host().TickCommitments(ctx, ref, actor)
}
