package sqlite

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/memgov/memgov/engine"
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

// Verify recomputes every leaf, payload hash and chain value from the stored
// rows, checks the signed head and every audit checkpoint recorded in the log,
// and reports the first entry that does not verify.
func (s *Store) Verify(ctx context.Context) (engine.VerifyReport, error) {
	var rep engine.VerifyReport
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return rep, mapOpenErr(s.path, err)
	}
	defer tx.Rollback()

	rows, err := tx.QueryContext(ctx, `SELECT l.lsn, l.ts, l.op, l.memory_ref, l.item_id, l.version_id, l.prev_version_id,
		l.actor, l.payload_hash, l.leaf, l.chain, p.body, e.erased_by, eo.op
		FROM log l LEFT JOIN log_payload p ON p.lsn = l.lsn LEFT JOIN erased_payload e ON e.lsn = l.lsn
		LEFT JOIN log eo ON eo.lsn = e.erased_by ORDER BY l.lsn`)
	if err != nil {
		return rep, err
	}
	defer rows.Close()
	fail := func(lsn int64, format string, args ...any) (engine.VerifyReport, error) {
		rep.OK, rep.BadLSN, rep.Problem = false, lsn, fmt.Sprintf(format, args...)
		return rep, nil
	}
	var (
		expect  int64 = 1
		chain   merkle.Hash
		leaves  []merkle.Hash
		cps     []engine.AuditCheckpointRecord
		ts      int64
		op      string
		leaf    []byte
		stored  []byte
		body    []byte
		erasedB sql.NullInt64
		erasOp  sql.NullString
	)
	for rows.Next() {
		var e oplog.Entry
		if err := rows.Scan(&e.LSN, &ts, &op, &e.MemoryRef, &e.ItemID, &e.VersionID, &e.PrevVersionID, &e.Actor,
			&e.PayloadHash, &leaf, &stored, &body, &erasedB, &erasOp); err != nil {
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
			rep.Erased++
		default:
			return fail(e.LSN, "the payload of log entry %d is missing and no erasure removed it", e.LSN)
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
	return rep, nil
}
