package engine

import (
	"context"
	"time"

	"github.com/memgov/memgov/engine/memory"
)

// PipelineReader reads what the governed write path decides with:
// idempotency tokens, recorded outcomes (rate limits and budgets), duplicate
// and contradiction candidates, and evidence links.
type PipelineReader interface {
	// Idempotent returns the record of a write made with token at or after
	// since; found is false when there is none.
	Idempotent(ctx context.Context, token string, since time.Time) (rec IdempotencyRecord, found bool, err error)
	// CountOutcomes counts the outcomes recorded for agent at or after since,
	// to layer ("": every layer), with one of statuses (none: any status).
	CountOutcomes(ctx context.Context, agent string, layer Layer, since time.Time, statuses ...string) (int, error)
	// CountSessionCommits counts agent's outcomes in sessionID whose status is
	// COMMITTED, MERGED or DEFERRED.
	CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error)
	// Candidates returns the ACTIVE or DRAFT versions of q.MemoryRef in the
	// EPISODIC, SEMANTIC or PROCEDURAL layers that share q.ContentHash,
	// q.Fingerprint, q.Subject or one of q.Bands (each criterion only when
	// set; a band may contribute only its newest members), at most q.Limit
	// (0: 400); a query that sets no criterion returns none.
	Candidates(ctx context.Context, q CandidateQuery) ([]Candidate, error)
	// TopicCandidates returns the ACTIVE or DRAFT versions of q.MemoryRef in
	// layer q.Layer whose text best matches q.Text in the full-text index
	// (BM25, at most q.Limit, 0: 20), followed by those whose extracted
	// subject is q.Subject (when set). Erased versions are not in the index.
	TopicCandidates(ctx context.Context, q TopicQuery) ([]Candidate, error)
	// CitedItems returns, once each, the items that the ACTIVE or DRAFT
	// versions of itemID cite as MEMORY_ITEM evidence.
	CitedItems(ctx context.Context, itemID string) ([]string, error)
}

// TopicQuery selects a write's same-topic neighbours (TopicCandidates).
type TopicQuery = memory.TopicQuery

// PipelineWriter records write outcomes.
type PipelineWriter interface {
	// RecordOutcome stores a write outcome for rate limits and the metrics.
	// It is not a log entry: an outcome that changes nothing in memory is
	// telemetry, and a rebuild from the log does not restore it.
	RecordOutcome(ctx context.Context, o Outcome) error
}
