package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/memgov/memgov"
)

// The store wakes waiters across processes with PostgreSQL's LISTEN and
// NOTIFY. Each store listens on one dedicated connection of its own (outside
// the pool, so that listening never holds a pooled connection), opened at the
// first Subscribe. A goroutine owns that connection: it waits for
// notifications and hands each to the subscribers of its channel; a
// Subscribe to a channel not yet listened on interrupts the wait (a context
// cancelled, which leaves the connection open), and the goroutine runs
// LISTEN before waiting again. When the connection fails every subscriber's
// channel is closed (they fall back to polling) and the next Subscribe
// connects again.

var _ memgov.Notifier = (*Store)(nil)

// listener is the store's listening connection and its subscribers.
type listener struct {
	conn *pgx.Conn
	ctx  context.Context // ends when the store closes or the connection fails
	stop context.CancelFunc
	done chan struct{} // closed when the goroutine has returned

	mu        sync.Mutex
	subs      map[string]map[*subscription]struct{}
	listening map[string]bool
	pending   []listenRequest
	interrupt context.CancelFunc // ends the current wait; nil while not waiting
	dead      bool               // the goroutine has ended: subscribe anew
}

type listenRequest struct {
	channel string
	done    chan error
}

type subscription struct {
	c    chan struct{}
	once sync.Once
}

func (s *subscription) close() { s.once.Do(func() { close(s.c) }) }

// Subscribe implements memgov.Notifier: it returns once LISTEN channel has
// run on the store's listening connection.
func (s *Store) Subscribe(ctx context.Context, channel string) (<-chan struct{}, func(), error) {
	if channel == "" {
		return nil, nil, errors.New("postgres: subscribe needs a channel name")
	}
	l, err := s.listenConn(ctx)
	if err != nil {
		return nil, nil, err
	}
	sub := &subscription{c: make(chan struct{}, 1)}
	l.mu.Lock()
	if l.dead {
		l.mu.Unlock()
		return nil, nil, errors.New("postgres: the listening connection closed; subscribe again")
	}
	if l.subs[channel] == nil {
		l.subs[channel] = map[*subscription]struct{}{}
	}
	l.subs[channel][sub] = struct{}{}
	var wait chan error
	if !l.listening[channel] {
		wait = make(chan error, 1)
		l.pending = append(l.pending, listenRequest{channel: channel, done: wait})
		if l.interrupt != nil {
			l.interrupt()
		}
	}
	l.mu.Unlock()
	cancel := func() {
		l.mu.Lock()
		delete(l.subs[channel], sub)
		l.mu.Unlock()
		sub.close()
	}
	if wait != nil {
		select {
		case err = <-wait:
		case <-ctx.Done():
			err = ctx.Err()
		case <-l.done:
			err = errors.New("postgres: the listening connection closed")
		}
		if err != nil {
			cancel()
			return nil, nil, err
		}
	}
	stop := context.AfterFunc(ctx, cancel)
	return sub.c, func() { stop(); cancel() }, nil
}

// Notify implements memgov.Notifier with pg_notify, on a pooled connection.
func (s *Store) Notify(ctx context.Context, channel string) error {
	_, err := s.db.ExecContext(ctx, `SELECT pg_notify($1, '')`, channel)
	return mapErr(err)
}

// listenConn returns the store's listener, connecting it when there is none
// or the last one failed.
func (s *Store) listenConn(ctx context.Context) (*listener, error) {
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	if s.listen.closed {
		return nil, errors.New("postgres: the store is closed")
	}
	if l := s.listen.l; l != nil {
		l.mu.Lock()
		dead := l.dead
		l.mu.Unlock()
		if !dead {
			return l, nil
		}
	}
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("connect to %s to listen for notifications: %w", s.url, err)
	}
	lctx, stop := context.WithCancel(context.Background())
	l := &listener{conn: conn, ctx: lctx, stop: stop, done: make(chan struct{}),
		subs: map[string]map[*subscription]struct{}{}, listening: map[string]bool{}}
	s.listen.l = l
	go l.run()
	return l, nil
}

// run owns the listening connection until the store closes or it fails.
func (l *listener) run() {
	defer close(l.done)
	defer l.conn.Close(context.Background())
	for {
		l.mu.Lock()
		pending := l.pending
		l.pending = nil
		var wait context.Context
		if len(pending) == 0 {
			var cancel context.CancelFunc
			wait, cancel = context.WithCancel(l.ctx)
			l.interrupt = cancel
		}
		l.mu.Unlock()
		for _, r := range pending {
			_, err := l.conn.Exec(l.ctx, "LISTEN "+pgx.Identifier{r.channel}.Sanitize())
			if err == nil {
				l.mu.Lock()
				l.listening[r.channel] = true
				l.mu.Unlock()
			}
			r.done <- err
			if err != nil && l.conn.IsClosed() {
				l.fail()
				return
			}
		}
		if wait == nil {
			continue
		}
		n, err := l.conn.WaitForNotification(wait)
		l.mu.Lock()
		l.interrupt()
		l.interrupt = nil
		l.mu.Unlock()
		if err != nil {
			if l.ctx.Err() == nil && wait.Err() != nil && !l.conn.IsClosed() {
				continue // interrupted to LISTEN on a new channel
			}
			l.fail()
			return
		}
		l.mu.Lock()
		for sub := range l.subs[n.Channel] {
			select {
			case sub.c <- struct{}{}:
			default: // one wake-up is already waiting: they coalesce
			}
		}
		l.mu.Unlock()
	}
}

// fail ends the listener: every subscriber's channel is closed, and the
// requests still pending are refused.
func (l *listener) fail() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dead = true
	for _, subs := range l.subs {
		for sub := range subs {
			sub.close()
		}
	}
	l.subs = map[string]map[*subscription]struct{}{}
	for _, r := range l.pending {
		r.done <- errors.New("postgres: the listening connection closed")
	}
	l.pending = nil
}

// listenState is the Store's listener, behind its own lock.
type listenState struct {
	mu     sync.Mutex
	l      *listener
	closed bool
}

// closeListener stops the listening connection; Close calls it.
func (s *Store) closeListener() {
	s.listen.mu.Lock()
	l := s.listen.l
	s.listen.closed = true
	s.listen.mu.Unlock()
	if l != nil {
		l.stop()
		<-l.done
	}
}
