package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// Tx is a write transaction.
type Tx struct {
	ReadTx
	key     []byte
	onErase func()
	// erased: the transaction appended an erasure, which resets the band
	// index on commit, so no band of the erased text stays in memory.
	erased bool
	// rebuilt: the transaction rebuilt the derived tables, whose rows
	// the store's caches may have read with other rowids.
	rebuilt bool
}

// Erased says whether the transaction appended an erasure: its store resets
// the band index after the commit.
func (t *Tx) Erased() bool { return t.erased }

// Rebuilt says whether the transaction rebuilt the derived tables: its store
// resets the topic cache after the commit.
func (t *Tx) Rebuilt() bool { return t.rebuilt }

// Append stores a log entry and applies it to the derived tables.
func (t *Tx) Append(ctx context.Context, e *oplog.Entry) error {
	if e.Op == oplog.Erase {
		t.erased = true
	}
	var (
		last  int64
		lastT int64
		prev  []byte
	)
	err := t.q.QueryRowContext(ctx, `SELECT lsn, ts, chain FROM log ORDER BY lsn DESC LIMIT 1`).Scan(&last, &lastT, &prev)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("append: read log head: %w", err)
	}
	e.LSN = last + 1
	if e.Op == oplog.Erase && t.onErase != nil {
		t.onErase() // a store's copies of the served tables hold what is erased
	}
	e.Time = e.Time.UTC().Truncate(time.Millisecond)
	if ms(e.Time) < lastT {
		e.Time = fromMS(lastT)
	}
	if e.PayloadHash == "" {
		return fmt.Errorf("append: entry %s has no sealed payload", e.Op)
	}
	leaf, err := e.ComputeLeaf()
	if err != nil {
		return err
	}
	var prevChain merkle.Hash
	copy(prevChain[:], prev)
	e.Leaf = leaf
	e.Chain = oplog.ChainNext(t.key, prevChain, leaf)
	if _, err := t.q.ExecContext(ctx, `INSERT INTO log (lsn, ts, op, memory_ref, item_id, version_id, prev_version_id, actor, payload_hash, leaf, chain)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`, e.LSN, ms(e.Time), string(e.Op), e.MemoryRef, e.ItemID, e.VersionID,
		e.PrevVersionID, e.Actor, e.PayloadHash, e.Leaf[:], e.Chain[:]); err != nil {
		return fmt.Errorf("append log entry: %w", err)
	}
	if err := storePayload(ctx, t.q, e); err != nil {
		return err
	}
	if err := t.writeHead(ctx, e); err != nil {
		return fmt.Errorf("append: log head: %w", err)
	}
	return apply(ctx, t.q, e)
}

func applyPrincipal(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.PrincipalData](e)
	if err != nil {
		return err
	}
	attrs, _ := json.Marshal(d.Attributes)
	if d.Attributes == nil {
		attrs = []byte("{}")
	}
	_, err = q.ExecContext(ctx, `INSERT INTO principals (id, role, tenant, attributes, created_at, created_lsn) VALUES (?,?,?,?,?,?)`,
		e.ItemID, d.Role, d.Tenant, string(attrs), ms(e.Time), e.LSN)
	return wrapApply(e, err)
}

