package engine

import (
	"context"
	"time"
)

// ItemReader reads memory items and their versions: by identity, by key, an
// item's history, and the versions visible now or at a past LSN.
type ItemReader interface {
	// Item returns the item with id; an unknown id is ErrNotFound.
	Item(ctx context.Context, id string) (Item, error)
	// ItemByKey returns the item of ref with key (in any state, including an
	// item with no head version); none is ErrNotFound.
	ItemByKey(ctx context.Context, ref, key string) (Item, error)
	// Version returns the version with id in whatever state it is; an unknown
	// id is ErrNotFound.
	Version(ctx context.Context, id string) (Version, error)
	// History returns every version of an item, newest (highest Seq) first;
	// an unknown item has an empty history.
	History(ctx context.Context, itemID string) ([]Version, error)
	// Active returns q.MemoryRef's versions that were ACTIVE at q.AtLSN
	// (ActiveFrom <= AtLSN and ActiveTo either 0 or > AtLSN; AtLSN 0: those
	// ACTIVE now) that have not expired at q.Now (when set), with q.Tag among
	// their tags (when set) and a key after q.AfterKey, ordered by key (byte
	// order), at most q.Limit (0: all).
	Active(ctx context.Context, q ActiveQuery) ([]Version, error)
	// Refs lists every memoryRef that has items, ordered by memoryRef, with
	// its number of items and of items that have a head version.
	Refs(ctx context.Context) ([]RefSummary, error)
	// DueExpiries returns the ACTIVE versions of ref whose TTL has passed at
	// now (expires_at <= now), ordered by key, at most limit (0: all).
	DueExpiries(ctx context.Context, ref string, now time.Time, limit int) ([]Version, error)
	// IndexedVersions returns ref's ACTIVE versions (with all, ACTIVE and
	// SUPERSEDED ones) with their stored embeddings, newest (highest
	// CreatedLSN) first, at most limit.
	IndexedVersions(ctx context.Context, ref string, all bool, limit int) ([]IndexedVersion, error)
	// SearchStamp returns what changes whenever the versions of ref (their
	// states, contents or indexes) may have changed: the LSN of the last log
	// entry of ref and of the last erasure (0 when none).
	SearchStamp(ctx context.Context, ref string) (SearchStamp, error)
	// SearchChanges returns the items of ref that log entries after LSN
	// since name, or whose versions were created, became ACTIVE or stopped
	// being ACTIVE after it, with the ACTIVE and SUPERSEDED versions of those
	// items as IndexedVersions returns them (at most limit).
	SearchChanges(ctx context.Context, ref string, since int64, limit int) (items []string, versions []IndexedVersion, err error)
}

// SearchStamp marks the state of a memoryRef's versions (ReadTx.SearchStamp).
type SearchStamp struct {
	Ref    int64 // the LSN of the last log entry of the ref
	Erased int64 // the LSN of the last erasure, of any ref
}

// IndexedVersion is a version with its stored embedding (similar.Vector
// encoding; nil when the version was never indexed).
type IndexedVersion struct {
	Version
	Embedding []byte
}

// ActiveQuery selects visible versions.
type ActiveQuery struct {
	MemoryRef string
	Tag       string
	AtLSN     int64     // 0: the current state
	Now       time.Time // entries expired at this time are not returned
	Limit     int       // 0: no limit
	AfterKey  string    // keyset paging
}

// RefSummary counts the items of one memoryRef.
type RefSummary struct {
	MemoryRef string `json:"memory_ref"`
	Items     int    `json:"items"`
	Active    int    `json:"active"`
}
