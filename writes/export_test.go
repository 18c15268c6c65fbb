package writes

// OnCommitQueue tells fn the number of writes waiting for the committer each
// time one joins the queue.
func (s *Service) OnCommitQueue(fn func(waiting int)) {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	s.commits.queued = fn
}

// SnapshotEveryWrite judges every write on a read snapshot first, even one
// that starts beside another of its agent or memory, so that the commit's
// check of what changed since decides alone.
func (s *Service) SnapshotEveryWrite() {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	s.commits.alwaysSnapshot = true
}
