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

// This file stores the lifecycle subsystem (issue 7): annotations,
// reclassification, leases, workspaces and erasures are log entries applied
// here; reads, retrievals, the GC cursor, lease statistics and re-validations
// are telemetry (not memory, not log entries). An ERASE entry removes payload
// rows and leaves, in erased_skeleton and erased_leaves, only what replay
// needs to rebuild every derived table exactly: structure and hashes, no text.

// restoreErased supplies the skeleton of an erased payload during replay, so
// that an entry whose payload an erasure removed still applies.
func restoreErased(ctx context.Context, q querier, e *oplog.Entry) error {
	var body []byte
	err := q.QueryRowContext(ctx, `SELECT body FROM erased_skeleton WHERE lsn = ?`, e.LSN).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return wrapApply(e, err)
	}
	e.Payload = body
	return nil
}

// memOpLeaf returns the leaf of the memory op at idx of ref's op log: the
// stored leaf of a value an erasure removed, so the op log keeps its hashes,
// else the op's own leaf.
func memOpLeaf(ctx context.Context, q querier, ref string, idx uint64, op merkle.KVOp) (merkle.Hash, error) {
	var b []byte
	err := q.QueryRowContext(ctx, `SELECT leaf FROM erased_leaves WHERE memory_ref = ? AND idx = ?`, ref, int64(idx)).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return op.Leaf()
	}
	var h merkle.Hash
	if err != nil {
		return h, err
	}
	copy(h[:], b)
	return h, nil
}

