package memgov

import (
	"context"
	"time"
)

// TelemetryReader reads the aggregates of the quality metrics and the
// compliance report.
type TelemetryReader interface {
	// MetricsData returns the metrics' raw material for the window
	// [since, now]: outcomes recorded at or after since (in recording order),
	// retrievals since then (those with feedback, and the total), the
	// staleness of every item they returned, revalidations, lease grants and
	// denials of the days since, ACTIVE versions past their TTL at now, GC
	// expirations since, ACTIVE items per layer and every erasure.
	MetricsData(ctx context.Context, since, now time.Time) (MetricsData, error)
	// ComplianceData returns every ACTIVE version (expired or not) ordered by
	// memoryRef and key, every erasure by LSN, and the number of outcomes
	// with reason RESIDENCY_VIOLATION.
	ComplianceData(ctx context.Context) (ComplianceData, error)
}

// TelemetryWriter records reads, feedback, lease decisions and
// revalidations. None of it is a log entry.
type TelemetryWriter interface {
	// RecordAccess counts one read of each item at at (per item and day).
	RecordAccess(ctx context.Context, items []string, at time.Time) error
	// RecordRetrieval records retrieval id by principal from ref at at, with
	// the staleness of each item it returned.
	RecordRetrieval(ctx context.Context, id, principal, ref string, at time.Time, items map[string]time.Duration) error
	// RecordRead records one retrieval of the given versions by principal
	// from ref: one access of each version's item (n_access) and its
	// staleness at the time of the read. It costs the same whatever the
	// number of versions; FoldReads expands it.
	RecordRead(ctx context.Context, id, principal, ref string, at time.Time, versionIDs []string) error
	// FoldReads brings the per-item access and retrieval records up to date
	// with the reads recorded so far; GC and the metrics fold before they
	// read them.
	FoldReads(ctx context.Context) error
	// RecordFeedback marks the items of used that retrieval retrievalID
	// returned as used and returns how many it marked; an unknown retrieval
	// is ErrNotFound.
	RecordFeedback(ctx context.Context, retrievalID string, used []string, at time.Time) (int, error)
	// RecordTaskOutcome records the outcome of a task: of the task that
	// retrieval o.RetrievalID served (a later report replaces an earlier
	// one; an unknown retrieval is ErrNotFound), or, with no retrieval, of a
	// task run with memory withheld (o.ID names it).
	RecordTaskOutcome(ctx context.Context, o TaskOutcomeRow) error
	// CountLease counts one lease grant (granted) or denial on at's day.
	CountLease(ctx context.Context, at time.Time, granted bool) error
	// RecordRevalidation stores the latest revalidation of versionID,
	// replacing an earlier one.
	RecordRevalidation(ctx context.Context, versionID string, at time.Time, pass bool, score float64) error
}
