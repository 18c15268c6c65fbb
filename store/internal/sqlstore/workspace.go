package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// This file stores what workspaces (spec §12.8.4) add to the workspaces table of
// 0007: ids, names, removed keys and the reviews of merge requests, all
// derived from WORKSPACE entries by recordWorkspace, which apply.go runs
// after applyWorkspace (lifecycle.go) has kept the status.

// recordWorkspace records what a WORKSPACE entry adds beyond its status
// (applyWorkspace): the id and name it opens with, removed keys, and the
// reviews of a submitted merge request.
func recordWorkspace(ctx context.Context, q querier, e *oplog.Entry) error {
	d, err := oplog.DecodeData[oplog.WorkspaceData](e)
	if err != nil {
		return err
	}
	switch d.Action {
	case "open":
		_, err = q.ExecContext(ctx, `UPDATE workspaces SET id = ?, name = ?, created_at = ? WHERE ref = ?`, d.ID, d.Name, ms(e.Time), e.MemoryRef)
	case "remove":
		_, err = q.ExecContext(ctx, `INSERT INTO workspace_removed (ref, key, lsn) VALUES (?,?,?) ON CONFLICT (ref, key) DO UPDATE SET lsn = excluded.lsn`,
			e.MemoryRef, d.Key, e.LSN)
	case "submit":
		var mr memgov.MergeRequest
		if err := json.Unmarshal(d.Request, &mr); err != nil {
			return fmt.Errorf("apply log entry %d: merge request: %w", e.LSN, err)
		}
		for _, c := range mr.Changes {
			if c.ReviewID == "" {
				continue
			}
			if _, err := q.ExecContext(ctx, `INSERT INTO workspace_reviews (review_id, ref, key, kind) VALUES (?,?,?,?)`, c.ReviewID, e.MemoryRef, c.Key, c.Kind); err != nil {
				return wrapApply(e, err)
			}
		}
	}
	return wrapApply(e, err)
}

const wsCols = `id, name, ref, base_ref, owner, base_lsn, status, request, decided_by, created_at`

func scanWorkspace(row Scanner) (memgov.Workspace, error) {
	var (
		w   memgov.Workspace
		req string
		at  int64
	)
	err := row.Scan(&w.ID, &w.Name, &w.Ref, &w.BaseRef, &w.Owner, &w.BaseLSN, &w.Status, &req, &w.DecidedBy, &at)
	w.Request, w.CreatedAt = json.RawMessage(req), fromMS(at)
	return w, err
}

func (r *ReadTx) WorkspaceByID(ctx context.Context, id string) (memgov.Workspace, error) {
	w, err := scanWorkspace(r.q.QueryRowContext(ctx, `SELECT `+wsCols+` FROM workspaces WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return w, fmt.Errorf("%w: no workspace %s", memgov.ErrNotFound, id)
	}
	return w, err
}

func (r *ReadTx) WorkspaceByRef(ctx context.Context, ref string) (memgov.Workspace, bool, error) {
	w, err := scanWorkspace(r.q.QueryRowContext(ctx, `SELECT `+wsCols+` FROM workspaces WHERE ref = ?`, ref))
	if errors.Is(err, sql.ErrNoRows) {
		return w, false, nil
	}
	return w, err == nil, err
}

func (r *ReadTx) WorkspaceList(ctx context.Context, tenant string) ([]memgov.Workspace, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+wsCols+` FROM workspaces WHERE ?1 IN ('', '*') OR ref `+r.q.dialect().Like+` ?2 ESCAPE '\' ORDER BY created_at, ref`,
		tenant, likePrefix(tenant+"/"))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []memgov.Workspace{}
	for rows.Next() {
		w, err := scanWorkspace(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

func likePrefix(s string) string {
	return likePattern(s)[1:]
}

func (r *ReadTx) WorkspaceTouched(ctx context.Context, ref string) (map[string]bool, map[string]bool, error) {
	written, removed := map[string]bool{}, map[string]bool{}
	rows, err := r.q.QueryContext(ctx, `SELECT key FROM items WHERE memory_ref = ?`, ref)
	if err != nil {
		return nil, nil, err
	}
	keys, err := scanStrings(rows)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range keys {
		written[k] = true
	}
	rows, err = r.q.QueryContext(ctx, `SELECT key FROM workspace_removed WHERE ref = ?`, ref)
	if err != nil {
		return nil, nil, err
	}
	if keys, err = scanStrings(rows); err != nil {
		return nil, nil, err
	}
	for _, k := range keys {
		removed[k] = true
	}
	return written, removed, nil
}

func (r *ReadTx) WorkspaceOfReview(ctx context.Context, reviewID string) (string, string, string, bool, error) {
	var ref, key, kind string
	err := r.q.QueryRowContext(ctx, `SELECT ref, key, kind FROM workspace_reviews WHERE review_id = ?`, reviewID).Scan(&ref, &key, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", "", false, nil
	}
	return ref, key, kind, err == nil, err
}

func (r *ReadTx) WorkspaceReviewCounts(ctx context.Context, ref string) (int, int, error) {
	var open, approved int
	err := r.q.QueryRowContext(ctx, `SELECT COALESCE(SUM(CAST(rv.status IN ('PENDING', 'ESCALATED') AS INT)), 0), COALESCE(SUM(CAST(rv.status = 'APPROVED' AS INT)), 0)
		FROM workspace_reviews w JOIN reviews rv ON rv.id = w.review_id WHERE w.ref = ?`, ref).Scan(&open, &approved)
	return open, approved, err
}
