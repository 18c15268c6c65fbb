package postgres

import (
	"context"
	"fmt"

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
	ok, err := sqlstore.KeyMatches(ctx, s.db, s.key, s.hasTable(ctx, "key_meta"), s.hasTable(ctx, "log"))
	if err != nil {
		return mapErr(err)
	}
	if !ok {
		return fmt.Errorf("%w: %s was created with another key (set MEMGOV_KEY to the key it was created with; nothing was written)", ErrKeyMismatch, s.url)
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
