package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/scope"
)

// The reads of items and versions by id, of memoryRefs and of pages, each
// for a reader (access.go). The owner reads them whole; a principal reads
// what authz lets it see.

// readOne reads one record for r in a read snapshot and lets check refuse
// it: the shape of Item, ItemByKey and Version. A read by a memoryRef (ref
// not "") of a tenant r may not read is refused before the store is read,
// so that the refusal is the same whether the record exists or not.
func readOne[T any](ctx context.Context, s *Service, r memgov.Reader, ref string, read func(memgov.ReadTx) (T, error), check func(authz.Reading, T) error) (T, error) {
	var zero T
	rd, err := s.reading(ctx, r)
	if err != nil {
		return zero, err
	}
	if ref != "" && !s.authz.ReadsTenant(rd, tenantOf(ref)) {
		return zero, outsideTenant(rd)
	}
	var out T
	if err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = read(tx)
		return err
	}); err != nil {
		return out, err
	}
	if err := check(rd, out); err != nil {
		return zero, err
	}
	return out, nil
}

// Item returns an item by id. A principal needs the matrix's read right on
// it.
func (s *Service) Item(ctx context.Context, r memgov.Reader, id string) (memgov.Item, error) {
	return readOne(ctx, s, r, "", func(tx memgov.ReadTx) (memgov.Item, error) { return tx.Item(ctx, id) }, s.readsItem)
}

// ItemByKey returns the item of a memoryRef with the given key. A principal
// needs the matrix's read right on it.
func (s *Service) ItemByKey(ctx context.Context, r memgov.Reader, ref, key string) (memgov.Item, error) {
	return readOne(ctx, s, r, ref, func(tx memgov.ReadTx) (memgov.Item, error) { return tx.ItemByKey(ctx, ref, key) }, s.readsItem)
}

// readsItem is authz's read cell for an item.
func (s *Service) readsItem(rd authz.Reading, it memgov.Item) error {
	return s.authz.ReadsItem(rd, it.MemoryRef, it.Layer)
}

// Version returns one version by id, whatever its state: the review service
// reads the draft a review holds and the ACTIVE version it would replace.
// To a principal that may not see it, it is ErrForbidden.
func (s *Service) Version(ctx context.Context, r memgov.Reader, id string) (memgov.Version, error) {
	return readOne(ctx, s, r, "", func(tx memgov.ReadTx) (memgov.Version, error) {
		v, err := tx.Version(ctx, id)
		if err == nil {
			err = readable(v)
		}
		return v, err
	}, s.authz.Visible)
}

// Versions returns the versions with the given ids that r may see, read in
// one snapshot; an id with no version, or one r may not see, is left out.
func (s *Service) Versions(ctx context.Context, r memgov.Reader, ids []string) (map[string]memgov.Version, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return nil, err
	}
	out := make(map[string]memgov.Version, len(ids))
	err = s.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, id := range ids {
			v, err := tx.Version(ctx, id)
			if errors.Is(err, memgov.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if err := readable(v); err != nil {
				return err
			}
			if s.authz.Visible(rd, v) == nil {
				out[id] = v
			}
		}
		return nil
	})
	return out, err
}

// Refs lists the memoryRefs that hold items, of the tenants r reads.
func (s *Service) Refs(ctx context.Context, r memgov.Reader) ([]memgov.RefSummary, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return nil, err
	}
	var rs []memgov.RefSummary
	err = s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		rs, err = tx.Refs(ctx)
		return err
	})
	if err != nil || rd.Owner {
		return rs, err
	}
	out := rs[:0]
	for _, x := range rs {
		if s.authz.ReadsTenant(rd, tenantOf(x.MemoryRef)) {
			out = append(out, x)
		}
	}
	return out, nil
}

