package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

func canonAlg(s string) canon.Algorithm { return canon.Algorithm(s) }

// This file stores baselines, drift episodes, sessions and the per-memoryRef
// PUT/DEL operation log with its checkpoints (spec §3.2.6, §3.2.6.2).
// All of them are derived from the log; mem_dirty and mem_state_cache are
// caches that triggers and verification maintain.

// observeMemory runs after every applied entry. It forgets the dirty marks of
// the rows the entry itself changed, and appends to the entry's memoryRef op log
// one PUT for every key whose ACTIVE version the entry set and one DEL for every
// key that stopped having one; then it advances the checkpoint.
func observeMemory(ctx context.Context, q querier, e *oplog.Entry) error {
	if e.ItemID == "" {
		return nil
	}
	items := []string{e.ItemID}
	if e.Op == oplog.Merge {
		p, err := e.DecodePayload()
		if err != nil {
			return err
		}
		if p.MergedFrom != "" {
			var other string
			if err := q.QueryRowContext(ctx, `SELECT item_id FROM versions WHERE id = ?`, p.MergedFrom).Scan(&other); err == nil && other != e.ItemID {
				items = append(items, other)
			}
		}
	}
	type change struct {
		key   string
		put   bool
		value []byte
		exp   sql.NullInt64
	}
	byKey := map[string]*change{}
	for _, item := range items {
		if _, err := q.ExecContext(ctx, `DELETE FROM mem_dirty WHERE id IN (?, ?, ?)`, item, e.VersionID, e.PrevVersionID); err != nil {
			return wrapApply(e, err)
		}
		rows, err := queryDrained(ctx, q, `SELECT id, key, content, expires_at, COALESCE(CAST(active_from = ?1 AS INT), 0), COALESCE(CAST(active_to = ?1 AS INT), 0)
			FROM versions WHERE item_id = ?2 AND (active_from = ?1 OR active_to = ?1)`, e.LSN, item)
		if err != nil {
			return wrapApply(e, err)
		}
		var touched []string
		for rows.Next() {
			var (
				id, key      string
				content      []byte
				exp          sql.NullInt64
				became, lost bool
			)
			if err := rows.Scan(&id, &key, &content, &exp, &became, &lost); err != nil {
				rows.Close()
				return wrapApply(e, err)
			}
			touched = append(touched, id)
			c := byKey[key]
			if c == nil {
				c = &change{key: key}
				byKey[key] = c
			}
			if became && !lost {
				if content == nil {
					content = []byte("null")
				}
				c.put, c.value, c.exp = true, content, exp
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return wrapApply(e, err)
		}
		for _, id := range touched {
			if id == item || id == e.VersionID || id == e.PrevVersionID {
				continue // deleted above
			}
			if _, err := q.ExecContext(ctx, `DELETE FROM mem_dirty WHERE id = ?`, id); err != nil {
				return wrapApply(e, err)
			}
		}
	}
	if len(byKey) == 0 {
		return nil
	}
	changes := make([]*change, 0, len(byKey))
	for _, c := range byKey {
		changes = append(changes, c)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].key < changes[j].key })
	head, err := readHead(ctx, q, e.MemoryRef)
	if err != nil {
		return wrapApply(e, err)
	}
	var f merkle.Frontier
	if len(head.Frontier) > 0 {
		if err := f.UnmarshalBinary(head.Frontier); err != nil {
			return wrapApply(e, err)
		}
	}
	for _, c := range changes {
		op := merkle.KVOp{Key: c.key, Op: merkle.OpDel}
		var value any
		if c.put {
			op.Op, op.Value = merkle.OpPut, c.value
			value = c.value
		}
		leaf, err := memOpLeaf(ctx, q, e.MemoryRef, f.Size(), op)
		if err != nil {
			return wrapApply(e, err)
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO mem_ops (memory_ref, idx, key, op, value, expires_at, leaf, lsn) VALUES (?,?,?,?,?,?,?,?)`,
			e.MemoryRef, f.Size(), c.key, op.Op, value, c.exp, leaf[:], e.LSN); err != nil {
			return wrapApply(e, err)
		}
		if c.put {
			err = putMapRow(ctx, q, e.MemoryRef, c.key, c.value, c.exp)
		} else {
			err = delMapRow(ctx, q, e.MemoryRef, c.key)
		}
		if err != nil {
			return wrapApply(e, err)
		}
		if err := f.Append(leaf); err != nil {
			return wrapApply(e, err)
		}
	}
	verdict, detail, err := advance(ctx, q, e, &f)
	if err != nil {
		return err
	}
	return writeHead(ctx, q, e.MemoryRef, &f, verdict, detail)
}

func writeHead(ctx context.Context, q querier, ref string, f *merkle.Frontier, verdict, detail string) error {
	fb, err := f.MarshalBinary()
	if err != nil {
		return err
	}
	root := f.Root()
	_, err = q.ExecContext(ctx, `INSERT INTO mem_heads (memory_ref, tree_size, frontier, root, last_verdict, last_detail) VALUES (?,?,?,?,?,?)
		ON CONFLICT (memory_ref) DO UPDATE SET tree_size = excluded.tree_size, frontier = excluded.frontier, root = excluded.root,
		last_verdict = excluded.last_verdict, last_detail = excluded.last_detail`, ref, f.Size(), fb, root[:], verdict, detail)
	return err
}

// advance binds the grown op log of e.MemoryRef to a new checkpoint when its
// baseline's rules accept it (merkle.AdvanceCheckpoint), with the entry's time
// as now so that the checkpoints are a function of the log.
func advance(ctx context.Context, q querier, e *oplog.Entry, f *merkle.Frontier) (string, string, error) {
	b, err := (&ReadTx{q: q}).Baseline(ctx, e.MemoryRef)
	if errors.Is(err, memgov.ErrNotFound) {
		return "", "", nil
	}
	if err != nil {
		return "", "", wrapApply(e, err)
	}
	base, bf, err := b.BaseCheckpoint()
	if err != nil {
		return "", "", wrapApply(e, err)
	}
	size := f.Size()
	var since []merkle.Hash
	if b.DeltaBudget == 0 || size-base.TreeSize <= uint64(b.DeltaBudget) {
		rows, err := queryDrained(ctx, q, `SELECT leaf FROM mem_ops WHERE memory_ref = ? AND idx >= ? ORDER BY idx`, e.MemoryRef, base.TreeSize)
		if err != nil {
			return "", "", wrapApply(e, err)
		}
		for rows.Next() {
			var l []byte
			if err := rows.Scan(&l); err != nil {
				rows.Close()
				return "", "", err
			}
			since = append(since, merkle.Hash(l))
		}
		rows.Close()
	} else {
		since = make([]merkle.Hash, size-base.TreeSize) // only its length matters past the budget
	}
	var seq uint64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM mem_checkpoints WHERE memory_ref = ?`, e.MemoryRef).Scan(&seq); err != nil {
		return "", "", wrapApply(e, err)
	}
	adv := merkle.AdvanceCheckpoint(base, bf, since, seq+1, e.Time, b.DeltaBudget)
	if !adv.Verdict.Accepted() {
		return string(adv.Verdict.Code), adv.Verdict.Detail, nil
	}
	if adv.Next.Root != f.Root() {
		return string(merkle.CodeDrift), "the proven root differs from the op log's root", nil
	}
	proof, _ := json.Marshal(merkle.Hexes(adv.Proof))
	if _, err := q.ExecContext(ctx, `INSERT INTO mem_checkpoints (memory_ref, seq, root, tree_size, approved_at, ttl_seconds, baseline_id, proof, lsn)
		VALUES (?,?,?,?,?,?,?,?,?)`, e.MemoryRef, adv.Next.Seq, adv.Next.Root[:], adv.Next.TreeSize, ms(adv.Next.ApprovedAt), adv.Next.TTLSeconds,
		b.ID, string(proof), e.LSN); err != nil {
		return "", "", wrapApply(e, err)
	}
	return string(adv.Verdict.Code), "", nil
}

