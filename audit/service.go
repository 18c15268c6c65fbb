// Package audit is memgov's audit service: the reads of the log itself
// (its size, pages newest first, entries by LSN, the LSN of a moment:
// log.go), the Merkle root of the log and
// its proofs (inclusion, consistency), signed audit checkpoints and their
// acceptance, the export a verifier without the key replays, the
// verification of the log and of every table derived from it, rebuilds, and
// the compliance report of spec §12.10.5 and the quality metrics and health
// score of spec §12.12. It reads the store; the only
// entry it appends is an audit checkpoint.
package audit

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/policy"
)

// Caches is what the audit checks beside the log and its tables: the caches
// the engine keeps of what the log determines.
type Caches interface {
	// StateHash returns the hash, with alg, of ref's memory map at now, read
	// in tx: what a cached snapshot hash must equal while it is served.
	StateHash(ctx context.Context, tx memgov.ReadTx, ref string, now time.Time, alg canon.Algorithm) (string, error)
	// IndexStatus counts the versions whose judge-derived features are stale.
	IndexStatus(ctx context.Context) (memgov.IndexStatus, error)
	// FoldReads brings the per-item read records up to date, before the
	// metrics read them.
	FoldReads(ctx context.Context) error
}

// Service is the audit of one store.
type Service struct {
	store  memgov.Store
	key    []byte
	now    func() time.Time
	policy policy.Policy
	caches Caches
}

// New returns the audit of store, whose log is chained and whose
// checkpoints are signed with key, under the policy pol (retention and
// residency for the compliance report).
func New(store memgov.Store, key []byte, now func() time.Time, pol policy.Policy, caches Caches) *Service {
	return &Service{store: store, key: key, now: now, policy: pol, caches: caches}
}
