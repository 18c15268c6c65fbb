package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// readTx implements memgov.ReadTx over a transaction.

// decodeColumn decodes the JSON a stored column holds. Corrupt JSON is an
// error that names the table, the column and the row, never a zero value.
func decodeColumn(table, column, row, raw string, v any) error {
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return fmt.Errorf("corrupt stored data: %s.%s of row %s is not valid JSON (%v); verifying the log names what else differs from it", table, column, row, err)
	}
	return nil
}

func notFound(what, id string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %s %s", memgov.ErrNotFound, what, id)
	}
	return err
}

func (r *ReadTx) LogSize(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT MAX(lsn) FROM log`).Scan(&n)
	return n.Int64, err
}

func (r *ReadTx) LogRange(ctx context.Context, from, to int64, fn func(*oplog.Entry) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT l.lsn, l.ts, l.op, l.memory_ref, l.item_id, l.version_id, l.prev_version_id,
		l.actor, l.payload_hash, l.leaf, l.chain, p.body FROM log l LEFT JOIN log_payload p ON p.lsn = l.lsn
		WHERE l.lsn BETWEEN ? AND ? ORDER BY l.lsn`, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

func scanEntry(rows *sql.Rows) (*oplog.Entry, error) {
	var (
		e           oplog.Entry
		ts          int64
		op          string
		leaf, chain []byte
		body        []byte
	)
	if err := rows.Scan(&e.LSN, &ts, &op, &e.MemoryRef, &e.ItemID, &e.VersionID, &e.PrevVersionID, &e.Actor,
		&e.PayloadHash, &leaf, &chain, &body); err != nil {
		return nil, err
	}
	e.Time, e.Op = fromMS(ts), oplog.Op(op)
	copy(e.Leaf[:], leaf)
	copy(e.Chain[:], chain)
	if body != nil {
		e.Payload = json.RawMessage(body)
	}
	return &e, nil
}

func (r *ReadTx) Leaves(ctx context.Context, n int64) ([]merkle.Hash, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT leaf FROM log WHERE lsn <= ? ORDER BY lsn`, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]merkle.Hash, 0, n)
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		var h merkle.Hash
		copy(h[:], b)
		out = append(out, h)
	}
	return out, rows.Err()
}

func (r *ReadTx) LSNAt(ctx context.Context, t time.Time) (int64, error) {
	var n sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT MAX(lsn) FROM log WHERE ts <= ?`, ms(t)).Scan(&n)
	return n.Int64, err
}

func (r *ReadTx) TimeOf(ctx context.Context, lsn int64) (time.Time, error) {
	var ts int64
	err := r.q.QueryRowContext(ctx, `SELECT ts FROM log WHERE lsn = ?`, lsn).Scan(&ts)
	if err != nil {
		return time.Time{}, notFound("log entry", fmt.Sprint(lsn), err)
	}
	return fromMS(ts), nil
}

const principalCols = `id, role, tenant, attributes, suspended, created_at`

func scanPrincipal(sc Scanner) (memgov.Principal, error) {
	var (
		p     memgov.Principal
		role  string
		attrs string
		at    int64
	)
	if err := sc.Scan(&p.ID, &role, &p.Tenant, &attrs, &p.Suspended, &at); err != nil {
		return p, err
	}
	p.Role, p.CreatedAt = memgov.Role(role), fromMS(at)
	if attrs != "" && attrs != "{}" && attrs != "null" {
		if err := decodeColumn("principals", "attributes", p.ID, attrs, &p.Attributes); err != nil {
			return p, err
		}
	}
	return p, nil
}

func (r *ReadTx) Principal(ctx context.Context, id string) (memgov.Principal, error) {
	p, err := scanPrincipal(r.q.QueryRowContext(ctx, `SELECT `+principalCols+` FROM principals WHERE id = ?`, id))
	return p, notFound("principal", id, err)
}

func (r *ReadTx) Principals(ctx context.Context) ([]memgov.Principal, error) {
	return queryAll(ctx, r.q, scanPrincipal, `SELECT `+principalCols+` FROM principals ORDER BY tenant, id`)
}

const itemCols = `id, memory_ref, key, layer, head_version_id, pinned, classification, created_at, updated_at`

func scanItem(sc Scanner) (memgov.Item, error) {
	var (
		it       memgov.Item
		layer    string
		cat, uat int64
	)
	if err := sc.Scan(&it.ID, &it.MemoryRef, &it.Key, &layer, &it.Head, &it.Pinned, &it.Classification, &cat, &uat); err != nil {
		return it, err
	}
	it.Layer, it.CreatedAt, it.UpdatedAt = memgov.Layer(layer), fromMS(cat), fromMS(uat)
	return it, nil
}

func (r *ReadTx) Item(ctx context.Context, id string) (memgov.Item, error) {
	it, err := scanItem(r.q.QueryRowContext(ctx, `SELECT `+itemCols+` FROM items WHERE id = ?`, id))
	return it, notFound("item", id, err)
}

