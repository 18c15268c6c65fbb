package sqlstore

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
)

func (r *ReadTx) ModelVectors(ctx context.Context, memoryRef string, layer memgov.Layer, model string) ([]memgov.ModelVector, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT mv.version_id, mv.vector FROM model_vectors mv JOIN versions v ON v.id = mv.version_id
		WHERE mv.memory_ref = ? AND mv.layer = ? AND mv.model = ? AND v.state IN ('ACTIVE', 'DRAFT') ORDER BY mv.version_id`, memoryRef, string(layer), model)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memgov.ModelVector
	for rows.Next() {
		v := memgov.ModelVector{MemoryRef: memoryRef, Layer: layer, Model: model}
		if err := rows.Scan(&v.VersionID, &v.Vector); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (r *ReadTx) VectorTodo(ctx context.Context, model string, limit int) ([]memgov.VectorTodo, map[string]int, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := r.q.QueryContext(ctx, `SELECT vi.version_id, vi.memory_ref, vi.layer, v.content FROM version_index vi JOIN versions v ON v.id = vi.version_id
		WHERE vi.layer IN ('EPISODIC', 'SEMANTIC', 'PROCEDURAL') AND v.state IN ('ACTIVE', 'DRAFT') AND vi.content_hash <> ''
		AND NOT EXISTS (SELECT 1 FROM model_vectors mv WHERE mv.version_id = vi.version_id AND mv.model = ?)
		ORDER BY vi.version_id`, model)
	if err != nil {
		return nil, nil, err
	}
	var todo []memgov.VectorTodo
	for rows.Next() {
		var (
			t       memgov.VectorTodo
			layer   string
			content []byte
		)
		if err := rows.Scan(&t.VersionID, &t.MemoryRef, &layer, &content); err != nil {
			rows.Close()
			return nil, nil, err
		}
		text, err := contentText(content)
		if err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("corrupt stored data: versions.content of row %s: %w", t.VersionID, err)
		}
		t.Layer, t.Text = memgov.Layer(layer), text
		if t.Text != "" && len(todo) < limit {
			todo = append(todo, t)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	counts := map[string]int{}
	crows, err := r.q.QueryContext(ctx, `SELECT model, COUNT(*) FROM model_vectors GROUP BY model ORDER BY model`)
	if err != nil {
		return nil, nil, err
	}
	defer crows.Close()
	for crows.Next() {
		var (
			m string
			n int
		)
		if err := crows.Scan(&m, &n); err != nil {
			return nil, nil, err
		}
		counts[m] = n
	}
	return todo, counts, crows.Err()
}

func (t *Tx) PutModelVector(ctx context.Context, v memgov.ModelVector) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO model_vectors (version_id, model, memory_ref, layer, vector) VALUES (?,?,?,?,?)
		ON CONFLICT (version_id, model) DO UPDATE SET vector = excluded.vector`, v.VersionID, v.Model, v.MemoryRef, string(v.Layer), v.Vector)
	return err
}