func readHead(ctx context.Context, q querier, ref string) (memgov.MemHead, error) {
	h := memgov.MemHead{MemoryRef: ref}
	var root []byte
	err := q.QueryRowContext(ctx, `SELECT tree_size, frontier, root, last_verdict, last_detail FROM mem_heads WHERE memory_ref = ?`, ref).
		Scan(&h.TreeSize, &h.Frontier, &root, &h.LastVerdict, &h.LastDetail)
	if errors.Is(err, sql.ErrNoRows) {
		var f merkle.Frontier
		h.Frontier, _ = f.MarshalBinary()
		h.Root = merkle.EmptyRoot()
		return h, nil
	}
	copy(h.Root[:], root)
	return h, err
}

// bind records the baseline's own checkpoint of the op log as it is now.
func bind(ctx context.Context, q querier, e *oplog.Entry, b *memgov.Baseline) error {
	head, err := readHead(ctx, q, b.MemoryRef)
	if err != nil {
		return wrapApply(e, err)
	}
	var seq uint64
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM mem_checkpoints WHERE memory_ref = ?`, b.MemoryRef).Scan(&seq); err != nil {
		return wrapApply(e, err)
	}
	b.BaseTreeSize, b.BaseFrontier, b.BaseSeq = head.TreeSize, head.Frontier, seq+1
	if _, err := q.ExecContext(ctx, `INSERT INTO mem_checkpoints (memory_ref, seq, root, tree_size, approved_at, ttl_seconds, baseline_id, lsn)
		VALUES (?,?,?,?,?,?,?,?)`, b.MemoryRef, b.BaseSeq, head.Root[:], head.TreeSize, ms(b.ApprovedAt), b.TTLSeconds, b.ID, e.LSN); err != nil {
		return wrapApply(e, err)
	}
	_, err = q.ExecContext(ctx, `UPDATE mem_heads SET last_verdict = ?, last_detail = '' WHERE memory_ref = ?`, string(merkle.CodeAccept), b.MemoryRef)
	return wrapApply(e, err)
}

func applyBaseline(ctx context.Context, q querier, e *oplog.Entry) error {
	b, err := oplog.DecodeData[memgov.Baseline](e)
	if err != nil {
		return err
	}
	// The entry binds the record: its memoryRef, its time (approval and
	// binding), its position and, when the record names none, its actor as
	// the approver.
	b.MemoryRef, b.ApprovedAt, b.BoundAt, b.LSN = e.MemoryRef, e.Time, e.Time, e.LSN
	if b.ApprovedBy == "" {
		b.ApprovedBy = e.Actor
	}
	if err := bind(ctx, q, e, &b); err != nil {
		return err
	}
	var ttl, interval sql.NullInt64
	if b.TTLSeconds > 0 {
		ttl = sql.NullInt64{Int64: b.TTLSeconds, Valid: true}
	}
	if b.CheckIntervalSeconds > 0 {
		interval = sql.NullInt64{Int64: b.CheckIntervalSeconds, Valid: true}
	}
	_, err = q.ExecContext(ctx, `INSERT INTO baselines (baseline_id, memory_ref, snapshot_hash, memory_type, store, approved_at, bound_at,
		ttl_seconds, drift_policy, shared_memory_owner, check_interval_seconds, compliance_level, approved_by, delta_budget, log_position,
		base_tree_size, base_frontier, base_seq, lsn) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		b.ID, b.MemoryRef, b.SnapshotHash, string(b.MemoryType), b.Store, ms(b.ApprovedAt), ms(b.BoundAt), ttl, b.DriftPolicy,
		b.SharedMemoryOwner, interval, b.ComplianceLevel, b.ApprovedBy, b.DeltaBudget, b.LogPosition,
		b.BaseTreeSize, b.BaseFrontier, b.BaseSeq, e.LSN)
	return wrapApply(e, err)
}

