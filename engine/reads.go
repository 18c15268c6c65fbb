package engine

import (
	"context"
	"errors"

	"github.com/memgov/memgov"
)

// Version returns one version by id, whatever its state: the review service
// reads the draft a review holds and the ACTIVE version it would replace.
// Callers decide what of it a person may see.
func (e *Engine) Version(ctx context.Context, id string) (memgov.Version, error) {
	var v memgov.Version
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		v, err = tx.Version(ctx, id)
		return err
	})
	return v, err
}

// ItemByKey returns the item of a memoryRef with the given key.
func (e *Engine) ItemByKey(ctx context.Context, ref, key string) (memgov.Item, error) {
	var it memgov.Item
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		it, err = tx.ItemByKey(ctx, ref, key)
		return err
	})
	return it, err
}

// DriftEvent returns one drift episode by id, open or acknowledged.
func (e *Engine) DriftEvent(ctx context.Context, id string) (memgov.DriftEvent, error) {
	var ev memgov.DriftEvent
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		var err error
		ev, err = tx.DriftEvent(ctx, id)
		return err
	})
	return ev, err
}

// Versions returns the versions with the given ids, read in one snapshot;
// an id with no version is left out.
func (e *Engine) Versions(ctx context.Context, ids []string) (map[string]memgov.Version, error) {
	out := make(map[string]memgov.Version, len(ids))
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, id := range ids {
			v, err := tx.Version(ctx, id)
			if errors.Is(err, memgov.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out[id] = v
		}
		return nil
	})
	return out, err
}

// VisibleCounts counts, for each memoryRef, the versions a read returns now:
// ACTIVE and not past their TTL (what `memgov list` prints).
func (e *Engine) VisibleCounts(ctx context.Context, refs []string) (map[string]int, error) {
	out := make(map[string]int, len(refs))
	now := e.Now()
	err := e.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, ref := range refs {
			vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: now})
			if err != nil {
				return err
			}
			out[ref] = len(vs)
		}
		return nil
	})
	return out, err
}
