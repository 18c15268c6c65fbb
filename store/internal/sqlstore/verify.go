package sqlstore

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
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

// LogReport is a VerifyReport of the log alone, with its last chain value
// and, for a sound log, the mark that stands for its check.
type LogReport struct {
	memgov.VerifyReport
	Chain []byte
	Mark  LogMark
	// Marked is how many entries the mark the check started from stood for
	// (0: every entry was checked in full).
	Marked int64
}

// A LogMark stands for a check of the log's first Size entries. Sum
// digests their stored rows (each entry's log row, payload and erasure
// residue): each row is hashed as SHA-256(key || row) and the hashes are
// summed modulo 2^256, so nobody without the key can compute it, and the
// sum of the first n rows is the sum of the first m plus that of the rows
// between. Frontier is the Merkle frontier of their leaves, Seq the seq of
// the last audit checkpoint among them and Erased their erased payloads. While the first Size entries'
// rows are exactly those Sum digests, their leaves, payload hashes, chain
// values, erasures and audit checkpoints are those the check verified, and
// the log's root after them follows from the frontier.
type LogMark struct {
	Size     int64
	Sum      [32]byte
	Frontier []byte // merkle.Frontier, marshalled
	Seq      uint64
	Erased   int64 // the erased payloads among them
}

func (m LogMark) equal(o LogMark) bool {
	return m.Size == o.Size && m.Sum == o.Sum && m.Seq == o.Seq && m.Erased == o.Erased && hmac.Equal(m.Frontier, o.Frontier)
}

// Equal says whether two marks are the same.
func (m LogMark) Equal(o LogMark) bool { return m.equal(o) }

// LogMarkMAC binds a mark under the log key, for keeping beside the log.
func LogMarkMAC(key []byte, m LogMark) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte("memgov-log-mark\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(m.Size))
	h.Write(b[:])
	h.Write(m.Sum[:])
	binary.BigEndian.PutUint64(b[:], m.Seq)
	h.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(m.Erased))
	h.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(len(m.Frontier)))
	h.Write(b[:])
	h.Write(m.Frontier)
	return h.Sum(nil)
}

// LogRowsSum sums the hashes of the stored rows of the entries after from
// up to to, as a LogMark digests them; a store that can compute it where
// the rows are (without reading them out) passes one to VerifyLogFrom.
type LogRowsSum func(ctx context.Context, from, to int64) ([32]byte, error)

// LogRowsQuery is the query whose rows a LogRowsSum digests, with every
// column of LogRowColumns in order, for the entries with from < lsn <= to
// (its two parameters).
const LogRowsQuery = logRows + ` WHERE l.lsn > ? AND l.lsn <= ?`

const logRows = `FROM log l LEFT JOIN log_payload p ON p.lsn = l.lsn LEFT JOIN erased_payload e ON e.lsn = l.lsn
		LEFT JOIN log eo ON eo.lsn = e.erased_by LEFT JOIN erased_skeleton sk ON sk.lsn = l.lsn AND p.body IS NULL`

// LogRowColumns are the columns a log row is digested by, in order.
const LogRowColumns = `l.lsn, l.ts, l.op, l.memory_ref, l.item_id, l.version_id, l.prev_version_id,
		l.actor, l.payload_hash, l.leaf, l.chain, p.body, e.erased_by, eo.op, sk.body`

// VerifyLog checks the log itself, chained with key: every leaf, payload
// hash and chain value recomputed from the stored rows, the signed head,
// every audit checkpoint recorded in the log and every erasure. It reports
// the first entry that does not verify, or the size, root and last chain
// value of a sound log.
func VerifyLog(ctx context.Context, tx Querier, key []byte) (LogReport, error) {
	return verifyLog(ctx, tx, key, LogMark{}, nil)
}

