package postgres

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// Verify checks the log and then every table readers are served from: it
// checks every entry of the log not checked before (leaf, payload hash and
// chain value recomputed from the stored rows; the entries a verify checked
// before are digested and compared with the mark it kept, and checked again
// entry by entry when they differ), the signed head, the audit checkpoints
// and erasures, and then compares the served tables with a replay of the
// log: while the log is the one a matching replay recorded, with the digest
// it recorded; after new appends, with the verified snapshot (the replayed
// tables kept in a schema of their own) with only the new entries applied.
// It reports the first entry, or the first served row, that does not verify.
func (s *Store) Verify(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, false)
}

// VerifyReplay is Verify with every entry checked and the served tables
// always replayed.
func (s *Store) VerifyReplay(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, true)
}

// snapshotLabel tells a kept PostgreSQL snapshot's MAC from others.
const snapshotLabel = "memgov-verify-snapshot-postgres"

func (s *Store) verify(ctx context.Context, replay bool) (memgov.VerifyReport, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return memgov.VerifyReport{}, mapErr(err)
	}
	defer tx.Rollback()
	q := sqlstore.Bind(&pgQuerier{tx: tx}, dialect)
	var mark sqlstore.LogMark
	if !replay {
		if mark, err = sqlstore.RecordedMark(ctx, q, s.key); err != nil {
			return memgov.VerifyReport{}, err
		}
	}
	lr, err := sqlstore.VerifyLogFrom(ctx, q, s.key, mark, nil)
	rep, chain := lr.VerifyReport, lr.Chain
	if err != nil || !rep.OK {
		return rep, err
	}
	if !lr.Mark.Equal(mark) {
		s.bestEffort(ctx, func(q sqlstore.Bound) { sqlstore.RecordMark(ctx, q, s.key, lr.Mark) })
	}
	if !replay {
		rec, err := sqlstore.ReadVerifyRecord(ctx, q, s.key, snapshotLabel)
		if err != nil {
			return rep, err
		}
		ok, err := sqlstore.CheckServed(ctx, q, sqlstore.ServedCheck{Record: rec,
			Digest:      func(ctx context.Context) ([]byte, error) { return servedDigest(ctx, q, "", s.key) },
			Release:     func() { tx.Rollback() },
			Incremental: s.incremental}, &rep, chain)
		if err != nil || ok {
			return rep, err
		}
	}
	tx.Rollback()
	res, err := s.replay(ctx)
	if err != nil {
		return rep, err
	}
	if res.Report(&rep) {
		s.recordVerified(ctx, res.Record())
	}
	return rep, nil
}

// The served tables' digest on PostgreSQL is computed by the server: for
// each compared table, the SHA-256 of its rows' SHA-256 hashes (of each
// row's text, every column in order) sorted and joined, with the count of
// its rows; no row leaves the server. The client binds the parts under the
// log key (servedDigest), so the digest cannot be computed without it, and
// two tables with the same part hold the same rows.

// servedDigest digests the compared tables of schema ("": the live ones).
func servedDigest(ctx context.Context, q sqlstore.Querier, schema string, key []byte) ([]byte, error) {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("memgov-served-digest-postgres\x00"))
	prefix := ""
	if schema != "" {
		prefix = pgIdent(schema) + "."
	}
	for _, d := range sqlstore.ComparedTables(dialect) {
		var (
			n int64
			h []byte
		)
		err := q.QueryRowContext(ctx, fmt.Sprintf(`SELECT COUNT(*), sha256(COALESCE(string_agg(h, ''::bytea ORDER BY h), ''::bytea))
			FROM (SELECT sha256(convert_to(t::text, 'UTF8')) AS h FROM %s%s t) AS r`, prefix, d.Name)).Scan(&n, &h)
		if err != nil {
			return nil, fmt.Errorf("digest %s: %w", d.Name, err)
		}
		m.Write([]byte(d.Name))
		m.Write([]byte{0})
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], uint64(n))
		m.Write(b[:])
		m.Write(h)
	}
	return m.Sum(nil), nil
}

// snapshotSchema is the schema the verified snapshot is kept in, beside
// the live schema.
const snapshotSuffix = "_verified"

