package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/lifecycle"
)

// Quarantine (spec §12.11.5, spec §2.6): an agent whose writes turn suspect (a
// burst, or a contradiction rate at or above the policy's threshold) has its
// recent ACTIVE writes QUARANTINED: a QUARANTINE log entry each, by memgov,
// with the cause. A quarantined version is gone from every read (reads return
// ACTIVE versions), kept for investigation, and listed for curators, who
// release it (a new ACTIVE version with its content) or retract it.

func contradictionReason(r string) bool {
	return r == gate.ReasonContradiction || r == gate.ReasonSemanticConflict || r == gate.ReasonStructuralConflict
}

// afterWrite quarantines the writer's recent writes when the write just
// judged shows it crossing a threshold: a burst, or its contradiction rate.
func (e *Engine) afterWrite(ctx context.Context, tx memgov.Tx, agent string, res memgov.WriteResult) error {
	burst := res.Gate == gate.NameRateLimit && res.Reason == gate.ReasonSuspended
	if !burst && !contradictionReason(res.Reason) {
		return nil
	}
	rep := e.policy.Reputation
	window := rep.QuarantineWindow.Std()
	if window <= 0 {
		return nil
	}
	now := e.Now()
	cause := ""
	if burst {
		cause = "write burst: " + res.Detail
	} else {
		total, contra, err := tx.AgentOutcomes(ctx, agent, now.Add(-window))
		if err != nil {
			return fmt.Errorf("quarantine: count outcomes of %s: %w", agent, err)
		}
		rate := 0.0
		if total > 0 {
			rate = float64(contra) / float64(total)
		}
		if rep.QuarantineContradictionRate <= 0 || total < max(rep.QuarantineMinWrites, 1) || rate < rep.QuarantineContradictionRate {
			return nil
		}
		cause = fmt.Sprintf("contradiction rate %.2f (%d of %d writes within %s) reaches %.2f", rate, contra, total, window, rep.QuarantineContradictionRate)
	}
	vs, err := tx.ActiveWrittenBy(ctx, agent, now.Add(-window))
	if err != nil {
		return fmt.Errorf("quarantine: recent writes of %s: %w", agent, err)
	}
	for _, v := range vs {
		if err := e.appendQuarantine(ctx, tx, v, "memgov", oplog.QuarantineData{Action: oplog.QuarantineHold, Agent: agent, Cause: cause}); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) appendQuarantine(ctx context.Context, tx memgov.Tx, v memgov.Version, actor string, d oplog.QuarantineData) error {
	entry := &oplog.Entry{Time: e.Now(), Op: oplog.Quarantine, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
	return oplog.AppendData(ctx, tx, entry, d.Action+": "+d.Cause, d)
}

// Quarantined lists quarantined versions for a curator: those of the tenants
// the curator governs.
func (e *Engine) Quarantined(ctx context.Context, q memgov.QuarantineQuery) ([]memgov.QuarantineEntry, error) {
	var out []memgov.QuarantineEntry
	err := e.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = tx.Quarantined(ctx, q)
		return err
	})
	if out == nil {
		out = []memgov.QuarantineEntry{}
	}
	return out, err
}

// ReleaseQuarantine releases a quarantined version: a new ACTIVE version with
// its content, by a curator of its tenant, with a note. It is refused when the
// entry was written again since (retract the quarantined version instead).
func (e *Engine) ReleaseQuarantine(ctx context.Context, versionID, curator, note string) (memgov.Version, error) {
	var out memgov.Version
	err := e.store.Update(ctx, func(tx memgov.Tx) error {
		qe, v, err := e.quarantinedFor(ctx, tx, versionID, curator)
		if err != nil {
			return err
		}
		item, err := tx.Item(ctx, v.ItemID)
		if err != nil {
			return err
		}
		if item.Head != "" {
			return fmt.Errorf("%w: %s was written again since it was quarantined; retract the quarantined version instead", memgov.ErrConflict, v.Key)
		}
		if v.ExpiredAt(e.Now()) {
			return fmt.Errorf("%w: the quarantined version of %s has expired", memgov.ErrConflict, v.Key)
		}
		data, err := json.Marshal(oplog.QuarantineData{Action: oplog.QuarantineRelease, Agent: qe.Agent, Cause: note})
		if err != nil {
			return err
		}
		entry := &oplog.Entry{Time: e.Now(), Op: oplog.Quarantine, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: oplog.NewID(), PrevVersionID: v.ID, Actor: curator}
		p := lifecycle.RestorePayload(v, "released from quarantine by "+curator+": "+note)
		p.Data = data
		if err := oplog.Append(ctx, tx, entry, p); err != nil {
			return err
		}
		out, err = tx.Version(ctx, entry.VersionID)
		return err
	})
	return out, err
}

// RetractQuarantine retracts a quarantined version for good.
func (e *Engine) RetractQuarantine(ctx context.Context, versionID, curator, note string) error {
	return e.store.Update(ctx, func(tx memgov.Tx) error {
		qe, v, err := e.quarantinedFor(ctx, tx, versionID, curator)
		if err != nil {
			return err
		}
		return e.appendQuarantine(ctx, tx, v, curator, oplog.QuarantineData{Action: oplog.QuarantineRetract, Agent: qe.Agent, Cause: note})
	})
}

// quarantinedFor returns an open quarantine a curator may decide.
func (e *Engine) quarantinedFor(ctx context.Context, tx memgov.Tx, versionID, curator string) (memgov.QuarantineEntry, memgov.Version, error) {
	who, err := tx.Principal(ctx, curator)
	if err != nil {
		return memgov.QuarantineEntry{}, memgov.Version{}, requirePrincipal(ctx, tx, curator)
	}
	if err := authz.CuratorOnly(who, "release or retract quarantined memory"); err != nil {
		return memgov.QuarantineEntry{}, memgov.Version{}, err
	}
	rs, err := tx.Quarantined(ctx, memgov.QuarantineQuery{VersionID: versionID})
	if err != nil {
		return memgov.QuarantineEntry{}, memgov.Version{}, err
	}
	if len(rs) == 0 {
		return memgov.QuarantineEntry{}, memgov.Version{}, fmt.Errorf("%w: no quarantined version %s", memgov.ErrNotFound, versionID)
	}
	qe := rs[0]
	if !authz.Governs(who, qe.Tenant) {
		return memgov.QuarantineEntry{}, memgov.Version{}, fmt.Errorf("%w: %s does not govern tenant %s", memgov.ErrForbidden, who.ID, qe.Tenant)
	}
	if qe.Status != memgov.QuarantineOpen {
		return memgov.QuarantineEntry{}, memgov.Version{}, fmt.Errorf("%w: version %s was already %s by %s", memgov.ErrConflict, versionID, strings.ToLower(qe.Status), qe.DecidedBy)
	}
	v, err := tx.Version(ctx, versionID)
	return qe, v, err
}
