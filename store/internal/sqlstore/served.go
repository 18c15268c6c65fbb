package sqlstore

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// What both stores' verify share once the log has verified: whether the
// served tables still match it, decided by the record of the last replay
// that matched (verify_state), by the store's kept snapshot of that replay
// with only the new entries applied, or by a replay of the whole log. The
// stores differ in how they digest their tables, keep a snapshot (a SQLite
// file, a PostgreSQL schema) and hold their transactions.

// VerifyRecord is verify_state: the last replay that matched every served
// table (the log's size and chain value then, the served tables' digest)
// and the digest of the snapshot of it the store keeps (nil: none).
type VerifyRecord struct {
	Size                    int64
	Chain, Digest, Snapshot []byte
}

// snapshotMAC binds a kept snapshot's digest to the replay it holds; label
// tells the stores' snapshots apart.
func snapshotMAC(key []byte, label string, r VerifyRecord) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(label + "\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(r.Size))
	m.Write(b[:])
	for _, p := range [][]byte{r.Chain, r.Digest, r.Snapshot} {
		binary.BigEndian.PutUint64(b[:], uint64(len(p)))
		m.Write(b[:])
		m.Write(p)
	}
	return m.Sum(nil)
}

// ReadVerifyRecord reads verify_state through q; nil when there is none or
// its MAC does not verify under key. A snapshot whose MAC (with label) does
// not verify is left out.
func ReadVerifyRecord(ctx context.Context, q Querier, key []byte, label string) (*VerifyRecord, error) {
	var (
		r         VerifyRecord
		mac, smac []byte
	)
	err := q.QueryRowContext(ctx, `SELECT size, chain, digest, mac, snapshot, snapshot_mac FROM verify_state WHERE id = 1`).
		Scan(&r.Size, &r.Chain, &r.Digest, &mac, &r.Snapshot, &smac)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(mac, VerifyStateMAC(key, r.Size, r.Chain, r.Digest)) {
		return nil, nil
	}
	if r.Snapshot == nil || !hmac.Equal(smac, snapshotMAC(key, label, r)) {
		r.Snapshot = nil
	}
	return &r, nil
}

// RecordVerified records r as verify_state through q, bound under key (its
// snapshot with label). A failure to record it only costs the next verify a
// replay, so it is not reported.
func RecordVerified(ctx context.Context, q Querier, key []byte, label string, r VerifyRecord) {
	if r.Chain == nil {
		r.Chain = []byte{}
	}
	var smac []byte
	if r.Snapshot != nil {
		smac = snapshotMAC(key, label, r)
	}
	_, _ = q.ExecContext(ctx, `INSERT INTO verify_state (id, size, chain, digest, mac, snapshot, snapshot_mac) VALUES (1, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET size = excluded.size, chain = excluded.chain, digest = excluded.digest, mac = excluded.mac,
		snapshot = excluded.snapshot, snapshot_mac = excluded.snapshot_mac`,
		r.Size, r.Chain, r.Digest, VerifyStateMAC(key, r.Size, r.Chain, r.Digest), r.Snapshot, smac)
}

// ServedCheck is what a store's verify gives CheckServed.
type ServedCheck struct {
	// Record is verify_state as ReadVerifyRecord read it (nil: none).
	Record *VerifyRecord
	// Digest digests the live served tables in the verify's transaction.
	Digest func(ctx context.Context) ([]byte, error)
	// Release ends the verify's read transaction; Incremental opens its own.
	Release func()
	// Incremental applies the entries after rec to the kept snapshot of
	// rec's replay and compares the result with the live served tables,
	// for a log of size entries ending in chain; it reports false (and no
	// error) when it cannot decide, and records the new state on true.
	Incremental func(ctx context.Context, rec *VerifyRecord, size int64, chain []byte) (bool, error)
}

// CheckServed reports whether the served tables verify without a replay
// of the whole log, and sets rep.Served: "digest" when the log is the one
// the recorded replay read and the tables still digest as they did,
// "incremental" when the kept snapshot with the new entries applied
// matches them. q reads the log just verified, whose report is rep and
// chain value chain.
func CheckServed(ctx context.Context, q Querier, c ServedCheck, rep *memgov.VerifyReport, chain []byte) (bool, error) {
	rec := c.Record
	switch {
	case rec == nil:
	case rec.Size == rep.TreeSize && hmac.Equal(rec.Chain, chain):
		got, err := c.Digest(ctx)
		if err != nil {
			return false, err
		}
		if hmac.Equal(got, rec.Digest) {
			rep.Served = "digest"
			return true, nil
		}
	case rec.Snapshot != nil && rec.Size > 0 && rec.Size < rep.TreeSize:
		// The recorded chain value must be the log's at that size, which
		// the log check has just recomputed from every leaf before it.
		var at []byte
		if err := q.QueryRowContext(ctx, `SELECT chain FROM log WHERE lsn = ?`, rec.Size).Scan(&at); err != nil {
			return false, err
		}
		if hmac.Equal(at, rec.Chain) {
			c.Release()
			ok, err := c.Incremental(ctx, rec, rep.TreeSize, chain)
			if err != nil || !ok {
				return false, err
			}
			rep.Served = "incremental"
			return true, nil
		}
	}
	return false, nil
}

