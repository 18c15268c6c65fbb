package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// The log reads: its size, pages of it newest first, single entries and
// the LSN of a moment. They read the log the audit verifies; they change
// nothing.

// LogSize returns the number of entries in the log: a cheap check for whether
// anything new was written.
func (s *Service) LogSize(ctx context.Context) (int64, error) {
	var n int64
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		n, err = tx.LogSize(ctx)
		return err
	})
	return n, err
}

// LogTail returns the newest entries written after afterLSN, newest first, at
// most limit of them (limit <= 0 means 50). LogTail(ctx, 0, n) is the page of
// the n most recent entries; a poller passes the highest LSN it has seen.
func (s *Service) LogTail(ctx context.Context, afterLSN int64, limit int) ([]oplog.Entry, error) {
	if limit <= 0 {
		limit = 50
	}
	var out []oplog.Entry
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		from := max(afterLSN+1, size-int64(limit)+1, 1)
		out, err = logRangeDesc(ctx, tx, from, size)
		return err
	})
	return out, err
}

// LogBefore returns up to limit entries older than beforeLSN, newest first:
// the page that follows a LogTail page when scrolling back through the log.
func (s *Service) LogBefore(ctx context.Context, beforeLSN int64, limit int) ([]oplog.Entry, error) {
	if limit <= 0 {
		limit = 50
	}
	to := beforeLSN - 1
	if to < 1 {
		return []oplog.Entry{}, nil
	}
	var out []oplog.Entry
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = logRangeDesc(ctx, tx, max(to-int64(limit)+1, 1), to)
		return err
	})
	return out, err
}

// LogEntryAt returns one log entry with its payload.
func (s *Service) LogEntryAt(ctx context.Context, lsn int64) (oplog.Entry, error) {
	var (
		out   oplog.Entry
		found bool
	)
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		return tx.LogRange(ctx, lsn, lsn, func(le *oplog.Entry) error {
			out, found = *le, true
			return nil
		})
	})
	if err == nil && !found {
		err = fmt.Errorf("%w: log entry %d", memgov.ErrNotFound, lsn)
	}
	return out, err
}

func logRangeDesc(ctx context.Context, tx memgov.ReadTx, from, to int64) ([]oplog.Entry, error) {
	out := make([]oplog.Entry, 0, max(to-from+1, 0))
	if from > to {
		return out, nil
	}
	err := tx.LogRange(ctx, from, to, func(le *oplog.Entry) error {
		out = append(out, *le)
		return nil
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// LSNAt returns the highest LSN written at or before t (0 when the log had no
// entry yet), the log position a point-in-time view of t reads at.
func (s *Service) LSNAt(ctx context.Context, t time.Time) (int64, error) {
	var n int64
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		n, err = tx.LSNAt(ctx, t)
		return err
	})
	return n, err
}

// LogEntriesAt returns the entries at the given LSNs, read in one snapshot;
// LSNs that do not exist are absent from the map.
func (s *Service) LogEntriesAt(ctx context.Context, lsns ...int64) (map[int64]oplog.Entry, error) {
	out := make(map[int64]oplog.Entry, len(lsns))
	err := s.store.View(ctx, func(tx memgov.ReadTx) error {
		for _, n := range lsns {
			if _, done := out[n]; done || n <= 0 {
				continue
			}
			if err := tx.LogRange(ctx, n, n, func(le *oplog.Entry) error {
				out[n] = *le
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}
