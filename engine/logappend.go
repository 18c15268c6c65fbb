package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// appendEntry is the one way memgov writes to its log: it seals p into entry
// (canonical payload, salt, payload hash) and appends the entry in tx, which
// gives it its LSN, leaf and chain value and applies it to the derived
// tables. The entry is updated in place.
func appendEntry(ctx context.Context, tx memgov.LogWriter, entry *oplog.Entry, p oplog.Payload) error {
	if err := entry.Seal(p); err != nil {
		return err
	}
	return tx.Append(ctx, entry)
}

// appendData is appendEntry for an operation whose payload is a reason and
// its typed data (oplog's *Data structs), encoded as JSON into the payload.
func appendData(ctx context.Context, tx memgov.LogWriter, entry *oplog.Entry, reason string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("%s entry data: %w", entry.Op, err)
	}
	return appendEntry(ctx, tx, entry, oplog.Payload{Reason: reason, Data: raw})
}
