package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/memgov/memgov/store/internal/sqlstore"
)

// ErrKeyMismatch reports a log key whose fingerprint is not the one the
// database recorded when it was created.
var ErrKeyMismatch = sqlstore.ErrKeyMismatch

// KeyFingerprint names a key without revealing it.
func KeyFingerprint(key []byte) string { return sqlstore.KeyFingerprint(key) }

// checkKey compares the key with the recorded fingerprint before anything is
// written; recordKey stores the fingerprint after migration.
func (s *Store) checkKey(ctx context.Context) error {
	ok, err := sqlstore.KeyMatches(ctx, s.writer, s.key, s.hasTable(ctx, "key_meta"), s.hasTable(ctx, "log"))
	if err != nil {
		return mapOpenErr(s.path, err)
	}
	if !ok {
		return fmt.Errorf("%w: %s was created with another key (set MEMGOV_KEY or restore %s.key; nothing was written)", ErrKeyMismatch, s.path, s.path)
	}
	return nil
}

func (s *Store) hasTable(ctx context.Context, name string) bool {
	var n int
	err := s.writer.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return err == nil && n > 0
}

// recordKey stores the key's fingerprint when the database has none.
func (s *Store) recordKey(ctx context.Context) error {
	_, err := s.writer.ExecContext(ctx, `INSERT INTO key_meta(name, value) VALUES ('fingerprint', ?) ON CONFLICT(name) DO NOTHING`, KeyFingerprint(s.key))
	return mapOpenErr(s.path, err)
}

// createPrivate creates the database file empty with mode 0600 so SQLite,
// which gives the -wal and -shm files the database file's mode, creates
// those 0600 too.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil
		}
		return fmt.Errorf("create database: %w", err)
	}
	return f.Close()
}

// tightenModes makes the database and its -wal and -shm files 0600 when
// they are more open (a file created by an older memgov, or under a loose
// umask by another tool).
func tightenModes(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if fi.Mode().Perm()&0o077 != 0 {
			// Only the file's owner may change its mode; anyone else
			// reading a shared file leaves it as its owner set it.
			if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrPermission) {
				return fmt.Errorf("restrict %s to its owner: %w", p, err)
			}
		}
	}
	return nil
}