// VerifyLogFrom is VerifyLog after a check that recorded mark: the stored
// rows of the first mark.Size entries are digested and compared with the
// mark instead of being checked again (by sum, where the rows are, when it
// is not nil), and every later entry is checked in full, chained from the
// mark's last entry. When those rows are not the ones the mark digested (an
// entry altered, removed or erased since), or a later audit checkpoint
// names a size within the mark, the whole log is checked entry by entry,
// which names the first one that does not verify.
func VerifyLogFrom(ctx context.Context, tx Querier, key []byte, mark LogMark, sum LogRowsSum) (LogReport, error) {
	if mark.Size > 0 {
		rep, err := verifyLog(ctx, tx, key, mark, sum)
		if !errors.Is(err, errMarkMismatch) {
			return rep, err
		}
	}
	rep, err := verifyLog(ctx, tx, key, LogMark{}, nil)
	if err == nil && rep.OK && sum != nil {
		// The next check digests the rows as sum does.
		rep.Mark.Sum, err = sum(ctx, 0, rep.TreeSize)
	}
	return rep, err
}

// errMarkMismatch: the marked entries' rows are not those the mark digested.
var errMarkMismatch = errors.New("the log's verified rows changed")

// LogRowHash is SHA-256(key || row) of one log row, its columns those of
// LogRowColumns, as a LogMark digests it.
func LogRowHash(buf []byte, key []byte, lsn, ts int64, strs [7]string, leaf, chain, body []byte, erasedBy sql.NullInt64, erasOp sql.NullString, skel []byte) ([32]byte, []byte) {
	buf = append(buf[:0], key...)
	buf = binary.BigEndian.AppendUint64(buf, uint64(lsn))
	buf = binary.BigEndian.AppendUint64(buf, uint64(ts))
	for _, s := range strs {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(s)))
		buf = append(buf, s...)
	}
	for _, b := range [][]byte{leaf, chain, body} {
		buf = appendNullBytes(buf, b)
	}
	if erasedBy.Valid {
		buf = append(buf, 1)
		buf = binary.BigEndian.AppendUint64(buf, uint64(erasedBy.Int64))
	} else {
		buf = append(buf, 0)
	}
	if erasOp.Valid {
		buf = appendNullBytes(buf, []byte(erasOp.String))
	} else {
		buf = append(buf, 0)
	}
	buf = appendNullBytes(buf, skel)
	return sha256.Sum256(buf), buf
}

func appendNullBytes(buf, b []byte) []byte {
	if b == nil {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(b)))
	return append(buf, b...)
}

// AddSum adds h to the sum s modulo 2^256 (both big-endian).
func AddSum(s *[32]byte, h [32]byte) {
	var c uint64
	for i := 3; i >= 0; i-- {
		var v uint64
		v, c = bits.Add64(binary.BigEndian.Uint64(s[8*i:]), binary.BigEndian.Uint64(h[8*i:]), c)
		binary.BigEndian.PutUint64(s[8*i:], v)
	}
}

