package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
)

// Benchmarks on PostgreSQL: `memgov bench write` and `bench serve` given
// --db postgres://... run on that database instead of a scratch SQLite file.
// The database must be empty (createdb memgov_bench): a benchmark writes
// tens of thousands of entries, chained with the benchmark's own key.

// benchTarget is where a benchmark runs: the PostgreSQL URL of an explicit
// --db, else the scratch directory (empty: a temporary one).
func (a *app) benchTarget(cmd *cobra.Command, dir string) string {
	if cmd.Flags().Changed("db") && isDatabaseURL(a.dbPath) {
		return a.dbPath
	}
	return dir
}

// openBenchStore opens the store of a benchmark: the empty PostgreSQL
// database where names, else a scratch SQLite database in the directory
// where names (openScratch).
func openBenchStore(ctx context.Context, where string) (memgov.Store, func(), error) {
	if !isDatabaseURL(where) {
		s, done, err := openScratch(ctx, where)
		if err != nil {
			return nil, nil, err
		}
		return s, done, nil
	}
	s, err := openStore(ctx, where, storeOptions{Key: benchKey, Create: true})
	if err != nil {
		return nil, nil, fmt.Errorf("%w (a benchmark needs an empty database of its own: createdb memgov_bench)", err)
	}
	n, err := logSize(ctx, s)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	if n > 0 {
		s.Close()
		return nil, nil, fmt.Errorf("%w: %s holds a log of %d entries; a benchmark writes tens of thousands of entries, so it runs on an empty database only (createdb memgov_bench, then --db postgres://.../memgov_bench)", memgov.ErrConflict, displayDB(where), n)
	}
	return s, func() { s.Close() }, nil
}

// rawInsertsPG is the storage ceiling of a PostgreSQL database: n
// single-row INSERT transactions on a plain table of the same database, over
// one connection, with their latencies.
func rawInsertsPG(ctx context.Context, url string, n int, body func(i int) []byte) ([]time.Duration, error) {
	// Parsed as the store parses it, so that the pool's settings in the URL
	// (pool_max_conns and the like) are taken as such, not sent to the server
	// as run-time parameters it does not know.
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w (want postgres://user@host:port/dbname)", err)
	}
	c, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS bench_raw (id BIGSERIAL PRIMARY KEY, body BYTEA NOT NULL)`); err != nil {
		return nil, err
	}
	defer c.Exec(context.WithoutCancel(ctx), `DROP TABLE IF EXISTS bench_raw`)
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		tx, err := c.Begin(ctx)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO bench_raw (body) VALUES ($1)`, body(i)); err != nil {
			tx.Rollback(ctx)
			return nil, err
		}
		if err := tx.Commit(ctx); err != nil {
			return nil, err
		}
		out = append(out, time.Since(t0))
	}
	return out, nil
}
