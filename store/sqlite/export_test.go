package sqlite

// SetFoldUndoLimit lets tests drive both ways FoldMap computes an earlier fold.
func SetFoldUndoLimit(n uint64) (restore func()) {
	old := foldUndoLimit
	foldUndoLimit = n
	return func() { foldUndoLimit = old }
}
