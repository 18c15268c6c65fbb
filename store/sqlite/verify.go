package sqlite

import (
	"context"
	"sync"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// Verify checks the log and then every table readers are served from: it
// recomputes every leaf, payload hash and chain value from the stored rows
// (of the entries after the mark the last check kept; the rows before it are
// digested and compared with the mark, and recomputed when they differ),
// checks the signed head, every audit checkpoint recorded in the log and every
// erasure, and then compares the served tables with a replay of the log
// (skipped while the log and the tables are those a matching replay recorded;
// after new appends, only the new entries replayed on the verified snapshot).
// It reports the first entry, or the first served row, that does not verify.
func (s *Store) Verify(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, false)
}

// VerifyReplay is Verify with every entry recomputed and the served tables
// always replayed.
func (s *Store) VerifyReplay(ctx context.Context) (memgov.VerifyReport, error) {
	return s.verify(ctx, true)
}

// snapshotLabel tells a kept SQLite snapshot's MAC from others.
const snapshotLabel = "memgov-verify-snapshot"

func (s *Store) verify(ctx context.Context, replay bool) (memgov.VerifyReport, error) {
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return memgov.VerifyReport{}, mapOpenErr(s.path, err)
	}
	defer tx.Rollback()
	q := sqlstore.Bind(tx, dialect)
	mark, err := sqlstore.RecordedMark(ctx, q, s.key)
	if err != nil {
		return memgov.VerifyReport{}, err
	}
	var (
		rec      *sqlstore.VerifyRecord
		snapHash = func() ([]byte, error) { return fileHash(s.snapshotPath()) }
	)
	if replay {
		mark = sqlstore.LogMark{} // --replay checks every entry of the log too
	} else {
		if rec, err = sqlstore.ReadVerifyRecord(ctx, tx, s.key, snapshotLabel); err != nil {
			return memgov.VerifyReport{}, err
		}
		if rec != nil && rec.Snapshot != nil {
			// The snapshot file is hashed while the log is checked.
			type hashed struct {
				h   []byte
				err error
			}
			c := make(chan hashed, 1)
			go func() {
				h, err := fileHash(s.snapshotPath())
				c <- hashed{h, err}
			}()
			snapHash = sync.OnceValues(func() ([]byte, error) {
				r := <-c
				return r.h, r.err
			})
			defer func() { _, _ = snapHash() }() // the hash ends before verify returns
		}
	}
	lr, err := sqlstore.VerifyLogFrom(ctx, q, s.key, mark, logRowsSum(tx, s.key))
	rep, chain := lr.VerifyReport, lr.Chain
	if err != nil || !rep.OK {
		return rep, err
	}
	if !lr.Mark.Equal(mark) {
		sqlstore.RecordMark(ctx, sqlstore.Bind(s.writer, dialect), s.key, lr.Mark)
	}
	if !replay {
		ok, err := sqlstore.CheckServed(ctx, tx, sqlstore.ServedCheck{Record: rec,
			Digest:  func(ctx context.Context) ([]byte, error) { return servedDigest(ctx, tx, "main", s.key) },
			Release: func() { tx.Rollback() },
			Incremental: func(ctx context.Context, rec *sqlstore.VerifyRecord, size int64, chain []byte) (bool, error) {
				return s.incremental(ctx, rec, size, chain, snapHash)
			}}, &rep, chain)
		if err != nil || ok {
			return rep, err
		}
	}
	tx.Rollback()
	res, err := s.replay(ctx, true)
	if err != nil {
		return rep, err
	}
	if res.Report(&rep) {
		s.recordVerified(ctx, res.Record())
	}
	return rep, nil
}
