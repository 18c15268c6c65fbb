package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// This file checks what readers see against the log (spec §2.7: every table
// MUST be rebuildable from the log). The log is replayed through apply into a
// scratch database, beside the live one and never into it, and every served
// table is compared with the live one row by row. Triggers in the scratch
// database remember which log entry last wrote or removed each row, so a
// difference names its table, its row and its log entry.

// replay replays the log into a scratch database and compares every served
// table of the live database with it, in one read snapshot of the live file.
// With keep, a replay that matches every table is kept as the verified
// snapshot (snapshotPath) that the next verify replays new entries on.
func (s *Store) replay(ctx context.Context, keep bool) (sqlstore.ReplayResult, error) {
	var res sqlstore.ReplayResult
	// Beside the database, so that a kept replay is renamed into place; in
	// the temporary directory when the database's is not writable.
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+"-replay-*")
	if err != nil {
		keep = false
		if f, err = os.CreateTemp("", "memgov-replay-*.db"); err != nil {
			return res, fmt.Errorf("replay: scratch database: %w", err)
		}
	}
	scratch := f.Name()
	f.Close()
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(scratch + suffix)
		}
	}()
	db, err := openScratchDB(scratch)
	if err != nil {
		return res, err
	}
	defer db.Close()
	ms, err := migrations()
	if err != nil {
		return res, err
	}
	for _, m := range ms {
		if _, err := db.ExecContext(ctx, m.SQL); err != nil {
			return res, fmt.Errorf("replay: scratch schema %s: %w", m.Name, err)
		}
	}
	if err := s.attachLive(ctx, db); err != nil {
		return res, err
	}
	setup := []string{
		`CREATE TEMP TABLE replay_cur (lsn INTEGER NOT NULL)`,
		`INSERT INTO replay_cur VALUES (0)`,
		`CREATE TEMP TABLE replay_rows (tbl TEXT NOT NULL, k TEXT NOT NULL, lsn INTEGER NOT NULL, gone INTEGER NOT NULL, PRIMARY KEY (tbl, k)) WITHOUT ROWID`,
	}
	// Virtual tables (the full-text index) take no triggers: their rows are
	// compared all the same, without the log entry that last wrote them.
	virtual := map[string]bool{}
	vrows, err := db.QueryContext(ctx, `SELECT name FROM main.sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		return res, fmt.Errorf("replay: %w", err)
	}
	for vrows.Next() {
		var name string
		if err := vrows.Scan(&name); err != nil {
			vrows.Close()
			return res, fmt.Errorf("replay: %w", err)
		}
		virtual[name] = true
	}
	vrows.Close()
	for _, d := range sqlstore.ComparedTables(dialect) {
		if virtual[d.Name] {
			continue
		}
		for _, ev := range []struct{ when, row, gone string }{{"INSERT", "NEW", "0"}, {"UPDATE", "NEW", "0"}, {"DELETE", "OLD", "1"}} {
			setup = append(setup, fmt.Sprintf(`CREATE TEMP TRIGGER replay_%s_%s AFTER %s ON main.%s BEGIN
				INSERT INTO replay_rows (tbl, k, lsn, gone) VALUES ('%s', CAST(%s AS TEXT), (SELECT lsn FROM replay_cur), %s)
				ON CONFLICT (tbl, k) DO UPDATE SET lsn = excluded.lsn, gone = excluded.gone; END`,
				d.Name, strings.ToLower(ev.when), ev.when, d.Name, d.Name, sqlstore.KeyExpr(d.Key, ev.row), ev.gone))
		}
	}
	for _, q := range setup {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return res, fmt.Errorf("replay: %w", err)
		}
	}
	cache := newStmtCache(db)
	defer cache.close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return res, err
	}
	defer tx.Rollback()
	q := &stmtQuerier{tx: tx, cache: cache}
	// The residue of erased payloads is what replay needs in their place.
	for _, t := range []string{"erased_skeleton", "erased_leaves"} {
		if _, err := q.ExecContext(ctx, fmt.Sprintf(`INSERT INTO main.%s SELECT * FROM live.%s`, t, t)); err != nil {
			return res, fmt.Errorf("replay: copy %s: %w", t, err)
		}
	}
	res, err = sqlstore.ReplayLog(ctx, sqlstore.Bind(tx, dialect), sqlstore.Bind(q, dialect), "live", "main")
	if err != nil {
		return res, err
	}
	if len(res.Diffs) == 0 {
		if res.Digest, err = servedDigest(ctx, q, "live", s.key); err != nil {
			return res, err
		}
		if keep {
			// The snapshot keeps the sums of its own tables, which the next
			// incremental verify adds the new entries' rows to.
			sums, err := tableSums(ctx, q, "main", s.key)
			if err != nil {
				return res, err
			}
			if err := keepSums(ctx, q, sums); err != nil {
				return res, err
			}
			if err := tx.Commit(); err != nil {
				return res, err
			}
			if res.Snapshot, err = keepSnapshot(db, scratch, s.snapshotPath()); err != nil {
				res.Snapshot = nil // not kept: the next verify replays the whole log
			}
		}
	}
	return res, nil
}