func (r *ReadTx) ItemByKey(ctx context.Context, ref, key string) (memgov.Item, error) {
	it, err := scanItem(r.q.QueryRowContext(ctx, `SELECT `+itemCols+` FROM items WHERE memory_ref = ? AND key = ?`, ref, key))
	return it, notFound("item", key, err)
}

const versionCols = `id, item_id, memory_ref, key, layer, seq, prev_id, merged_from, state, content, content_hash, tags,
	confidence, validation_score, classification, created_by, created_at, created_lsn, active_from, active_to, expires_at, reason, source`

func scanVersion(sc Scanner) (memgov.Version, error) {
	var (
		v                   memgov.Version
		layer, state, tags  string
		content             []byte
		cat                 int64
		from, to, expiresAt sql.NullInt64
	)
	if err := sc.Scan(&v.ID, &v.ItemID, &v.MemoryRef, &v.Key, &layer, &v.Seq, &v.Prev, &v.MergedFrom, &state, &content,
		&v.ContentHash, &tags, &v.Confidence, &v.ValidationScore, &v.Classification, &v.CreatedBy, &cat, &v.CreatedLSN,
		&from, &to, &expiresAt, &v.Reason, &v.Source); err != nil {
		return v, err
	}
	v.Layer, v.State, v.CreatedAt = memgov.Layer(layer), memgov.State(state), fromMS(cat)
	if content != nil {
		v.Content = json.RawMessage(content)
	}
	if err := decodeColumn("versions", "tags", v.ID, tags, &v.Tags); err != nil {
		return v, err
	}
	if v.Tags == nil {
		v.Tags = []string{}
	}
	v.ActiveFrom, v.ActiveTo = from.Int64, to.Int64
	if expiresAt.Valid {
		t := fromMS(expiresAt.Int64)
		v.ExpiresAt = &t
	}
	return v, nil
}

func (r *ReadTx) Version(ctx context.Context, id string) (memgov.Version, error) {
	v, err := scanVersion(r.q.QueryRowContext(ctx, `SELECT `+versionCols+` FROM versions WHERE id = ?`, id))
	return v, notFound("version", id, err)
}

func (r *ReadTx) queryVersions(ctx context.Context, query string, args ...any) ([]memgov.Version, error) {
	return queryAll(ctx, r.q, scanVersion, query, args...)
}

func (r *ReadTx) History(ctx context.Context, itemID string) ([]memgov.Version, error) {
	return r.queryVersions(ctx, `SELECT `+versionCols+` FROM versions WHERE item_id = ? ORDER BY seq DESC`, itemID)
}

func (r *ReadTx) Active(ctx context.Context, q memgov.ActiveQuery) ([]memgov.Version, error) {
	var (
		sb   strings.Builder
		args []any
	)
	sb.WriteString(`SELECT ` + versionCols + ` FROM versions v WHERE v.memory_ref = ?`)
	args = append(args, q.MemoryRef)
	if q.AtLSN > 0 {
		// A version is visible at LSN n when it became ACTIVE at or before n and
		// had not stopped being ACTIVE by n.
		sb.WriteString(` AND v.active_from IS NOT NULL AND v.active_from <= ? AND (v.active_to IS NULL OR v.active_to > ?)`)
		args = append(args, q.AtLSN, q.AtLSN)
	} else {
		sb.WriteString(` AND v.state = 'ACTIVE'`)
	}
	if !q.Now.IsZero() {
		sb.WriteString(` AND (v.expires_at IS NULL OR v.expires_at > ?)`)
		args = append(args, ms(q.Now))
	}
	if q.Tag != "" {
		sb.WriteString(r.q.dialect().TagFilter)
		args = append(args, q.Tag)
	}
	if q.AfterKey != "" {
		sb.WriteString(` AND v.key > ?`)
		args = append(args, q.AfterKey)
	}
	sb.WriteString(` ORDER BY v.key`)
	if q.Limit > 0 {
		sb.WriteString(` LIMIT ?`)
		args = append(args, q.Limit)
	}
	return r.queryVersions(ctx, sb.String(), args...)
}

func (r *ReadTx) Refs(ctx context.Context) ([]memgov.RefSummary, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT memory_ref, COUNT(*), SUM(CAST(head_version_id <> '' AS INT)) FROM items GROUP BY memory_ref ORDER BY memory_ref`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memgov.RefSummary
	for rows.Next() {
		var s memgov.RefSummary
		if err := rows.Scan(&s.MemoryRef, &s.Items, &s.Active); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (r *ReadTx) AuditCheckpoints(ctx context.Context) ([]oplog.AuditCheckpointRecord, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT seq, root, tree_size, observed_at, ttl_seconds, signature, lsn FROM audit_checkpoints ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []oplog.AuditCheckpointRecord
	for rows.Next() {
		var (
			rec  oplog.AuditCheckpointRecord
			root []byte
			at   int64
		)
		if err := rows.Scan(&rec.Seq, &root, &rec.TreeSize, &at, &rec.TTLSeconds, &rec.Signature, &rec.LSN); err != nil {
			return nil, err
		}
		copy(rec.Root[:], root)
		rec.ObservedAt = fromMS(at)
		out = append(out, rec)
	}
	return out, rows.Err()
}
