package postgres

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// ErrKeyMismatch reports a log key whose fingerprint is not the one the
// database recorded when it was created: extending the log with it would
// break the chain for good, so nothing is written.
var ErrKeyMismatch = errors.New("the key does not match this database")

// KeyFingerprint is hex(HMAC-SHA256(key, "memgov key fingerprint")): it names
// a key without revealing it.
func KeyFingerprint(key []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("memgov key fingerprint"))
	return hex.EncodeToString(m.Sum(nil))
}

// checkKey compares the key with the recorded fingerprint before anything is
// written. A database made by a memgov before fingerprints has none: its
// first log entry's chain, HMAC(key, zero || leaf), decides instead. A new
// database passes; recordKey stores the fingerprint after migration.
func (s *Store) checkKey(ctx context.Context) error {
	mismatch := fmt.Errorf("%w: %s was created with another key (set MEMGOV_KEY or restore %s.key; nothing was written)", ErrKeyMismatch, s.url, s.url)
	if s.hasTable(ctx, "key_meta") {
		var fp string
		err := s.db.QueryRowContext(ctx, `SELECT value FROM key_meta WHERE name = 'fingerprint'`).Scan(&fp)
		if err == nil {
			if !hmac.Equal([]byte(fp), []byte(KeyFingerprint(s.key))) {
				return mismatch
			}
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return mapErr(err)
		}
	}
	if !s.hasTable(ctx, "log") {
		return nil
	}
	var leaf, chain []byte
	err := s.db.QueryRowContext(ctx, `SELECT leaf, chain FROM log WHERE lsn = 1`).Scan(&leaf, &chain)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return mapErr(err)
	}
	var l merkle.Hash
	copy(l[:], leaf)
	if want := oplog.ChainNext(s.key, merkle.Hash{}, l); !hmac.Equal(want[:], chain) {
		return mismatch
	}
	return nil
}

func (s *Store) hasTable(ctx context.Context, name string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1`, name).Scan(&n)
	return err == nil && n > 0
}

// recordKey stores the key's fingerprint when the database has none.
func (s *Store) recordKey(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO key_meta(name, value) VALUES ('fingerprint', $1) ON CONFLICT(name) DO NOTHING`, KeyFingerprint(s.key))
	return mapErr(err)
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