func applyErase(ctx context.Context, q querier, e *oplog.Entry) error {
	rec, err := oplog.DecodeData[oplog.ErasureData](e)
	if err != nil {
		return err
	}
	payloads := 0
	for _, lsn := range rec.LSNs {
		var (
			body          []byte
			itemID, op, r string
		)
		// Recorded first: the log_payload_no_delete trigger lets only an
		// erased payload go.
		if _, err := q.ExecContext(ctx, `INSERT INTO erased_payload (lsn, erased_by) VALUES (?, ?) ON CONFLICT DO NOTHING`, lsn, e.LSN); err != nil {
			return wrapApply(e, err)
		}
		err := q.QueryRowContext(ctx, `SELECT p.body, l.item_id, l.op, l.memory_ref FROM log_payload p JOIN log l ON l.lsn = p.lsn WHERE p.lsn = ?`, lsn).Scan(&body, &itemID, &op, &r)
		switch {
		case err == nil:
			sk, err := oplog.ErasedSkeleton(itemID, body)
			if err != nil {
				return wrapApply(e, err)
			}
			if _, err := q.ExecContext(ctx, `INSERT INTO erased_skeleton (lsn, body) VALUES (?, ?) ON CONFLICT DO NOTHING`, lsn, sk); err != nil {
				return wrapApply(e, err)
			}
			if _, err := q.ExecContext(ctx, `DELETE FROM log_payload WHERE lsn = ?`, lsn); err != nil {
				return wrapApply(e, err)
			}
			// The outbox rows the payload wrote become what its skeleton writes.
			if err := reemitErased(ctx, q, lsn, op, r, sk); err != nil {
				return wrapApply(e, err)
			}
		case errors.Is(err, sql.ErrNoRows): // replay: already erased
		default:
			return wrapApply(e, err)
		}
		payloads++
	}
	for _, id := range rec.Items {
		var ref, key string
		if err := q.QueryRowContext(ctx, `SELECT memory_ref, key FROM items WHERE id = ?`, id).Scan(&ref, &key); err != nil {
			return wrapApply(e, fmt.Errorf("erased item %s: %w", id, err))
		}
		ph := oplog.ErasedKey(id)
		stmts := []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO erased_leaves (memory_ref, idx, leaf) SELECT memory_ref, idx, leaf FROM mem_ops WHERE memory_ref = ? AND key IN (?, ?) ON CONFLICT DO NOTHING`, []any{ref, key, ph}},
			{`UPDATE mem_ops SET key = ?, value = CASE WHEN op = 'PUT' THEN ` + q.dialect().Blob + ` ELSE NULL END WHERE memory_ref = ? AND key IN (?, ?)`, []any{ph, []byte(oplog.ErasedContent), ref, key, ph}},
			// The placeholder key's row gives way to the renamed one.
			{`DELETE FROM mem_map WHERE memory_ref = ? AND key = ? AND key <> ? AND EXISTS (SELECT 1 FROM mem_map m WHERE m.memory_ref = ? AND m.key = ?)`, []any{ref, ph, key, ref, key}},
			{`UPDATE mem_map SET key = ?, fragment = ? WHERE memory_ref = ? AND key = ?`, []any{ph, []byte(oplog.ErasedContent), ref, key}},
			{`UPDATE items SET key = ? WHERE id = ?`, []any{ph, id}},
			{`UPDATE versions SET key = ?, content = CASE WHEN content IS NULL THEN NULL ELSE ` + q.dialect().Blob + ` END, content_hash = '', tags = '[]', reason = 'erased', source = '' WHERE item_id = ?`, []any{ph, []byte(oplog.ErasedContent), id}},
			// What the judge derived from the erased text goes with it.
			{`DELETE FROM version_features WHERE version_id IN (SELECT version_id FROM version_index WHERE item_id = ?)`, []any{id}},
			{`UPDATE version_index SET key = ?, content_hash = '' WHERE item_id = ?`, []any{ph, id}},
			{`UPDATE reviews SET detail = '{}', note = '' WHERE item_id = ?`, []any{id}},
			{`DELETE FROM idempotency WHERE item_id = ?`, []any{id}},
			{`UPDATE annotations SET note = '' WHERE item_id = ?`, []any{id}},
			{`DELETE FROM mem_state_cache WHERE memory_ref = ?`, []any{ref}},
			{`INSERT INTO purged_items (item_id, lsn, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, []any{id, e.LSN, rec.Kind}},
		}
		for _, s := range stmts {
			if _, err := q.ExecContext(ctx, s.sql, s.args...); err != nil {
				return wrapApply(e, err)
			}
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM mem_dirty WHERE id = ? OR id IN (SELECT id FROM versions WHERE item_id = ?)`, id, id); err != nil {
			return wrapApply(e, err)
		}
	}
	byLayer, _ := json.Marshal(rec.ByLayer)
	if rec.ByLayer == nil {
		byLayer = []byte("{}")
	}
	req, err := time.Parse(time.RFC3339Nano, rec.RequestedAt)
	if err != nil {
		req = e.Time
	}
	left, _ := json.Marshal(rec.Left)
	if rec.Left == nil {
		left = []byte("[]")
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO erasures (lsn, kind, request_id, subject_hash, requested_at, completed_at, actor, items, payloads, by_layer, left_places)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`, e.LSN, rec.Kind, rec.RequestID, rec.SubjectHash, ms(req), ms(e.Time), e.Actor, len(rec.Items), payloads, string(byLayer), string(left)); err != nil {
		return wrapApply(e, err)
	}
	return event(ctx, q, e, memgov.EventMemoryErased, map[string]any{"kind": rec.Kind, "requestId": rec.RequestID, "items": len(rec.Items)})
}

func applyAnnotate(ctx context.Context, q querier, e *oplog.Entry) error {
	p, err := e.DecodePayload()
	if err != nil {
		return err
	}
	var d oplog.AnnotationData
	// An erased annotation's skeleton keeps its kind only.
	if len(p.Data) > 0 {
		if err := json.Unmarshal(p.Data, &d); err != nil {
			return wrapApply(e, fmt.Errorf("annotation data: %w", err))
		}
	}
	_, err = q.ExecContext(ctx, `INSERT INTO annotations (lsn, item_id, actor, kind, note, at) VALUES (?,?,?,?,?,?)`,
		e.LSN, e.ItemID, e.Actor, d.Kind, d.Note, ms(e.Time))
	return wrapApply(e, err)
}