// ReplayResult is the outcome of one replay of the whole log.
type ReplayResult struct {
	Entries int64
	Rows    map[string]int64 // live rows per compared table
	Diffs   []memgov.RowDifference
	Size    int64  // the log size the replay read
	Chain   []byte // the chain value of its last entry
	Digest  []byte // the live served tables' digest, same snapshot
	// Snapshot is the digest of the replayed tables the store kept as its
	// verified snapshot (nil when the replay was not kept).
	Snapshot []byte
}

// Report sets rep from the replay, and says whether the served tables
// matched it; the store then records r.Record().
func (r ReplayResult) Report(rep *memgov.VerifyReport) bool {
	rep.Served, rep.Rows = "replay", r.Rows
	if len(r.Diffs) > 0 {
		d := r.Diffs[0]
		rep.OK, rep.BadLSN, rep.Table, rep.Row, rep.Problem, rep.Differences = false, d.LSN, d.Table, d.Row, d.Problem, r.Diffs
		return false
	}
	return true
}

// Record is the verify_state of a replay that matched.
func (r ReplayResult) Record() VerifyRecord {
	return VerifyRecord{Size: r.Size, Chain: r.Chain, Digest: r.Digest, Snapshot: r.Snapshot}
}

// ReplayLog replays the whole log, read through read, by applying every
// entry through q to the scratch tables (replay_cur names the entry being
// applied, for the scratch tables' triggers), and compares every compared
// table of live with its replay in scratch (live and scratch qualify the
// tables' names as the store's SQL writes them).
func ReplayLog(ctx context.Context, read, q Bound, live, scratch string) (ReplayResult, error) {
	res := ReplayResult{Rows: map[string]int64{}}
	if err := read.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM log`).Scan(&res.Size); err != nil {
		return res, err
	}
	if res.Size > 0 {
		if err := read.QueryRowContext(ctx, `SELECT chain FROM log WHERE lsn = ?`, res.Size).Scan(&res.Chain); err != nil {
			return res, err
		}
	}
	r := NewReadTx(read)
	const batch = 2000
	for from := int64(1); from <= res.Size; from += batch {
		entries, err := EntriesBetween(ctx, r, from, min(from+batch-1, res.Size))
		if err != nil {
			return res, err
		}
		for _, e := range entries {
			if _, err := q.ExecContext(ctx, `UPDATE replay_cur SET lsn = ?`, e.LSN); err != nil {
				return res, err
			}
			if err := Apply(ctx, q, e); err != nil {
				return res, fmt.Errorf("replay: %w", err)
			}
			res.Entries++
		}
	}
	for _, d := range ComparedTables(q.dialect()) {
		var n int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+live+`.`+d.Name).Scan(&n); err != nil {
			return res, err
		}
		res.Rows[d.Name] = n
		diffs, err := CompareTable(ctx, q, d, live, scratch)
		if err != nil {
			return res, err
		}
		res.Diffs = append(res.Diffs, diffs...)
	}
	sort.SliceStable(res.Diffs, func(i, j int) bool { return DiffOrder(res.Diffs[i]) < DiffOrder(res.Diffs[j]) })
	return res, nil
}

// EntriesBetween reads the log entries from..to (LSNs, inclusive) through r.
func EntriesBetween(ctx context.Context, r *ReadTx, from, to int64) ([]*oplog.Entry, error) {
	var out []*oplog.Entry
	err := r.LogRange(ctx, from, to, func(e *oplog.Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// NewEntries returns the log entries after rec that an incremental verify
// applies to the kept snapshot, read through q: ok is false (and the whole
// log must be replayed) unless the log q reads is still the one just
// verified, size entries ending in chain, with no erasure after rec (an
// erasure's residue is copied by a full replay only).
func NewEntries(ctx context.Context, q Bound, rec *VerifyRecord, size int64, chain []byte) (entries []*oplog.Entry, ok bool, err error) {
	var (
		n      int64
		c      []byte
		erases int64
	)
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(lsn), 0) FROM log`).Scan(&n); err != nil || n != size {
		return nil, false, err
	}
	if err := q.QueryRowContext(ctx, `SELECT chain FROM log WHERE lsn = ?`, n).Scan(&c); err != nil || !hmac.Equal(c, chain) {
		return nil, false, err
	}
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM log WHERE lsn > ? AND op = ?`, rec.Size, string(oplog.Erase)).Scan(&erases); err != nil || erases > 0 {
		return nil, false, err
	}
	entries, err = EntriesBetween(ctx, NewReadTx(q), rec.Size+1, size)
	return entries, err == nil, err
}
