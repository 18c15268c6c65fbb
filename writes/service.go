// Package writes is memgov's write service: the governed write pipeline
// (idempotency, deadline, scope and authorization, drift, rate limits, the
// gates of engine/gate, then a commit or a review), the group commit that
// lets concurrent writers share a transaction and judge on read snapshots,
// the SYNC_BLOCK wait and its fail-closed outcome, the redaction of
// registered secrets and the checks of identifiers, the ungated Put of
// trusted loaders, suspension and reinstatement, the judge-derived index
// every version gets in its write transaction (features, model vectors) and
// its upkeep (reindex, re-embed), and the re-validation sweep.
//
// The service never imports the engine: what a write needs of the other
// services (the drift step, the quarantine step after a write, the review a
// writer waits on, the search indexes an erasure empties) it asks through
// Reviews, Drift and SearchIndex, which the engine implements.
package writes

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/engine/schema"
	"github.com/memgov/memgov/engine/similar"
)

// Reviews is what a write needs of the reviews service.
type Reviews interface {
	// AfterWrite is the quarantine step, in the write's transaction: the
	// writer's recent writes are quarantined when this one shows a burst or
	// a contradiction rate past the policy's.
	AfterWrite(ctx context.Context, tx memgov.Tx, agent string, res memgov.WriteResult) error
	// Review reads a review, for a writer waiting on it.
	Review(ctx context.Context, id string) (memgov.Review, error)
	// FailClosed rejects a SYNC_BLOCK review past its deadline with
	// APPROVAL_TIMEOUT.
	FailClosed(ctx context.Context, id string) error
}

// Drift is the drift step: a memoryRef judged against its approved
// baseline, inside the write's transaction.
type Drift interface {
	DriftStatus(ctx context.Context, tx memgov.Tx, memoryRef string) (gate.DriftStatus, error)
}

// SearchIndex is the search index kept of the texts of memory: an erasure
// another process made empties it, so that no erased word is found again.
type SearchIndex interface {
	Forget()
}

// Config is what New builds the service from.
type Config struct {
	// Store is the store; every write transaction goes through Store(),
	// the service's view of it.
	Store memgov.Store
	Key   []byte           // signs provenance records: the log's key
	Now   func() time.Time // the clock, at the log's precision
	// Policy is the effective policy.
	Policy policy.Policy
	// Rules is the engine's rule-based judge, with the policy's relation
	// cardinalities; Judge an external contradiction checker, or nil.
	Rules *judge.Judge
	Judge gate.Judge
	// Secrets are redacted from every write (SR-1).
	Secrets *redact.Registry
	// Embedder is a model-backed embedder, or nil for the built-in
	// hashing vectors alone; Indexer derives the features of versions
	// (nil: BuiltinIndexer).
	Embedder similar.Embedder
	Indexer  Indexer
	// SnapshotGates judges concurrent writes on read snapshots, in
	// parallel, before the commit (see the top of groupcommit.go).
	SnapshotGates bool
	Reviews       Reviews
	Drift         Drift
	Search        SearchIndex
}

// Service is the write path of one store.
type Service struct {
	store      memgov.Store // indexingStore over the configured store
	key        []byte
	clock      func() time.Time
	policy     policy.Policy
	schemaGate gate.Schema
	judge      gate.Judge
	rules      *judge.Judge
	secrets    *redact.Registry
	embedder   similar.Embedder // model_vectors.go; nil: the built-in hashing vectors only
	indexer    Indexer          // features.go
	reviews    Reviews
	drift      Drift
	search     SearchIndex
	commits    groupCommit     // groupcommit.go
	notifier   memgov.Notifier // syncwait.go; nil: the store cannot wake other processes
	waits      syncWaits       // syncwait.go
	erasures   erasureListener // syncwait.go
}

// New returns the write service of c.Store.
func New(c Config) *Service {
	s := &Service{key: c.Key, clock: c.Now, policy: c.Policy, judge: c.Judge, rules: c.Rules, secrets: c.Secrets,
		embedder: c.Embedder, indexer: c.Indexer, reviews: c.Reviews, drift: c.Drift, search: c.Search}
	if s.indexer == nil {
		s.indexer = BuiltinIndexer()
	}
	s.store = indexingStore{Store: c.Store, s: s}
	s.notifier, _ = c.Store.(memgov.Notifier)
	s.commits.snapshots = c.SnapshotGates
	v, err := schema.Default()
	if err != nil {
		// The schemas are embedded and tested; failing to compile them is a
		// build defect, not an input error.
		panic(fmt.Sprintf("memgov: embedded write schemas: %v", err))
	}
	s.schemaGate = gate.Schema{Validator: v}
	return s
}

// Store is the service's view of its store: every write transaction through
// it indexes the versions its appended entries create, in the same
// transaction, and once committed tells the engines of other processes of
// the decisions and erasures it appended. The engine hands this view to
// every service, so that their entries are applied as the pipeline's are.
func (s *Service) Store() memgov.Store { return s.store }

func (s *Service) now() time.Time { return s.clock() }

func (s *Service) redactor(runID string) *redact.Redactor { return s.secrets.Redactor(runID) }

func isNotFound(err error) bool { return err != nil && errors.Is(err, memgov.ErrNotFound) }

// requirePrincipal refuses actors memgov does not know.
func requirePrincipal(ctx context.Context, tx memgov.ReadTx, actor string) error {
	return authz.Require(ctx, tx, actor)
}
