package sqlite

import "github.com/memgov/memgov/store/internal/sqlstore"

// SetFoldUndoLimit lets tests drive both ways FoldMap computes an earlier fold.
func SetFoldUndoLimit(n uint64) (restore func()) { return sqlstore.SetFoldUndoLimit(n) }

// ReadStatements is the number of statements kept prepared for reads.
func (s *Store) ReadStatements() int {
	s.rstmts.mu.Lock()
	defer s.rstmts.mu.Unlock()
	return len(s.rstmts.stmts)
}
