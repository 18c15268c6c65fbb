package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// This file checks what readers see against the log (spec §2.7: every table
// MUST be rebuildable from the log). The log is replayed through apply into a
// scratch database, beside the live one and never into it, and every served
// table is compared with the live one row by row. Triggers in the scratch
// database remember which log entry last wrote or removed each row, so a
// difference names its table, its row and its log entry.

// maxDifferences bounds the differences one comparison reports per table and
// direction.
const maxDifferences = 20

// comparedTables are the tables compared after a replay: every derived table
// and erased_payload, which the replay of the ERASE entries reproduces (a
// payload recorded as erased that no ERASE entry lists is a forged erasure).
func comparedTables() []derivedTable {
	return append(append([]derivedTable{}, derivedTables...), derivedTable{"erased_payload", "lsn"})
}

// keyColumns splits a derived table's key expression into its columns.
func keyColumns(key string) []string { return strings.Split(key, " || '#' || ") }

// keyExpr is the key expression over the columns of a trigger's NEW or OLD row.
func keyExpr(key, row string) string {
	cols := keyColumns(key)
	for i, c := range cols {
		cols[i] = row + "." + c
	}
	return strings.Join(cols, " || '#' || ")
}

// replayResult is the outcome of one replay.
type replayResult struct {
	entries int64
	rows    map[string]int64 // live rows per compared table
	diffs   []memgov.RowDifference
	size    int64  // the log size the replay read
	chain   []byte // the chain value of its last entry
	digest  []byte // the live served tables' digest, same snapshot
	// snapshot is the SHA-256 of the replayed tables' file, kept as the
	// store's verified snapshot (nil when the replay was not kept).
	snapshot []byte
}