func applyReclassify(ctx context.Context, q querier, e *oplog.Entry) error {
	p, err := e.DecodePayload()
	if err != nil {
		return err
	}
	if p.Layer == "" {
		return fmt.Errorf("apply log entry %d: reclassification without a layer", e.LSN)
	}
	res, err := q.ExecContext(ctx, `UPDATE items SET layer = ?, updated_at = ? WHERE id = ?`, string(p.Layer), ms(e.Time), e.ItemID)
	if err := mustOne(res, err); err != nil {
		return wrapApply(e, err)
	}
	for _, s := range []string{`UPDATE versions SET layer = ? WHERE item_id = ?`, `UPDATE version_index SET layer = ? WHERE item_id = ?`,
		// The judge cache follows (features.go).
		`UPDATE version_features SET layer = ? WHERE version_id IN (SELECT id FROM versions WHERE item_id = ?)`} {
		if _, err := q.ExecContext(ctx, s, string(p.Layer), e.ItemID); err != nil {
			return wrapApply(e, err)
		}
	}
	_, err = q.ExecContext(ctx, `DELETE FROM mem_dirty WHERE id = ? OR id IN (SELECT id FROM versions WHERE item_id = ?)`, e.ItemID, e.ItemID)
	return wrapApply(e, err)
}

