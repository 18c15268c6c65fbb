// Package storeconf gives the store conformance suite (store/storetest) the
// engine it drives: an engine on the store under test, with its services'
// operations in one method set. Both stores' conformance tests use it, so the
// suite runs the same engine against each.
package storeconf

import (
	"context"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/storetest"
)

// Engine builds the engine storetest.Factory.Engine asks for: on s, chained
// with key, on the clock now, under the policy pol (the default when empty).
func Engine(s memgov.Store, key []byte, now func() time.Time, pol []byte) (storetest.Engine, error) {
	opts := []engine.Option{engine.WithClock(now)}
	if len(pol) > 0 {
		p, err := policy.Parse(pol)
		if err != nil {
			return nil, err
		}
		opts = append(opts, engine.WithPolicy(p))
	}
	return conformance{engine.New(s, key, opts...)}, nil
}

// conformance is the engine as the conformance suite drives it: the
// engine's operations and those of its services, in one method set.
type conformance struct{ *engine.Engine }

func (c conformance) AuditRoot(ctx context.Context) (memgov.AuditRoot, error) {
	return c.Audit().AuditRoot(ctx)
}

func (c conformance) AcceptCheckpoint(ctx context.Context, signed oplog.AuditCheckpointRecord) (merkle.Verdict, error) {
	return c.Audit().AcceptCheckpoint(ctx, signed)
}

func (c conformance) Checkpoint(ctx context.Context, ttlSeconds int64, actor string) (oplog.AuditCheckpointRecord, error) {
	return c.Audit().Checkpoint(ctx, ttlSeconds, actor)
}

func (c conformance) Prove(ctx context.Context, from int64) (memgov.ConsistencyProof, error) {
	return c.Audit().Prove(ctx, from)
}

func (c conformance) Rebuild(ctx context.Context) (memgov.RebuildReport, error) {
	return c.Audit().Rebuild(ctx)
}

func (c conformance) Verify(ctx context.Context) (memgov.VerifyReport, error) {
	return c.Audit().Verify(ctx)
}

func (c conformance) AckDrift(ctx context.Context, r memgov.AckRequest) (memgov.AckResult, error) {
	return c.Baselines().AckDrift(ctx, r)
}

func (c conformance) ApproveBaseline(ctx context.Context, r memgov.ApproveRequest) (memgov.Baseline, error) {
	return c.Baselines().ApproveBaseline(ctx, r)
}

func (c conformance) StartSession(ctx context.Context, ref, actor string) (memgov.MemSession, memgov.VerifyResult, error) {
	return c.Baselines().StartSession(ctx, ref, actor)
}

func (c conformance) EndSession(ctx context.Context, ref, actor string) (memgov.MemSession, error) {
	return c.Baselines().EndSession(ctx, ref, actor)
}

func (c conformance) VerifyMemory(ctx context.Context, r memgov.VerifyRequest) (memgov.VerifyResult, error) {
	return c.Baselines().VerifyMemory(ctx, r)
}

func (c conformance) Decide(ctx context.Context, d memgov.Decision) (memgov.Review, error) {
	return c.Reviews().Decide(ctx, d)
}

func (c conformance) ReleaseQuarantine(ctx context.Context, versionID, curator, note string) (memgov.Version, error) {
	return c.Reviews().ReleaseQuarantine(ctx, versionID, curator, note)
}

func (c conformance) SweepReviews(ctx context.Context) (memgov.SweepResult, error) {
	return c.Reviews().Sweep(ctx)
}

func (c conformance) AcquireLease(ctx context.Context, ref, key, holder string, ttl time.Duration) (memgov.LeaseResult, error) {
	return c.Lifecycle().AcquireLease(ctx, ref, key, holder, ttl)
}

func (c conformance) ReleaseLease(ctx context.Context, ref, key, holder string, token int64) error {
	return c.Lifecycle().ReleaseLease(ctx, ref, key, holder, token)
}

func (c conformance) Erase(ctx context.Context, r memgov.EraseRequest) (memgov.EraseReport, error) {
	return c.Lifecycle().Erase(ctx, r)
}

func (c conformance) HardDelete(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return c.Lifecycle().HardDelete(ctx, itemID, actor, reason)
}

func (c conformance) Pin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return c.Lifecycle().Pin(ctx, itemID, actor, reason)
}

func (c conformance) Unpin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return c.Lifecycle().Unpin(ctx, itemID, actor, reason)
}

func (c conformance) Rollback(ctx context.Context, versionID, actor, reason string) (memgov.RollbackResult, error) {
	return c.Lifecycle().Rollback(ctx, versionID, actor, reason)
}

func (c conformance) RestoreVersion(ctx context.Context, versionID, actor, reason string) (memgov.RollbackResult, error) {
	return c.Lifecycle().RestoreVersion(ctx, versionID, actor, reason)
}

func (c conformance) Expire(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return c.Lifecycle().Expire(ctx, itemID, actor, reason)
}

// The suite reads as the database's local owner: every tenant, unfiltered.

func (c conformance) Get(ctx context.Context, ref, key string) (memgov.Version, error) {
	return c.Host().Get(ctx, memgov.Owner, ref, key)
}

func (c conformance) History(ctx context.Context, itemID string) (memgov.Item, []memgov.Version, error) {
	return c.Host().History(ctx, memgov.Owner, itemID)
}

func (c conformance) Item(ctx context.Context, id string) (memgov.Item, error) {
	return c.Host().Item(ctx, memgov.Owner, id)
}

func (c conformance) Read(ctx context.Context, q memgov.ReadQuery) (memgov.Snapshot, error) {
	s, err := c.Host().Read(ctx, memgov.Owner, q)
	return s.Snapshot, err
}