// verifyLog checks the log. With a mark, the rows of its entries are
// digested and compared with it: by sum when not nil (only the later rows
// are read), else as they are read. It returns errMarkMismatch when the mark
// cannot stand for them.
func verifyLog(ctx context.Context, tx Querier, key []byte, mark LogMark, rowsSum LogRowsSum) (LogReport, error) {
	var rep LogReport
	var (
		expect  int64    = 1
		sum     [32]byte // the sum of the rows read so far
		hbuf    []byte
		chain   merkle.Hash
		front   merkle.Frontier
		leaves  []merkle.Hash // from the mark's size on, when a mark is given
		cps     []oplog.AuditCheckpointRecord
		prevSeq uint64
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
	from := int64(0) // rows read: lsn > from
	if mark.Size > 0 {
		if err := front.UnmarshalBinary(mark.Frontier); err != nil || int64(front.Size()) != mark.Size {
			return rep, errMarkMismatch
		}
		prevSeq = mark.Seq
		if rowsSum != nil {
			got, err := rowsSum(ctx, 0, mark.Size)
			if err != nil {
				return rep, err
			}
			if got != mark.Sum {
				return rep, errMarkMismatch
			}
			var c []byte
			if err := tx.QueryRowContext(ctx, `SELECT chain FROM log WHERE lsn = ?`, mark.Size).Scan(&c); err != nil || len(c) != len(chain) {
				return rep, errMarkMismatch // covered by the sum: it changed since
			}
			copy(chain[:], c)
			from, expect, sum = mark.Size, mark.Size+1, mark.Sum
			rep.Erased = mark.Erased // not read again: counted when the mark was made
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+LogRowColumns+` `+logRows+` WHERE l.lsn > ? ORDER BY l.lsn`, from)
	if err != nil {
		return rep, err
	}
	defer rows.Close()
	fail := func(lsn int64, format string, args ...any) (LogReport, error) {
		rep.OK, rep.BadLSN, rep.Problem = false, lsn, fmt.Sprintf(format, args...)
		return rep, nil
	}
	for rows.Next() {
		var e oplog.Entry
		if err := rows.Scan(&e.LSN, &ts, &op, &e.MemoryRef, &e.ItemID, &e.VersionID, &e.PrevVersionID, &e.Actor,
			&e.PayloadHash, &leaf, &stored, &body, &erasedB, &erasOp, &skel); err != nil {
			return rep, err
		}
		e.Time, e.Op = fromMS(ts), oplog.Op(op)
		if e.LSN != expect {
			if expect <= mark.Size {
				return rep, errMarkMismatch
			}
			return fail(expect, "log entry %d is missing: the next stored entry is %d (entries were removed or renumbered)", expect, e.LSN)
		}
		var rh [32]byte
		rh, hbuf = LogRowHash(hbuf, key, e.LSN, ts, [7]string{op, e.MemoryRef, e.ItemID, e.VersionID, e.PrevVersionID, e.Actor, e.PayloadHash},
			leaf, stored, body, erasedB, erasOp, skel)
		AddSum(&sum, rh)
		if e.LSN <= mark.Size {
			// Digested, not checked again: the mark stands for the check of
			// these rows, if they are still the rows it digested.
			if len(leaf) != len(chain) || len(stored) != len(chain) {
				return rep, errMarkMismatch
			}
			copy(chain[:], stored)
			if erasedB.Valid && body == nil {
				erasedBy[e.LSN] = erasedB.Int64
				if skel != nil {
					skelHash[e.LSN] = oplog.HashPayload(skel)
				}
				rep.Erased++
			}
			if e.Op == oplog.Erase {
				if err := markedErasure(&e, body, skel, listedBy, boundSkel); err != nil {
					return rep, errMarkMismatch
				}
			}
			if e.LSN == mark.Size && sum != mark.Sum {
				return rep, errMarkMismatch
			}
			expect++
			continue
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
			if err := markedErasure(&e, body, skel, listedBy, boundSkel); err != nil {
				var se skeletonLSNError
				if errors.As(err, &se) {
					return fail(e.LSN, "erasure log entry %d binds a skeleton to %q, which is not an LSN", e.LSN, string(se))
				}
				return fail(e.LSN, "erasure log entry %d cannot be read: %v", e.LSN, err)
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
	if n < mark.Size {
		return rep, errMarkMismatch
	}
	// The root after every entry, and the frontier the next check starts
	// from: the mark's frontier (or none) with the leaves checked now.
	base := cloneFrontier(&front)
	for _, l := range leaves {
		if err := front.Append(l); err != nil {
			return rep, err
		}
	}
	rep.TreeSize, rep.Root = n, front.Root()
	// An erased payload verifies only if the ERASE entry recorded as removing
	// it lists its LSN (spec §12.10.2).
	erased := make([]int64, 0, len(erasedBy))
	for l := range erasedBy {
		erased = append(erased, l)
	}
	slices.Sort(erased)
	for _, l := range erased {
		if by, ok := listedBy[l]; !ok || by != erasedBy[l] {
			if l <= mark.Size {
				return rep, errMarkMismatch
			}
			return fail(l, "the payload of log entry %d is missing and recorded as erased by log entry %d, but that ERASE entry does not list LSN %d (forged erasure)", l, erasedBy[l], l)
		}
		if h, ok := boundSkel[l]; ok && skelHash[l] != h {
			if l <= mark.Size {
				return rep, errMarkMismatch
			}
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
	for _, cp := range cps {
		if err := merkle.VerifySignature(key, cp.AuditCheckpoint, cp.Signature); err != nil {
			return fail(cp.LSN, "audit checkpoint seq %d (log entry %d) has a bad signature", cp.Seq, cp.LSN)
		}
		if cp.Seq <= prevSeq {
			return fail(cp.LSN, "audit checkpoint seq %d does not follow seq %d (rollback)", cp.Seq, prevSeq)
		}
		prevSeq = cp.Seq
		if cp.TreeSize > uint64(n) {
			return fail(cp.LSN, "audit checkpoint seq %d does not match the log (MISMATCH)", cp.Seq)
		}
		if int64(cp.TreeSize) < mark.Size {
			return rep, errMarkMismatch // a root the mark's frontier cannot give: check every entry
		}
		at := cloneFrontier(&base)
		for _, l := range leaves[:cp.TreeSize-uint64(base.Size())] {
			if err := at.Append(l); err != nil {
				return rep, err
			}
		}
		if at.Root() != cp.Root {
			return fail(cp.LSN, "audit checkpoint seq %d does not match the log (MISMATCH)", cp.Seq)
		}
	}
	rep.OK = true
	if n > 0 {
		rep.Chain = chain[:]
	}
	fb, err := front.MarshalBinary()
	if err != nil {
		return rep, err
	}
	rep.Mark = LogMark{Size: n, Sum: sum, Frontier: fb, Seq: prevSeq, Erased: int64(rep.Erased)}
	if mark.Size > 0 && rowsSum != nil {
		add, err := rowsSum(ctx, mark.Size, n)
		if err != nil {
			return rep, err
		}
		rep.Mark.Sum = mark.Sum
		AddSum(&rep.Mark.Sum, add)
	}
	rep.Marked = mark.Size
	return rep, nil
}

// cloneFrontier copies f, so that appending to the copy leaves f as it is.
func cloneFrontier(f *merkle.Frontier) merkle.Frontier {
	var c merkle.Frontier
	b, _ := f.MarshalBinary()
	_ = c.UnmarshalBinary(b)
	return c
}

// skeletonLSNError: an erasure binds a skeleton to something not an LSN.
type skeletonLSNError string

func (e skeletonLSNError) Error() string {
	return fmt.Sprintf("a skeleton bound to %q, which is not an LSN", string(e))
}

// markedErasure reads what an ERASE entry records, as verifyLog checks it.
func markedErasure(e *oplog.Entry, body, skel []byte, listedBy map[int64]int64, boundSkel map[int64]string) error {
	e.Payload = body
	if body == nil {
		e.Payload = skel
	}
	rec, err := oplog.DecodeData[oplog.ErasureData](e)
	if err != nil {
		return err
	}
	for _, l := range rec.LSNs {
		listedBy[l] = e.LSN
	}
	for l, h := range rec.Skeletons {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			return skeletonLSNError(l)
		}
		boundSkel[n] = h
	}
	return nil
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
		return queryAll(ctx, q, func(sc Scanner) (string, error) {
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

// RecordedMark reads the log mark kept in verify_log; the zero mark when
// there is none or its MAC does not verify (the whole log is checked).
func RecordedMark(ctx context.Context, q Querier, key []byte) (LogMark, error) {
	var (
		m        LogMark
		sum, mac []byte
	)
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT size, sum, frontier, seq, erased, mac FROM verify_log WHERE id = 1`).Scan(&m.Size, &sum, &m.Frontier, &seq, &m.Erased, &mac)
	if errors.Is(err, sql.ErrNoRows) {
		return LogMark{}, nil
	}
	if err != nil {
		return LogMark{}, err
	}
	if len(sum) != len(m.Sum) {
		return LogMark{}, nil
	}
	copy(m.Sum[:], sum)
	m.Seq = uint64(seq)
	if !hmac.Equal(mac, LogMarkMAC(key, m)) {
		return LogMark{}, nil
	}
	return m, nil
}

// RecordMark keeps m in verify_log, for the next verify. A failure to record
// it (a database opened read-only) only costs the next verify a full check.
func RecordMark(ctx context.Context, q Querier, key []byte, m LogMark) {
	if m.Size <= 0 {
		return
	}
	_, _ = q.ExecContext(ctx, `INSERT INTO verify_log (id, size, sum, frontier, seq, erased, mac) VALUES (1, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET size = excluded.size, sum = excluded.sum, frontier = excluded.frontier, seq = excluded.seq,
		erased = excluded.erased, mac = excluded.mac`,
		m.Size, m.Sum[:], m.Frontier, int64(m.Seq), m.Erased, LogMarkMAC(key, m))
}