// ActivePage returns a page of the versions of ref visible now, ordered by
// key: Read at the present, by the store's index of ACTIVE versions rather
// than by log position, for browsing a memoryRef of any size. A
// principal's page leaves out what it may not see; it is not recorded.
func (s *Service) ActivePage(ctx context.Context, r memgov.Reader, ref, afterKey string, limit int) (memgov.Snapshot, error) {
	snap := memgov.Snapshot{MemoryRef: ref, Versions: []memgov.Version{}}
	rd, err := s.reading(ctx, r)
	if err != nil {
		return snap, err
	}
	if !s.authz.ReadsTenant(rd, tenantOf(ref)) {
		return snap, outsideTenant(rd)
	}
	if _, err := scope.Parse(ref); err != nil {
		return snap, nil
	}
	err = s.store.View(ctx, func(tx memgov.ReadTx) error {
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		snap.LSN, snap.Time = size, s.now()
		vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: snap.Time, Limit: limit, AfterKey: afterKey})
		if err != nil {
			return err
		}
		if err := readable(vs...); err != nil {
			return err
		}
		snap.Versions, _ = s.visibleOnly(rd, vs)
		return nil
	})
	return snap, err
}

// VisibleCounts counts, for each memoryRef, the versions a read by r
// returns now: ACTIVE, not past their TTL and visible to r (what `memgov
// list` prints).
func (s *Service) VisibleCounts(ctx context.Context, r memgov.Reader, refs []string) (map[string]int, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(refs))
	now := s.now()
	err = s.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, ref := range refs {
			if !s.authz.ReadsTenant(rd, tenantOf(ref)) {
				out[ref] = 0
				continue
			}
			vs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: now})
			if err != nil {
				return err
			}
			kept, _ := s.visibleOnly(rd, vs)
			out[ref] = len(kept)
		}
		return nil
	})
	return out, err
}

// read is the snapshot of q.MemoryRef, unfiltered: Read's store read.
func (s *Service) read(ctx context.Context, q memgov.ReadQuery) (memgov.Snapshot, error) {
	snap := memgov.Snapshot{MemoryRef: q.MemoryRef, Versions: []memgov.Version{}}
	if _, err := scope.Parse(q.MemoryRef); err != nil {
		return snap, nil
	}
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		at, now := q.AtLSN, s.now()
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
		vs, err := Active(ctx, tx, memgov.ActiveQuery{MemoryRef: q.MemoryRef, Tag: q.Tag, AtLSN: at, Now: now, Limit: q.Limit, AfterKey: q.AfterKey})
		if err != nil {
			return err
		}
		snap.Versions = vs
		return readable(vs...)
	})
	return snap, err
}

// readable checks that the stored content of each version read is JSON: a
// corrupt row is an error naming it, never an entry read as empty text.
func readable(vs ...memgov.Version) error {
	for _, v := range vs {
		if _, err := v.ContentText(); err != nil {
			return err
		}
	}
	return nil
}

// get is the version of ref/key visible now, unfiltered, or ErrNotFound.
func (s *Service) get(ctx context.Context, ref, key string) (memgov.Version, error) {
	if _, err := scope.Parse(ref); err != nil {
		return memgov.Version{}, memgov.ErrNotFound
	}
	var v memgov.Version
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		if _, ok := workspaceFor(ctx, tx, ref); ok {
			var found bool
			var err error
			if v, found, err = headView(ctx, tx, ref, key, s.now()); err == nil && !found {
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
		if v.State != memgov.Active || v.ExpiredAt(s.now()) {
			return memgov.ErrNotFound
		}
		return readable(v)
	})
	return v, err
}

// history is every version of an item, newest first, unfiltered.
func (s *Service) history(ctx context.Context, itemID string) (memgov.Item, []memgov.Version, error) {
	var (
		item memgov.Item
		vs   []memgov.Version
	)
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if item, err = tx.Item(ctx, itemID); err != nil {
			return err
		}
		if vs, err = tx.History(ctx, itemID); err != nil {
			return err
		}
		return readable(vs...)
	})
	return item, vs, err
}
