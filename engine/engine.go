package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/engine/similar"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/reviews"
	"github.com/memgov/memgov/writes"
)

// Engine is the governance core. Every door calls its methods; no rule lives
// only in a door.
type Engine struct {
	store      memgov.Store
	now        func() time.Time
	key        []byte
	policy     policy.Policy
	authz      *authz.Checker     // who may do what: the table and the policy's matrix
	audit      *audit.Service     // the log's proofs, checkpoints and verification
	baselines  *baselines.Service // baselines, drift, snapshots, memory checkpoints, sessions
	host       *host.Service      // proposals, workspaces, commitments, distillation, forget
	lifecycle  *lifecycle.Service // versions, GC, erasure, leases, promotion, consolidation
	reviews    *reviews.Service   // decisions, claims, fail-closed reviews, quarantine
	writes     *writes.Service    // the write pipeline, its commit, the SYNC_BLOCK wait, the index
	judge      gate.Judge
	secrets    *redact.Registry
	embedder   similar.Embedder // WithEmbedder; nil: the built-in hashing vectors only
	indexer    writes.Indexer   // WithIndexer
	rules      *judge.Judge     // the rule-based judge, with the policy's cardinalities
	onSnapshot bool             // WithSnapshotGates: concurrent writes judged on read snapshots
}

// Option configures an Engine.
type Option func(*Engine)

// WithPolicy sets the effective policy (default: policy.Default()).
func WithPolicy(p policy.Policy) Option { return func(e *Engine) { e.policy = p } }

// WithJudge adds an external contradiction checker to the contradiction gate.
func WithJudge(j gate.Judge) Option { return func(e *Engine) { e.judge = j } }

// WithSecrets sets the secret registry whose values are redacted from every
// write (SR-1).
func WithSecrets(r *redact.Registry) Option { return func(e *Engine) { e.secrets = r } }

// WithClock sets the clock; tests inject a fixed or stepping clock.
func WithClock(now func() time.Time) Option { return func(e *Engine) { e.now = now } }

// New returns an engine over a store. key signs provenance records and audit
// checkpoints; it must be the key the store chains its log with.
func New(s memgov.Store, key []byte, opts ...Option) *Engine {
	e := &Engine{now: time.Now, key: key, policy: policy.Default(), secrets: redact.NewRegistry(), indexer: writes.BuiltinIndexer()}
	for _, o := range opts {
		o(e)
	}
	// One rule-based judge per engine: every gate that judges text reads
	// the policy's relation cardinalities through it.
	e.rules = judge.New(e.policy.Contradiction.Cardinalities())
	e.authz = authz.New(e.policy)
	// The write service first: its view of the store, which indexes what
	// every write transaction appends, is the store of every service.
	e.writes = writes.New(writes.Config{Store: s, Key: e.key, Now: e.Now, Policy: e.policy, Rules: e.rules, Judge: e.judge,
		Secrets: e.secrets, Embedder: e.embedder, Indexer: e.indexer, SnapshotGates: e.onSnapshot,
		Reviews: writeReviews{e}, Drift: writeDrift{e}, Search: searchForgetter{e}})
	e.store = e.writes.Store()
	e.baselines = baselines.New(e.store, e.Now, e.policy, e.authz, baselineVersions{e})
	e.audit = audit.New(e.store, e.key, e.Now, e.policy, auditCaches{e})
	e.host = host.New(e.store, e.Now, e.policy, e.authz, e.secrets, hostWrites{e}, hostIndex{e})
	e.lifecycle = lifecycle.New(lifecycle.Config{Store: e.store, Key: e.key, Now: e.Now, Policy: e.policy, Authz: e.authz,
		Rules: e.rules, Secrets: e.secrets, Pipeline: e.writes, Search: searchForgetter{e}})
	e.reviews = reviews.New(e.store, e.Now, e.policy, e.authz, reviewEffects{e})
	return e
}

// Policy returns the effective policy.
func (e *Engine) Policy() policy.Policy { return e.policy }

// Secrets returns the secret registry (SR-1).
func (e *Engine) Secrets() *redact.Registry { return e.secrets }

// Now returns the engine clock's current time in UTC, at millisecond precision
// (the precision of the log).
func (e *Engine) Now() time.Time { return e.now().UTC().Truncate(time.Millisecond) }

// AddPrincipal registers an agent or a person. Registering the same principal
// again with the same role and tenant is a no-op; a different role or tenant is
// a conflict.
func (e *Engine) AddPrincipal(ctx context.Context, p memgov.Principal, actor string) (memgov.Principal, error) {
	if !memgov.ValidID(p.ID) {
		return memgov.Principal{}, fmt.Errorf("%w: principal id must be 1-64 characters of A-Z a-z 0-9 . _ - (got %d bytes)", memgov.ErrInvalid, len(p.ID))
	}
	if _, err := memgov.ParseRole(string(p.Role)); err != nil {
		return memgov.Principal{}, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	if !authz.ValidTenant(p) {
		return memgov.Principal{}, fmt.Errorf("%w: tenant must be 1-64 characters of A-Z a-z 0-9 . _ - or %q for every tenant", memgov.ErrInvalid, memgov.AllTenants)
	}
	for k, v := range p.Attributes {
		if err := writes.CheckIdentifier("attribute "+k, k+v); err != nil {
			return memgov.Principal{}, err
		}
	}
	if actor == "" {
		actor = p.ID
	}
	var out memgov.Principal
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		old, err := tx.Principal(ctx, p.ID)
		if err == nil {
			if authz.SameGrant(old, p) {
				out = old
				return nil
			}
			return fmt.Errorf("%w: principal %s is already registered as %s of tenant %s", memgov.ErrConflict, p.ID, old.Role, old.Tenant)
		}
		if !isNotFound(err) {
			return err
		}
		entry := &oplog.Entry{Time: e.Now(), Op: oplog.Principal, ItemID: p.ID, Actor: actor}
		if err := oplog.AppendData(ctx, tx, entry, "register principal", oplog.PrincipalData{Role: string(p.Role), Tenant: p.Tenant, Attributes: p.Attributes}); err != nil {
			return err
		}
		out, err = tx.Principal(ctx, p.ID)
		return err
	})
	return out, err
}

// Principal returns a registered principal.
func (e *Engine) Principal(ctx context.Context, id string) (memgov.Principal, error) {
	var p memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		p, err = tx.Principal(ctx, id)
		return err
	})
	return p, err
}

// Principals lists every registered principal.
func (e *Engine) Principals(ctx context.Context) ([]memgov.Principal, error) {
	var ps []memgov.Principal
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		ps, err = tx.Principals(ctx)
		return err
	})
	return ps, err
}

func isNotFound(err error) bool { return err != nil && errors.Is(err, memgov.ErrNotFound) }
