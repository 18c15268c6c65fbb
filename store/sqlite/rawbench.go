package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// RawInserts measures the storage ceiling that governed writes are compared
// with: n single-row INSERT transactions (BEGIN IMMEDIATE, INSERT, COMMIT) on a
// plain table of the database at path, through a connection opened with the
// store's own writer DSN, so the file, the WAL and every pragma are the same.
// body(i) is the row's payload. It returns each transaction's latency.
//
// The table, bench_raw, is created if missing; it is not part of the schema and
// is meant for scratch databases such as the ones `memgov bench` creates.
func RawInserts(ctx context.Context, path string, n int, body func(i int) []byte) ([]time.Duration, error) {
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bench_raw (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`); err != nil {
		return nil, fmt.Errorf("raw inserts: %w", err)
	}
	ins, err := db.PrepareContext(ctx, `INSERT INTO bench_raw (body) VALUES (?)`)
	if err != nil {
		return nil, fmt.Errorf("raw inserts: %w", err)
	}
	defer ins.Close()
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		b := body(i)
		t0 := time.Now()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return out, fmt.Errorf("raw insert %d: %w", i, err)
		}
		if _, err := tx.StmtContext(ctx, ins).ExecContext(ctx, b); err != nil {
			tx.Rollback()
			return out, fmt.Errorf("raw insert %d: %w", i, err)
		}
		if err := tx.Commit(); err != nil {
			return out, fmt.Errorf("raw insert %d: %w", i, err)
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}
