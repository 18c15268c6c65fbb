package engine

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/reviews"
)

// Audit returns the audit service: the log's reads (size, pages, entries
// by LSN, the LSN of a moment), its root and proofs, signed checkpoints,
// export, verification, rebuilds and the compliance report.
func (e *Engine) Audit() *audit.Service { return e.audit }

// Baselines returns the baselines service: baselines, drift, snapshots,
// memory checkpoints and their proofs, sessions and TTL expiry.
func (e *Engine) Baselines() *baselines.Service { return e.baselines }

// Host returns the host service: the read API (memory and the outbox of
// events, each read naming its reader), proposals, workspaces and their
// merge requests, commitments, distillation and forget by subject.
func (e *Engine) Host() *host.Service { return e.host }

// Lifecycle returns the lifecycle service: versions (rollback, restore,
// pins, annotations, reclassification, expiry), garbage collection,
// erasure, leases, promotion and consolidation.
func (e *Engine) Lifecycle() *lifecycle.Service { return e.lifecycle }

// Reviews returns the reviews service: decisions, claims, the fail-closed
// rejection of SYNC_BLOCK reviews past their deadline, and quarantine.
func (e *Engine) Reviews() *reviews.Service { return e.reviews }

// DriftGate is the drift step of the write pipeline (baselines.Service.DriftGate).
func (e *Engine) DriftGate(ctx context.Context, tx memgov.Tx, memoryRef string) (baselines.DriftGateResult, error) {
	return e.baselines.DriftGate(ctx, tx, memoryRef)
}

// baselineVersions gives the baselines service the engine's versions.
type baselineVersions struct{ e *Engine }

func (v baselineVersions) VersionEntry(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, actor string, now time.Time) (*oplog.Entry, error) {
	return v.e.writes.VersionEntry(ctx, tx, ref, key, layer, actor, now)
}

func (v baselineVersions) Active(ctx context.Context, tx memgov.ReadTx, q memgov.ActiveQuery) ([]memgov.Version, error) {
	return host.Active(ctx, tx, q)
}

// auditCaches gives the audit the engine's caches to check.
type auditCaches struct{ e *Engine }

func (c auditCaches) StateHash(ctx context.Context, tx memgov.ReadTx, ref string, now time.Time, alg canon.Algorithm) (string, error) {
	return c.e.baselines.StateHash(ctx, tx, ref, now, alg)
}

func (c auditCaches) IndexStatus(ctx context.Context) (memgov.IndexStatus, error) {
	return c.e.writes.IndexStatus(ctx)
}

func (c auditCaches) FoldReads(ctx context.Context) error { return c.e.host.FoldReads(ctx) }

// searchForgetter gives the lifecycle and write services the host's search
// indexes, for an erasure to drop. It reaches the host through the engine:
// the write service is built before the host.
type searchForgetter struct{ e *Engine }

func (x searchForgetter) Forget() { x.e.host.ForgetSearches() }

// reviewEffects applies, for the reviews service, what a decision does
// beyond its own log entry: a merge request's decisions are the host's
// (host.Service.WorkspaceDecided).
type reviewEffects struct{ e *Engine }

func (r reviewEffects) WorkspaceDecided(ctx context.Context, tx memgov.Tx, rv memgov.Review, approved bool, reviewer string) error {
	return r.e.host.WorkspaceDecided(ctx, tx, rv, approved, reviewer)
}

func (r reviewEffects) RestorePayload(v memgov.Version, reason string) oplog.Payload {
	return lifecycle.RestorePayload(v, reason)
}
