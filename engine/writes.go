package engine

import (
	"context"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/similar"
	"github.com/memgov/memgov/writes"
)

// Writes returns the write service: the governed write pipeline and its
// commit, the SYNC_BLOCK wait, the ungated Put, suspension and
// reinstatement, the judge-derived index (reindex, re-embed) and the
// re-validation sweep.
func (e *Engine) Writes() *writes.Service { return e.writes }

// WithSnapshotGates judges concurrent writes on read snapshots, in parallel,
// before the commit (see the top of writes/groupcommit.go). Off, every write
// is judged in the commit transaction, one after the other, and concurrent
// writes still share commit transactions. A write judged on a snapshot reads through a
// read connection whose page cache SQLite empties whenever another
// connection has committed (the writer's cache survives its own commits), so
// it reads its pages again; its statements stay prepared on the connection.
// Measured with memgov bench serve --snapshot-gates --rounds 6 on two cores
// that other work kept busy (the process got a quarter to a half of one
// core whatever its number of threads), eight HTTP clients took 1.3 times
// the processor time per write of one and wrote 0.4 to 0.5 times as much:
// parallel judging pays only where the process can have a second core. It
// is for machines with cores to spare.
func WithSnapshotGates(on bool) Option { return func(e *Engine) { e.onSnapshot = on } }

// WithIndexer sets the Indexer that derives the features of the engine's
// writes and index (default: writes.BuiltinIndexer).
func WithIndexer(ix writes.Indexer) Option { return func(e *Engine) { e.indexer = ix } }

// WithEmbedder sets a model-backed embedder (an OpenAI-compatible
// /v1/embeddings endpoint, similar.HTTPEmbedder): durable writes are
// embedded by it, their vectors stored under its model name, and its
// similarities drive tier-3 duplicates and add topic candidates. A nil
// embedder leaves the built-in hashing vectors alone.
func WithEmbedder(em similar.Embedder) Option { return func(e *Engine) { e.embedder = em } }

// writeReviews gives the write service the reviews service, built after it.
type writeReviews struct{ e *Engine }

func (r writeReviews) AfterWrite(ctx context.Context, tx memgov.Tx, agent string, res memgov.WriteResult) error {
	return r.e.reviews.AfterWrite(ctx, tx, agent, res)
}

func (r writeReviews) Review(ctx context.Context, id string) (memgov.Review, error) {
	return r.e.reviews.Review(ctx, id)
}

func (r writeReviews) FailClosed(ctx context.Context, id string) error {
	return r.e.reviews.FailClosed(ctx, id)
}

// writeDrift is the drift step of the write pipeline: the baselines
// service judges the memoryRef (baselines.Service.DriftGate).
type writeDrift struct{ e *Engine }

func (d writeDrift) DriftStatus(ctx context.Context, tx memgov.Tx, ref string) (gate.DriftStatus, error) {
	r, err := d.e.baselines.DriftGate(ctx, tx, ref)
	if err != nil {
		return gate.DriftStatus{}, err
	}
	return gate.DriftStatus{Deny: r.Deny, Alerts: r.Alerts}, nil
}
