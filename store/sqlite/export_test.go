package sqlite

import (
	"context"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// SetFoldUndoLimit lets tests drive both ways FoldMap computes an earlier fold.
func SetFoldUndoLimit(n uint64) (restore func()) { return sqlstore.SetFoldUndoLimit(n) }

// ReadStatements is the number of statements kept prepared for reads.
func (s *Store) ReadStatements() int {
	s.rstmts.mu.Lock()
	defer s.rstmts.mu.Unlock()
	return len(s.rstmts.stmts)
}

// VerifyLogMarked runs the log check of Verify and reports how many entries
// the recorded mark stood for (0: every entry was checked in full).
func VerifyLogMarked(ctx context.Context, s *Store) (memgov.VerifyReport, int64, error) {
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return memgov.VerifyReport{}, 0, err
	}
	defer tx.Rollback()
	q := sqlstore.Bind(tx, dialect)
	mark, err := sqlstore.RecordedMark(ctx, q, s.key)
	if err != nil {
		return memgov.VerifyReport{}, 0, err
	}
	lr, err := sqlstore.VerifyLogFrom(ctx, q, s.key, mark, logRowsSum(tx, s.key))
	return lr.VerifyReport, lr.Marked, err
}

// TopicCandidatesUncached runs a topic query on a fresh snapshot, reading
// every word's postings from the index (no topic cache).
func TopicCandidatesUncached(ctx context.Context, s *Store, tq memgov.TopicQuery) ([]memgov.Candidate, error) {
	tx, err := s.reader.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return sqlstore.NewReadTx(sqlstore.Bind(tx, dialect)).TopicCandidates(ctx, tq)
}
