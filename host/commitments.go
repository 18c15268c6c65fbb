package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// Inferred standing commitments (spec §15.9). An entry states a
// commitment in its content:
//
//	{"text": "Follow up with ACME on Monday", "commit_at": "2026-06-01T09:00:00Z"}
//	{"text": "Tell the customer when the invoice clears", "commit_when": {"key": "invoice/123/cleared"}}
//	{"text": "...", "commit_when": {"tag": "incident"}}
//
// commit_at is a time condition; commit_when a predicate over the same
// memoryRef's visible entries (an entry with that key, or another entry with
// that tag, is visible). Tick infers the commitments of a ref (a COMMITMENT
// log entry each, bound to the ref and its tenant) and fires those whose
// condition holds: a time commitment once, at its instant; a predicate
// commitment once per false-to-true transition (COMMITMENT_ARM re-arms it when
// the predicate turns false). Firing is a COMMITMENT_FIRE log entry whose apply
// emits the content-free commitment.fired event, so a rebuild replays the
// firing without firing again. A commitment whose source entry is no longer
// visible (retracted, superseded, expired) does not fire.

type commitSpec struct {
	CommitAt   string          `json:"commit_at"`
	CommitWhen json.RawMessage `json:"commit_when"`
}

type predicateSpec struct {
	Key string `json:"key,omitempty"`
	Tag string `json:"tag,omitempty"`
}

// commitmentID is derived from the source version, so inference is idempotent.
func commitmentID(versionID string) string {
	h := sha256.Sum256([]byte("memgov-commitment\x00" + versionID))
	return "cmt-" + hex.EncodeToString(h[:12])
}

// TickCommitments infers the commitments of a memoryRef and fires those due
// (see oplog.Commitment). actor must govern the ref's tenant.
func (svc *Service) TickCommitments(ctx context.Context, ref, actor string) (memgov.TickResult, error) {
	res := memgov.TickResult{MemoryRef: ref, Inferred: []string{}, Fired: []string{}, Rearmed: []string{}}
	r, err := scope.Parse(ref)
	if err != nil {
		return res, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		if err := requireTenantPrincipal(ctx, tx, actor, r.Tenant); err != nil {
			return err
		}
		now := svc.now()
		active, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ref, Now: now})
		if err != nil {
			return err
		}
		visible := map[string]bool{}
		for _, v := range active {
			visible[v.ID] = true
		}
		appendOp := func(op oplog.Op, itemID string, d oplog.CommitmentData, reason string) (*oplog.Entry, error) {
			entry := &oplog.Entry{Time: now, Op: op, MemoryRef: ref, ItemID: itemID, Actor: actor}
			return entry, oplog.AppendData(ctx, tx, entry, reason, d)
		}
		for _, v := range active {
			if memgov.Reserved(v.Key) {
				continue
			}
			var spec commitSpec
			if json.Unmarshal(v.Content, &spec) != nil || (spec.CommitAt == "" && len(spec.CommitWhen) == 0) {
				continue
			}
			id := commitmentID(v.ID)
			if _, err := tx.Commitment(ctx, id); err == nil {
				continue
			} else if !isNotFound(err) {
				return err
			}
			d := oplog.CommitmentData{ID: id, Tenant: r.Tenant, SourceVersionID: v.ID}
			switch {
			case spec.CommitAt != "":
				t, err := time.Parse(time.RFC3339Nano, spec.CommitAt)
				if err != nil {
					continue // not a commitment memgov can schedule
				}
				d.Kind, d.DueAt = memgov.CommitTime, t.UTC().Truncate(time.Millisecond).Format(oplog.TimeFormat)
			default:
				var ps predicateSpec
				if json.Unmarshal(spec.CommitWhen, &ps) != nil || (ps.Key == "") == (ps.Tag == "") {
					continue
				}
				raw, err := canon.Marshal(ps)
				if err != nil {
					return err
				}
				d.Kind, d.Predicate = memgov.CommitPredicate, raw
			}
			if _, err := appendOp(oplog.Commitment, v.ItemID, d, "commitment inferred from "+v.Key); err != nil {
				return err
			}
			res.Inferred = append(res.Inferred, id)
		}
		list, err := tx.Commitments(ctx, ref)
		if err != nil {
			return err
		}
		for _, c := range list {
			if !visible[c.SourceVersionID] {
				continue
			}
			switch c.Kind {
			case memgov.CommitTime:
				if c.FiredCount > 0 || c.DueAt == nil || now.Before(*c.DueAt) {
					continue
				}
				if _, err := appendOp(oplog.CommitmentFire, c.SourceItemID, oplog.CommitmentData{ID: c.ID, Kind: c.Kind}, "commitment due"); err != nil {
					return err
				}
				res.Fired = append(res.Fired, c.ID)
			case memgov.CommitPredicate:
				var ps predicateSpec
				if err := memgov.DecodeStored("commitments.predicate of row "+c.ID, c.Predicate, &ps); err != nil {
					return err
				}
				holds := false
				for _, v := range active {
					if v.ID == c.SourceVersionID {
						continue
					}
					if ps.Key != "" && v.Key == ps.Key || ps.Tag != "" && slices.Contains(v.Tags, ps.Tag) {
						holds = true
						break
					}
				}
				switch {
				case holds && c.Armed:
					if _, err := appendOp(oplog.CommitmentFire, c.SourceItemID, oplog.CommitmentData{ID: c.ID, Kind: c.Kind}, "commitment condition holds"); err != nil {
						return err
					}
					res.Fired = append(res.Fired, c.ID)
				case !holds && !c.Armed:
					if _, err := appendOp(oplog.CommitmentArm, c.SourceItemID, oplog.CommitmentData{ID: c.ID, Kind: c.Kind}, "commitment condition no longer holds"); err != nil {
						return err
					}
					res.Rearmed = append(res.Rearmed, c.ID)
				}
			}
		}
		return nil
	})
	return res, err
}

// Commitments lists every commitment of a memoryRef (the local owner's view).
func (svc *Service) Commitments(ctx context.Context, ref string) ([]memgov.Commitment, error) {
	out := []memgov.Commitment{}
	if !scope.Valid(ref) {
		return out, nil
	}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		list, err := tx.Commitments(ctx, ref)
		if err == nil && list != nil {
			out = list
		}
		return err
	})
	return out, err
}
