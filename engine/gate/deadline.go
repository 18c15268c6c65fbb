package gate

import (
	"context"
	"time"
)

// DeadlineInput is what the deadline step needs.
type DeadlineInput struct {
	Deadline *time.Time // the request's deadline, if any
	Now      time.Time
}

// Deadline refuses a request whose deadline has passed before it is judged.
type Deadline struct{}

// Name returns NameDeadline.
func (Deadline) Name() string { return NameDeadline }

// Evaluate rejects the write (DEADLINE_EXCEEDED) when its deadline has
// passed. It reads nothing and never fails.
func (Deadline) Evaluate(_ context.Context, in DeadlineInput) (Result, error) {
	if in.Deadline != nil && in.Now.After(*in.Deadline) {
		return reject(ReasonDeadline, "the request's deadline has passed"), nil
	}
	return accept(), nil
}
