// Package baselines is memgov's baselines service: approved baselines of a
// memoryRef's memory, drift (detection, the drift step of the write
// pipeline, diffs, acknowledgement and compensation), snapshots and their
// hashes, memory checkpoints and their proofs, sessions, and the expiry of
// memory past its TTL.
package baselines

import (
	"context"
	"errors"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Versions is what the service needs of the engine's memory: the log entry
// of a new version of a key (an insert, or an update of the item's head),
// for the writes that compensate drift, and the active versions of a
// memoryRef as its readers see them (a workspace over its base), for the
// working memory a session end clears.
type Versions interface {
	VersionEntry(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, actor string, now time.Time) (*oplog.Entry, error)
	Active(ctx context.Context, tx memgov.ReadTx, q memgov.ActiveQuery) ([]memgov.Version, error)
}

// Service is the baselines of one store.
type Service struct {
	store    memgov.Store
	now      func() time.Time
	policy   policy.Policy
	authz    *authz.Checker
	versions Versions
}

// New returns the baselines service of store under the policy pol, deciding
// who may act with az.
func New(store memgov.Store, now func() time.Time, pol policy.Policy, az *authz.Checker, versions Versions) *Service {
	return &Service{store: store, now: now, policy: pol, authz: az, versions: versions}
}

func notFound(err error) bool { return err != nil && errors.Is(err, memgov.ErrNotFound) }

// StateError is a refusal because of the state of a memoryRef's memory: a
// session still open, a drift still open, no baseline. It says what is in
// the way; a front end says what to do about it in its own terms (the CLI
// names the command that clears it). Kind is ErrConflict or ErrNotFound.
type StateError struct {
	Kind    error
	Ref     string // the memoryRef the request named
	Session string // the id of the session still open, if that is the cause
	Drift   string // the id of the drift still open, if that is the cause
	Edited  bool   // the governed memory was edited outside memgov, drift not yet recorded
	Msg     string
}

func (e *StateError) Error() string { return e.Kind.Error() + ": " + e.Msg }
func (e *StateError) Unwrap() error { return e.Kind }
