package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// The read API: every read of memory names its reader (memgov.Reader), the
// local owner of the database or a registered principal, and authz bounds
// it (authz.Reading: the tenant, the RBAC matrix, clearance and domains).
// Read, Get and History below, the other reads of reads.go and links.go,
// and every MemoryAdapter call (List, Get, Search) go through the same two
// steps: reading resolves the reader, authz.Checker.Visible filters.

// reading resolves r for a read: the owner, or the principal r names. A
// principal memgov does not know is ErrUnauthorized, naming it.
func (s *Service) reading(ctx context.Context, r memgov.Reader) (authz.Reading, error) {
	if r.IsOwner() {
		return authz.OwnerReading, nil
	}
	var p memgov.Principal
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, r.ID())
		return err
	})
	if err != nil {
		return authz.Reading{}, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, r.ID())
	}
	return authz.ReadingOf(p), nil
}

// outsideTenant is the refusal of a read of another tenant's memory: it
// names the reader's own tenant, never the one asked for.
func outsideTenant(rd authz.Reading) error {
	return fmt.Errorf("%w: %s belongs to tenant %s", memgov.ErrForbidden, rd.Principal.ID, rd.Principal.Tenant)
}

// ScopedSnapshot is a read as a reader: only what it may see, and the id
// of the retrieval for usage feedback (memgov feedback).
type ScopedSnapshot struct {
	memgov.Snapshot
	RetrievalID string `json:"retrieval_id,omitempty"`
	Hidden      int    `json:"hidden"` // entries the reader may not see
}

// Read returns the ACTIVE, unexpired versions of a memoryRef, now or at a
// past log position, that r may see. A malformed ref reads as empty: it
// never names data. A principal reads only memory of a tenant it governs,
// and every entry passes authz's Visible; its reads of the current state
// are counted for relevance decay (access reinforcement) and recorded as a
// retrieval for precision and staleness metrics. Reads are not log
// entries: they change no memory. They cost one small write transaction
// per call, not per entry. The owner's reads are not recorded.
func (s *Service) Read(ctx context.Context, r memgov.Reader, q memgov.ReadQuery) (ScopedSnapshot, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return ScopedSnapshot{}, err
	}
	if !s.authz.ReadsTenant(rd, tenantOf(q.MemoryRef)) {
		return ScopedSnapshot{}, outsideTenant(rd)
	}
	snap, err := s.read(ctx, q)
	if err != nil || rd.Owner {
		return ScopedSnapshot{Snapshot: snap}, err
	}
	out := ScopedSnapshot{Snapshot: snap}
	kept, hidden := s.visibleOnly(rd, snap.Versions)
	out.Versions, out.Hidden = kept, hidden
	if q.AtLSN == 0 && q.AtTime.IsZero() {
		out.RetrievalID, err = s.recordRead(ctx, rd.Principal.ID, q.MemoryRef, kept)
	}
	return out, err
}

// Get returns the version of ref/key visible now, or ErrNotFound; to a
// principal that may not see it, ErrForbidden. A principal's read is
// recorded.
func (s *Service) Get(ctx context.Context, r memgov.Reader, ref, key string) (memgov.Version, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return memgov.Version{}, err
	}
	if !s.authz.ReadsTenant(rd, tenantOf(ref)) {
		return memgov.Version{}, outsideTenant(rd)
	}
	v, err := s.get(ctx, ref, key)
	if err != nil || rd.Owner {
		return v, err
	}
	if err := s.authz.Visible(rd, v); err != nil {
		return memgov.Version{}, err
	}
	_, err = s.recordRead(ctx, rd.Principal.ID, ref, []memgov.Version{v})
	return v, err
}

// History returns the item itemID and those of its versions r may see,
// newest first. A principal needs the matrix's read right on the item.
func (s *Service) History(ctx context.Context, r memgov.Reader, itemID string) (memgov.Item, []memgov.Version, error) {
	rd, err := s.reading(ctx, r)
	if err != nil {
		return memgov.Item{}, nil, err
	}
	item, vs, err := s.history(ctx, itemID)
	if err != nil || rd.Owner {
		return item, vs, err
	}
	if err := s.authz.ReadsItem(rd, item.MemoryRef, item.Layer); err != nil {
		return memgov.Item{}, nil, err
	}
	kept, _ := s.visibleOnly(rd, vs)
	return item, kept, nil
}

// recordRead records the versions principal read of ref as one retrieval
// and returns its id ("" for an empty read, which records nothing).
func (s *Service) recordRead(ctx context.Context, principal, ref string, vs []memgov.Version) (string, error) {
	if len(vs) == 0 {
		return "", nil
	}
	now := s.now()
	id := oplog.NewID()
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		ids := make([]string, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		return tx.RecordRead(ctx, id, principal, ref, now, ids)
	})
	return id, err
}

// Feedback records which items of a retrieval were used (cited, reasoned
// with): the usage feedback behind retrieval precision (spec §12.12.4) and impact(m)
// of relevance decay (spec §12.7.2). It returns how many of used were in the retrieval.
func (s *Service) Feedback(ctx context.Context, retrievalID string, usedItems []string) (int, error) {
	var n int
	err := s.store.Update(ctx, func(tx memgov.Tx) (err error) {
		n, err = tx.RecordFeedback(ctx, retrievalID, usedItems, s.now())
		return err
	})
	return n, err
}

// visibleOnly keeps the versions authz lets rd see and counts the others.
// It is the one read rule: Read, Get, History, Links and every
// MemoryAdapter read (List, Get, Search) filter through authz's Visible.
func (s *Service) visibleOnly(rd authz.Reading, vs []memgov.Version) ([]memgov.Version, int) {
	kept := vs[:0]
	hidden := 0
	for _, v := range vs {
		if s.authz.Visible(rd, v) == nil {
			kept = append(kept, v)
		} else {
			hidden++
		}
	}
	return kept, hidden
}

// tenantOf is the tenant of a memoryRef: its first segment.
func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}
