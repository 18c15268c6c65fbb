package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"time"

	"github.com/memgov/memgov"
)

// This file keeps mem_map, the current memory map of every memoryRef: for each
// key, the canonical content of the version memgov last made ACTIVE (migration
// 0010). observeMemory writes it together with the PUT/DEL op it appends to
// mem_ops, so mem_map is always the left fold of the whole op log; applyErase
// renames an erased key in both. Reading the map is one range scan of a
// WITHOUT ROWID table in key order instead of an index walk over versions
// with a random row lookup per key.

// putMapRow records that key of ref has the ACTIVE content value.
func putMapRow(ctx context.Context, q querier, ref, key string, value []byte, exp sql.NullInt64) error {
	_, err := q.ExecContext(ctx, `INSERT INTO mem_map (memory_ref, key, fragment, expires_at) VALUES (?,?,?,?)
		ON CONFLICT (memory_ref, key) DO UPDATE SET fragment = excluded.fragment, expires_at = excluded.expires_at`, ref, key, value, exp)
	return err
}

// delMapRow records that key of ref no longer has an ACTIVE version.
func delMapRow(ctx context.Context, q querier, ref, key string) error {
	_, err := q.ExecContext(ctx, `DELETE FROM mem_map WHERE memory_ref = ? AND key = ?`, ref, key)
	return err
}

// currentMap streams mem_map of ref, unexpired at now, in byte order of keys.
func (r *ReadTx) currentMap(ctx context.Context, ref string, now time.Time, fn func(memgov.MapRow) error) error {
	rows, err := r.q.QueryContext(ctx, `SELECT key, fragment, expires_at FROM mem_map
		WHERE memory_ref = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY key`, ref, ms(now))
	if err != nil {
		return err
	}
	return scanMapRows(rows, fn)
}

// foldUndoLimit bounds the operations FoldMap undoes from the current map; a
// fold further back than that is computed from the op log directly.
var foldUndoLimit uint64 = 1 << 16

// FoldMap streams the left fold of the first size operations of ref's op log,
// unexpired at now, by key. The fold of the whole log is mem_map. An earlier
// fold (a baseline's) is mem_map with the keys that the operations since size
// touched replaced by their last operation before size.
func (r *ReadTx) FoldMap(ctx context.Context, ref string, size uint64, now time.Time, fn func(memgov.MapRow) error) error {
	var head uint64
	err := r.q.QueryRowContext(ctx, `SELECT tree_size FROM mem_heads WHERE memory_ref = ?`, ref).Scan(&head)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	switch {
	case size >= head:
		return r.currentMap(ctx, ref, now, fn)
	case size == 0:
		return nil
	case head-size > foldUndoLimit:
		return r.foldOps(ctx, ref, size, now, fn)
	}
	rows, err := r.q.QueryContext(ctx, `SELECT DISTINCT key FROM mem_ops WHERE memory_ref = ? AND idx >= ?`, ref, size)
	if err != nil {
		return err
	}
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return err
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	sort.Strings(keys)
	touched := make(map[string]bool, len(keys))
	var before []memgov.MapRow // the touched keys' values at size, by key
	for _, k := range keys {
		touched[k] = true
		var (
			op    string
			value []byte
			exp   sql.NullInt64
		)
		err := r.q.QueryRowContext(ctx, `SELECT op, value, expires_at FROM mem_ops WHERE memory_ref = ? AND key = ? AND idx < ?
			ORDER BY idx DESC LIMIT 1`, ref, k, size).Scan(&op, &value, &exp)
		if errors.Is(err, sql.ErrNoRows) || err == nil && op != "PUT" {
			continue
		}
		if err != nil {
			return err
		}
		if exp.Valid && exp.Int64 <= ms(now) {
			continue
		}
		row := memgov.MapRow{Key: k, Value: value}
		if value == nil {
			row.Value = []byte("null")
		}
		if exp.Valid {
			t := fromMS(exp.Int64)
			row.ExpiresAt = &t
		}
		before = append(before, row)
	}
	i := 0
	if err := r.currentMap(ctx, ref, now, func(m memgov.MapRow) error {
		for ; i < len(before) && before[i].Key < m.Key; i++ {
			if err := fn(before[i]); err != nil {
				return err
			}
		}
		if touched[m.Key] {
			return nil
		}
		return fn(m)
	}); err != nil {
		return err
	}
	for ; i < len(before); i++ {
		if err := fn(before[i]); err != nil {
			return err
		}
	}
	return nil
}

// foldOps computes the fold of the first size operations from mem_ops: the
// last operation of every key before size, kept when it is an unexpired PUT.
func (r *ReadTx) foldOps(ctx context.Context, ref string, size uint64, now time.Time, fn func(memgov.MapRow) error) error {
	rows, err := r.q.QueryContext(ctx, r.q.dialect().FoldOps, ref, int64(size), ms(now))
	if err != nil {
		return err
	}
	return scanMapRows(rows, fn)
}

// SetFoldUndoLimit sets the limit FoldMap chooses its way by, for tests that
// drive both ways; restore puts the old one back.
func SetFoldUndoLimit(n uint64) (restore func()) {
	old := foldUndoLimit
	foldUndoLimit = n
	return func() { foldUndoLimit = old }
}
