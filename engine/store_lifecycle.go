package engine

import (
	"context"
	"time"
)

// LifecycleReader reads what garbage collection, erasure and write leases
// decide with.
type LifecycleReader interface {
	// GCScan returns up to limit items of layer that have a head version and
	// an id greater than afterID, by id, each with its head version, its
	// reads within window before now, its last read, its feedback impact and
	// why it is linked to an action (see Linked).
	GCScan(ctx context.Context, layer Layer, afterID string, limit int, now time.Time, window time.Duration) ([]GCItem, error)
	// GCPurgeable returns up to limit unpinned items, by id, that have no head
	// version because their last version EXPIRED at or before before and
	// that no purge entry has removed yet, each with ExpiredAt and Linked.
	GCPurgeable(ctx context.Context, before time.Time, limit int) ([]GCItem, error)
	// GCCursor returns the id after which the next GC scan of layer starts
	// ("" when none was set).
	GCCursor(ctx context.Context, layer Layer) (string, error)
	// Linked returns why an item is load-bearing for an action: cited as
	// evidence by another item's live version, awaiting a review, approved by
	// a person at its head, part of a rollback, or ACTIVE at a baseline's log
	// position; "" when none holds.
	Linked(ctx context.Context, itemID string) (string, error)
	// EraseMatches returns, once each, the items whose key, version content
	// or log payload (other than an ERASE entry's) contains any needle
	// (ASCII case-insensitively), and counts the log entries without an item
	// whose payload contains one.
	EraseMatches(ctx context.Context, needles []string) (items []string, unresolved int, err error)
	// DerivedItems returns, once each, the items derived from any of items:
	// merges of one of their versions and versions citing one of them as
	// MEMORY_ITEM evidence.
	DerivedItems(ctx context.Context, items []string) ([]string, error)
	// ItemEntries returns the LSNs of the log entries of items that still
	// have their payload, ascending within each item, items in the order
	// given.
	ItemEntries(ctx context.Context, items []string) ([]int64, error)
	// LeaseOf returns the write lease on resource ("memoryRef#key"), whether
	// live, expired or released; found is false when none was ever granted.
	LeaseOf(ctx context.Context, resource string) (l Lease, found bool, err error)
}

// LifecycleWriter keeps the lifecycle's non-logged state.
type LifecycleWriter interface {
	// SetGCCursor records the id after which the next GC scan of layer starts.
	SetGCCursor(ctx context.Context, layer Layer, after string) error
	// SecureDelete makes the store overwrite the bytes of every row deleted
	// after it in this transaction, so that erased content is not left in
	// free pages (Compact then removes it from the file and its journal).
	SecureDelete(ctx context.Context) error
}
