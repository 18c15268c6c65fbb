package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Reads are recorded in two steps, so that recording a read of thousands of
// entries costs a small share of the read (spec §14 access reinforcement,
// spec §12.12.4 retrieval metrics):
//
//  1. RecordRead appends one row to retrievals and one to read_pending in
//     the read's transaction, the version ids read packed 16 bytes each. A
//     retrieval counts as one access of each item it returned. (RecordAccess
//     and RecordRetrieval write the per-item tables at once, row by row.)
//  2. FoldReads expands pending rows into the per-item tables (access_days,
//     retrieval_items) that GC, usage feedback and the metrics read. The
//     engine folds before it reads them; RecordFeedback folds first too.
//
// Neither table is derived from the log: reads change no memory.

// Packed version lists of RecordRead: a format byte, then the ids.
const (
	packUUID = 'U' // 16-byte UUIDs
	packJSON = 'J' // a JSON array of ids (ids that are not UUIDs)
)

// RecordAccess records one read of each item (n_access) at once: one
// statement for the whole list.
func (t *Tx) RecordAccess(ctx context.Context, items []string, at time.Time) error {
	if len(items) == 0 {
		return nil
	}
	b, err := json.Marshal(items)
	if err != nil {
		return err
	}
	_, err = t.q.ExecContext(ctx, t.q.dialect().RecordAccess, unixDay(at), ms(at), string(b))
	return err
}

// RecordRetrieval records one read and the staleness of each item it
// returned at once, item by item (RecordRead packs them instead).
func (t *Tx) RecordRetrieval(ctx context.Context, id, principal, ref string, at time.Time, items map[string]time.Duration) error {
	if _, err := t.q.ExecContext(ctx, `INSERT INTO retrievals (id, at, principal, memory_ref, n) VALUES (?,?,?,?,?)`, id, ms(at), principal, ref, len(items)); err != nil {
		return err
	}
	for item, stale := range items {
		if _, err := t.q.ExecContext(ctx, `INSERT INTO retrieval_items (retrieval_id, item_id, staleness_ms) VALUES (?,?,?)`, id, item, stale.Milliseconds()); err != nil {
			return err
		}
	}
	return nil
}

// RecordRead records one retrieval of versions: two single-row inserts
// whatever their number, the version ids packed 16 bytes each.
func (t *Tx) RecordRead(ctx context.Context, id, principal, ref string, at time.Time, versionIDs []string) error {
	if _, err := t.q.ExecContext(ctx, `INSERT INTO retrievals (id, at, principal, memory_ref, n) VALUES (?,?,?,?,?)`, id, ms(at), principal, ref, len(versionIDs)); err != nil {
		return err
	}
	if len(versionIDs) == 0 {
		return nil
	}
	_, err := t.q.ExecContext(ctx, `INSERT INTO read_pending (retrieval_id, at, items) VALUES (?, ?, ?)`, id, ms(at), packVersions(versionIDs))
	return err
}

// packVersions packs UUID version ids 16 bytes each, else as a JSON array.
func packVersions(ids []string) []byte {
	b := make([]byte, 1, 1+16*len(ids))
	b[0] = packUUID
	for _, id := range ids {
		u, err := uuid.Parse(id)
		if err != nil || len(id) != 36 || u.String() != id {
			j, _ := json.Marshal(ids)
			return append([]byte{packJSON}, j...)
		}
		b = append(b, u[:]...)
	}
	return b
}

// unpackVersions returns a packed version list as a JSON array of ids.
func unpackVersions(b []byte) ([]byte, error) {
	if len(b) > 0 && b[0] == packJSON {
		return b[1:], nil
	}
	if len(b) == 0 || b[0] != packUUID || (len(b)-1)%16 != 0 {
		return nil, errors.New("malformed packed read")
	}
	out := make([]byte, 0, (len(b)-1)/16*39+2)
	out = append(out, '[')
	for rest := b[1:]; len(rest) > 0; rest = rest[16:] {
		var u uuid.UUID
		copy(u[:], rest[:16])
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, u.String()...)
		out = append(out, '"')
	}
	return append(out, ']'), nil
}

// FoldReads expands the pending reads into access_days and retrieval_items
// and clears them.
func (t *Tx) FoldReads(ctx context.Context) error {
	rows, err := t.q.QueryContext(ctx, `SELECT seq, retrieval_id, at, items FROM read_pending ORDER BY seq`)
	if err != nil {
		return err
	}
	type pending struct {
		seq, at int64
		id      string
		items   []byte
	}
	var ps []pending
	for rows.Next() {
		var p pending
		if err := rows.Scan(&p.seq, &p.id, &p.at, &p.items); err != nil {
			rows.Close()
			return err
		}
		ps = append(ps, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range ps {
		ids, err := unpackVersions(p.items)
		if err != nil {
			return fmt.Errorf("fold read %s: %w", p.id, err)
		}
		if _, err := t.q.ExecContext(ctx, t.q.dialect().FoldAccess, p.at/86400000, p.at, string(ids)); err != nil {
			return err
		}
		if _, err := t.q.ExecContext(ctx, t.q.dialect().FoldRetrieval, p.id, p.at, string(ids)); err != nil {
			return err
		}
	}
	if len(ps) == 0 {
		return nil
	}
	_, err = t.q.ExecContext(ctx, `DELETE FROM read_pending WHERE seq <= ?`, ps[len(ps)-1].seq)
	return err
}
