package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// This file checks what readers see against the log (spec §2.7: every table
// MUST be rebuildable from the log). The log is replayed through apply into a
// scratch schema of the same database, never into the live tables, and every
// served table is compared with the live one row by row. Triggers in the
// scratch schema remember which log entry last wrote or removed each row, so
// a difference names its table, its row and its log entry.

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
}

// replay replays the log into a scratch schema of the same database, in one
// REPEATABLE READ transaction that reads the live tables through one snapshot
// and is always rolled back, so the scratch schema never outlives it and the
// live tables cannot be changed by it. It compares every served table of the
// live schema with the replay.
func (s *Store) replay(ctx context.Context) (replayResult, error) {
	res := replayResult{rows: map[string]int64{}}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return res, mapErr(err)
	}
	defer tx.Rollback()
	var live string
	if err := tx.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&live); err != nil {
		return res, err
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return res, err
	}
	scratch := "memgov_replay_" + hex.EncodeToString(rnd[:])
	for _, stmt := range []string{
		`CREATE SCHEMA ` + scratch,
		fmt.Sprintf(`SET LOCAL search_path TO %s, %s`, scratch, pgIdent(live)),
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return res, fmt.Errorf("replay: scratch schema: %w", err)
		}
	}
	ms, err := migrations()
	if err != nil {
		return res, err
	}
	for _, m := range ms {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return res, fmt.Errorf("replay: scratch schema %s: %w", m.name, err)
		}
	}
	// The log is read where it is, through views that cannot write to it.
	setup := []string{
		fmt.Sprintf(`DROP TABLE %s.log, %s.log_payload CASCADE`, scratch, scratch),
		fmt.Sprintf(`CREATE VIEW %s.log AS SELECT * FROM %s.log LIMIT ALL`, scratch, pgIdent(live)),
		fmt.Sprintf(`CREATE VIEW %s.log_payload AS SELECT * FROM %s.log_payload LIMIT ALL`, scratch, pgIdent(live)),
		`CREATE TABLE replay_cur (lsn BIGINT NOT NULL)`,
		`INSERT INTO replay_cur VALUES (0)`,
		`CREATE TABLE replay_rows (tbl TEXT NOT NULL, k TEXT NOT NULL, lsn BIGINT NOT NULL, gone BIGINT NOT NULL, PRIMARY KEY (tbl, k))`,
	}
	// Triggers remember which log entry last wrote or removed each row.
	for _, d := range comparedTables() {
		setup = append(setup, fmt.Sprintf(`CREATE FUNCTION replay_track_%[1]s() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
	IF TG_OP = 'DELETE' THEN
		INSERT INTO replay_rows (tbl, k, lsn, gone) VALUES ('%[1]s', CAST(%[2]s AS TEXT), (SELECT lsn FROM replay_cur), 1)
		ON CONFLICT (tbl, k) DO UPDATE SET lsn = excluded.lsn, gone = excluded.gone;
	ELSE
		INSERT INTO replay_rows (tbl, k, lsn, gone) VALUES ('%[1]s', CAST(%[3]s AS TEXT), (SELECT lsn FROM replay_cur), 0)
		ON CONFLICT (tbl, k) DO UPDATE SET lsn = excluded.lsn, gone = excluded.gone;
	END IF;
	RETURN NULL;
END $f$`, d.name, keyExpr(d.key, "OLD"), keyExpr(d.key, "NEW")),
			fmt.Sprintf(`CREATE TRIGGER replay_track AFTER INSERT OR UPDATE OR DELETE ON %s.%s FOR EACH ROW EXECUTE FUNCTION replay_track_%s()`,
				scratch, d.name, d.name))
	}
	for _, stmt := range setup {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return res, fmt.Errorf("replay: %w", err)
		}
	}
	q := &pgQuerier{tx: tx}
	// The residue of erased payloads is what replay needs in their place.
	for _, t := range []string{"erased_skeleton", "erased_leaves"} {
		if _, err := q.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s.%s SELECT * FROM %s.%s`, scratch, t, pgIdent(live), t)); err != nil {
			return res, fmt.Errorf("replay: copy %s: %w", t, err)
		}
	}
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM log`).Scan(&res.size); err != nil {
		return res, err
	}
	if res.size > 0 {
		if err := q.QueryRowContext(ctx, `SELECT chain FROM log WHERE lsn = ?`, res.size).Scan(&res.chain); err != nil {
			return res, err
		}
	}
	r := &readTx{q: q}
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
		if err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*) FROM %s.%s`, pgIdent(live), d.name)).Scan(&n); err != nil {
			return res, err
		}
		res.rows[d.name] = n
		diffs, err := compareTable(ctx, q, d, pgIdent(live), scratch)
		if err != nil {
			return res, err
		}
		res.diffs = append(res.diffs, diffs...)
	}
	sort.SliceStable(res.diffs, func(i, j int) bool { return diffOrder(res.diffs[i]) < diffOrder(res.diffs[j]) })
	if len(res.diffs) == 0 {
		if res.digest, err = servedDigest(ctx, q, pgIdent(live)+".", s.key); err != nil {
			return res, err
		}
	}
	return res, nil
}

// pgIdent quotes a schema name.
func pgIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

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
func compareTable(ctx context.Context, q querier, d derivedTable, live, scratch string) ([]memgov.RowDifference, error) {
	keys := func(a, b string) ([]string, error) {
		return queryAll(ctx, q, func(sc scanner) (string, error) {
			var k sql.NullString
			err := sc.Scan(&k)
			return k.String, err
		}, fmt.Sprintf(`SELECT DISTINCT CAST(%s AS TEXT) FROM (SELECT * FROM %s.%s EXCEPT SELECT * FROM %s.%s) AS d LIMIT %d`,
			d.key, a, d.name, b, d.name, maxDifferences))
	}
	liveOnly, err := keys(live, scratch)
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", d.name, err)
	}
	replayOnly, err := keys(scratch, live)
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
