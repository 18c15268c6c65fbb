// Package reviews is memgov's reviews service: the decisions people make on
// the writes the pipeline held (approve, reject), the claims that keep two
// reviewers off one review (claim, release, escalate, the SLA sweep), the
// fail-closed rejection of a SYNC_BLOCK review past its deadline, and
// quarantine (holding a suspect writer's recent memory, and a curator's
// release or retraction of it). Every change is a log entry.
//
// It is the governance side of review. The package review (singular) is the
// console's side: the queue, drift, proposals and memory screens as the TUI,
// the CLI and the doors show them to one person, calling this service
// through the engine (engine.Engine.Reviews).
package reviews

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Effects is what a decision does beyond its own log entry, which the
// engine applies: the rest of a workspace merge request, and the payload of
// a version restored with the content of another.
type Effects interface {
	// WorkspaceDecided applies a decided review that belongs to a
	// workspace merge request: an approved removal retracts the base
	// entry; the last decision closes the request.
	WorkspaceDecided(ctx context.Context, tx memgov.Tx, r memgov.Review, approved bool, reviewer string) error
	// RestorePayload is the payload of a new ACTIVE version with v's
	// content, written for reason.
	RestorePayload(v memgov.Version, reason string) oplog.Payload
}

// Service is the reviews of one store.
type Service struct {
	store   memgov.Store
	now     func() time.Time
	policy  policy.Policy
	authz   *authz.Checker
	effects Effects
}

// New returns the reviews service of store under the policy pol (review
// leases, quarantine thresholds), deciding who may act with az. store is the
// engine's view of its store, through which entries are applied.
func New(store memgov.Store, now func() time.Time, pol policy.Policy, az *authz.Checker, effects Effects) *Service {
	return &Service{store: store, now: now, policy: pol, authz: az, effects: effects}
}

// RejectCodes are the reason codes of a rejection (spec §12.6.7).
var RejectCodes = []string{"FACTUAL_ERROR", "POLICY_VIOLATION", "DUPLICATE", "CONTRADICTION", "PII", "OUT_OF_SCOPE", "OTHER"}
