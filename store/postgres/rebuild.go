package postgres

import (
	"context"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/store/internal/sqlstore"
)

// Rebuild empties every derived table, replays the whole log through the same
// apply function that Append uses, and reports how the replaced tables differed
// from the rebuilt ones. It runs in one transaction: on any error nothing changes.
// It refuses a log that does not verify (an edited entry, a swapped payload, a
// forged erasure): replaying it would serve what the log does not prove.
func (s *Store) Rebuild(ctx context.Context) (memgov.RebuildReport, error) {
	var rep memgov.RebuildReport
	err := s.update(ctx, func(t *sqlstore.Tx) error {
		var err error
		rep, err = t.Rebuild(ctx)
		return err
	})
	return rep, err
}
