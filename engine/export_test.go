package engine

import (
	"context"

	"github.com/memgov/memgov"
)

// ListUnrecorded lists like MemoryAdapter.ListRead without recording the
// read: the baseline of the access-recording benchmark.
func (a *MemoryAdapter) ListUnrecorded(ctx context.Context, ref string, opts ListOptions) ([]memgov.Version, error) {
	return a.listVersions(ctx, ref, opts)
}

// Retrieve records a read of vs as ListRead does after listing them.
func (a *MemoryAdapter) Retrieve(ctx context.Context, ref string, vs []memgov.Version) (Retrieval, error) {
	return a.retrieve(ctx, ref, vs)
}

// SearchIndexesCached reports how many memoryRefs' search indexes are in
// memory.
func (e *Engine) SearchIndexesCached() int {
	e.searches.mu.Lock()
	defer e.searches.mu.Unlock()
	return len(e.searches.refs)
}

// SearchIndexBuilds reports how many search indexes were built in full and
// how many were brought up to date in place.
func (e *Engine) SearchIndexBuilds() (full, caughtUp int64) {
	return e.searches.builds.Load(), e.searches.catchUps.Load()
}
