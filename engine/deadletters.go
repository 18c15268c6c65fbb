package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
)

// AddDeadLetter keeps a webhook notification that failed every attempt
// and returns it with its id.
func (e *Engine) AddDeadLetter(ctx context.Context, d memgov.DeadLetter) (memgov.DeadLetter, error) {
	if d.URL == "" || d.EventType == "" {
		return d, fmt.Errorf("%w: a dead letter names its URL and event type", memgov.ErrInvalid)
	}
	if d.At.IsZero() {
		d.At = e.Now()
	}
	d.At = d.At.UTC()
	d.Error = strings.ToValidUTF8(d.Error, "?")
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		id, err := tx.AddDeadLetter(ctx, d)
		d.ID = id
		return err
	})
	return d, err
}

// DeadLetters lists the webhook dead letters q selects, by id.
func (e *Engine) DeadLetters(ctx context.Context, q memgov.DeadLetterQuery) ([]memgov.DeadLetter, error) {
	var out []memgov.DeadLetter
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		var err error
		out, err = tx.DeadLetters(ctx, q)
		return err
	})
	if out == nil {
		out = []memgov.DeadLetter{}
	}
	return out, err
}
