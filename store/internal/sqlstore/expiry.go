package sqlstore

import (
	"context"
	"time"

	"github.com/memgov/memgov"
)

// DueExpiries returns the ACTIVE versions of ref whose TTL has passed at now,
// ordered by key, at most limit of them (0: all).
func (r *ReadTx) DueExpiries(ctx context.Context, ref string, now time.Time, limit int) ([]memgov.Version, error) {
	q := `SELECT ` + versionCols + ` FROM versions v WHERE v.memory_ref = ? AND v.state = 'ACTIVE' AND v.expires_at IS NOT NULL AND v.expires_at <= ? ORDER BY v.key`
	args := []any{ref, ms(now)}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	return r.queryVersions(ctx, q, args...)
}
