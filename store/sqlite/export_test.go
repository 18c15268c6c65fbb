package sqlite

import "github.com/memgov/memgov/store/internal/sqlstore"

// SetFoldUndoLimit lets tests drive both ways FoldMap computes an earlier fold.
func SetFoldUndoLimit(n uint64) (restore func()) { return sqlstore.SetFoldUndoLimit(n) }
