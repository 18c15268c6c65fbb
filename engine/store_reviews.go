package engine

import "context"

// ReviewReader reads the human review queue that deferred writes enter and
// reviewers' decisions leave.
type ReviewReader interface {
	// Review returns the review with id; an unknown id is ErrNotFound.
	Review(ctx context.Context, id string) (Review, error)
	// Reviews returns the reviews whose status is one of q.Statuses (none:
	// PENDING and ESCALATED) and that match every other field set in q,
	// ordered by tier and risk (both descending), then creation time and id,
	// with q.Limit/q.Offset paging (Limit 0: all); total counts every match.
	Reviews(ctx context.Context, q ReviewQuery) (rs []Review, total int, err error)
	// AgentRecord counts agent's APPROVED reviews and its REJECTED reviews
	// other than those rejected for APPROVAL_TIMEOUT.
	AgentRecord(ctx context.Context, agent string) (approved, rejected int, err error)
	// OpenReviewOf returns the id of the PENDING or ESCALATED review of
	// versionID, or "" when it has none.
	OpenReviewOf(ctx context.Context, versionID string) (string, error)
}
