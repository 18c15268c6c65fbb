package host

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
