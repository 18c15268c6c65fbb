package oplog

import (
	"context"
	"encoding/json"
	"fmt"
)

// Appender appends sealed entries to the log: the store's log writer
// (memgov.LogWriter) inside a write transaction.
type Appender interface {
	Append(ctx context.Context, e *Entry) error
}

// Append is the one way memgov writes to its log: it seals p into e
// (canonical payload, salt, payload hash) and appends e through a, which
// gives it its LSN, leaf and chain value and applies it to the derived
// tables. e is updated in place.
func Append(ctx context.Context, a Appender, e *Entry, p Payload) error {
	if err := e.Seal(p); err != nil {
		return err
	}
	return a.Append(ctx, e)
}

// AppendData is Append for an operation whose payload is a reason and its
// typed data (the *Data structs of data.go), encoded as JSON into the payload.
func AppendData(ctx context.Context, a Appender, e *Entry, reason string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("%s entry data: %w", e.Op, err)
	}
	return Append(ctx, a, e, Payload{Reason: reason, Data: raw})
}
