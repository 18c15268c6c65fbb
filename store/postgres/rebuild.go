package postgres

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Rebuild empties every derived table, replays the whole log through the same
// apply function that Append uses, and reports how the replaced tables differed
// from the rebuilt ones. It runs in one transaction: on any error nothing changes.
// It refuses a log that does not verify (an edited entry, a swapped payload, a
// forged erasure): replaying it would serve what the log does not prove.
func (s *Store) Rebuild(ctx context.Context) (memgov.RebuildReport, error) {
	rep := memgov.RebuildReport{Tables: map[string]int64{}, Differences: []string{}}
	err := s.update(ctx, func(t *Tx) error {
		lr, err := s.verifyLogReport(ctx, t.q)
		if err != nil {
			return err
		}
		if !lr.OK {
			return fmt.Errorf("%w at LSN %d: %s; the log does not verify, so it is not replayed", memgov.ErrTampered, lr.BadLSN, lr.Problem)
		}
		for _, d := range derivedTables {
			if _, err := t.q.ExecContext(ctx, fmt.Sprintf(`CREATE TEMP TABLE old_%s ON COMMIT DROP AS SELECT * FROM %s`, d.name, d.name)); err != nil {
				return fmt.Errorf("rebuild: save %s: %w", d.name, err)
			}
			if _, err := t.q.ExecContext(ctx, `DELETE FROM `+d.name); err != nil {
				return fmt.Errorf("rebuild: clear %s: %w", d.name, err)
			}
		}
		size, err := t.LogSize(ctx)
		if err != nil {
			return err
		}
		const batch = 2000
		for from := int64(1); from <= size; from += batch {
			var entries []*oplog.Entry
			if err := t.LogRange(ctx, from, from+batch-1, func(e *oplog.Entry) error {
				entries = append(entries, e)
				return nil
			}); err != nil {
				return err
			}
			for _, e := range entries {
				if err := apply(ctx, t.q, e); err != nil {
					return fmt.Errorf("rebuild: %w", err)
				}
			}
		}
		rep.Entries = size
		for _, d := range derivedTables {
			var n int64
			if err := t.q.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+d.name).Scan(&n); err != nil {
				return err
			}
			rep.Tables[d.name] = n
			diffs, err := tableDiff(ctx, t.q, d.name, d.key)
			if err != nil {
				return err
			}
			rep.Differences = append(rep.Differences, diffs...)
			if _, err := t.q.ExecContext(ctx, `DROP TABLE pg_temp.old_`+d.name); err != nil {
				return err
			}
		}
		return nil
	})
	return rep, err
}

// tableDiff lists rows that differ between pg_temp.old_<name> and <name>.
func tableDiff(ctx context.Context, q querier, name, key string) ([]string, error) {
	var out []string
	for _, dir := range []struct{ a, b, what string }{
		{"pg_temp.old_" + name, name, "was wrong or extra before the rebuild"},
		{name, "pg_temp.old_" + name, "was missing or wrong before the rebuild"},
	} {
		rows, err := q.QueryContext(ctx, fmt.Sprintf(`SELECT %s FROM (SELECT * FROM %s EXCEPT SELECT * FROM %s) AS d LIMIT 20`, key, dir.a, dir.b))
		if err != nil {
			return nil, fmt.Errorf("rebuild: compare %s: %w", name, err)
		}
		for rows.Next() {
			var k any
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, fmt.Sprintf("%s %s=%v %s", name, key, k, dir.what))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return dedupe(out), nil
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
