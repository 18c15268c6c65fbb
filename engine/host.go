package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/writes"
)

// hostWrites gives the host service the engine's writes: new versions, the
// RETRACT of a version, the reviews of staged changes and the payload of an
// entry.
type hostWrites struct{ e *Engine }

// AppendVersion appends the INSERT or UPDATE entry of a new ACTIVE version of
// ref/key written by the host itself (distillation).
func (w hostWrites) AppendVersion(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, content json.RawMessage, tags []string, confidence float64, actor, reason string) (*oplog.Entry, error) {
	return w.e.writes.AppendVersion(ctx, tx, ref, key, layer, content, tags, confidence, actor, reason)
}

func (w hostWrites) Write(ctx context.Context, req memgov.WriteRequest) (memgov.WriteResult, error) {
	return w.e.writes.Write(ctx, req)
}

func (w hostWrites) Retract(ctx context.Context, tx memgov.Tx, v memgov.Version, actor, reason string) (int64, error) {
	return w.e.retract(ctx, tx, v, actor, reason)
}

// retract appends the RETRACT entry of an ACTIVE version.
func (e *Engine) retract(ctx context.Context, tx memgov.Tx, v memgov.Version, actor, reason string) (int64, error) {
	entry := &oplog.Entry{Time: e.Now(), Op: oplog.Retract, MemoryRef: v.MemoryRef, ItemID: v.ItemID,
		VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
	if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason}); err != nil {
		return 0, err
	}
	return entry.LSN, nil
}

// hostIndex gives the host's search index the engine's indexer, its
// erasure listener and its judge's cache of texts.
type hostIndex struct{ e *Engine }

func (x hostIndex) Features(content json.RawMessage) (memory.Features, error) {
	return x.e.writes.Features(content)
}

func (x hostIndex) ListenErasures() { x.e.writes.ListenErasures() }

func (x hostIndex) ForgetTexts() { x.e.rules.Forget() }

// StagedReview is the asynchronous review of a staged change, with its
// detail as the review queue reads it (ReviewDetail).
func (w hostWrites) StagedReview(r host.StagedReview, now time.Time) (*oplog.StagedReview, error) {
	detail := writes.ReviewDetail{Reasons: r.Reasons, RiskFormula: r.RiskFormula, Related: r.Related, ValidationScore: r.ValidationScore,
		Findings: r.Findings, Evidence: r.Evidence}
	dj, err := json.Marshal(detail)
	if err != nil {
		return nil, err
	}
	return &oplog.StagedReview{ID: oplog.NewID(), Tier: writes.TierAsync, Risk: r.Risk, Reason: r.Reasons[0],
		DueAt: now.Add(w.e.policy.Review.AsyncSLA.Std()).Format(oplog.TimeFormat), Detail: dj}, nil
}

func (w hostWrites) Payload(ctx context.Context, tx memgov.ReadTx, lsn int64) (oplog.Payload, error) {
	return payloadOf(ctx, tx, lsn)
}

// payloadOf reads the payload of the entry at lsn.
func payloadOf(ctx context.Context, tx memgov.ReadTx, lsn int64) (oplog.Payload, error) {
	var p oplog.Payload
	found := false
	err := tx.LogRange(ctx, lsn, lsn, func(le *oplog.Entry) error {
		var err error
		p, err = le.DecodePayload()
		found = true
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("%w: log entry %d", memgov.ErrNotFound, lsn)
	}
	return p, err
}
