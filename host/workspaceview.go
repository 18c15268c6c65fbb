package host

import (
	"context"
	"sort"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/scope"
)

// The copy-on-write view of a workspace (host.Service.CreateWorkspace): a
// read of a workspace ref sees the base's visible entries as of the
// workspace's opening, overlaid by the workspace's own writes; a key the
// workspace removed is hidden.

// workspaceFor reports the open or submitted workspace whose ref is ref.
func workspaceFor(ctx context.Context, tx memgov.ReadTx, ref string) (memgov.Workspace, bool) {
	r, err := scope.Parse(ref)
	if err != nil || len(r.Namespace) != 2 || r.Namespace[0] != "ws" {
		return memgov.Workspace{}, false
	}
	ws, found, err := tx.WorkspaceByRef(ctx, ref)
	if err != nil || !found {
		return memgov.Workspace{}, false
	}
	return ws, true
}

// Active is tx.Active with the copy-on-write overlay of workspaces: the
// base snapshot at the workspace's opening, overlaid by its own writes.
// Every read of a memoryRef's ACTIVE versions goes through it (the engine
// gives it to the baselines service too).
func Active(ctx context.Context, tx memgov.ReadTx, q memgov.ActiveQuery) ([]memgov.Version, error) {
	ws, ok := workspaceFor(ctx, tx, q.MemoryRef)
	if !ok {
		return tx.Active(ctx, q)
	}
	written, removed, err := tx.WorkspaceTouched(ctx, ws.Ref)
	if err != nil {
		return nil, err
	}
	baseAt := ws.BaseLSN
	if q.AtLSN > 0 && q.AtLSN < baseAt {
		baseAt = q.AtLSN
	}
	base, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.BaseRef, Tag: q.Tag, AtLSN: baseAt, Now: q.Now})
	if err != nil {
		return nil, err
	}
	own, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.Ref, Tag: q.Tag, AtLSN: q.AtLSN, Now: q.Now})
	if err != nil {
		return nil, err
	}
	out := make([]memgov.Version, 0, len(base)+len(own))
	for _, v := range base {
		if !written[v.Key] && !removed[v.Key] {
			out = append(out, v)
		}
	}
	out = append(out, own...)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	if q.AfterKey != "" {
		i := sort.Search(len(out), func(i int) bool { return out[i].Key > q.AfterKey })
		out = out[i:]
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// headView is the visible version of ref/key with the workspace overlay;
// found is false when nothing is visible.
func headView(ctx context.Context, tx memgov.ReadTx, ref, key string, now time.Time) (memgov.Version, bool, error) {
	if ws, ok := workspaceFor(ctx, tx, ref); ok {
		written, removed, err := tx.WorkspaceTouched(ctx, ws.Ref)
		if err != nil {
			return memgov.Version{}, false, err
		}
		if !written[key] {
			if removed[key] {
				return memgov.Version{}, false, nil
			}
			vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.BaseRef, AtLSN: ws.BaseLSN, Now: now})
			if err != nil {
				return memgov.Version{}, false, err
			}
			for _, v := range vs {
				if v.Key == key {
					return v, true, nil
				}
			}
			return memgov.Version{}, false, nil
		}
	}
	item, err := tx.ItemByKey(ctx, ref, key)
	if isNotFound(err) || (err == nil && item.Head == "") {
		return memgov.Version{}, false, nil
	}
	if err != nil {
		return memgov.Version{}, false, err
	}
	v, err := tx.Version(ctx, item.Head)
	if isNotFound(err) {
		return memgov.Version{}, false, nil
	}
	if err != nil {
		return memgov.Version{}, false, err
	}
	if v.State != memgov.Active || v.ExpiredAt(now) || v.MemoryRef != ref {
		return memgov.Version{}, false, nil
	}
	return v, true, nil
}
