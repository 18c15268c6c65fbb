package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/memgov/memgov"
)

// RecordTaskOutcome implements the engine's contract store (migration 0026).
func (t *Tx) RecordTaskOutcome(ctx context.Context, o memgov.TaskOutcomeRow) error {
	id := o.ID
	if o.RetrievalID != "" {
		var n int
		err := t.q.QueryRowContext(ctx, `SELECT 1 FROM retrievals WHERE id = ?`, o.RetrievalID).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: retrieval %s", memgov.ErrNotFound, o.RetrievalID)
		}
		if err != nil {
			return err
		}
		id = o.RetrievalID
	}
	if id == "" {
		return fmt.Errorf("%w: a task outcome needs a retrieval or an id", memgov.ErrInvalid)
	}
	_, err := t.q.ExecContext(ctx, `INSERT INTO task_outcomes (id, at, retrieval_id, principal, success, memory_caused, note) VALUES (?,?,?,?,?,?,?)
		ON CONFLICT (id) DO UPDATE SET at = excluded.at, principal = excluded.principal, success = excluded.success,
		memory_caused = excluded.memory_caused, note = excluded.note`, id, ms(o.At), o.RetrievalID, o.Principal, o.Success, o.MemoryCaused, o.Note)
	return err
}

func (r *ReadTx) taskOutcomes(ctx context.Context, since int64) ([]memgov.TaskOutcomeRow, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT id, at, retrieval_id, principal, success, memory_caused, note FROM task_outcomes WHERE at >= ? ORDER BY at, id`, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.TaskOutcomeRow{}
	for rows.Next() {
		var (
			o  memgov.TaskOutcomeRow
			at int64
		)
		if err := rows.Scan(&o.ID, &at, &o.RetrievalID, &o.Principal, &o.Success, &o.MemoryCaused, &o.Note); err != nil {
			return nil, err
		}
		o.At = fromMS(at)
		out = append(out, o)
	}
	return out, rows.Err()
}
