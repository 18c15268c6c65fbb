package sqlstore

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
)

// AddDeadLetter stores a webhook dead letter.
func (t *Tx) AddDeadLetter(ctx context.Context, d memgov.DeadLetter) (int64, error) {
	body := []byte(d.Body)
	if body == nil {
		body = []byte{}
	}
	var id int64
	err := t.q.QueryRowContext(ctx, `INSERT INTO dead_letters (event_id, event_type, url, attempts, error, body, at) VALUES (?,?,?,?,?,?,?) RETURNING id`,
		d.EventID, d.EventType, d.URL, d.Attempts, d.Error, body, ms(d.At)).Scan(&id)
	return id, err
}

// DeadLetters lists webhook dead letters by id.
func (r *ReadTx) DeadLetters(ctx context.Context, q memgov.DeadLetterQuery) ([]memgov.DeadLetter, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 1000
	}
	query := `SELECT id, event_id, event_type, url, attempts, error, body, at FROM dead_letters WHERE id > ?`
	args := []any{q.AfterID}
	if q.EventType != "" {
		query += ` AND event_type = ?`
		args = append(args, q.EventType)
	}
	query += fmt.Sprintf(` ORDER BY id LIMIT %d`, limit)
	return queryAll(ctx, r.q, func(rows Scanner) (memgov.DeadLetter, error) {
		var (
			d    memgov.DeadLetter
			body []byte
			at   int64
		)
		err := rows.Scan(&d.ID, &d.EventID, &d.EventType, &d.URL, &d.Attempts, &d.Error, &body, &at)
		d.Body, d.At = body, fromMS(at)
		return d, err
	}, query, args...)
}
