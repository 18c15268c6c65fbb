package engine

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
)

// SnapshotHashAt returns the snapshot_hash of ref's memory map as it stands
// at at, reading only: unlike SnapshotHash it appends no EXPIRE entry for
// what is due (an item past its expiry at at is left out of the map all the
// same). Two stores holding the same log give the same hash for the same at.
func (e *Engine) SnapshotHashAt(ctx context.Context, ref string, at time.Time, alg canon.Algorithm) (SnapshotInfo, error) {
	if alg == "" {
		alg = canon.SHA256
	}
	info := SnapshotInfo{MemoryRef: ref}
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if info.LSN, err = tx.LogSize(ctx); err != nil {
			return err
		}
		sc, err := e.stateHash(ctx, tx, ref, at.UTC().Truncate(time.Millisecond), alg, nil, false)
		if err != nil {
			return err
		}
		info.Hash, info.Items, info.Bytes = sc.Hash, sc.Items, sc.Bytes
		return nil
	})
	return info, err
}
