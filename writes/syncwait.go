package writes

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// What an engine tells the engines of other processes. A store that several
// memgov processes share may offer memgov.Notifier (PostgreSQL's
// LISTEN/NOTIFY); the engine then notifies, after each commit:
//
//   - memgov.ChannelReviews when the transaction approved or rejected a
//     review. A SYNC_BLOCK writer waiting for its review listens there and
//     reads its review again at each notification. It still polls, at
//     SyncPollNotified, in case a notification is lost (a process killed
//     between its commit and its notification, a listening connection that
//     failed). Without a notifier it polls at the interval its caller asks
//     (SyncPoll).
//   - memgov.ChannelErasures when it erased: every engine empties its search
//     indexes and its judge's cached texts.
//
// The other in-memory state of an engine serves nothing another process can
// make stale: a search index is used only while the ref's search stamp, read
// in the same transaction as the search, is unchanged; a token, a principal,
// a review and its claim are read from the store at each use; the judge's
// caches are keyed by the text itself. The commit path's conflict marks
// (groupcommit.go) cover this process's writes; those of other processes are
// on the log, which the check reads, except the outcomes of their rejected
// writes, which are not logged: snapshot judging (Config.SnapshotGates) can
// let a write's rate limit miss another process's rejections made after its
// snapshot.

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
func (s *Service) SyncWaitStats() SyncWaitStats {
	return SyncWaitStats{Notified: s.waits.notified.Load(), Polled: s.waits.polled.Load()}
}

// reviewWakes listens for review decisions when the store can tell of them;
// it returns a nil channel (never ready) otherwise, or when listening fails.
func (s *Service) reviewWakes(ctx context.Context) (<-chan struct{}, func()) {
	if s.notifier == nil {
		return nil, func() {}
	}
	c, cancel, err := s.notifier.Subscribe(ctx, memgov.ChannelReviews)
	if err != nil {
		return nil, func() {}
	}
	return c, cancel
}

// appended is what a write transaction appended that the engines of other
// processes are told of once it commits.
type appended struct {
	decided bool // an approval or a rejection: SYNC_BLOCK waiters
	erased  bool // an erasure: every engine's caches of texts
}

func (a *appended) note(en *oplog.Entry) {
	switch en.Op {
	case oplog.Approve, oplog.Reject:
		a.decided = true
	case oplog.Erase:
		a.erased = true
	}
}

// notifyAppended tells every process's engines what a committed transaction
// appended. A lost notification costs a SYNC_BLOCK waiter one poll interval,
// never a decision; and an engine that misses an erasure notices it at its
// next search (searchCache.sawErasure).
func (s *Service) notifyAppended(ctx context.Context, a appended) {
	if s.notifier == nil || !a.decided && !a.erased {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if a.decided {
		_ = s.notifier.Notify(ctx, memgov.ChannelReviews)
	}
	if a.erased {
		_ = s.notifier.Notify(ctx, memgov.ChannelErasures)
	}
}

// erasureListener is an engine's subscription to erasures made by other
// processes: each empties the engine's search indexes and its judge's
// cached texts at once, so that no erased text stays in this process's
// memory until its next search.
type erasureListener struct {
	mu        sync.Mutex
	listening bool
	heard     func() // tests: told after each erasure heard
}

// ListenErasures subscribes to erasures, once, at the engine's first write
// or search, when the store can notify; again after the subscription
// ended (its connection failed).
func (s *Service) ListenErasures() {
	if s.notifier == nil {
		return
	}
	l := &s.erasures
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.listening {
		return
	}
	c, _, err := s.notifier.Subscribe(context.Background(), memgov.ChannelErasures)
	if err != nil {
		return // the next write or search tries again
	}
	l.listening = true
	heard := l.heard
	go func() {
		for range c {
			s.search.Forget()
			s.rules.Forget()
			if heard != nil {
				heard()
			}
		}
		l.mu.Lock()
		l.listening = false
		l.mu.Unlock()
	}()
}

// OnErasureHeard tells fn after each erasure notification from another
// process that the service acts on (tests wait for it). Set it before the
// service's first write.
func (s *Service) OnErasureHeard(fn func()) {
	s.erasures.mu.Lock()
	defer s.erasures.mu.Unlock()
	s.erasures.heard = fn
}
