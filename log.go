package memgov

import (
	"context"
	"time"

	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// LogReader reads the append-only log: its entries, their Merkle leaves, the
// mapping between LSNs and time, and the signed audit checkpoints recorded in
// it. LSNs start at 1 and have no gaps.
type LogReader interface {
	// LogSize returns the number of entries in the log, which is the highest
	// LSN (0 for an empty log).
	LogSize(ctx context.Context) (int64, error)
	// LogRange calls fn for every entry with from <= LSN <= to in LSN order,
	// each with its stored leaf, chain and payload (Payload is nil when the
	// payload was erased); it stops at and returns fn's first error.
	LogRange(ctx context.Context, from, to int64, fn func(*oplog.Entry) error) error
	// Leaves returns the stored leaf hashes of entries 1..n in LSN order
	// (fewer when the log is shorter than n).
	Leaves(ctx context.Context, n int64) ([]merkle.Hash, error)
	// LSNAt returns the highest LSN whose entry time is at or before t, or 0
	// when every entry is later.
	LSNAt(ctx context.Context, t time.Time) (int64, error)
	// TimeOf returns the time of entry lsn (millisecond precision, UTC); an
	// LSN not in the log is ErrNotFound.
	TimeOf(ctx context.Context, lsn int64) (time.Time, error)
	// AuditCheckpoints returns every signed audit checkpoint recorded in the
	// log, by ascending sequence number, each with the LSN that recorded it.
	AuditCheckpoints(ctx context.Context) ([]oplog.AuditCheckpointRecord, error)
}

// LogWriter appends to the log.
type LogWriter interface {
	// Append gives a sealed entry (PayloadHash set) the next LSN, a time no
	// earlier than the previous entry's (truncated to milliseconds, UTC), its
	// leaf and its chain value, stores it and applies it to every derived
	// table in the same transaction; the entry is updated in place. An entry
	// that cannot be applied (an unknown item, a broken invariant) returns an
	// error and must leave the log unchanged once the transaction rolls back.
	// An entry without a payload is refused unless RestoreErasureResidue
	// left a skeleton for its LSN.
	Append(ctx context.Context, e *oplog.Entry) error
}

// AuditRoot is the Merkle root of the whole log, with its unkeyed hash chain.
type AuditRoot struct {
	Root      string `json:"audit_chain_root"`
	TreeSize  int64  `json:"tree_size"`
	HashAlg   string `json:"hash_alg"`
	ChainMode string `json:"chain_mode"`
	// HashChained is the spec §3.2.7.1 hash-chained root over the same leaves: it
	// needs no key, so anyone holding `memgov audit export` can recompute it.
	HashChained string `json:"hash_chained_root"`
}

// ConsistencyProof is an RFC 9162 proof that the log at FromSize is a prefix of
// the log at ToSize.
type ConsistencyProof struct {
	FromSize int64    `json:"from_size"`
	ToSize   int64    `json:"to_size"`
	FromRoot string   `json:"from_root"`
	ToRoot   string   `json:"to_root"`
	Proof    []string `json:"proof"`
}
