package sqlstore

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Rebuild empties every derived table, replays the whole log through the same
// apply function that Append uses, and reports how the replaced tables differed
// from the rebuilt ones, in t. It refuses a log that does not verify (an edited
// entry, a swapped payload, a forged erasure): replaying it would serve what
// the log does not prove. The store runs it in one write transaction: on any
// error nothing changes.
func (t *Tx) Rebuild(ctx context.Context) (memgov.RebuildReport, error) {
	d := t.q.dialect()
	rep := memgov.RebuildReport{Tables: map[string]int64{}, Differences: []string{}}
	q := t.Querier()
	lr, err := VerifyLog(ctx, q, t.key)
	if err != nil {
		return rep, err
	}
	if !lr.OK {
		return rep, fmt.Errorf("%w at LSN %d: %s; the log does not verify, so it is not replayed", memgov.ErrTampered, lr.BadLSN, lr.Problem)
	}
	t.rebuilt = true
	for _, dt := range DerivedTables(d) {
		if _, err := q.ExecContext(ctx, d.SaveTable(dt.Name)); err != nil {
			return rep, fmt.Errorf("rebuild: save %s: %w", dt.Name, err)
		}
		if _, err := q.ExecContext(ctx, `DELETE FROM `+d.Main+dt.Name); err != nil {
			return rep, fmt.Errorf("rebuild: clear %s: %w", dt.Name, err)
		}
	}
	size, err := t.LogSize(ctx)
	if err != nil {
		return rep, err
	}
	const batch = 2000
	for from := int64(1); from <= size; from += batch {
		var entries []*oplog.Entry
		if err := t.LogRange(ctx, from, from+batch-1, func(e *oplog.Entry) error {
			entries = append(entries, e)
			return nil
		}); err != nil {
			return rep, err
		}
		for _, e := range entries {
			if err := apply(ctx, q, e); err != nil {
				return rep, fmt.Errorf("rebuild: %w", err)
			}
		}
	}
	rep.Entries = size
	for _, dt := range DerivedTables(d) {
		var n int64
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+d.Main+dt.Name).Scan(&n); err != nil {
			return rep, err
		}
		rep.Tables[dt.Name] = n
		diffs, err := TableDiff(ctx, q, dt.Name, dt.Key, d.Saved+dt.Name, d.Main+dt.Name)
		if err != nil {
			return rep, err
		}
		rep.Differences = append(rep.Differences, diffs...)
		if _, err := q.ExecContext(ctx, `DROP TABLE `+d.Saved+dt.Name); err != nil {
			return rep, err
		}
	}
	return rep, nil
}
