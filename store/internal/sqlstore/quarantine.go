package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// applyQuarantine applies a QUARANTINE entry (spec §12.11.5):
//   - quarantine: the ACTIVE version becomes QUARANTINED and leaves the
//     item's head (so every read, which returns ACTIVE versions, drops it);
//   - release: a new ACTIVE version with the quarantined content (the
//     entry's VersionID), as an UPDATE would add it;
//   - retract: the quarantined version becomes RETRACTED.
func applyQuarantine(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.QuarantineData](e)
	if err != nil {
		return err
	}
	switch d.Action {
	case oplog.QuarantineHold:
		var key string
		if err := q.QueryRowContext(ctx, `SELECT key FROM versions WHERE id = ?`, e.VersionID).Scan(&key); err != nil {
			return wrapApply(e, err)
		}
		res, err := q.ExecContext(ctx, `UPDATE versions SET state = 'QUARANTINED', active_to = ? WHERE id = ? AND state = 'ACTIVE'`, e.LSN, e.VersionID)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		if _, err := q.ExecContext(ctx, `UPDATE items SET head_version_id = '', updated_at = ? WHERE id = ? AND head_version_id = ?`, ms(e.Time), e.ItemID, e.VersionID); err != nil {
			return wrapApply(e, err)
		}
		tenant, _, _ := strings.Cut(e.MemoryRef, "/")
		if _, err := q.ExecContext(ctx, `INSERT INTO quarantine (version_id, item_id, memory_ref, tenant, key, agent, cause, status, at, lsn)
			VALUES (?,?,?,?,?,?,?,?,?,?)`, e.VersionID, e.ItemID, e.MemoryRef, tenant, key, d.Agent, d.Cause, memgov.QuarantineOpen, ms(e.Time), e.LSN); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventMemoryQuarantined, map[string]any{"memoryRef": e.MemoryRef, "itemId": e.ItemID, "versionId": e.VersionID, "agentId": d.Agent})
	case oplog.QuarantineRelease:
		if err := inOrder(ctx, q, e, applyNewVersion, indexVersion); err != nil {
			return err
		}
		res, err := q.ExecContext(ctx, `UPDATE quarantine SET status = ?, decided_by = ?, decided_at = ?, note = ?, released_as = ?
			WHERE version_id = ? AND status = ?`, memgov.QuarantineReleased, e.Actor, ms(e.Time), d.Cause, e.VersionID, e.PrevVersionID, memgov.QuarantineOpen)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventMemoryReleased, map[string]any{"memoryRef": e.MemoryRef, "itemId": e.ItemID, "versionId": e.VersionID,
			"from": e.PrevVersionID, "by": e.Actor})
	case oplog.QuarantineRetract:
		res, err := q.ExecContext(ctx, `UPDATE versions SET state = 'RETRACTED' WHERE id = ? AND state = 'QUARANTINED'`, e.VersionID)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		res, err = q.ExecContext(ctx, `UPDATE quarantine SET status = ?, decided_by = ?, decided_at = ?, note = ? WHERE version_id = ? AND status = ?`,
			memgov.QuarantineRetracted, e.Actor, ms(e.Time), d.Cause, e.VersionID, memgov.QuarantineOpen)
		if err := mustOne(res, err); err != nil {
			return wrapApply(e, err)
		}
		return event(ctx, q, e, memgov.EventMemoryRetracted, map[string]any{"memoryRef": e.MemoryRef, "itemId": e.ItemID, "versionId": e.VersionID, "actor": e.Actor})
	}
	return fmt.Errorf("apply log entry %d: unknown quarantine action %q", e.LSN, d.Action)
}

const quarantineCols = `version_id, item_id, memory_ref, tenant, key, agent, cause, status, at, lsn, decided_by, decided_at, note, released_as`

func scanQuarantine(sc Scanner) (memgov.QuarantineEntry, error) {
	var (
		r       memgov.QuarantineEntry
		at      int64
		decided sql.NullInt64
	)
	if err := sc.Scan(&r.VersionID, &r.ItemID, &r.MemoryRef, &r.Tenant, &r.Key, &r.Agent, &r.Cause, &r.Status, &at, &r.LSN,
		&r.DecidedBy, &decided, &r.Note, &r.ReleasedAs); err != nil {
		return r, err
	}
	r.At = fromMS(at)
	if decided.Valid {
		t := fromMS(decided.Int64)
		r.DecidedAt = &t
	}
	return r, nil
}

// Quarantined lists quarantined versions, newest first.
func (r *ReadTx) Quarantined(ctx context.Context, q memgov.QuarantineQuery) ([]memgov.QuarantineEntry, error) {
	where, args := []string{"1 = 1"}, []any{}
	if q.Status != "" {
		where, args = append(where, "status = ?"), append(args, q.Status)
	}
	if q.Tenant != "" && q.Tenant != memgov.AllTenants {
		where, args = append(where, "tenant = ?"), append(args, q.Tenant)
	}
	if q.Agent != "" {
		where, args = append(where, "agent = ?"), append(args, q.Agent)
	}
	if q.VersionID != "" {
		where, args = append(where, "version_id = ?"), append(args, q.VersionID)
	}
	query := `SELECT ` + quarantineCols + ` FROM quarantine WHERE ` + strings.Join(where, " AND ") + ` ORDER BY at DESC, lsn DESC`
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return queryAll(ctx, r.q, scanQuarantine, query, args...)
}

// AgentOutcomes counts an agent's write outcomes since a time: all of them,
// and those a contradiction decided.
func (r *ReadTx) AgentOutcomes(ctx context.Context, agent string, since time.Time) (total, contradictions int, err error) {
	err = r.q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CAST(reason IN ('CONTRADICTION', 'SEMANTIC_CONFLICT', 'STRUCTURAL_CONFLICT') AS INT)), 0)
		FROM write_outcomes WHERE agent = ? AND at >= ?`, agent, ms(since)).Scan(&total, &contradictions)
	return total, contradictions, err
}

// ActiveWrittenBy returns the ACTIVE versions an agent created since a time.
func (r *ReadTx) ActiveWrittenBy(ctx context.Context, agent string, since time.Time) ([]memgov.Version, error) {
	return r.queryVersions(ctx, `SELECT `+versionCols+` FROM versions WHERE created_by = ? AND created_at >= ? AND state = 'ACTIVE' ORDER BY created_lsn`, agent, ms(since))
}
