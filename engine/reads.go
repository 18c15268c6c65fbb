package engine

import "context"

// Version returns one version by id, whatever its state: the review service
// reads the draft a review holds and the ACTIVE version it would replace.
// Callers decide what of it a person may see.
func (e *Engine) Version(ctx context.Context, id string) (Version, error) {
	var v Version
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		v, err = tx.Version(ctx, id)
		return err
	})
	return v, err
}

// ItemByKey returns the item of a memoryRef with the given key.
func (e *Engine) ItemByKey(ctx context.Context, ref, key string) (Item, error) {
	var it Item
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		it, err = tx.ItemByKey(ctx, ref, key)
		return err
	})
	return it, err
}

// DriftEvent returns one drift episode by id, open or acknowledged.
func (e *Engine) DriftEvent(ctx context.Context, id string) (DriftEvent, error) {
	var ev DriftEvent
	err := e.store.View(ctx, func(tx ReadTx) error {
		var err error
		ev, err = tx.DriftEvent(ctx, id)
		return err
	})
	return ev, err
}
