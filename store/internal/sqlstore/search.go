package sqlstore

import (
	"context"
	"strings"

	"github.com/memgov/memgov"
)

// SearchStamp implements the engine's contract store: the last LSN of ref's
// log entries (log_by_ref) and of an erasure (whose ERASE entry names no
// ref).
func (r *ReadTx) SearchStamp(ctx context.Context, ref string) (memgov.SearchStamp, error) {
	var st memgov.SearchStamp
	if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM log WHERE memory_ref = ? AND memory_ref <> ''`, ref).Scan(&st.Ref); err != nil {
		return st, err
	}
	err := r.q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM erasures`).Scan(&st.Erased)
	return st, err
}

// SearchChanges implements the engine's contract store.
func (r *ReadTx) SearchChanges(ctx context.Context, ref string, since int64, limit int) ([]string, []memgov.IndexedVersion, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT item_id FROM log WHERE memory_ref = ?1 AND memory_ref <> '' AND lsn > ?2 AND item_id <> ''
		UNION SELECT item_id FROM versions WHERE memory_ref = ?1 AND (created_lsn > ?2 OR active_from > ?2 OR active_to > ?2)`, ref, since)
	if err != nil {
		return nil, nil, err
	}
	items, err := scanStrings(rows)
	if err != nil || len(items) == 0 {
		return items, nil, err
	}
	parts := strings.Split(versionCols, ",")
	for i, c := range parts {
		parts[i] = "v." + strings.TrimSpace(c)
	}
	out := []memgov.IndexedVersion{}
	// In chunks, under SQLite's bound-parameter limit.
	for start := 0; start < len(items) && len(out) < limit; start += 500 {
		chunk := items[start:min(start+500, len(items))]
		args := make([]any, 0, len(chunk)+2)
		args = append(args, ref)
		for _, id := range chunk {
			args = append(args, id)
		}
		args = append(args, limit-len(out))
		rows, err := r.q.QueryContext(ctx, `SELECT `+strings.Join(parts, ", ")+`, vf.embedding FROM versions v LEFT JOIN version_features vf ON vf.version_id = v.id
			WHERE v.memory_ref = ? AND v.item_id IN (`+placeholders(len(chunk))+`) AND v.state IN ('ACTIVE', 'SUPERSEDED') ORDER BY v.created_lsn DESC, v.id LIMIT ?`, args...)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var (
				iv  memgov.IndexedVersion
				emb []byte
			)
			sc := scanFunc(func(dest ...any) error { return rows.Scan(append(dest, &emb)...) })
			v, err := scanVersion(sc)
			if err != nil {
				rows.Close()
				return nil, nil, err
			}
			iv.Version, iv.Embedding = v, emb
			out = append(out, iv)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}
	return items, out, nil
}
