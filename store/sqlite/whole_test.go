package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/sqlite"
)

// A write transaction whose context ends between two statements stops at the
// next one, with the context's error, and commits nothing; the store takes
// the next transaction as usual.
func TestWriteTransactionStopsBetweenStatements(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "whole.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	entry := func(key string) *oplog.Entry {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"text": "note " + key})
		e := &oplog.Entry{Time: now, MemoryRef: "acme/bot", Actor: "bot", Op: oplog.Insert, ItemID: oplog.NewID(), VersionID: oplog.NewID()}
		if err := e.Seal(oplog.Payload{Key: key, Layer: string(memgov.Semantic), Content: body, ContentHash: oplog.HashPayload(body)}); err != nil {
			t.Fatal(err)
		}
		return e
	}
	size := func() int64 {
		t.Helper()
		var n int64
		if err := s.View(ctx, func(tx memgov.ReadTx) (err error) { n, err = tx.LogSize(ctx); return err }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := size()

	cctx, cancel := context.WithCancel(ctx)
	err = s.Update(cctx, func(tx memgov.Tx) error {
		if err := tx.Append(cctx, entry("a")); err != nil {
			return err
		}
		cancel()
		return tx.Append(cctx, entry("b"))
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("an append after the context ended = %v, want context.Canceled", err)
	}
	if got := size(); got != before {
		t.Fatalf("log size %d after the stopped transaction, want %d: it committed", got, before)
	}

	if err := s.Update(ctx, func(tx memgov.Tx) error { return tx.Append(ctx, entry("d")) }); err != nil {
		t.Fatalf("the store after stopped transactions: %v", err)
	}
	if got := size(); got != before+1 {
		t.Fatalf("log size %d after one append, want %d", got, before+1)
	}
}
