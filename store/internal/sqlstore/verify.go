package sqlstore

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
	"strings"

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

// writeHead records the signed head of the log after e.
func (t *Tx) writeHead(ctx context.Context, e *oplog.Entry) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO log_head (id, size, chain, mac) VALUES (1, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET size = excluded.size, chain = excluded.chain, mac = excluded.mac`,
		e.LSN, e.Chain[:], headMAC(t.key, e.LSN, e.Chain))
	return err
}

// LogReport is a VerifyReport of the log alone, with its last chain value.
type LogReport struct {
	memgov.VerifyReport
	Chain []byte
}

// VerifyLog checks the log itself, chained with key: every leaf, payload
// hash and chain value recomputed from the stored rows, the signed head,
// every audit checkpoint recorded in the log and every erasure. It reports
// the first entry that does not verify, or the size, root and last chain
// value of a sound log.
func VerifyLog(ctx context.Context, tx Querier, key []byte) (LogReport, error) {
	var rep LogReport

	rows, err := tx.QueryContext(ctx, `SELECT l.lsn, l.ts, l.op, l.memory_ref, l.item_id, l.version_id, l.prev_version_id,
		l.actor, l.payload_hash, l.leaf, l.chain, p.body, e.erased_by, eo.op, sk.body
		FROM log l LEFT JOIN log_payload p ON p.lsn = l.lsn LEFT JOIN erased_payload e ON e.lsn = l.lsn
		LEFT JOIN log eo ON eo.lsn = e.erased_by LEFT JOIN erased_skeleton sk ON sk.lsn = l.lsn AND p.body IS NULL ORDER BY l.lsn`)
	if err != nil {
		return rep, err
	}
	defer rows.Close()
	fail := func(lsn int64, format string, args ...any) (LogReport, error) {
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
		next := oplog.ChainNext(key, chain, got)
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
		if !hmac.Equal(hm, headMAC(key, hsize, hc)) {
			return fail(min(hsize, n), "the signed log head was altered")
		}
		if hsize != n || hc != chain {
			return fail(min(hsize, n)+1, "the signed log head records %d entries but %d verify: entries after %d were removed", hsize, n, min(hsize, n))
		}
	}
	var prevSeq uint64
	for _, cp := range cps {
		if err := merkle.VerifySignature(key, cp.AuditCheckpoint, cp.Signature); err != nil {
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
		rep.Chain = chain[:]
	}
	return rep, nil
}

// maxDifferences bounds the differences one comparison reports per table and
// direction.
const maxDifferences = 20

// keyColumns splits a derived table's key expression into its columns.
func keyColumns(key string) []string { return strings.Split(key, " || '#' || ") }

// KeyExpr is the key expression over the columns of a trigger's NEW or OLD row.
func KeyExpr(key, row string) string {
	cols := keyColumns(key)
	for i, c := range cols {
		cols[i] = row + "." + c
	}
	return strings.Join(cols, " || '#' || ")
}

// DiffOrder orders differences by the log entry they name; a row no entry
// wrote comes last.
func DiffOrder(d memgov.RowDifference) int64 {
	if d.LSN == 0 {
		return 1 << 62
	}
	return d.LSN
}

// CompareTable lists the rows of one table that differ between the live
// tables (in schema live) and the replay (in schema replay), with the log
// entry that last wrote or removed each (the replay_rows table of the replay).
func CompareTable(ctx context.Context, q Querier, d DerivedTable, live, replay string) ([]memgov.RowDifference, error) {
	keys := func(a, b string) ([]string, error) {
		return queryAll(ctx, q, func(sc scanner) (string, error) {
			var k sql.NullString
			err := sc.Scan(&k)
			return k.String, err
		}, fmt.Sprintf(`SELECT DISTINCT CAST(%s AS TEXT) FROM (SELECT * FROM %s.%s EXCEPT SELECT * FROM %s.%s) AS d LIMIT %d`,
			d.Key, a, d.Name, b, d.Name, maxDifferences))
	}
	liveOnly, err := keys(live, replay)
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", d.Name, err)
	}
	replayOnly, err := keys(replay, live)
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", d.Name, err)
	}
	inReplay := map[string]bool{}
	for _, k := range replayOnly {
		inReplay[k] = true
	}
	var out []memgov.RowDifference
	written := func(k string) (int64, bool, error) {
		var lsn, gone int64
		err := q.QueryRowContext(ctx, `SELECT lsn, gone FROM replay_rows WHERE tbl = ? AND k = ?`, d.Name, k).Scan(&lsn, &gone)
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
		diff := memgov.RowDifference{Table: d.Name, Row: k, LSN: lsn}
		switch {
		case inReplay[k]:
			diff.Problem = fmt.Sprintf("%s row %s differs from the log: log entry %d wrote it otherwise", d.Name, k, lsn)
			delete(inReplay, k)
		case gone:
			diff.Problem = fmt.Sprintf("%s row %s should not exist: log entry %d removed it", d.Name, k, lsn)
		case lsn > 0:
			diff.Problem = fmt.Sprintf("%s row %s differs from the log: log entry %d wrote it otherwise", d.Name, k, lsn)
		default:
			diff.Problem = fmt.Sprintf("%s row %s was written by no log entry", d.Name, k)
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
		out = append(out, memgov.RowDifference{Table: d.Name, Row: k, LSN: lsn,
			Problem: fmt.Sprintf("%s row %s is missing or altered: log entry %d wrote it", d.Name, k, lsn)})
	}
	return out, nil
}

// TableDiff lists the rows of table name (identified by key) that differ
// between its copy before a rebuild, old, and the rebuilt table, cur.
func TableDiff(ctx context.Context, q Querier, name, key, old, cur string) ([]string, error) {
	var out []string
	for _, dir := range []struct{ a, b, what string }{
		{old, cur, "was wrong or extra before the rebuild"},
		{cur, old, "was missing or wrong before the rebuild"},
	} {
		rows, err := q.QueryContext(ctx, fmt.Sprintf(`SELECT %s FROM (SELECT * FROM %s EXCEPT SELECT * FROM %s) AS d LIMIT 20`, key, dir.a, dir.b))
		if err != nil {
			return nil, fmt.Errorf("rebuild: compare %s: %w", name, err)
		}
		for rows.Next() {
			var k any
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, fmt.Sprintf("%s %s=%v %s", name, key, k, dir.what))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return dedupe(out), nil
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