func (s *Store) snapshotSchema(ctx context.Context, q sqlstore.Querier) (live, snap string, err error) {
	if err := q.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&live); err != nil {
		return "", "", err
	}
	return live, live + snapshotSuffix, nil
}

// dropSnapshotSQL removes the verified snapshot in a write transaction: an
// erasure must not leave the erased text in a copy of the served tables.
const dropSnapshotSQL = `DO $$ BEGIN EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', current_schema() || '` + snapshotSuffix + `'); END $$`

// keepable takes the append lock, if no writer holds it, so that nothing is
// appended before the transaction commits, and says whether the log has
// no erasure after size (read afresh, outside the transaction's snapshot).
// A snapshot is kept only then: an erasure committed since the replay read
// the log must not find its text kept after it.
func (s *Store) keepable(ctx context.Context, tx *sql.Tx, size int64) (bool, error) {
	var got bool
	if err := tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock($1)`, appendLock).Scan(&got); err != nil || !got {
		return false, err
	}
	var erases int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM log WHERE lsn > $1 AND op = $2`, size, string(oplog.Erase)).Scan(&erases); err != nil {
		return false, err
	}
	return erases == 0, nil
}

// incremental applies the log entries after the recorded state to the
// verified snapshot and compares the result with the live served tables, in
// one transaction kept only when they match. It reports false (and no
// error) when it cannot decide and the whole log must be replayed.
func (s *Store) incremental(ctx context.Context, rec *sqlstore.VerifyRecord, size int64, chain []byte) (bool, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return false, mapErr(err)
	}
	defer tx.Rollback()
	q := sqlstore.Bind(&pgQuerier{tx: tx}, dialect)
	live, snap, err := s.snapshotSchema(ctx, q)
	if err != nil {
		return false, err
	}
	var exists bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?)`, snap).Scan(&exists); err != nil || !exists {
		return false, err
	}
	// The snapshot must hold what the recorded replay left in it.
	got, err := servedDigest(ctx, q, snap, s.key)
	if err != nil {
		return false, err
	}
	if !hmac.Equal(got, rec.Snapshot) {
		return false, nil
	}
	// The log as this transaction reads it must be the log just verified,
	// with no erasure among the new entries (a full replay copies its
	// residue).
	entries, ok, err := sqlstore.NewEntries(ctx, q, rec, size, chain)
	if err != nil || !ok {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`SET LOCAL search_path TO %s, %s`, pgIdent(snap), pgIdent(live))); err != nil {
		return false, err
	}
	for _, e := range entries {
		if _, err := q.ExecContext(ctx, `UPDATE replay_cur SET lsn = ?`, e.LSN); err != nil {
			return false, err
		}
		if err := sqlstore.Apply(ctx, q, e); err != nil {
			return false, nil // the full replay reports it
		}
	}
	after, err := servedDigest(ctx, q, snap, s.key)
	if err != nil {
		return false, err
	}
	livesum, err := servedDigest(ctx, q, live, s.key)
	if err != nil {
		return false, err
	}
	if !hmac.Equal(after, livesum) {
		return false, nil // a difference: the full replay names it
	}
	// Verified. The snapshot moves on when nothing is being appended and
	// nothing was erased since; else the next verify starts from the record.
	if keep, err := s.keepable(ctx, tx, size); err != nil || !keep {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, nil
	}
	s.recordVerified(ctx, sqlstore.VerifyRecord{Size: size, Chain: chain, Digest: livesum, Snapshot: after})
	return true, nil
}

// bestEffort runs fn in a write transaction and commits it: what it keeps
// (the log's mark, the verified state) only spares the next verify work, so
// a failure is not reported.
func (s *Store) bestEffort(ctx context.Context, fn func(q sqlstore.Bound)) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	defer tx.Rollback()
	fn(sqlstore.Bind(&pgQuerier{tx: tx}, dialect))
	_ = tx.Commit()
}

// recordVerified records a verified state: the log's size and chain value,
// the served tables' digest and the kept snapshot's (nil: none).
func (s *Store) recordVerified(ctx context.Context, r sqlstore.VerifyRecord) {
	s.bestEffort(ctx, func(q sqlstore.Bound) { sqlstore.RecordVerified(ctx, q, s.key, snapshotLabel, r) })
}
