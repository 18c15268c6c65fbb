package memgov

import "context"

// Notifier is what a store shared by several memgov processes offers so that
// one process can wake another's waiters at once (PostgreSQL's LISTEN and
// NOTIFY). It is optional: a store without it (SQLite, one process) leaves
// waiters to poll the store.
//
// A notification carries no data that matters to correctness: a waiter woken
// reads the store again, and one not woken (a lost connection, a process
// killed between its commit and its Notify) still finds the change at its
// next poll.
type Notifier interface {
	// Subscribe starts listening on channel and returns once the listening
	// is in place, so that every Notify that starts after Subscribe returns
	// is delivered. The channel returned receives a value for each
	// notification (several close together may be delivered as one); it is
	// closed when cancel is called, when ctx ends, or when the listening
	// fails (the subscriber falls back to polling).
	Subscribe(ctx context.Context, channel string) (c <-chan struct{}, cancel func(), err error)
	// Notify wakes every subscriber of channel in every process on the
	// store, this one included.
	Notify(ctx context.Context, channel string) error
}

// ChannelReviews is the notification channel of review decisions: an engine
// notifies it after committing an approval or a rejection, and a SYNC_BLOCK
// writer waiting for its review listens on it.
const ChannelReviews = "memgov_reviews"

// ChannelErasures is the notification channel of erasures: an engine
// notifies it after committing an erasure, and every engine on the store
// empties its in-memory caches of texts (search indexes, the judge's) on it.
const ChannelErasures = "memgov_erasures"
