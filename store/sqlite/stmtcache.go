package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// modernc.org/sqlite compiles a statement on every ExecContext/QueryContext
// call and finalises it afterwards; an append runs some thirty statements, so
// compiling them dominated small write transactions. A transaction runs its
// statements through a stmtQuerier instead: every statement text seen in a
// transaction is prepared once on its pool before a later transaction begins
// (database/sql cannot prepare on the writer pool while a transaction holds
// its only connection) and reused from then on; within a transaction a
// statement not yet prepared on the pool is prepared once with the
// transaction and reused until it ends. The writer pool and the read pool
// each have a cache: a statement prepared on the read pool is prepared on
// each read connection the first time that connection runs it, and kept
// there (database/sql's Tx.StmtContext).

// maxCachedStmts bounds the statements a pool keeps prepared.
const maxCachedStmts = 256

type stmtCache struct {
	db     *sql.DB
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// cacheable excludes statement texts that are not worth keeping: several
// statements in one string, pragmas, and anything past the cap.
func cacheable(query string) bool {
	q := strings.TrimSpace(query)
	return !strings.Contains(strings.TrimSuffix(q, ";"), ";") && !strings.HasPrefix(strings.ToUpper(q), "PRAGMA")
}

// prepareWanted prepares on the pool the statements the previous transactions
// used; call it while no transaction holds the writer connection.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	var qs []string
	for q := range c.wanted {
		delete(c.wanted, q)
		if len(c.stmts)+len(qs) < maxCachedStmts {
			qs = append(qs, q)
		}
	}
	c.mu.Unlock()
	// Preparing waits for the connection: never while holding mu, which a
	// running transaction needs.
	for _, q := range qs {
		st, err := c.db.PrepareContext(ctx, q)
		if err != nil {
			continue // the transaction that runs it reports the error
		}
		c.mu.Lock()
		if c.stmts[q] == nil {
			c.stmts[q], st = st, nil
		}
		c.mu.Unlock()
		if st != nil {
			st.Close()
		}
	}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.stmts[query]; st != nil {
		return st
	}
	if len(c.stmts)+len(c.wanted) < maxCachedStmts && cacheable(query) {
		c.wanted[query] = true
	}
	return nil
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.stmts {
		st.Close()
		delete(c.stmts, q)
	}
}

// stmtQuerier is the sqlstore.Querier of a transaction, write or read.
type stmtQuerier struct {
	tx    *sql.Tx
	cache *stmtCache
	local map[string]*sql.Stmt // statements bound to tx
	// whole runs each statement of a write transaction to its end: a
	// context that ends stops the transaction at its next statement (which
	// fails with the context's error, and the transaction rolls back), not
	// inside one. A statement run under a context that can end costs two
	// goroutines (the driver's, to interrupt it, and database/sql's, to
	// close its rows), some thirty times a write; a write transaction
	// shared by a batch of writers is not rolled back in the middle of a
	// statement because one of them stopped waiting.
	whole bool
}

// ctx is the context a statement runs under (see whole).
func (q *stmtQuerier) ctx(ctx context.Context) context.Context {
	if q.whole && ctx.Err() == nil {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (q *stmtQuerier) stmt(ctx context.Context, query string) *sql.Stmt {
	if st := q.local[query]; st != nil {
		return st
	}
	var st *sql.Stmt
	if parent := q.cache.lookup(query); parent != nil {
		st = q.tx.StmtContext(ctx, parent)
	} else if cacheable(query) {
		var err error
		if st, err = q.tx.PrepareContext(ctx, query); err != nil {
			return nil
		}
	} else {
		return nil
	}
	if q.local == nil {
		q.local = map[string]*sql.Stmt{}
	}
	q.local[query] = st
	return st
}

func (q *stmtQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = q.ctx(ctx)
	if st := q.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return q.tx.ExecContext(ctx, query, args...)
}

// QueryContext does not reuse statements: the driver keeps one SQLite handle
// per prepared statement, so the same text run again while its rows are open
// (a nested loop) would reset them. Exec and QueryRow finish before returning
// (a Row is scanned at once).
func (q *stmtQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return q.tx.QueryContext(q.ctx(ctx), query, args...)
}

// QueryDrained runs a query whose rows the caller reads to the end and closes
// before it runs the same text again (no nesting): its statement is prepared
// once and reused, like Exec's (sqlstore.Drainer).
func (q *stmtQuerier) QueryDrained(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = q.ctx(ctx)
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return q.tx.QueryContext(ctx, query, args...)
}

func (q *stmtQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = q.ctx(ctx)
	if st := q.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return q.tx.QueryRowContext(ctx, query, args...)
}
