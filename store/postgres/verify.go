package postgres

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// Verify checks the log and then every table readers are served from: it
// recomputes every leaf, payload hash and chain value from the stored rows,
// checks the signed head, every audit checkpoint recorded in the log and every
// erasure, and then compares the served tables with a replay of the log
// (skipped while the log and the tables are those a matching replay recorded).
// It reports the first entry, or the first served row, that does not verify.
func (s *Store) Verify(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, false)
}

// VerifyReplay is Verify with the served tables always replayed.
func (s *Store) VerifyReplay(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, true)
}

func (s *Store) verify(ctx context.Context, replay bool) (memgov.VerifyReport, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return memgov.VerifyReport{}, mapErr(err)
	}
	defer tx.Rollback()
	q := sqlstore.Bind(&pgQuerier{tx: tx}, dialect)
	lr, err := sqlstore.VerifyLog(ctx, q, s.key)
	rep, chain := lr.VerifyReport, lr.Chain
	if err != nil || !rep.OK {
		return rep, err
	}
	if !replay {
		rec, err := s.verifiedRecord(ctx, q)
		if err != nil {
			return rep, err
		}
		if rec != nil && rec.size == rep.TreeSize && hmac.Equal(rec.chain, chain) {
			got, err := sqlstore.ServedDigest(ctx, q, "", s.key)
			if err != nil {
				return rep, err
			}
			if hmac.Equal(got, rec.digest) {
				rep.Served = "digest"
				return rep, nil
			}
		}
	}
	tx.Rollback()
	res, err := s.replay(ctx)
	if err != nil {
		return rep, err
	}
	rep.Served, rep.Rows = "replay", res.rows
	if len(res.diffs) > 0 {
		d := res.diffs[0]
		rep.OK, rep.BadLSN, rep.Table, rep.Row, rep.Problem, rep.Differences = false, d.LSN, d.Table, d.Row, d.Problem, res.diffs
		return rep, nil
	}
	s.recordVerified(ctx, res.size, res.chain, res.digest)
	return rep, nil
}

// verifyRecord is verify_state: the last replay that matched.
type verifyRecord struct {
	size          int64
	chain, digest []byte
}

// verifiedRecord reads verify_state; nil when there is none or its MAC does
// not verify.
func (s *Store) verifiedRecord(ctx context.Context, q sqlstore.Querier) (*verifyRecord, error) {
	var (
		r   verifyRecord
		mac []byte
	)
	err := q.QueryRowContext(ctx, `SELECT size, chain, digest, mac FROM verify_state WHERE id = 1`).Scan(&r.size, &r.chain, &r.digest, &mac)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(mac, sqlstore.VerifyStateMAC(s.key, r.size, r.chain, r.digest)) {
		return nil, nil
	}
	return &r, nil
}

// recordVerified records a verified state: the log's size and chain value
// and the served tables' digest. A failure to record it only costs the next
// verify a replay.
func (s *Store) recordVerified(ctx context.Context, size int64, chain, digest []byte) {
	if chain == nil {
		chain = []byte{}
	}
	_, _ = s.db.ExecContext(ctx, `INSERT INTO verify_state (id, size, chain, digest, mac) VALUES (1, $1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET size = excluded.size, chain = excluded.chain, digest = excluded.digest, mac = excluded.mac`,
		size, chain, digest, sqlstore.VerifyStateMAC(s.key, size, chain, digest))
}
