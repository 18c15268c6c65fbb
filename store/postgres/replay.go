package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// This file checks what readers see against the log (spec §2.7: every table
// MUST be rebuildable from the log). The log is replayed through apply into a
// scratch schema of the same database, never into the live tables, and every
// served table is compared with the live one row by row. Triggers in the
// scratch schema remember which log entry last wrote or removed each row, so
// a difference names its table, its row and its log entry.

// replay replays the log into a scratch schema of the same database, in one
// REPEATABLE READ transaction that reads the live tables through one snapshot
// and never writes them. It compares every served table of the live schema
// with the replay; a replay that matches them all is kept as the verified
// snapshot (the schema <live>_verified), else it is rolled back and leaves
// nothing.
func (s *Store) replay(ctx context.Context) (sqlstore.ReplayResult, error) {
	var res sqlstore.ReplayResult
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
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return res, fmt.Errorf("replay: scratch schema %s: %w", m.Name, err)
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
	for _, d := range sqlstore.ComparedTables(dialect) {
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
END $f$`, d.Name, sqlstore.KeyExpr(d.Key, "OLD"), sqlstore.KeyExpr(d.Key, "NEW")),
			fmt.Sprintf(`CREATE TRIGGER replay_track AFTER INSERT OR UPDATE OR DELETE ON %s.%s FOR EACH ROW EXECUTE FUNCTION replay_track_%s()`,
				scratch, d.Name, d.Name))
	}
	for _, stmt := range setup {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return res, fmt.Errorf("replay: %w", err)
		}
	}
	q := sqlstore.Bind(&pgQuerier{tx: tx}, dialect)
	// The residue of erased payloads is what replay needs in their place.
	for _, t := range []string{"erased_skeleton", "erased_leaves"} {
		if _, err := q.ExecContext(ctx, fmt.Sprintf(`INSERT INTO %s.%s SELECT * FROM %s.%s`, scratch, t, pgIdent(live), t)); err != nil {
			return res, fmt.Errorf("replay: copy %s: %w", t, err)
		}
	}
	res, err = sqlstore.ReplayLog(ctx, q, q, pgIdent(live), scratch)
	if err != nil {
		return res, err
	}
	if len(res.Diffs) == 0 {
		if res.Digest, err = servedDigest(ctx, q, live, s.key); err != nil {
			return res, err
		}
		// The replay is kept as the verified snapshot that the next verify
		// applies new entries to, in place of the one before.
		snap, err := servedDigest(ctx, q, scratch, s.key)
		if err != nil {
			return res, err
		}
		keep, err := s.keepable(ctx, tx, res.Size)
		if err != nil || !keep {
			return res, err
		}
		for _, stmt := range []string{
			`DROP SCHEMA IF EXISTS ` + pgIdent(live+snapshotSuffix) + ` CASCADE`,
			`ALTER SCHEMA ` + scratch + ` RENAME TO ` + pgIdent(live+snapshotSuffix),
		} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return res, fmt.Errorf("replay: keep the verified snapshot: %w", err)
			}
		}
		if err := tx.Commit(); err == nil {
			res.Snapshot = snap
		}
	}
	return res, nil
}

// pgIdent quotes a schema name.
func pgIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
