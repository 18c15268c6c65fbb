package engine

import "context"

// CommitmentReader reads commitments: reminders and triggers that memory
// items create and the log arms and fires.
type CommitmentReader interface {
	// Commitments returns ref's commitments in the order they were created.
	Commitments(ctx context.Context, ref string) ([]Commitment, error)
	// Commitment returns the commitment with id; an unknown id is
	// ErrNotFound.
	Commitment(ctx context.Context, id string) (Commitment, error)
}
