package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/oplog"
)

// Quarantine (spec §12.11.5, spec §2.6): an agent whose writes turn suspect (a
// burst, or a contradiction rate at or above the policy's threshold) has its
// recent ACTIVE writes QUARANTINED: a QUARANTINE log entry each, by memgov,
// with the cause. A quarantined version is gone from every read (reads return
// ACTIVE versions), kept for investigation, and listed for curators, who
// release it (a new ACTIVE version with its content) or retract it.

// OpQuarantine is the log operation of a quarantine, a release and a
// retraction.
const OpQuarantine = oplog.Quarantine

// Statuses of a quarantined version.
const (
	QuarantineOpen      = "QUARANTINED"
	QuarantineReleased  = "RELEASED"
	QuarantineRetracted = "RETRACTED"
)

// QuarantineEntry is one quarantined version.
type QuarantineEntry struct {
	VersionID  string     `json:"version_id"`
	ItemID     string     `json:"item_id"`
	MemoryRef  string     `json:"memory_ref"`
	Tenant     string     `json:"tenant"`
	Key        string     `json:"key"`
	Agent      string     `json:"agent"`
	Cause      string     `json:"cause"`
	Status     string     `json:"status"`
	At         time.Time  `json:"at"`
	LSN        int64      `json:"lsn"`
	DecidedBy  string     `json:"decided_by,omitempty"`
	DecidedAt  *time.Time `json:"decided_at,omitempty"`
	Note       string     `json:"note,omitempty"`
	ReleasedAs string     `json:"released_as,omitempty"`
}

// QuarantineQuery selects quarantined versions.
type QuarantineQuery struct {
	Status    string // "": every status
	Tenant    string // "" or "*": every tenant
	Agent     string
	VersionID string
	Limit     int
}

func contradictionReason(r string) bool {
	return r == ReasonContradiction || r == gate.ReasonSemanticConflict || r == gate.ReasonStructuralConflict
}

// afterWrite quarantines the writer's recent writes when the write just
// judged shows it crossing a threshold: a burst, or its contradiction rate.
func (e *Engine) afterWrite(ctx context.Context, tx Tx, agent string, res WriteResult) error {
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

func (e *Engine) appendQuarantine(ctx context.Context, tx Tx, v Version, actor string, d oplog.QuarantineData) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	entry := &LogEntry{Time: e.Now(), Op: OpQuarantine, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
	if err := entry.Seal(Payload{Reason: d.Action + ": " + d.Cause, Data: data}); err != nil {
		return err
	}
	return tx.Append(ctx, entry)
}

// Quarantined lists quarantined versions for a curator: those of the tenants
// the curator governs.
func (e *Engine) Quarantined(ctx context.Context, q QuarantineQuery) ([]QuarantineEntry, error) {
	var out []QuarantineEntry
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		out, err = tx.Quarantined(ctx, q)
		return err
	})
	if out == nil {
		out = []QuarantineEntry{}
	}
	return out, err
}

// ReleaseQuarantine releases a quarantined version: a new ACTIVE version with
// its content, by a curator of its tenant, with a note. It is refused when the
// entry was written again since (retract the quarantined version instead).
func (e *Engine) ReleaseQuarantine(ctx context.Context, versionID, curator, note string) (Version, error) {
	var out Version
	err := e.store.Update(ctx, func(tx Tx) error {
		qe, v, err := e.quarantinedFor(ctx, tx, versionID, curator)
		if err != nil {
			return err
		}
		item, err := tx.Item(ctx, v.ItemID)
		if err != nil {
			return err
		}
		if item.Head != "" {
			return fmt.Errorf("%w: %s was written again since it was quarantined; retract the quarantined version instead", ErrConflict, v.Key)
		}
		if v.ExpiredAt(e.Now()) {
			return fmt.Errorf("%w: the quarantined version of %s has expired", ErrConflict, v.Key)
		}
		data, err := json.Marshal(oplog.QuarantineData{Action: oplog.QuarantineRelease, Agent: qe.Agent, Cause: note})
		if err != nil {
			return err
		}
		entry := &LogEntry{Time: e.Now(), Op: OpQuarantine, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: NewID(), PrevVersionID: v.ID, Actor: curator}
		p := restorePayload(v, "released from quarantine by "+curator+": "+note)
		p.Data = data
		if err := entry.Seal(p); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		out, err = tx.Version(ctx, entry.VersionID)
		return err
	})
	return out, err
}

// RetractQuarantine retracts a quarantined version for good.
func (e *Engine) RetractQuarantine(ctx context.Context, versionID, curator, note string) error {
	return e.store.Update(ctx, func(tx Tx) error {
		qe, v, err := e.quarantinedFor(ctx, tx, versionID, curator)
		if err != nil {
			return err
		}
		return e.appendQuarantine(ctx, tx, v, curator, oplog.QuarantineData{Action: oplog.QuarantineRetract, Agent: qe.Agent, Cause: note})
	})
}

// quarantinedFor returns an open quarantine a curator may decide.
func (e *Engine) quarantinedFor(ctx context.Context, tx Tx, versionID, curator string) (QuarantineEntry, Version, error) {
	who, err := tx.Principal(ctx, curator)
	if err != nil {
		return QuarantineEntry{}, Version{}, requirePrincipal(ctx, tx, curator)
	}
	if who.Role != Curator {
		return QuarantineEntry{}, Version{}, fmt.Errorf("%w: only curators release or retract quarantined memory; %s is a %s", ErrForbidden, who.ID, who.Role)
	}
	rs, err := tx.Quarantined(ctx, QuarantineQuery{VersionID: versionID})
	if err != nil {
		return QuarantineEntry{}, Version{}, err
	}
	if len(rs) == 0 {
		return QuarantineEntry{}, Version{}, fmt.Errorf("%w: no quarantined version %s", ErrNotFound, versionID)
	}
	qe := rs[0]
	if !who.Governs(qe.Tenant) {
		return QuarantineEntry{}, Version{}, fmt.Errorf("%w: %s does not govern tenant %s", ErrForbidden, who.ID, qe.Tenant)
	}
	if qe.Status != QuarantineOpen {
		return QuarantineEntry{}, Version{}, fmt.Errorf("%w: version %s was already %s by %s", ErrConflict, versionID, strings.ToLower(qe.Status), qe.DecidedBy)
	}
	v, err := tx.Version(ctx, versionID)
	return qe, v, err
}
