package sqlstore

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"

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

// KeyMatches compares key with the fingerprint the database recorded before
// anything is written (hasMeta: the database has the key_meta table). A
// database made by a memgov before fingerprints has none: its first log
// entry's chain, HMAC(key, zero || leaf), decides instead (hasLog: it has the
// log table). A new database matches.
func KeyMatches(ctx context.Context, q Querier, key []byte, hasMeta, hasLog bool) (bool, error) {
	if hasMeta {
		var fp string
		err := q.QueryRowContext(ctx, `SELECT value FROM key_meta WHERE name = 'fingerprint'`).Scan(&fp)
		if err == nil {
			return hmac.Equal([]byte(fp), []byte(KeyFingerprint(key))), nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
	}
	if !hasLog {
		return true, nil
	}
	var leaf, chain []byte
	err := q.QueryRowContext(ctx, `SELECT leaf, chain FROM log WHERE lsn = 1`).Scan(&leaf, &chain)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	var l merkle.Hash
	copy(l[:], leaf)
	want := oplog.ChainNext(key, merkle.Hash{}, l)
	return hmac.Equal(want[:], chain), nil
}