// replay replays the log into a scratch database and compares every served
// table of the live database with it, in one read snapshot of the live file.
// With keep, a replay that matches every table is kept as the verified
// snapshot (snapshotPath) that the next verify replays new entries on.
func (s *Store) replay(ctx context.Context, keep bool) (replayResult, error) {
	res := replayResult{rows: map[string]int64{}}
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
		if _, err := db.ExecContext(ctx, m.sql); err != nil {
			return res, fmt.Errorf("replay: scratch schema %s: %w", m.name, err)
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
	for _, d := range comparedTables() {
		if virtual[d.name] {
			continue
		}
		for _, ev := range []struct{ when, row, gone string }{{"INSERT", "NEW", "0"}, {"UPDATE", "NEW", "0"}, {"DELETE", "OLD", "1"}} {
			setup = append(setup, fmt.Sprintf(`CREATE TEMP TRIGGER replay_%s_%s AFTER %s ON main.%s BEGIN
				INSERT INTO replay_rows (tbl, k, lsn, gone) VALUES ('%s', CAST(%s AS TEXT), (SELECT lsn FROM replay_cur), %s)
				ON CONFLICT (tbl, k) DO UPDATE SET lsn = excluded.lsn, gone = excluded.gone; END`,
				d.name, strings.ToLower(ev.when), ev.when, d.name, d.name, keyExpr(d.key, ev.row), ev.gone))
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
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM live.log`).Scan(&res.size); err != nil {
		return res, err
	}
	if res.size > 0 {
		if err := q.QueryRowContext(ctx, `SELECT chain FROM live.log WHERE lsn = ?`, res.size).Scan(&res.chain); err != nil {
			return res, err
		}
	}
	r := &readTx{q: tx}
	const batch = 2000
	for from := int64(1); from <= res.size; from += batch {
		var entries []*oplog.Entry
		if err := r.LogRange(ctx, from, min(from+batch-1, res.size), func(e *oplog.Entry) error {
			entries = append(entries, e)
			return nil
		}); err != nil {
			return res, err
		}
		for _, e := range entries {
			if _, err := q.ExecContext(ctx, `UPDATE replay_cur SET lsn = ?`, e.LSN); err != nil {
				return res, err
			}
			if err := apply(ctx, q, e); err != nil {
				return res, fmt.Errorf("replay: %w", err)
			}
			res.entries++
		}
	}
	for _, d := range comparedTables() {
		var n int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM live.`+d.name).Scan(&n); err != nil {
			return res, err
		}
		res.rows[d.name] = n
		diffs, err := compareTable(ctx, q, d)
		if err != nil {
			return res, err
		}
		res.diffs = append(res.diffs, diffs...)
	}
	sort.SliceStable(res.diffs, func(i, j int) bool { return diffOrder(res.diffs[i]) < diffOrder(res.diffs[j]) })
	if len(res.diffs) == 0 {
		if res.digest, err = servedDigest(ctx, q, "live.", s.key); err != nil {
			return res, err
		}
		if keep {
			if err := tx.Commit(); err != nil {
				return res, err
			}
			if res.snapshot, err = keepSnapshot(db, scratch, s.snapshotPath()); err != nil {
				res.snapshot = nil // not kept: the next verify replays the whole log
			}
		}
	}
	return res, nil
}

// diffOrder orders differences by the log entry they name; a row no entry
// wrote comes last.
func diffOrder(d memgov.RowDifference) int64 {
	if d.LSN == 0 {
		return 1 << 62
	}
	return d.LSN
}

// compareTable lists the rows of one table that differ between the live
// database and the replay, with the log entry that last wrote or removed each.
func compareTable(ctx context.Context, q querier, d derivedTable) ([]memgov.RowDifference, error) {
	keys := func(a, b string) ([]string, error) {
		return queryAll(ctx, q, func(sc scanner) (string, error) {
			var k sql.NullString
			err := sc.Scan(&k)
			return k.String, err
		}, fmt.Sprintf(`SELECT DISTINCT CAST(%s AS TEXT) FROM (SELECT * FROM %s.%s EXCEPT SELECT * FROM %s.%s) LIMIT %d`,
			d.key, a, d.name, b, d.name, maxDifferences))
	}
	liveOnly, err := keys("live", "main")
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", d.name, err)
	}
	replayOnly, err := keys("main", "live")
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", d.name, err)
	}
	inReplay := map[string]bool{}
	for _, k := range replayOnly {
		inReplay[k] = true
	}
	var out []memgov.RowDifference
	written := func(k string) (int64, bool, error) {
		var lsn, gone int64
		err := q.QueryRowContext(ctx, `SELECT lsn, gone FROM replay_rows WHERE tbl = ? AND k = ?`, d.name, k).Scan(&lsn, &gone)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		return lsn, gone == 1, err
	}
	for _, k := range liveOnly {
		lsn, gone, err := written(k)
		if err != nil {
			return nil, err
		}
		diff := memgov.RowDifference{Table: d.name, Row: k, LSN: lsn}
		switch {
		case inReplay[k]:
			diff.Problem = fmt.Sprintf("%s row %s differs from the log: log entry %d wrote it otherwise", d.name, k, lsn)
			delete(inReplay, k)
		case gone:
			diff.Problem = fmt.Sprintf("%s row %s should not exist: log entry %d removed it", d.name, k, lsn)
		case lsn > 0:
			diff.Problem = fmt.Sprintf("%s row %s differs from the log: log entry %d wrote it otherwise", d.name, k, lsn)
		default:
			diff.Problem = fmt.Sprintf("%s row %s was written by no log entry", d.name, k)
		}
		out = append(out, diff)
	}
	for _, k := range replayOnly {
		if !inReplay[k] {
			continue
		}
		lsn, _, err := written(k)
		if err != nil {
			return nil, err
		}
		out = append(out, memgov.RowDifference{Table: d.name, Row: k, LSN: lsn,
			Problem: fmt.Sprintf("%s row %s is missing or altered: log entry %d wrote it", d.name, k, lsn)})
	}
	return out, nil
}