func applyLease(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.LeaseData](e)
	if err != nil {
		return err
	}
	res := e.MemoryRef + "#" + d.Key
	if e.Op == oplog.LeaseRelease {
		r, err := q.ExecContext(ctx, `UPDATE leases SET released = 1, lsn = ? WHERE resource = ? AND holder = ? AND token = ?`, e.LSN, res, e.Actor, d.Token)
		return wrapApply(e, mustOne(r, err))
	}
	exp, err := time.Parse(time.RFC3339Nano, d.ExpiresAt)
	if err != nil {
		return fmt.Errorf("apply log entry %d: lease expiry: %w", e.LSN, err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO leases (resource, holder, token, granted_at, expires_at, released, lsn) VALUES (?,?,?,?,?,0,?)
		ON CONFLICT (resource) DO UPDATE SET holder = excluded.holder, token = excluded.token,
		granted_at = CASE WHEN leases.token = excluded.token THEN leases.granted_at ELSE excluded.granted_at END,
		expires_at = excluded.expires_at, released = 0, lsn = excluded.lsn`, res, e.Actor, d.Token, ms(e.Time), ms(exp), e.LSN)
	return wrapApply(e, err)
}

func applyWorkspace(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.WorkspaceData](e)
	if err != nil {
		return err
	}
	var res sql.Result
	switch d.Action {
	case "remove": // recordWorkspace (workspace.go) records removed keys
		return nil
	case "open":
		res, err = q.ExecContext(ctx, `INSERT INTO workspaces (ref, base_ref, owner, base_lsn, status, lsn) VALUES (?,?,?,?, 'OPEN', ?)`,
			e.MemoryRef, d.BaseRef, e.Actor, d.BaseLSN, e.LSN)
	case "submit":
		res, err = q.ExecContext(ctx, `UPDATE workspaces SET status = 'SUBMITTED', request = ?, lsn = ? WHERE ref = ? AND status = 'OPEN'`,
			string(d.Request), e.LSN, e.MemoryRef)
	case "merge", "reject":
		st := map[string]string{"merge": "MERGED", "reject": "REJECTED"}[d.Action]
		res, err = q.ExecContext(ctx, `UPDATE workspaces SET status = ?, decided_by = ?, lsn = ? WHERE ref = ? AND status = 'SUBMITTED'`,
			st, e.Actor, e.LSN, e.MemoryRef)
	default:
		return fmt.Errorf("apply log entry %d: unknown workspace action %q", e.LSN, d.Action)
	}
	return wrapApply(e, mustOne(res, err))
}

// SecureDelete makes the database overwrite deleted content for the rest of
// this connection's life, when it needs telling (SQLite's secure_delete,
// until Compact turns it off).
func (t *Tx) SecureDelete(ctx context.Context) error {
	if t.q.dialect().SecureDelete == "" {
		return nil
	}
	_, err := t.q.ExecContext(ctx, t.q.dialect().SecureDelete)
	return err
}

func unixDay(t time.Time) int64 { return t.Unix() / 86400 }

func (r *ReadTx) GCScan(ctx context.Context, layer memgov.Layer, afterID string, limit int, now time.Time, window time.Duration) ([]memgov.GCItem, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT id FROM items WHERE layer = ? AND id > ? AND head_version_id <> '' ORDER BY id LIMIT ?`, string(layer), afterID, limit)
	if err != nil {
		return nil, err
	}
	ids, err := scanStrings(rows)
	if err != nil {
		return nil, err
	}
	out := make([]memgov.GCItem, 0, len(ids))
	for _, id := range ids {
		g, err := r.gcItem(ctx, id, now, window)
		if err != nil {
			return nil, err
		}
		if g.Head, err = r.Version(ctx, g.Item.Head); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func (r *ReadTx) gcItem(ctx context.Context, id string, now time.Time, window time.Duration) (memgov.GCItem, error) {
	var g memgov.GCItem
	var err error
	if g.Item, err = r.Item(ctx, id); err != nil {
		return g, err
	}
	var n, last, ever int64
	if err := r.q.QueryRowContext(ctx, `SELECT COALESCE(SUM(CASE WHEN day >= ? THEN n ELSE 0 END), 0), COALESCE(MAX(last_at), 0), COUNT(*) FROM access_days WHERE item_id = ?`,
		unixDay(now.Add(-window)), id).Scan(&n, &last, &ever); err != nil {
		return g, err
	}
	g.Accesses = int(n)
	if ever > 0 {
		g.LastAccess = fromMS(last)
	}
	var got, used int64
	if err := r.q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(ri.used), 0) FROM retrieval_items ri JOIN retrievals rt ON rt.id = ri.retrieval_id
		WHERE ri.item_id = ? AND rt.feedback_at IS NOT NULL`, id).Scan(&got, &used); err != nil {
		return g, err
	}
	g.Impact = 1
	if got > 0 {
		g.Impact = float64(used) / float64(got)
	}
	g.Linked, err = r.Linked(ctx, id)
	return g, err
}

// Linked reports why an item is load-bearing for an action (spec §13.16 audit
// posture): cited as evidence by live memory, awaiting or carrying a human
// approval, the subject of a retraction or rollback, or part of a baseline.
func (r *ReadTx) Linked(ctx context.Context, id string) (string, error) {
	checks := []struct{ sql, why string }{
		{`SELECT 1 FROM version_evidence ve JOIN versions v ON v.id = ve.version_id WHERE ve.source_item_id = ?1 AND v.item_id <> ?1 AND v.state IN ('ACTIVE', 'DRAFT') LIMIT 1`, "cited as evidence by live memory"},
		{`SELECT 1 FROM reviews WHERE item_id = ?1 AND status IN ('PENDING', 'ESCALATED') LIMIT 1`, "awaiting a review"},
		{`SELECT 1 FROM reviews r JOIN items i ON i.id = r.item_id WHERE r.item_id = ?1 AND r.status = 'APPROVED' AND r.version_id = i.head_version_id LIMIT 1`, "approved by a person"},
		{`SELECT 1 FROM log WHERE item_id = ?1 AND op = 'RETRACT' LIMIT 1`, "part of a rollback"},
		{`SELECT 1 FROM baselines b JOIN versions v ON v.memory_ref = b.memory_ref WHERE v.item_id = ?1 AND v.active_from IS NOT NULL
			AND v.active_from <= b.log_position AND (v.active_to IS NULL OR v.active_to > b.log_position) LIMIT 1`, "part of an approved baseline"},
	}
	for _, c := range checks {
		var one int
		err := r.q.QueryRowContext(ctx, c.sql, id).Scan(&one)
		if err == nil {
			return c.why, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", err
		}
	}
	return "", nil
}

func (r *ReadTx) GCPurgeable(ctx context.Context, before time.Time, limit int) ([]memgov.GCItem, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT i.id, l.ts FROM items i
		JOIN versions v ON v.item_id = i.id AND v.seq = (SELECT MAX(seq) FROM versions WHERE item_id = i.id)
		JOIN log l ON l.lsn = v.active_to
		WHERE i.head_version_id = '' AND v.state = 'EXPIRED' AND i.pinned = 0 AND l.ts <= ?
		AND NOT EXISTS (SELECT 1 FROM purged_items p WHERE p.item_id = i.id) ORDER BY i.id LIMIT ?`, ms(before), limit)
	if err != nil {
		return nil, err
	}
	type row struct {
		id string
		ts int64
	}
	var rs []row
	for rows.Next() {
		var x row
		if err := rows.Scan(&x.id, &x.ts); err != nil {
			rows.Close()
			return nil, err
		}
		rs = append(rs, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]memgov.GCItem, 0, len(rs))
	for _, x := range rs {
		g := memgov.GCItem{ExpiredAt: fromMS(x.ts)}
		var err error
		if g.Item, err = r.Item(ctx, x.id); err != nil {
			return nil, err
		}
		if g.Linked, err = r.Linked(ctx, x.id); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func (r *ReadTx) GCCursor(ctx context.Context, layer memgov.Layer) (string, error) {
	var s string
	err := r.q.QueryRowContext(ctx, `SELECT after_id FROM gc_cursor WHERE layer = ?`, string(layer)).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return s, err
}

func (t *Tx) SetGCCursor(ctx context.Context, layer memgov.Layer, after string) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO gc_cursor (layer, after_id) VALUES (?, ?) ON CONFLICT (layer) DO UPDATE SET after_id = excluded.after_id`, string(layer), after)
	return err
}

func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// EraseMatches finds the items whose keys, contents or log payloads contain
// any needle (case-insensitive for ASCII), and counts entries without an item
// whose payloads contain one (reported, not erased).
func (r *ReadTx) EraseMatches(ctx context.Context, needles []string) ([]string, int, error) {
	seen := map[string]bool{}
	var out []string
	unresolved := 0
	d := r.q.dialect()
	for _, n := range needles {
		pat := likePattern(n)
		rows, err := r.q.QueryContext(ctx, `SELECT DISTINCT item_id FROM versions WHERE `+d.TextLike("content")+` ?1 ESCAPE '\' OR key `+d.Like+` ?1 ESCAPE '\'
			UNION SELECT DISTINCT l.item_id FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.item_id <> '' AND l.op <> 'ERASE' AND `+d.TextLike("p.body")+` ?1 ESCAPE '\'`, pat)
		if err != nil {
			return nil, 0, err
		}
		ids, err := scanStrings(rows)
		if err != nil {
			return nil, 0, err
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		var u int
		if err := r.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.item_id = '' AND `+d.TextLike("p.body")+` ? ESCAPE '\'`, pat).Scan(&u); err != nil {
			return nil, 0, err
		}
		unresolved += u
	}
	return out, unresolved, nil
}

