package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

func openInternal(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), Options{Key: []byte("memgov-test-key-0123456789abcdef"), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var errRollback = errors.New("roll back")

// appendOne appends a minimal entry of op in a transaction it always rolls
// back, and returns the error of Append.
func appendOne(t *testing.T, s *Store, op oplog.Op) error {
	t.Helper()
	var appendErr error
	err := s.Update(context.Background(), func(tx memgov.Tx) error {
		e := &oplog.Entry{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Op: op, MemoryRef: "acme/bot",
			ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bot"}
		if err := e.Seal(oplog.Payload{Reason: "minimal", Key: "k", Layer: "WORKING", Content: []byte(`{"text":"x"}`), Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		appendErr = tx.Append(context.Background(), e)
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("%s: transaction: %v", op, err)
	}
	return appendErr
}

// Every operation of the log format reaches its case of applyOp: a minimal
// entry of it may fail its own checks, but never as an unknown operation.
func TestApplyHandlesEveryOperation(t *testing.T) {
	s := openInternal(t)
	for _, op := range oplog.All() {
		if err := appendOne(t, s, op); errors.Is(err, sqlstore.ErrUnknownOp) {
			t.Errorf("%s is not applied by the store: %v", op, err)
		}
	}
}

func TestApplyRefusesUnknownOperation(t *testing.T) {
	s := openInternal(t)
	err := appendOne(t, s, oplog.Op("NOT_AN_OPERATION"))
	if !errors.Is(err, sqlstore.ErrUnknownOp) || !strings.Contains(err.Error(), "NOT_AN_OPERATION") {
		t.Fatalf("append of an unknown operation: err = %v, want the unknown-operation error naming it", err)
	}
	var n int
	if err := s.writer.QueryRow(`SELECT COUNT(*) FROM log`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("log rows after a refused entry: %d (%v), want 0", n, err)
	}
}

// Every table of the schema is either rebuilt from the log (derivedTables)
// or named here as not derived, so a new table cannot be forgotten by Rebuild.
func TestEveryTableIsClassified(t *testing.T) {
	notDerived := map[string]string{
		"log": "the log", "log_payload": "the log", "log_head": "the log",
		"erased_payload": "erasure keeps it", "erased_skeleton": "erasure keeps it", "erased_leaves": "erasure keeps it",
		"mem_dirty": "cache", "mem_state_cache": "cache", "verify_state": "cache", "verify_log": "cache",
		"write_outcomes": "telemetry", "access_days": "telemetry", "retrievals": "telemetry", "retrieval_items": "telemetry", "read_pending": "telemetry", "task_outcomes": "telemetry",
		"revalidations": "telemetry", "lease_stats": "telemetry", "gc_cursor": "telemetry",
		"dead_letters": "webhook deliveries that failed every attempt",
		"key_meta":     "the key's fingerprint, set at init",
		// FTS5 keeps version_fts (derived) in these shadow tables.
		"version_fts_config": "fts5 shadow", "version_fts_content": "fts5 shadow", "version_fts_data": "fts5 shadow",
		"version_fts_docsize": "fts5 shadow", "version_fts_idx": "fts5 shadow",
		"review_fts_config": "fts5 shadow", "review_fts_content": "fts5 shadow", "review_fts_data": "fts5 shadow",
		"review_fts_docsize": "fts5 shadow", "review_fts_idx": "fts5 shadow",
		"model_vectors":    "cache of a model's answers",
		"version_features": "cache of the judge's answers", "sqlite_sequence": "the seq counter of version_features",
		"fts_scopes": "names the rowid ranges of version_fts; any numbering serves",
	}
	derived := map[string]bool{}
	for _, d := range sqlstore.DerivedTables(dialect) {
		if derived[d.Name] {
			t.Errorf("%s listed twice in derivedTables", d.Name)
		}
		derived[d.Name] = true
		if _, ok := notDerived[d.Name]; ok {
			t.Errorf("%s is both derived and not derived", d.Name)
		}
	}
	s := openInternal(t)
	rows, err := s.writer.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(tables)
	seen := map[string]bool{}
	for _, name := range tables {
		seen[name] = true
		if _, ok := notDerived[name]; !derived[name] && !ok {
			t.Errorf("table %s is neither rebuilt from the log nor listed as not derived", name)
		}
	}
	for name := range derived {
		if !seen[name] {
			t.Errorf("derivedTables names %s, which the schema does not have", name)
		}
	}
}