func applyDriftDetected(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.DriftData](e)
	if err != nil {
		return err
	}
	// The episode opens at the entry, on the entry's memoryRef.
	_, err = q.ExecContext(ctx, `INSERT INTO drift_events (id, memory_ref, baseline_id, policy, cause, approved_hash, current_hash, detail, detected_at, lsn)
		VALUES (?,?,?,?,?,?,?,?,?,?)`, d.ID, e.MemoryRef, d.BaselineID, d.Policy, d.Cause, d.ApprovedHash, d.CurrentHash, d.Detail, ms(e.Time), e.LSN)
	if err != nil {
		return wrapApply(e, err)
	}
	// The outbox announces the episode (webhooks of memgov serve); its data
	// are identifiers, never the detail or the hashed content.
	return event(ctx, q, e, memgov.EventMemoryDriftDetected, map[string]any{"driftId": d.ID, "memoryRef": e.MemoryRef, "baselineId": d.BaselineID, "cause": d.Cause, "policy": d.Policy})
}

// applyDriftAck closes an episode; a rollback re-binds the current baseline to
// the op log after the compensating entries (same hash, approval and TTL).
func applyDriftAck(ctx context.Context, q querier, e *oplog.Entry) error {
	a, err := oplog.DecodeData[oplog.DriftAckData](e)
	if err != nil {
		return err
	}
	res, err := q.ExecContext(ctx, `UPDATE drift_events SET acked_at = ?, acked_by = ?, resolution = ?, note = ?, ack_lsn = ?
		WHERE id = ? AND acked_at IS NULL`, ms(e.Time), e.Actor, a.Resolution, a.Note, e.LSN, a.DriftID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	if a.Resolution != memgov.ResolveRollback {
		return nil
	}
	b, err := (&ReadTx{q: q}).Baseline(ctx, e.MemoryRef)
	if err != nil {
		return wrapApply(e, err)
	}
	if err := bind(ctx, q, e, &b); err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE baselines SET bound_at = ?, base_tree_size = ?, base_frontier = ?, base_seq = ? WHERE baseline_id = ?`,
		ms(e.Time), b.BaseTreeSize, b.BaseFrontier, b.BaseSeq, b.ID)
	return wrapApply(e, err)
}

func applySession(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.SessionData](e)
	if err != nil {
		return err
	}
	id := d.SessionID
	if id == "" {
		return fmt.Errorf("apply log entry %d: %s without a session id", e.LSN, e.Op)
	}
	if e.Op == oplog.SessionStart {
		_, err = q.ExecContext(ctx, `INSERT INTO mem_sessions (session_id, memory_ref, started_at, started_by, start_lsn) VALUES (?,?,?,?,?)`,
			id, e.MemoryRef, ms(e.Time), e.Actor, e.LSN)
		return wrapApply(e, err)
	}
	res, err := q.ExecContext(ctx, `UPDATE mem_sessions SET ended_at = ?, end_lsn = ? WHERE session_id = ? AND ended_at IS NULL`, ms(e.Time), e.LSN, id)
	return wrapApply(e, mustOne(res, err))
}

// Reads (engine's baselineReader).

const baselineCols = `baseline_id, memory_ref, snapshot_hash, memory_type, store, approved_at, bound_at, ttl_seconds, drift_policy,
	shared_memory_owner, check_interval_seconds, compliance_level, approved_by, delta_budget, log_position, base_tree_size,
	base_frontier, base_seq, lsn`

func scanBaseline(sc Scanner) (memgov.Baseline, error) {
	var (
		b             memgov.Baseline
		hash          sql.NullString
		typ           string
		at, bound     int64
		ttl, interval sql.NullInt64
	)
	if err := sc.Scan(&b.ID, &b.MemoryRef, &hash, &typ, &b.Store, &at, &bound, &ttl, &b.DriftPolicy, &b.SharedMemoryOwner, &interval,
		&b.ComplianceLevel, &b.ApprovedBy, &b.DeltaBudget, &b.LogPosition, &b.BaseTreeSize, &b.BaseFrontier, &b.BaseSeq, &b.LSN); err != nil {
		return b, err
	}
	if hash.Valid {
		b.SnapshotHash = &hash.String
	}
	b.MemoryType, b.ApprovedAt, b.BoundAt = memgov.MemoryType(typ), fromMS(at), fromMS(bound)
	b.TTLSeconds, b.CheckIntervalSeconds = ttl.Int64, interval.Int64
	return b, nil
}

func (r *ReadTx) Baseline(ctx context.Context, ref string) (memgov.Baseline, error) {
	b, err := scanBaseline(r.q.QueryRowContext(ctx, `SELECT `+baselineCols+` FROM baselines WHERE memory_ref = ? ORDER BY lsn DESC LIMIT 1`, ref))
	return b, notFound("baseline of", ref, err)
}

func (r *ReadTx) BaselineByID(ctx context.Context, id string) (memgov.Baseline, error) {
	b, err := scanBaseline(r.q.QueryRowContext(ctx, `SELECT `+baselineCols+` FROM baselines WHERE baseline_id = ?`, id))
	return b, notFound("baseline", id, err)
}

func (r *ReadTx) MemHead(ctx context.Context, ref string) (memgov.MemHead, error) {
	return readHead(ctx, r.q, ref)
}

func (r *ReadTx) LatestCheckpoint(ctx context.Context, ref string) (memgov.CheckpointRecord, error) {
	var (
		c     memgov.CheckpointRecord
		root  []byte
		at    int64
		proof string
	)
	err := r.q.QueryRowContext(ctx, `SELECT seq, root, tree_size, approved_at, ttl_seconds, baseline_id, proof, lsn FROM mem_checkpoints
		WHERE memory_ref = ? ORDER BY seq DESC LIMIT 1`, ref).Scan(&c.Seq, &root, &c.TreeSize, &at, &c.TTLSeconds, &c.BaselineID, &proof, &c.LSN)
	if err != nil {
		return c, notFound("checkpoint of", ref, err)
	}
	copy(c.Root[:], root)
	c.MemoryRef, c.ApprovedAt = ref, fromMS(at)
	var hs []string
	if err := decodeColumn("mem_checkpoints", "proof", fmt.Sprintf("%s#%d", ref, c.Seq), proof, &hs); err != nil {
		return c, err
	}
	for _, h := range hs {
		x, err := merkle.ParseHash(h)
		if err != nil {
			return c, err
		}
		c.Proof = append(c.Proof, x)
	}
	return c, nil
}

func (r *ReadTx) MemOps(ctx context.Context, ref string, from, to uint64, fn func(memgov.MemOp) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT idx, key, op, value, leaf, lsn FROM mem_ops WHERE memory_ref = ? AND idx >= ? AND idx < ? ORDER BY idx`, ref, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			o    memgov.MemOp
			leaf []byte
		)
		if err := rows.Scan(&o.Index, &o.Key, &o.Op, &o.Value, &leaf, &o.LSN); err != nil {
			return err
		}
		copy(o.Leaf[:], leaf)
		if err := fn(o); err != nil {
			return err
		}
	}
	return rows.Err()
}