// DerivedItems returns the items derived from any of items: merges whose
// other predecessor is one of their versions, and versions citing them as
// MEMORY_ITEM evidence (promotions, distillations, consolidations).
func (r *ReadTx) DerivedItems(ctx context.Context, items []string) ([]string, error) {
	if len(items) == 0 {
		return nil, nil
	}
	args := make([]any, len(items))
	for i, s := range items {
		args[i] = s
	}
	ph := placeholders(len(items))
	rows, err := r.q.QueryContext(ctx, `SELECT DISTINCT v.item_id FROM versions v JOIN versions s ON s.id = v.merged_from WHERE s.item_id IN (`+ph+`)
		UNION SELECT DISTINCT item_id FROM version_evidence WHERE source_item_id IN (`+ph+`)`, append(args, args...)...)
	if err != nil {
		return nil, err
	}
	return scanStrings(rows)
}

func (r *ReadTx) ItemEntries(ctx context.Context, items []string) ([]int64, error) {
	var out []int64
	for _, id := range items {
		rows, err := r.q.QueryContext(ctx, `SELECT l.lsn FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.item_id = ? ORDER BY l.lsn`, id)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var n int64
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *ReadTx) LeaseOf(ctx context.Context, resource string) (memgov.Lease, bool, error) {
	var (
		l        memgov.Lease
		g, x     int64
		released bool
	)
	err := r.q.QueryRowContext(ctx, `SELECT holder, token, granted_at, expires_at, released FROM leases WHERE resource = ?`, resource).Scan(&l.Holder, &l.Token, &g, &x, &released)
	if errors.Is(err, sql.ErrNoRows) {
		return l, false, nil
	}
	if err != nil {
		return l, false, err
	}
	l.Resource, l.GrantedAt, l.ExpiresAt, l.Released = resource, fromMS(g), fromMS(x), released
	l.MemoryRef, l.Key, _ = strings.Cut(resource, "#")
	return l, true, nil
}

// RecordFeedback marks the items of a retrieval that were used. Each of used
// names an item by its id or by its key in the retrieval's memoryRef.
func (t *Tx) RecordFeedback(ctx context.Context, retrievalID string, used []string, at time.Time) (int, error) {
	if err := t.FoldReads(ctx); err != nil {
		return 0, err
	}
	res, err := t.q.ExecContext(ctx, `UPDATE retrievals SET feedback_at = ? WHERE id = ?`, ms(at), retrievalID)
	if err := mustOne(res, err); err != nil {
		return 0, fmt.Errorf("%w: retrieval %s", memgov.ErrNotFound, retrievalID)
	}
	n := 0
	for _, item := range used {
		res, err := t.q.ExecContext(ctx, `UPDATE retrieval_items SET used = 1 WHERE retrieval_id = ?1 AND used = 0 AND (item_id = ?2
			OR item_id IN (SELECT i.id FROM items i JOIN retrievals r ON r.id = ?1 WHERE i.memory_ref = r.memory_ref AND i.key = ?2))`, retrievalID, item)
		if err != nil {
			return n, err
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	return n, nil
}

func (t *Tx) CountLease(ctx context.Context, at time.Time, granted bool) error {
	col := "denied"
	if granted {
		col = "granted"
	}
	_, err := t.q.ExecContext(ctx, `INSERT INTO lease_stats (day, `+col+`) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET `+col+` = lease_stats.`+col+` + 1`, unixDay(at))
	return err
}

func (t *Tx) RecordRevalidation(ctx context.Context, versionID string, at time.Time, pass bool, score float64) error {
	_, err := t.q.ExecContext(ctx, `INSERT INTO revalidations (version_id, at, pass, score) VALUES (?,?,?,?)
		ON CONFLICT (version_id) DO UPDATE SET at = excluded.at, pass = excluded.pass, score = excluded.score`, versionID, ms(at), pass, score)
	return err
}

func (r *ReadTx) erasureRows(ctx context.Context) ([]memgov.ErasureRow, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT lsn, kind, request_id, subject_hash, requested_at, completed_at, actor, items, payloads, by_layer, left_places FROM erasures ORDER BY lsn`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.ErasureRow{}
	for rows.Next() {
		var (
			x      memgov.ErasureRow
			rq, cp int64
			bl, lp string
		)
		if err := rows.Scan(&x.LSN, &x.Kind, &x.RequestID, &x.SubjectHash, &rq, &cp, &x.Actor, &x.Items, &x.Payloads, &bl, &lp); err != nil {
			return nil, err
		}
		x.RequestedAt, x.CompletedAt = fromMS(rq), fromMS(cp)
		row := fmt.Sprint(x.LSN)
		if err := decodeColumn("erasures", "by_layer", row, bl, &x.ByLayer); err != nil {
			return nil, err
		}
		if err := decodeColumn("erasures", "left_places", row, lp, &x.Left); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

func (r *ReadTx) MetricsData(ctx context.Context, since, now time.Time) (memgov.MetricsData, error) {
	d := memgov.MetricsData{LayerSizes: map[string]int{}}
	rows, err := r.q.QueryContext(ctx, `SELECT id, status, reason, layer, latency_us, stages FROM write_outcomes WHERE at >= ? ORDER BY id`, ms(since))
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var (
			o      memgov.OutcomeRow
			id     int64
			stages string
		)
		if err := rows.Scan(&id, &o.Status, &o.Reason, &o.Layer, &o.LatencyUS, &stages); err != nil {
			rows.Close()
			return d, err
		}
		if err := decodeColumn("write_outcomes", "stages", fmt.Sprint(id), stages, &o.Stages); err != nil {
			rows.Close()
			return d, err
		}
		d.Outcomes = append(d.Outcomes, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, err
	}
	rows, err = r.q.QueryContext(ctx, `SELECT rt.n, (SELECT COUNT(*) FROM retrieval_items ri WHERE ri.retrieval_id = rt.id AND ri.used = 1)
		FROM retrievals rt WHERE rt.feedback_at IS NOT NULL AND rt.at >= ? AND rt.n > 0`, ms(since))
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var x memgov.RetrievalRow
		if err := rows.Scan(&x.N, &x.Used); err != nil {
			rows.Close()
			return d, err
		}
		d.Retrievals = append(d.Retrievals, x)
	}
	rows.Close()
	rows, err = r.q.QueryContext(ctx, `SELECT ri.staleness_ms FROM retrieval_items ri JOIN retrievals rt ON rt.id = ri.retrieval_id WHERE rt.at >= ?`, ms(since))
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return d, err
		}
		d.StalenessMS = append(d.StalenessMS, s)
	}
	rows.Close()
	for _, q := range []struct {
		sql  string
		dest []any
	}{
		{`SELECT COUNT(*) FROM retrievals WHERE at >= ?1`, []any{&d.RetrievalsTotal}},
		{`SELECT COUNT(*), COALESCE(SUM(1 - pass), 0) FROM revalidations WHERE at >= ?1`, []any{&d.Revalidated, &d.RevalidationFailed}},
		{`SELECT COALESCE(SUM(granted), 0), COALESCE(SUM(denied), 0) FROM lease_stats WHERE day >= ?2`, []any{&d.LeaseGranted, &d.LeaseDenied}},
		{`SELECT COUNT(*) FROM versions WHERE state = 'ACTIVE' AND expires_at IS NOT NULL AND expires_at <= ?3`, []any{&d.PastTTL}},
		{`SELECT COUNT(*) FROM log l JOIN log_payload p ON p.lsn = l.lsn WHERE l.op = 'EXPIRE' AND l.ts >= ?1 AND ` + r.q.dialect().TextLike("p.body") + ` '%"gc":%'`, []any{&d.GCExpired}},
	} {
		if err := r.q.QueryRowContext(ctx, q.sql, ms(since), unixDay(since), ms(now)).Scan(q.dest...); err != nil {
			return d, fmt.Errorf("metrics: %w", err)
		}
	}
	rows, err = r.q.QueryContext(ctx, `SELECT layer, COUNT(*) FROM items WHERE head_version_id <> '' GROUP BY layer`)
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var (
			l string
			n int
		)
		if err := rows.Scan(&l, &n); err != nil {
			rows.Close()
			return d, err
		}
		d.LayerSizes[l] = n
	}
	rows.Close()
	if d.Tasks, err = r.taskOutcomes(ctx, ms(since)); err != nil {
		return d, err
	}
	d.Erasures, err = r.erasureRows(ctx)
	return d, err
}

func (r *ReadTx) ComplianceData(ctx context.Context) (memgov.ComplianceData, error) {
	var d memgov.ComplianceData
	var err error
	if d.Active, err = r.queryVersions(ctx, `SELECT `+versionCols+` FROM versions WHERE state = 'ACTIVE' ORDER BY memory_ref, key`); err != nil {
		return d, err
	}
	if d.Erasures, err = r.erasureRows(ctx); err != nil {
		return d, err
	}
	err = r.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM write_outcomes WHERE reason = 'RESIDENCY_VIOLATION'`).Scan(&d.ResidencyRejections)
	return d, err
}

func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (r *ReadTx) OpenReviewOf(ctx context.Context, versionID string) (string, error) {
	var id string
	err := r.q.QueryRowContext(ctx, `SELECT id FROM reviews WHERE version_id = ? AND status IN ('PENDING', 'ESCALATED')`, versionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// ErasureResidue reads erased_skeleton and erased_leaves: what a replay of
// this log needs in place of the erased payloads.
func (r *ReadTx) ErasureResidue(ctx context.Context) (memgov.ErasureResidue, error) {
	var res memgov.ErasureResidue
	var err error
	res.Skeletons, err = queryAll(ctx, r.q, func(s Scanner) (memgov.ErasedSkeleton, error) {
		var k memgov.ErasedSkeleton
		return k, s.Scan(&k.LSN, &k.Body)
	}, `SELECT lsn, body FROM erased_skeleton ORDER BY lsn`)
	if err != nil {
		return res, err
	}
	res.Leaves, err = queryAll(ctx, r.q, func(s Scanner) (memgov.ErasedLeaf, error) {
		var l memgov.ErasedLeaf
		var b []byte
		if err := s.Scan(&l.MemoryRef, &l.Index, &b); err != nil {
			return l, err
		}
		if len(b) != len(l.Leaf) {
			return l, fmt.Errorf("erased leaf %d of %s: %d bytes, want %d", l.Index, l.MemoryRef, len(b), len(l.Leaf))
		}
		copy(l.Leaf[:], b)
		return l, nil
	}, `SELECT memory_ref, idx, leaf FROM erased_leaves ORDER BY memory_ref, idx`)
	return res, err
}

// RestoreErasureResidue writes another store's residue into erased_skeleton
// and erased_leaves of a store whose log is empty, so that its log can be
// appended here and replayed as it is there.
func (t *Tx) RestoreErasureResidue(ctx context.Context, res memgov.ErasureResidue) error {
	var n int64
	if err := t.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM log`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: the erasure residue of another log is restored only into an empty log (this one holds %d entries)", memgov.ErrConflict, n)
	}
	for _, k := range res.Skeletons {
		if k.LSN < 1 || len(k.Body) == 0 {
			return fmt.Errorf("%w: erased skeleton of LSN %d is empty or misplaced", memgov.ErrInvalid, k.LSN)
		}
		if _, err := t.q.ExecContext(ctx, `INSERT INTO erased_skeleton (lsn, body) VALUES (?, ?)`, k.LSN, k.Body); err != nil {
			return fmt.Errorf("restore erased skeleton of LSN %d: %w", k.LSN, err)
		}
	}
	for _, l := range res.Leaves {
		if _, err := t.q.ExecContext(ctx, `INSERT INTO erased_leaves (memory_ref, idx, leaf) VALUES (?, ?, ?)`, l.MemoryRef, l.Index, l.Leaf[:]); err != nil {
			return fmt.Errorf("restore erased leaf %d of %s: %w", l.Index, l.MemoryRef, err)
		}
	}
	return nil
}

// storePayload stores the payload of an appended entry. An entry without
// one is an entry copied from a log whose erasure removed it: it is taken
// only when a restored skeleton stands for its LSN (RestoreErasureResidue),
// which apply then replays in its place; the ERASE entry copied after it
// records the payload as erased.
func storePayload(ctx context.Context, q querier, e *oplog.Entry) error {
	if len(e.Payload) > 0 {
		if _, err := q.ExecContext(ctx, `INSERT INTO log_payload (lsn, body) VALUES (?, ?)`, e.LSN, []byte(e.Payload)); err != nil {
			return fmt.Errorf("append payload: %w", err)
		}
		return nil
	}
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM erased_skeleton WHERE lsn = ?`, e.LSN).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: entry %d (%s) has no payload, and no erased skeleton stands for it", memgov.ErrInvalid, e.LSN, e.Op)
	}
	if err != nil {
		return fmt.Errorf("append payload: %w", err)
	}
	return nil
}
