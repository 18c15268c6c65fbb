package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/scope"
)

// Read returns the ACTIVE, unexpired versions of a memoryRef, now or at a past
// log position. A malformed ref reads as empty: it never names data.
func (e *Engine) Read(ctx context.Context, q memgov.ReadQuery) (memgov.Snapshot, error) {
	snap := memgov.Snapshot{MemoryRef: q.MemoryRef, Versions: []memgov.Version{}}
	if _, err := scope.Parse(q.MemoryRef); err != nil {
		return snap, nil
	}
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		at, now := q.AtLSN, e.Now()
		switch {
		case !q.AtTime.IsZero():
			if at, err = tx.LSNAt(ctx, q.AtTime); err != nil {
				return err
			}
			now = q.AtTime.UTC()
		case at > 0:
			if at > size {
				return fmt.Errorf("%w: LSN %d is beyond the end of the log (%d entries)", memgov.ErrInvalid, at, size)
			}
			if now, err = tx.TimeOf(ctx, at); err != nil {
				return err
			}
		default:
			at = size
		}
		snap.LSN, snap.Time = at, now
		if at == 0 {
			return nil
		}
		vs, err := activeView(ctx, tx, memgov.ActiveQuery{MemoryRef: q.MemoryRef, Tag: q.Tag, AtLSN: at, Now: now, Limit: q.Limit, AfterKey: q.AfterKey})
		if err != nil {
			return err
		}
		snap.Versions = vs
		return nil
	})
	return snap, err
}

// Get returns the visible version of ref/key now, or ErrNotFound.
func (e *Engine) Get(ctx context.Context, ref, key string) (memgov.Version, error) {
	if _, err := scope.Parse(ref); err != nil {
		return memgov.Version{}, memgov.ErrNotFound
	}
	var v memgov.Version
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		if _, ok := workspaceFor(ctx, tx, ref); ok {
			var found bool
			var err error
			if v, found, err = headView(ctx, tx, ref, key, e.Now()); err == nil && !found {
				err = memgov.ErrNotFound
			}
			return err
		}
		item, err := tx.ItemByKey(ctx, ref, key)
		if err != nil {
			return err
		}
		if item.Head == "" {
			return memgov.ErrNotFound
		}
		if v, err = tx.Version(ctx, item.Head); err != nil {
			return err
		}
		if v.State != memgov.Active || v.ExpiredAt(e.Now()) {
			return memgov.ErrNotFound
		}
		return nil
	})
	return v, err
}

// History returns every version of an item, newest first.
func (e *Engine) History(ctx context.Context, itemID string) (memgov.Item, []memgov.Version, error) {
	var (
		item memgov.Item
		vs   []memgov.Version
	)
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if item, err = tx.Item(ctx, itemID); err != nil {
			return err
		}
		vs, err = tx.History(ctx, itemID)
		return err
	})
	return item, vs, err
}

// Item returns an item by id.
func (e *Engine) Item(ctx context.Context, id string) (memgov.Item, error) {
	var it memgov.Item
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		it, err = tx.Item(ctx, id)
		return err
	})
	return it, err
}

// Refs lists the memoryRefs that hold items.
func (e *Engine) Refs(ctx context.Context) ([]memgov.RefSummary, error) {
	var rs []memgov.RefSummary
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		rs, err = tx.Refs(ctx)
		return err
	})
	return rs, err
}

// tenantOf is the tenant of a memoryRef: its first segment.
func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}
