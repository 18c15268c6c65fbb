package engine

import (
	"context"
	"time"
)

// BaselineReader reads what baselines and drift detection compare: approved
// baselines, each memoryRef's op log of PUT/DEL operations (agent-manifest
// spec §3.2.6.2) with its head and checkpoints, the memory map materialised from
// the versions and the one folded from the op log, the cached snapshot hash,
// the marks of rows changed outside the log, drift episodes and sessions.
type BaselineReader interface {
	// Baseline returns ref's current baseline, the one recorded at the highest
	// LSN; a ref without one is ErrNotFound.
	Baseline(ctx context.Context, ref string) (Baseline, error)
	// BaselineByID returns the baseline with id; an unknown id is ErrNotFound.
	BaselineByID(ctx context.Context, id string) (Baseline, error)
	// MemHead returns the head of ref's op log; a ref without operations has
	// the zero head: MemoryRef set, TreeSize 0, the empty frontier and
	// merkle.EmptyRoot().
	MemHead(ctx context.Context, ref string) (MemHead, error)
	// LatestCheckpoint returns ref's op-log checkpoint with the highest
	// sequence number; a ref without one is ErrNotFound.
	LatestCheckpoint(ctx context.Context, ref string) (CheckpointRecord, error)
	// MemOps calls fn for every operation of ref's op log with
	// from <= Index < to, in index order; it stops at fn's first error.
	MemOps(ctx context.Context, ref string, from, to uint64, fn func(MemOp) error) error
	// MemoryMap calls fn for ref's materialised map: one row per ACTIVE
	// version not expired at now (ExpiresAt > now or none), its content as
	// Value ("null" when erased), in byte order of keys.
	MemoryMap(ctx context.Context, ref string, now time.Time, fn func(MapRow) error) error
	// FoldMap calls fn for the left fold of the first size operations of
	// ref's op log (a key's last operation wins; DEL removes it), without the
	// rows expired at now, in byte order of keys; size beyond the log folds
	// the whole log.
	FoldMap(ctx context.Context, ref string, size uint64, now time.Time, fn func(MapRow) error) error
	// Dirty reports whether a version row of ref was inserted or changed
	// other than by applying a log entry since ref's marks were last cleared.
	Dirty(ctx context.Context, ref string) (bool, error)
	// StateCache returns the snapshot hash last stored for ref with
	// PutStateCache; found is false when none was.
	StateCache(ctx context.Context, ref string) (c StateCache, found bool, err error)
	// OpenDrift returns ref's unacknowledged drift episode (the latest, by
	// LSN); a ref without one is ErrNotFound.
	OpenDrift(ctx context.Context, ref string) (DriftEvent, error)
	// DriftEvent returns the drift episode with id or, for 4 to 35
	// characters, the one episode whose id has that prefix; none is
	// ErrNotFound, a prefix shared by several is ErrInvalid.
	DriftEvent(ctx context.Context, id string) (DriftEvent, error)
	// DriftEvents returns the drift episodes of q.MemoryRef ("": every ref),
	// only unacknowledged ones with q.OpenOnly, newest (highest LSN) first, at
	// most q.Limit (0: all).
	DriftEvents(ctx context.Context, q DriftQuery) ([]DriftEvent, error)
	// OpenSession returns ref's session that has started and not ended (the
	// latest, by start LSN); a ref without one is ErrNotFound.
	OpenSession(ctx context.Context, ref string) (MemSession, error)
}

// BaselineWriter keeps the two non-logged records of baselines: the cached
// snapshot hash and the dirty marks.
type BaselineWriter interface {
	// PutStateCache stores c as the snapshot hash of c.MemoryRef, replacing
	// the previous one; StateCache returns it field for field.
	PutStateCache(ctx context.Context, c StateCache) error
	// ClearDirty forgets every dirty mark of ref, once verification showed
	// that its materialised memory equals the fold of its op log.
	ClearDirty(ctx context.Context, ref string) error
}
