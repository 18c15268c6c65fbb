package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"path/filepath"
	"testing"

	sqlite "modernc.org/sqlite"
)

// endStatement, when set, is called by the SQL function memgov_test_end.
var endStatement func()

func init() {
	sqlite.MustRegisterFunction("memgov_test_end", &sqlite.FunctionImpl{NArgs: 0,
		Scalar: func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
			if endStatement != nil {
				endStatement()
			}
			return int64(1), nil
		}})
}

// A statement of a write transaction whose context ends while it runs
// finishes with its whole result; the transaction's next statement fails
// with the context's error.
func TestWriteStatementRunsToItsEnd(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "whole.db"), Options{Key: []byte("0123456789abcdef0123456789abcdef"), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	q := &stmtQuerier{tx: tx, cache: s.stmts, whole: true}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	endStatement = cancel
	defer func() { endStatement = nil }()
	// The context ends at the first of 200,000 rows; SQLite would check for
	// an interrupt every thousand steps.
	var n int64
	err = q.QueryRowContext(cctx, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000)
		SELECT sum(CASE WHEN x = 1 THEN memgov_test_end() ELSE 1 END) FROM c`).Scan(&n)
	if err != nil || n != 200000 {
		t.Fatalf("the statement whose context ended inside it = %d, %v; want 200000, nil", n, err)
	}
	if cctx.Err() == nil {
		t.Fatal("the context did not end: the test proves nothing")
	}
	if _, err := q.ExecContext(cctx, `CREATE TABLE after_end (x)`); !errors.Is(err, context.Canceled) {
		t.Fatalf("the next statement = %v, want context.Canceled", err)
	}
}
