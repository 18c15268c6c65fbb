// Package host is memgov's host service: what an agent's host uses to read
// memory, and beside reading and writing it. The read API (access.go,
// reads.go, links.go, events.go): every read names its reader
// (memgov.Reader), the local owner or a registered principal, and authz
// bounds it. The
// MemoryAdapter (adapter.go), the host memory contract of spec §15.2, reads
// through the same API and writes through the engine's pipeline; search
// (search.go, searchindex.go) and the read notes and recorded retrievals
// (retrieval.go) are its. Reviewable learning (proposals of reusable
// artifacts, inert until applied), copy-on-write workspaces and their merge
// requests, inferred standing commitments, distillation of a memoryRef into
// an archive and its MEMORY-INDEX.json under a token budget, and the
// retention dimension's delete-by-subject (Forget).
//
// The service never imports the engine: the writes it cannot make with
// oplog.Append alone (a governed write, a new version of a key, the RETRACT
// of a version, the review a merge request's change waits in), and the
// payload of a logged entry, it asks of the engine through Writes; what the
// search index needs of the engine's judge, through Index.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/redact"
)

// Writes is what the service needs of the engine's write path, inside the
// service's own transaction.
type Writes interface {
	// Write runs a write through the governed pipeline (the
	// MemoryAdapter's Put).
	Write(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error)
	// AppendVersion appends the INSERT or UPDATE entry of a new ACTIVE
	// version of ref/key written by the host itself (the distillation
	// archive and index).
	AppendVersion(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, content json.RawMessage, tags []string, confidence float64, actor, reason string) (*oplog.Entry, error)
	// Retract appends the RETRACT entry of an ACTIVE version and returns its
	// LSN.
	Retract(ctx context.Context, tx memgov.Tx, v memgov.Version, actor, reason string) (int64, error)
	// StagedReview returns the asynchronous review a staged version waits
	// in, with its detail as the review queue shows it, due after the
	// policy's asynchronous review SLA from now.
	StagedReview(r StagedReview, now time.Time) (*oplog.StagedReview, error)
	// Payload returns the payload of the log entry at lsn.
	Payload(ctx context.Context, tx memgov.ReadTx, lsn int64) (oplog.Payload, error)
}

// Index is what the search index needs of the engine.
type Index interface {
	// Features derives the features of a content with the engine's
	// indexer: the vector of a version stored without one.
	Features(content json.RawMessage) (memory.Features, error)
	// ListenErasures subscribes the engine, once, to erasures by other
	// processes; each one heard empties the search indexes
	// (Service.ForgetSearches).
	ListenErasures()
	// ForgetTexts drops the texts the engine's judge keeps: a search that
	// sees an erasure newer than the last one it saw asks for it.
	ForgetTexts()
}

// StagedReview is what a reviewer is told of a change staged for review
// (a workspace merge request's change).
type StagedReview struct {
	Reasons         []string // the first is the review's reason
	Risk            float64
	RiskFormula     string
	Related         []memgov.RelatedItem
	ValidationScore float64
	Findings        []string
	Evidence        []oplog.EvidenceRef
}

// Service is the host service of one store.
type Service struct {
	store    memgov.Store
	now      func() time.Time
	policy   policy.Policy
	authz    *authz.Checker
	secrets  *redact.Registry
	writes   Writes
	index    Index
	searches *searchCache // searchindex.go
}

// New returns the host service of store under the policy pol, deciding who
// may act with az, redacting with the secrets of secrets (SR-1) and writing
// what oplog.Append cannot through writes, indexing searches with index.
// now is the engine's clock (UTC, at the log's millisecond precision).
func New(store memgov.Store, now func() time.Time, pol policy.Policy, az *authz.Checker, secrets *redact.Registry, writes Writes, index Index) *Service {
	return &Service{store: store, now: now, policy: pol, authz: az, secrets: secrets, writes: writes, index: index, searches: &searchCache{}}
}

func (s *Service) redactor(runID string) *redact.Redactor { return s.secrets.Redactor(runID) }

func isNotFound(err error) bool { return err != nil && errors.Is(err, memgov.ErrNotFound) }

// safeID is id when it is a valid identifier, else a placeholder, so that an
// error never echoes arbitrary input.
func safeID(s string) string {
	if memgov.ValidID(s) {
		return s
	}
	return "AGENT_ID"
}