func scanMapRows(rows *sql.Rows, fn func(memgov.MapRow) error) error {
	defer rows.Close()
	var (
		key   string
		value sql.RawBytes
		exp   sql.NullInt64
	)
	for rows.Next() {
		if err := rows.Scan(&key, &value, &exp); err != nil {
			return err
		}
		row := memgov.MapRow{Key: key, Value: value}
		if value == nil {
			row.Value = []byte("null")
		}
		if exp.Valid {
			t := fromMS(exp.Int64)
			row.ExpiresAt = &t
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (r *ReadTx) MemoryMap(ctx context.Context, ref string, now time.Time, fn func(memgov.MapRow) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT key, content, expires_at FROM versions
		WHERE memory_ref = ? AND state = 'ACTIVE' AND (expires_at IS NULL OR expires_at > ?) ORDER BY key`, ref, ms(now))
	if err != nil {
		return err
	}
	return scanMapRows(rows, fn)
}

func (r *ReadTx) Dirty(ctx context.Context, ref string) (bool, error) {
	var n int
	err := r.q.QueryRowContext(ctx, `SELECT CAST(EXISTS (SELECT 1 FROM mem_dirty WHERE memory_ref = ?) AS INT)`, ref).Scan(&n)
	return n == 1, err
}

func (r *ReadTx) StateCache(ctx context.Context, ref string) (memgov.StateCache, bool, error) {
	var (
		c   memgov.StateCache
		alg string
		exp sql.NullInt64
	)
	err := r.q.QueryRowContext(ctx, `SELECT alg, tree_size, hash, next_expiry, items, bytes FROM mem_state_cache WHERE memory_ref = ?`, ref).
		Scan(&alg, &c.TreeSize, &c.Hash, &exp, &c.Items, &c.Bytes)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, err
	}
	c.MemoryRef, c.Alg = ref, canonAlg(alg)
	if exp.Valid {
		t := fromMS(exp.Int64)
		c.NextExpiry = &t
	}
	return c, true, nil
}

const driftCols = `id, memory_ref, baseline_id, policy, cause, approved_hash, current_hash, detail, detected_at, lsn, acked_at, acked_by, resolution, note, ack_lsn`

func scanDrift(sc Scanner) (memgov.DriftEvent, error) {
	var (
		d        memgov.DriftEvent
		at       int64
		acked    sql.NullInt64
		ackedLSN sql.NullInt64
	)
	if err := sc.Scan(&d.ID, &d.MemoryRef, &d.BaselineID, &d.Policy, &d.Cause, &d.ApprovedHash, &d.CurrentHash, &d.Detail, &at, &d.LSN,
		&acked, &d.AckedBy, &d.Resolution, &d.Note, &ackedLSN); err != nil {
		return d, err
	}
	d.Event, d.DetectedAt, d.AckLSN = merkle.EventMemoryDrift, fromMS(at), ackedLSN.Int64
	if acked.Valid {
		t := fromMS(acked.Int64)
		d.AckedAt = &t
	}
	return d, nil
}

func (r *ReadTx) OpenDrift(ctx context.Context, ref string) (memgov.DriftEvent, error) {
	d, err := scanDrift(r.q.QueryRowContext(ctx, `SELECT `+driftCols+` FROM drift_events WHERE memory_ref = ? AND acked_at IS NULL ORDER BY lsn DESC LIMIT 1`, ref))
	return d, notFound("open drift of", ref, err)
}

func (r *ReadTx) DriftEvent(ctx context.Context, id string) (memgov.DriftEvent, error) {
	d, err := scanDrift(r.q.QueryRowContext(ctx, `SELECT `+driftCols+` FROM drift_events WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) && len(id) >= 4 && len(id) < 36 {
		// Accept a unique prefix, as tables print ids shortened.
		rows, qerr := r.q.QueryContext(ctx, `SELECT `+driftCols+` FROM drift_events WHERE id `+r.q.dialect().Like+` ? || '%' LIMIT 2`, id)
		if qerr != nil {
			return d, qerr
		}
		defer rows.Close()
		var found []memgov.DriftEvent
		for rows.Next() {
			x, err := scanDrift(rows)
			if err != nil {
				return d, err
			}
			found = append(found, x)
		}
		if len(found) == 1 {
			return found[0], nil
		}
		if len(found) > 1 {
			return d, fmt.Errorf("%w: drift id prefix %s is ambiguous", memgov.ErrInvalid, id)
		}
	}
	return d, notFound("drift", id, err)
}

func (r *ReadTx) DriftEvents(ctx context.Context, q memgov.DriftQuery) ([]memgov.DriftEvent, error) {
	var (
		b    bytes.Buffer
		args []any
	)
	b.WriteString(`SELECT ` + driftCols + ` FROM drift_events WHERE 1=1`)
	if q.MemoryRef != "" {
		b.WriteString(` AND memory_ref = ?`)
		args = append(args, q.MemoryRef)
	}
	if q.OpenOnly {
		b.WriteString(` AND acked_at IS NULL`)
	}
	b.WriteString(` ORDER BY lsn DESC`)
	if q.Limit > 0 {
		b.WriteString(` LIMIT ?`)
		args = append(args, q.Limit)
	}
	return queryAll(ctx, r.q, scanDrift, b.String(), args...)
}

func (r *ReadTx) OpenSession(ctx context.Context, ref string) (memgov.MemSession, error) {
	var (
		s  memgov.MemSession
		at int64
	)
	err := r.q.QueryRowContext(ctx, `SELECT session_id, memory_ref, started_by, started_at, start_lsn FROM mem_sessions
		WHERE memory_ref = ? AND ended_at IS NULL ORDER BY start_lsn DESC LIMIT 1`, ref).Scan(&s.ID, &s.MemoryRef, &s.StartedBy, &at, &s.StartLSN)
	s.StartedAt = fromMS(at)
	return s, notFound("open session of", ref, err)
}

// Caches (memgov.BaselineWriter), written outside the log.

// PutStateCache stores the snapshot hash of a memoryRef.
func (t *Tx) PutStateCache(ctx context.Context, c memgov.StateCache) error {
	var exp sql.NullInt64
	if c.NextExpiry != nil {
		exp = sql.NullInt64{Int64: ms(*c.NextExpiry), Valid: true}
	}
	_, err := t.q.ExecContext(ctx, `INSERT INTO mem_state_cache (memory_ref, alg, tree_size, hash, next_expiry, items, bytes) VALUES (?,?,?,?,?,?,?)
		ON CONFLICT (memory_ref) DO UPDATE SET alg = excluded.alg, tree_size = excluded.tree_size, hash = excluded.hash,
		next_expiry = excluded.next_expiry, items = excluded.items, bytes = excluded.bytes`,
		c.MemoryRef, string(c.Alg), c.TreeSize, c.Hash, exp, c.Items, c.Bytes)
	return err
}

// ClearDirty forgets the dirty marks of a memoryRef once verification showed
// that its materialised memory equals the log's.
func (t *Tx) ClearDirty(ctx context.Context, ref string) error {
	_, err := t.q.ExecContext(ctx, `DELETE FROM mem_dirty WHERE memory_ref = ?`, ref)
	return err
}
