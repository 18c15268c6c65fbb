// Package lifecycle is memgov's lifecycle service: what happens to memory
// after it is written. Versions are rolled back, restored, pinned,
// annotated, reclassified and expired; garbage collection expires what has
// decayed and hard-deletes what its grace period has passed; erasure removes
// a subject's data for good; leases hand out fencing tokens; promotion turns
// corroborated episodes into semantic memory; consolidation folds the
// entries another states in full.
package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/redact"
)

// Erasure kinds recorded by ERASE entries.
const (
	EraseGCHard    = "gc_hard_delete" // phase 2 of GC after the grace period (spec §12.7.5)
	EraseRetention = "retention"      // PII past its retention: hard delete + audit (spec §12.10.4)
)

// Pipeline is what the service needs of the write pipeline: a governed
// write, through every gate (a promotion is one), and the features the
// judge reads of a content (promotion and consolidation group and compare
// entries by them).
type Pipeline interface {
	Write(ctx context.Context, r memgov.WriteRequest) (memgov.WriteResult, error)
	Features(content json.RawMessage) (memory.Features, error)
}

// SearchIndex is the search index kept of the texts of memory: an erasure
// drops it, so that no erased word is found again.
type SearchIndex interface {
	Forget()
}

// Service is the lifecycle of the memory of one store.
type Service struct {
	store    memgov.Store
	key      []byte
	clock    func() time.Time
	policy   policy.Policy
	authz    *authz.Checker
	rules    *judge.Judge
	secrets  *redact.Registry
	pipeline Pipeline
	search   SearchIndex
}

// Config is what New builds the service from.
type Config struct {
	Store memgov.Store
	Key   []byte           // the log key: erasures salt the subject's hash with it
	Now   func() time.Time // the clock, at the log's precision
	// Policy is the effective policy; Authz decides who may act.
	Policy policy.Policy
	Authz  *authz.Checker
	// Rules is the engine's rule-based judge, with the policy's relation
	// cardinalities: consolidation judges with it, and an erasure makes it
	// forget the texts it read.
	Rules *judge.Judge
	// Secrets are redacted again from what consolidation merges.
	Secrets  *redact.Registry
	Pipeline Pipeline
	Search   SearchIndex
}

// New returns the lifecycle service of c.Store.
func New(c Config) *Service {
	return &Service{store: c.Store, key: c.Key, clock: c.Now, policy: c.Policy, authz: c.Authz, rules: c.Rules,
		secrets: c.Secrets, pipeline: c.Pipeline, search: c.Search}
}

func (s *Service) now() time.Time { return s.clock() }

func (s *Service) redactor(runID string) *redact.Redactor { return s.secrets.Redactor(runID) }

func (s *Service) featuresOf(content json.RawMessage) (memory.Features, error) {
	return s.pipeline.Features(content)
}

// permitTx decides whether actor may perform a on t, inside a transaction.
func (s *Service) permitTx(ctx context.Context, tx memgov.ReadTx, actor string, a authz.Action, t authz.Target) (memgov.Principal, error) {
	return s.authz.PermitID(ctx, tx, actor, a, t)
}

// requirePrincipal refuses actors memgov does not know.
func requirePrincipal(ctx context.Context, tx memgov.ReadTx, actor string) error {
	return authz.Require(ctx, tx, actor)
}

func itemAndPrincipal(ctx context.Context, tx memgov.ReadTx, itemID, actor string) (memgov.Item, memgov.Principal, error) {
	who, err := tx.Principal(ctx, actor)
	if err != nil {
		return memgov.Item{}, who, fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, actor)
	}
	item, err := tx.Item(ctx, itemID)
	return item, who, err
}

func isNotFound(err error) bool { return err != nil && errors.Is(err, memgov.ErrNotFound) }

func tenantOf(ref string) string {
	t, _, _ := strings.Cut(ref, "/")
	return t
}

// payloadAt reads the payload of the entry at lsn.
func payloadAt(ctx context.Context, tx memgov.ReadTx, lsn int64) (oplog.Payload, error) {
	var p oplog.Payload
	err := tx.LogRange(ctx, lsn, lsn, func(le *oplog.Entry) (err error) {
		p, err = le.DecodePayload()
		return err
	})
	return p, err
}

func normTags(tags []string) []string { return oplog.NormTags(tags) }

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
