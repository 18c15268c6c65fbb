package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// SYNC_BLOCK waits across processes. A store that several memgov processes
// share may offer memgov.Notifier (PostgreSQL's LISTEN/NOTIFY): the engine
// then notifies memgov.ChannelReviews after committing any approval or
// rejection, and a writer waiting for its review listens there, reading its
// review again at each notification. It still polls, at SyncPollNotified, in
// case a notification is lost (a process killed between its commit and its
// notification, a listening connection that failed). Without a notifier it
// polls at the interval its caller asks (SyncPoll).

// SyncPollNotified is how often a SYNC_BLOCK waiter that listens for
// notifications still reads its review, in case one was lost.
const SyncPollNotified = 5 * time.Second

// SyncWaitStats counts why SYNC_BLOCK waiters of this engine read their
// review again.
type SyncWaitStats struct {
	Notified int64 `json:"notified"` // woken by a notification
	Polled   int64 `json:"polled"`   // woken by the poll interval
}

type syncWaits struct {
	notified, polled atomic.Int64
}

// SyncWaitStats reports why this engine's SYNC_BLOCK waiters woke.
func (e *Engine) SyncWaitStats() SyncWaitStats {
	return SyncWaitStats{Notified: e.waits.notified.Load(), Polled: e.waits.polled.Load()}
}

// reviewWakes listens for review decisions when the store can tell of them;
// it returns a nil channel (never ready) otherwise, or when listening fails.
func (e *Engine) reviewWakes(ctx context.Context) (<-chan struct{}, func()) {
	if e.notifier == nil {
		return nil, func() {}
	}
	c, cancel, err := e.notifier.Subscribe(ctx, memgov.ChannelReviews)
	if err != nil {
		return nil, func() {}
	}
	return c, cancel
}

// decisionEntry reports whether an entry decides a review.
func decisionEntry(en *oplog.Entry) bool { return en.Op == oplog.Approve || en.Op == oplog.Reject }

// notifyDecided tells every process's waiters that a review was decided. A
// lost notification costs a waiter one poll interval, never a decision.
func (e *Engine) notifyDecided(ctx context.Context) {
	if e.notifier == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = e.notifier.Notify(ctx, memgov.ChannelReviews)
}
