package sqlstore

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/memgov/memgov"
)

// The judge-derived cache (version_features) holds what the engine's judge
// computed from each version's text, with the judge's version, its SimHash
// bands packed in one column (bands.go indexes them in memory). The store
// computes none of it: the engine passes it in with PutFeatures after
// appending the version, and `memgov admin reindex` passes it again for the
// rows FeatureTodo lists. It is not derived from the log, so a replay neither
// writes nor compares it and a rebuild keeps it; an erasure deletes the
// erased items' rows (lifecycle.go).

// PutFeatures replaces the features and bands of an indexed version. The row
// is written anew, with a new seq, so that the band index of every process
// sees the change (in one statement where the dialect has an upsert).
func (t *Tx) PutFeatures(ctx context.Context, f memgov.VersionFeatures) error {
	bands := make([]byte, 0, 4*len(f.Bands))
	for _, b := range f.Bands {
		bands = binary.BigEndian.AppendUint32(bands, b)
	}
	args := []any{f.VersionID, f.MemoryRef, string(f.Layer), f.Judge, nonNilBytes(f.Fingerprint), f.Subject, f.Predicate, f.Object, f.Embedding, bands,
		f.Sketch, f.VersionID, f.MemoryRef}
	query := t.q.dialect().FeaturesUpsert
	if query == "" {
		if _, err := t.q.ExecContext(ctx, `DELETE FROM version_features WHERE version_id = ?`, f.VersionID); err != nil {
			return fmt.Errorf("put features of version %s: %w", f.VersionID, err)
		}
		query = `INSERT INTO version_features (version_id, memory_ref, layer, judge, fingerprint, subject, predicate, object, embedding, bands, sketch)
		SELECT ?,?,?,?,?,?,?,?,?,?,? FROM version_index WHERE version_id = ? AND memory_ref = ? AND content_hash <> ''`
	}
	res, err := t.q.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("put features of version %s: %w", f.VersionID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("%w: version %s of %s is not indexed, or its item was erased", memgov.ErrNotFound, f.VersionID, f.MemoryRef)
	}
	return nil
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// IndexStatus counts the indexed, not erased versions by the judge version of
// their features.
func (r *ReadTx) IndexStatus(ctx context.Context, judge string) (memgov.IndexStatus, error) {
	st := memgov.IndexStatus{Judge: judge, ByJudge: map[string]int64{}}
	rows, err := r.q.QueryContext(ctx, `SELECT vf.judge, COUNT(*) FROM version_index vi LEFT JOIN version_features vf ON vf.version_id = vi.version_id
		WHERE vi.content_hash <> '' GROUP BY vf.judge`)
	if err != nil {
		return st, fmt.Errorf("index status: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			j *string
			n int64
		)
		if err := rows.Scan(&j, &n); err != nil {
			return st, fmt.Errorf("index status: %w", err)
		}
		switch {
		case j == nil:
			st.Missing += n
			continue
		case *j == judge:
			st.Current += n
		default:
			st.Stale += n
		}
		st.ByJudge[*j] += n
	}
	return st, rows.Err()
}

// FeatureTodo lists indexed, not erased versions whose features are missing
// or of another judge version.
func (r *ReadTx) FeatureTodo(ctx context.Context, judge, after string, limit int) ([]memgov.FeatureTodo, error) {
	if limit <= 0 {
		limit = 500
	}
	rows, err := r.q.QueryContext(ctx, `SELECT vi.version_id, vi.memory_ref, vi.layer, v.content
		FROM version_index vi JOIN versions v ON v.id = vi.version_id LEFT JOIN version_features vf ON vf.version_id = vi.version_id
		WHERE vi.content_hash <> '' AND v.content IS NOT NULL AND vi.version_id > ? AND (vf.judge IS NULL OR vf.judge <> ?)
		ORDER BY vi.version_id LIMIT ?`, after, judge, limit)
	if err != nil {
		return nil, fmt.Errorf("feature todo: %w", err)
	}
	defer rows.Close()
	out := []memgov.FeatureTodo{}
	for rows.Next() {
		var (
			t     memgov.FeatureTodo
			layer string
		)
		if err := rows.Scan(&t.VersionID, &t.MemoryRef, &layer, &t.Content); err != nil {
			return nil, fmt.Errorf("feature todo: %w", err)
		}
		t.Layer = memgov.Layer(layer)
		out = append(out, t)
	}
	return out, rows.Err()
}
