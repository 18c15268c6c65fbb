package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/policy"
)

// RateLimitReader is what the rate limits read: the writer's recent outcomes.
type RateLimitReader interface {
	// CountOutcomes counts an agent's write attempts to a layer since a time
	// ("" layer: every layer), optionally only those with the given statuses.
	CountOutcomes(ctx context.Context, agent string, layer memgov.Layer, since time.Time, statuses ...string) (int, error)
	// CountSessionCommits counts an agent's accepted writes in one session.
	CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error)
}

// RateLimitInput is what the rate limits need.
type RateLimitInput struct {
	Agent     string
	Role      memgov.Role
	Layer     memgov.Layer
	SessionID string
	Now       time.Time
	Policy    *policy.Policy
	Reader    RateLimitReader
}

// RateLimitResult is what the rate limits find.
type RateLimitResult struct {
	Result
	// Suspend is set, with the reason to record, when the write is a burst
	// that suspends the agent (the verdict is then DENY).
	Suspend string
}

// RateLimit defers writes past the per-agent, per-layer limit or the session
// budget, with exponential backoff (spec §12.1.8, §12.11.2), and suspends an agent on
// a burst (spec §12.11.5).
type RateLimit struct{}

// Name returns NameRateLimit.
func (RateLimit) Name() string { return NameRateLimit }

// Evaluate counts the writer's recent writes against the policy's limits.
func (RateLimit) Evaluate(ctx context.Context, in RateLimitInput) (RateLimitResult, error) {
	pol := in.Policy
	if burst := pol.Reputation.BurstLimit; burst > 0 {
		window := time.Duration(pol.Reputation.BurstWindow)
		n, err := in.Reader.CountOutcomes(ctx, in.Agent, "", in.Now.Add(-window))
		if err != nil {
			return RateLimitResult{}, fmt.Errorf("count recent writes: %w", err)
		}
		if pol.Burst(n + 1) {
			return RateLimitResult{
				Result:  deny(ReasonSuspended, "%d writes within %s is a burst: %s is suspended until a curator reinstates it", n+1, window, in.Agent),
				Suspend: fmt.Sprintf("burst: %d writes within %s", n+1, window),
			}, nil
		}
	}
	if lim, ok := pol.RateLimits.Layers.Get(string(in.Layer)); ok && lim.Writes > 0 {
		window := time.Duration(lim.Window)
		since := in.Now.Add(-window)
		n, err := in.Reader.CountOutcomes(ctx, in.Agent, in.Layer, since, memgov.StatusCommitted, memgov.StatusMerged, memgov.StatusDeferred)
		if err != nil {
			return RateLimitResult{}, fmt.Errorf("count %s writes: %w", in.Layer, err)
		}
		if !pol.RateAllows(string(in.Layer), n) {
			deferred, err := in.Reader.CountOutcomes(ctx, in.Agent, in.Layer, since, memgov.StatusDeferred)
			if err != nil {
				return RateLimitResult{}, fmt.Errorf("count deferred %s writes: %w", in.Layer, err)
			}
			wait := pol.Backoff(deferred)
			r := verdict(Defer, ReasonRateLimited, "%s wrote %d %s items within %s (limit %d); retry after %s", in.Agent, n, in.Layer, window, lim.Writes, wait)
			r.RetryAfter = wait
			return RateLimitResult{Result: r}, nil
		}
	}
	if in.SessionID != "" {
		n, err := in.Reader.CountSessionCommits(ctx, in.Agent, in.SessionID)
		if err != nil {
			return RateLimitResult{}, fmt.Errorf("count session writes: %w", err)
		}
		if !pol.BudgetAllows(string(in.Role), n) {
			wait := pol.Backoff(n)
			r := verdict(Defer, ReasonSessionBudget, "session %s has used its write budget (%d writes)", in.SessionID, n)
			r.RetryAfter = wait
			return RateLimitResult{Result: r}, nil
		}
	}
	return RateLimitResult{Result: accept()}, nil
}
