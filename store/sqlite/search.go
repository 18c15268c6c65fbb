package sqlite

import "context"

// SearchStamp implements the engine's contract store: the last LSN of ref's
// log entries (log_by_ref) or of an erasure (whose ERASE entry names no
// ref), whichever is later.
func (r *readTx) SearchStamp(ctx context.Context, ref string) (int64, error) {
	var own, erased int64
	if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM log WHERE memory_ref = ? AND memory_ref <> ''`, ref).Scan(&own); err != nil {
		return 0, err
	}
	if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM erasures`).Scan(&erased); err != nil {
		return 0, err
	}
	return max(own, erased), nil
}