func applyAuditCheckpoint(ctx context.Context, q querier, e *oplog.Entry) error {
	rec, err := oplog.DecodeData[oplog.AuditCheckpointRecord](e)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO audit_checkpoints (seq, root, tree_size, observed_at, ttl_seconds, signature, lsn) VALUES (?,?,?,?,?,?,?)`,
		rec.Seq, rec.Root[:], rec.TreeSize, ms(rec.ObservedAt), rec.TTLSeconds, rec.Signature, e.LSN)
	return wrapApply(e, err)
}

func applyPin(ctx context.Context, q querier, e *oplog.Entry) error {
	res, err := q.ExecContext(ctx, `UPDATE items SET pinned = ?, updated_at = ? WHERE id = ?`, e.Op == oplog.Pin, ms(e.Time), e.ItemID)
	return wrapApply(e, mustOne(res, err))
}

// applyApprove makes a DRAFT version the item's ACTIVE head.
func applyApprove(ctx context.Context, q querier, e *oplog.Entry) error {
	if err := supersedeHead(ctx, q, e); err != nil {
		return err
	}
	res, err := q.ExecContext(ctx, `UPDATE versions SET state = 'ACTIVE', active_from = ? WHERE id = ? AND state = 'DRAFT'`, e.LSN, e.VersionID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	return setHead(ctx, q, e, e.VersionID)
}

// applyReject refuses a DRAFT version.
func applyReject(ctx context.Context, q querier, e *oplog.Entry) error {
	res, err := q.ExecContext(ctx, `UPDATE versions SET state = 'RETRACTED' WHERE id = ? AND state = 'DRAFT'`, e.VersionID)
	return wrapApply(e, mustOne(res, err))
}

// applyEndVersion ends an ACTIVE version: RETRACT, EXPIRE or SUPERSEDE.
func applyEndVersion(ctx context.Context, q querier, e *oplog.Entry) error {
	state := map[oplog.Op]memgov.State{oplog.Retract: memgov.Retracted, oplog.Expire: memgov.Expired, oplog.Supersede: memgov.Superseded}[e.Op]
	res, err := q.ExecContext(ctx, `UPDATE versions SET state = ?, active_to = ? WHERE id = ? AND state = 'ACTIVE'`, string(state), e.LSN, e.VersionID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	_, err = q.ExecContext(ctx, `UPDATE items SET head_version_id = '', updated_at = ? WHERE id = ? AND head_version_id = ?`, ms(e.Time), e.ItemID, e.VersionID)
	return wrapApply(e, err)
}

func applyNewVersion(ctx context.Context, q querier, e *oplog.Entry) error {
	p, data, err := decodeVersion(e)
	if err != nil {
		return err
	}
	return newVersion(ctx, q, e, p, data)
}

// decodeVersion decodes the payload of a version entry and its pipeline data.
func decodeVersion(e *oplog.Entry) (oplog.Payload, oplog.VersionData, error) {
	p, err := e.DecodePayload()
	if err != nil {
		return p, oplog.VersionData{}, err
	}
	data, err := versionData(e, p)
	return p, data, err
}

// applyVersion applies a new version (INSERT, UPDATE, MERGE, STAGE): its
// rows, its indexes and its text, from one decoding of its payload.
func applyVersion(ctx context.Context, q querier, e *oplog.Entry) error {
	p, data, err := decodeVersion(e)
	if err != nil {
		return err
	}
	if err := newVersion(ctx, q, e, p, data); err != nil {
		return err
	}
	if err := indexVersionOf(ctx, q, e, p, data); err != nil {
		return err
	}
	return indexText(ctx, q, e)
}

// newVersion is applyNewVersion of a decoded entry.
func newVersion(ctx context.Context, q querier, e *oplog.Entry, p oplog.Payload, data oplog.VersionData) error {
	draft := e.Op == oplog.Stage
	var itemExists bool
	switch e.Op {
	case oplog.Update, oplog.Merge:
		var one int
		err := q.QueryRowContext(ctx, `SELECT 1 FROM items WHERE id = ?`, e.ItemID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("apply log entry %d: %s of unknown item %s", e.LSN, e.Op, e.ItemID)
		}
		if err != nil {
			return wrapApply(e, err)
		}
		itemExists = true
	default:
		// An INSERT or a STAGE makes the item unless it exists. A new
		// item's head is the version this entry makes ACTIVE, set as the
		// row is inserted: it has no head to supersede.
		head := ""
		if !draft {
			head = e.VersionID
		}
		res, err := q.ExecContext(ctx, `INSERT INTO items (id, memory_ref, key, layer, classification, created_at, updated_at, created_lsn, head_version_id)
			VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO NOTHING`, e.ItemID, e.MemoryRef, p.Key, string(p.Layer), p.Classification, ms(e.Time), ms(e.Time), e.LSN, head)
		if err != nil {
			return wrapApply(e, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return wrapApply(e, err)
		}
		itemExists = n == 0
	}
	if !draft {
		if itemExists {
			if err := supersedeHead(ctx, q, e); err != nil {
				return err
			}
		}
		if p.MergedFrom != "" {
			// The other predecessor of a merge stops being ACTIVE too (spec §12.3.4).
			var other string
			err := q.QueryRowContext(ctx, `SELECT item_id FROM versions WHERE id = ? AND state = 'ACTIVE'`, p.MergedFrom).Scan(&other)
			if err == nil {
				if _, err := q.ExecContext(ctx, `UPDATE versions SET state = 'SUPERSEDED', active_to = ? WHERE id = ?`, e.LSN, p.MergedFrom); err != nil {
					return wrapApply(e, err)
				}
				if _, err := q.ExecContext(ctx, `UPDATE items SET head_version_id = '' WHERE id = ? AND head_version_id = ?`, other, p.MergedFrom); err != nil {
					return wrapApply(e, err)
				}
			} else if !errors.Is(err, sql.ErrNoRows) {
				return wrapApply(e, err)
			}
		}
	}
	tags, _ := json.Marshal(nonNil(p.Tags))
	var expires sql.NullInt64
	if p.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339Nano, p.ExpiresAt)
		if err != nil {
			return fmt.Errorf("apply log entry %d: expires_at: %w", e.LSN, err)
		}
		expires = sql.NullInt64{Int64: ms(t), Valid: true}
	}
	state, activeFrom := memgov.Active, sql.NullInt64{Int64: e.LSN, Valid: true}
	if draft {
		state, activeFrom = memgov.Draft, sql.NullInt64{}
	}
	var content any
	if len(p.Content) > 0 {
		content = []byte(p.Content)
	}
	_, err := q.ExecContext(ctx, `INSERT INTO versions (id, item_id, memory_ref, key, layer, seq, prev_id, merged_from, state, content,
		content_hash, tags, confidence, validation_score, classification, created_by, created_at, created_lsn, active_from, expires_at, reason, source)
		VALUES (?,?,?,?,?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM versions WHERE item_id = ?), ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		e.VersionID, e.ItemID, e.MemoryRef, p.Key, string(p.Layer), e.ItemID, e.PrevVersionID, p.MergedFrom, string(state), content,
		p.ContentHash, string(tags), deref(p.Confidence), deref(p.ValidationScore), p.Classification, e.Actor, ms(e.Time), e.LSN,
		activeFrom, expires, p.Reason, data.Source)
	if err != nil {
		return wrapApply(e, err)
	}
	switch {
	case draft:
		_, err = q.ExecContext(ctx, `UPDATE items SET updated_at = ? WHERE id = ?`, ms(e.Time), e.ItemID)
		return wrapApply(e, err)
	case !itemExists:
		return nil // inserted with its head and this entry's time
	}
	return setHead(ctx, q, e, e.VersionID)
}

// supersedeHead marks the item's current ACTIVE head SUPERSEDED at this entry.
func supersedeHead(ctx context.Context, q querier, e *oplog.Entry) error {
	_, err := q.ExecContext(ctx, `UPDATE versions SET state = 'SUPERSEDED', active_to = ?
		WHERE id = (SELECT head_version_id FROM items WHERE id = ?) AND state = 'ACTIVE'`, e.LSN, e.ItemID)
	return wrapApply(e, err)
}

func setHead(ctx context.Context, q querier, e *oplog.Entry, versionID string) error {
	res, err := q.ExecContext(ctx, `UPDATE items SET head_version_id = ?, updated_at = ? WHERE id = ?`, versionID, ms(e.Time), e.ItemID)
	return wrapApply(e, mustOne(res, err))
}

func mustOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("%w: the entry's target is not in the expected state", memgov.ErrConflict)
	}
	return nil
}

func wrapApply(e *oplog.Entry, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("apply log entry %d (%s): %w", e.LSN, e.Op, err)
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
