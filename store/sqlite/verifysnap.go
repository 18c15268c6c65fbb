package sqlite

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"os"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// An incremental verify. The last replay that matched every served table is
// kept beside the database as a SQLite file (the verified snapshot), and
// verify_state records its SHA-256, bound under the log key to the size, the
// chain value and the served tables' digest of the log it replayed. When the
// log has grown since, `memgov audit verify` still checks the whole log (the
// entries a verify checked before by the mark it kept, the later ones in
// full, which also proves the chain value the record names), then checks
// the snapshot file against its recorded hash,
// replays only the new entries into it, adds the rows they wrote to the
// sums of its tables the snapshot keeps and takes away the rows they
// replaced or removed (servedsum.go), and compares the result with the
// digest of every row of the live served tables. Any other outcome (no
// snapshot, a snapshot or record that does not verify, an erasure among the
// new entries, a difference) replays the whole log, which names the row that
// differs and keeps a new snapshot.

// snapshotPath is the verified snapshot's file.
func (s *Store) snapshotPath() string { return s.path + "-verified" }

// dropSnapshot removes the verified snapshot: an erasure must not leave the
// erased text in a copy of the served tables. The next verify replays the
// whole log.
func (s *Store) dropSnapshot() {
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		os.Remove(s.snapshotPath() + suffix)
	}
}

// openScratchDB opens a replay database: no journal, nothing synced (a
// scratch file is thrown away or hashed once it is closed).
func openScratchDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-65536)&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// attachLive attaches the live database to a replay database as live; the
// log is read where it is (unqualified names find the temp views first).
func (s *Store) attachLive(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `ATTACH DATABASE ? AS live`, s.path); err != nil {
		return fmt.Errorf("replay: attach %s: %w", s.path, err)
	}
	for _, q := range []string{
		`CREATE TEMP VIEW log AS SELECT * FROM live.log`,
		`CREATE TEMP VIEW log_payload AS SELECT * FROM live.log_payload`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
	}
	return nil
}

// fileHash is the SHA-256 of a file.
func fileHash(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// keepSnapshot closes a replay database whose tables matched, moves it to
// the snapshot's place and returns its hash.
func keepSnapshot(db *sql.DB, scratch, to string) ([]byte, error) {
	if err := db.Close(); err != nil {
		return nil, err
	}
	if err := os.Chmod(scratch, 0o600); err != nil {
		return nil, err
	}
	h, err := fileHash(scratch)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(scratch, to); err != nil {
		return nil, err
	}
	return h, nil
}

// recordVerified records a verified state: the log's size and chain value,
// the served tables' digest and the snapshot's hash (nil: none kept). A
// database opened read-only keeps no record; the next verify replays again.
func (s *Store) recordVerified(ctx context.Context, r sqlstore.VerifyRecord) {
	sqlstore.RecordVerified(ctx, s.writer, s.key, snapshotLabel, r)
}

// incremental replays the log entries after the recorded state into the
// verified snapshot (whose hash snapHash gives) and compares the result with
// the live served tables. It
// reports false (and no error) when it cannot decide and the whole log must
// be replayed; on true it has recorded the new state.
func (s *Store) incremental(ctx context.Context, rec *sqlstore.VerifyRecord, size int64, chain []byte, snapHash func() ([]byte, error)) (bool, error) {
	path := s.snapshotPath()
	h, err := snapHash()
	if err != nil || !hmac.Equal(h, rec.Snapshot) {
		return false, nil // none, or not the file the replay left: replay the whole log
	}
	kept := false
	defer func() {
		if !kept {
			s.dropSnapshot() // changed, and no longer the file its hash names
		}
	}()
	db, err := openScratchDB(path)
	if err != nil {
		return false, err
	}
	defer db.Close()
	if err := s.attachLive(ctx, db); err != nil {
		return false, err
	}
	cache := newStmtCache(db)
	defer cache.close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	q := &stmtQuerier{tx: tx, cache: cache}
	// The live file as this transaction reads it must be the log just
	// verified (an append since then: replay the whole log), with no
	// erasure among the new entries (its residue is copied by a full replay).
	entries, ok, err := sqlstore.NewEntries(ctx, sqlstore.Bind(tx, dialect), rec, size, chain)
	if err != nil || !ok {
		return false, err
	}
	sums, err := keptSums(ctx, q)
	if err != nil || sums == nil {
		return false, err // a snapshot that keeps no sums: replay the whole log
	}
	// Every row the new entries write or remove in the snapshot is added to
	// or taken from its sums; a REPLACE's removals count too.
	if _, err := q.ExecContext(ctx, `PRAGMA recursive_triggers = ON`); err != nil {
		return false, err
	}
	whole, err := deltaTriggers(ctx, q)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if err := sqlstore.Apply(ctx, sqlstore.Bind(q, dialect), e); err != nil {
			return false, nil // the full replay reports it
		}
	}
	if err := applyDelta(ctx, q, sums, whole, s.key); err != nil {
		return false, err
	}
	// The live tables, every row of them, must be the snapshot's tables
	// with the new entries applied.
	live, err := tableSums(ctx, q, "live", s.key)
	if err != nil {
		return false, err
	}
	if !live.equal(sums) {
		return false, nil // a difference: the full replay names it
	}
	if err := keepSums(ctx, q, sums); err != nil {
		return false, err
	}
	for _, d := range sqlstore.ComparedTables(dialect) {
		for _, ev := range []string{"ins", "upd", "del"} {
			if _, err := q.ExecContext(ctx, `DROP TRIGGER IF EXISTS temp.verify_delta_`+d.Name+`_`+ev); err != nil {
				return false, err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	cache.close()
	if err := db.Close(); err != nil {
		return false, err
	}
	snap, err := fileHash(path)
	if err != nil {
		return false, err
	}
	kept = true
	s.recordVerified(ctx, sqlstore.VerifyRecord{Size: size, Chain: chain, Digest: live.digest(), Snapshot: snap})
	return true, nil
}
