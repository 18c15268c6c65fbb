package engine

import (
	"context"

	"github.com/memgov/memgov"
)

// SearchIndexesCached reports how many memoryRefs' search indexes are in
// memory.
func (e *Engine) SearchIndexesCached() int { return e.host.SearchCacheStats().Refs }

// SearchIndexBuilds reports how many search indexes were built in full and
// how many were brought up to date in place.
func (e *Engine) SearchIndexBuilds() (full, caughtUp int64) {
	st := e.host.SearchCacheStats()
	return st.Builds, st.CatchUps
}

// OnCommitQueue tells fn the number of writes waiting for the committer each
// time one joins the queue.
func (e *Engine) OnCommitQueue(fn func(waiting int)) {
	e.commits.mu.Lock()
	defer e.commits.mu.Unlock()
	e.commits.queued = fn
}

// SnapshotEveryWrite judges every write on a read snapshot first, even one
// that starts beside another of its agent or memory, so that the commit's
// check of what changed since decides alone.
func (e *Engine) SnapshotEveryWrite() {
	e.commits.mu.Lock()
	defer e.commits.mu.Unlock()
	e.commits.alwaysSnapshot = true
}

// UpdateIndexed runs fn in a write transaction of the engine's store, whose
// appends index their versions as the engine's own writes do.
func (e *Engine) UpdateIndexed(ctx context.Context, fn func(memgov.Tx) error) error {
	return e.store.Update(ctx, fn)
}

// PutTx is Put inside tx (a transaction of UpdateIndexed).
func (e *Engine) PutTx(ctx context.Context, tx memgov.Tx, r memgov.PutRequest) (memgov.PutResult, error) {
	content, err := canonicalContent(r.Content)
	if err != nil {
		return memgov.PutResult{}, err
	}
	return e.putTx(ctx, tx, r, content)
}
