package engine

import (
	"context"
	"errors"
	"time"
)

// errReadOnly is what every write of a readOnlyTx returns.
var errReadOnly = errors.New("memgov: write in a read-only transaction")

// The rest of Tx for readOnlyTx (pipeline.go): every write fails, so code
// written against Tx can run in a read transaction without writing.

func (readOnlyTx) PutStateCache(context.Context, StateCache) error { return errReadOnly }
func (readOnlyTx) ClearDirty(context.Context, string) error        { return errReadOnly }
func (readOnlyTx) SetGCCursor(context.Context, Layer, string) error {
	return errReadOnly
}
func (readOnlyTx) SecureDelete(context.Context) error { return errReadOnly }
func (readOnlyTx) RecordAccess(context.Context, []string, time.Time) error {
	return errReadOnly
}
func (readOnlyTx) RecordRetrieval(context.Context, string, string, string, time.Time, map[string]time.Duration) error {
	return errReadOnly
}
func (readOnlyTx) RecordFeedback(context.Context, string, []string, time.Time) (int, error) {
	return 0, errReadOnly
}
func (readOnlyTx) CountLease(context.Context, time.Time, bool) error { return errReadOnly }
func (readOnlyTx) RecordRevalidation(context.Context, string, time.Time, bool, float64) error {
	return errReadOnly
}
