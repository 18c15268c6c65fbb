package postgres

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// headMAC authenticates the log's size and last chain value.
func headMAC(key []byte, size int64, chain merkle.Hash) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("memgov-log-head\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(size))
	m.Write(b[:])
	m.Write(chain[:])
	return m.Sum(nil)
}

func (t *Tx) writeHead(ctx context.Context, e *oplog.Entry) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO log_head (id, size, chain, mac) VALUES (1, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET size = excluded.size, chain = excluded.chain, mac = excluded.mac`,
		e.LSN, e.Chain[:], headMAC(t.store.key, e.LSN, e.Chain))
	return err
}

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
	q := &pgQuerier{tx: tx}
	rep, chain, err := s.verifyLog(ctx, q)
	if err != nil || !rep.OK {
		return rep, err
	}
	if !replay {
		rec, err := s.verifiedRecord(ctx, q)
		if err != nil {
			return rep, err
		}
		if rec != nil && rec.size == rep.TreeSize && hmac.Equal(rec.chain, chain) {
			got, err := servedDigest(ctx, q, "", s.key)
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
func (s *Store) verifiedRecord(ctx context.Context, q querier) (*verifyRecord, error) {
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
	if !hmac.Equal(mac, verifyStateMAC(s.key, r.size, r.chain, r.digest)) {
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
		size, chain, digest, verifyStateMAC(s.key, size, chain, digest))
}

// verifyLog checks the log itself and returns the chain value of its last
// entry.
func (s *Store) verifyLog(ctx context.Context, tx querier) (memgov.VerifyReport, []byte, error) {
	rep, err := s.verifyLogReport(ctx, tx)
	return rep.VerifyReport, rep.chain, err
}

// logReport is a VerifyReport with the last chain value.
type logReport struct {
	memgov.VerifyReport
	chain []byte
}

func (s *Store) verifyLogReport(ctx context.Context, tx querier) (logReport, error) {
	var rep logReport

	rows, err := tx.QueryContext(ctx, `SELECT l.lsn, l.ts, l.op, l.memory_ref, l.item_id, l.version_id, l.prev_version_id,
		l.actor, l.payload_hash, l.leaf, l.chain, p.body, e.erased_by, eo.op, sk.body
		FROM log l LEFT JOIN log_payload p ON p.lsn = l.lsn LEFT JOIN erased_payload e ON e.lsn = l.lsn
		LEFT JOIN log eo ON eo.lsn = e.erased_by LEFT JOIN erased_skeleton sk ON sk.lsn = l.lsn AND p.body IS NULL ORDER BY l.lsn`)
	if err != nil {
		return rep, err
	}
	defer rows.Close()
	fail := func(lsn int64, format string, args ...any) (logReport, error) {
		rep.OK, rep.BadLSN, rep.Problem = false, lsn, fmt.Sprintf(format, args...)
		return rep, nil
	}
	var (
		expect  int64 = 1
		chain   merkle.Hash
		leaves  []merkle.Hash
		cps     []oplog.AuditCheckpointRecord
		ts      int64
		op      string
		leaf    []byte
		stored  []byte
		body    []byte
		erasedB sql.NullInt64
		erasOp  sql.NullString
		skel    []byte

		erasedBy  = map[int64]int64{}  // erased payload LSN -> the ERASE entry recorded
		listedBy  = map[int64]int64{}  // LSN -> the ERASE entry listing it
		skelHash  = map[int64]string{} // erased payload LSN -> the hash of its stored skeleton
		boundSkel = map[int64]string{} // LSN -> the skeleton hash its ERASE entry bound
	)
	for rows.Next() {
		var e oplog.Entry
		if err := rows.Scan(&e.LSN, &ts, &op, &e.MemoryRef, &e.ItemID, &e.VersionID, &e.PrevVersionID, &e.Actor,
			&e.PayloadHash, &leaf, &stored, &body, &erasedB, &erasOp, &skel); err != nil {
			return rep, err
		}
		e.Time, e.Op = fromMS(ts), oplog.Op(op)
		if e.LSN != expect {
			return fail(expect, "log entry %d is missing: the next stored entry is %d (entries were removed or renumbered)", expect, e.LSN)
		}
		want, err := e.ComputeLeaf()
		if err != nil {
			return fail(e.LSN, "log entry %d cannot be canonicalised: %v", e.LSN, err)
		}
		var got merkle.Hash
		copy(got[:], leaf)
		if len(leaf) != len(got) || got != want {
			return fail(e.LSN, "log entry %d was altered: its fields no longer match its leaf hash", e.LSN)
		}
		switch {
		case body != nil:
			if oplog.HashPayload(body) != e.PayloadHash {
				return fail(e.LSN, "the payload of log entry %d was altered: it no longer matches the hash in the log", e.LSN)
			}
		case erasedB.Valid && erasOp.String == "ERASE":
			// Proven below, once the ERASE entry (always later) has been read.
			erasedBy[e.LSN] = erasedB.Int64
			if skel != nil {
				skelHash[e.LSN] = oplog.HashPayload(skel)
			}
			rep.Erased++
		case erasedB.Valid:
			return fail(e.LSN, "the payload of log entry %d is missing and is recorded as erased by log entry %d, which is not an erasure (forged erasure)", e.LSN, erasedB.Int64)
		default:
			return fail(e.LSN, "the payload of log entry %d is missing and no erasure removed it", e.LSN)
		}
		if e.Op == oplog.Erase {
			e.Payload = body
			if body == nil {
				e.Payload = skel
			}
			rec, err := oplog.DecodeData[oplog.ErasureData](&e)
			if err != nil {
				return fail(e.LSN, "erasure log entry %d cannot be read: %v", e.LSN, err)
			}
			for _, l := range rec.LSNs {
				listedBy[l] = e.LSN
			}
			for l, h := range rec.Skeletons {
				n, err := strconv.ParseInt(l, 10, 64)
				if err != nil {
					return fail(e.LSN, "erasure log entry %d binds a skeleton to %q, which is not an LSN", e.LSN, l)
				}
				boundSkel[n] = h
			}
		}
		next := oplog.ChainNext(s.key, chain, got)
		var sc merkle.Hash
		copy(sc[:], stored)
		if sc != next {
			return fail(e.LSN, "the chain breaks at log entry %d: entries were reordered, removed or re-hashed (or the log key is wrong)", e.LSN)
		}
		chain = next
		leaves = append(leaves, got)
		if e.Op == oplog.AuditCP && body != nil {
			e.Payload = body
			rec, err := oplog.DecodeData[oplog.AuditCheckpointRecord](&e)
			if err != nil {
				return fail(e.LSN, "log entry %d: %v", e.LSN, err)
			}
			rec.LSN = e.LSN
			cps = append(cps, rec)
		}
		expect++
	}
	if err := rows.Err(); err != nil {
		return rep, err
	}
	n := expect - 1
	rep.TreeSize, rep.Root = n, merkle.Root(leaves)
	// An erased payload verifies only if the ERASE entry recorded as removing
	// it lists its LSN (spec §12.10.2).
	erased := make([]int64, 0, len(erasedBy))
	for l := range erasedBy {
		erased = append(erased, l)
	}
	slices.Sort(erased)
	for _, l := range erased {
		if by, ok := listedBy[l]; !ok || by != erasedBy[l] {
			return fail(l, "the payload of log entry %d is missing and recorded as erased by log entry %d, but that ERASE entry does not list LSN %d (forged erasure)", l, erasedBy[l], l)
		}
		if h, ok := boundSkel[l]; ok && skelHash[l] != h {
			return fail(l, "the replay skeleton of erased log entry %d was altered or removed: it no longer matches the hash ERASE entry %d bound", l, erasedBy[l])
		}
	}

	var (
		hsize      int64
		hchain, hm []byte
	)
	err = tx.QueryRowContext(ctx, `SELECT size, chain, mac FROM log_head WHERE id = 1`).Scan(&hsize, &hchain, &hm)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if n > 0 {
			return fail(n, "the signed log head is missing")
		}
	case err != nil:
		return rep, err
	default:
		var hc merkle.Hash
		copy(hc[:], hchain)
		if !hmac.Equal(hm, headMAC(s.key, hsize, hc)) {
			return fail(min(hsize, n), "the signed log head was altered")
		}
		if hsize != n || hc != chain {
			return fail(min(hsize, n)+1, "the signed log head records %d entries but %d verify: entries after %d were removed", hsize, n, min(hsize, n))
		}
	}
	var prevSeq uint64
	for _, cp := range cps {
		if err := merkle.VerifySignature(s.key, cp.AuditCheckpoint, cp.Signature); err != nil {
			return fail(cp.LSN, "audit checkpoint seq %d (log entry %d) has a bad signature", cp.Seq, cp.LSN)
		}
		if cp.Seq <= prevSeq {
			return fail(cp.LSN, "audit checkpoint seq %d does not follow seq %d (rollback)", cp.Seq, prevSeq)
		}
		prevSeq = cp.Seq
		if cp.TreeSize > uint64(n) || merkle.Root(leaves[:cp.TreeSize]) != cp.Root {
			return fail(cp.LSN, "audit checkpoint seq %d does not match the log (MISMATCH)", cp.Seq)
		}
	}
	rep.OK = true
	if n > 0 {
		rep.chain = chain[:]
	}
	return rep, nil
}
