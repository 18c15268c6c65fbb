package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// GCOptions configure one GC run.
type GCOptions struct {
	By     string // the principal running GC (soft delete needs "delete", hard delete "hard_delete")
	DryRun bool
	Batch  int // items scanned per layer per run (default 500); the cursor resumes there
}

// GCAction is one decision of a GC run.
type GCAction struct {
	ItemID    string       `json:"item_id"`
	MemoryRef string       `json:"memory_ref"`
	Key       string       `json:"key"`
	Layer     memgov.Layer `json:"layer"`
	Mode      string       `json:"mode"`
	Relevance float64      `json:"relevance,omitempty"`
	Detail    string       `json:"detail,omitempty"`
}

// GCReport is what a GC run scanned, expired, hard-deleted and protected.
type GCReport struct {
	At          time.Time               `json:"at"`
	DryRun      bool                    `json:"dry_run"`
	Scanned     int                     `json:"scanned"`
	Expired     []GCAction              `json:"expired"`
	HardDeleted []GCAction              `json:"hard_deleted"`
	Protected   []GCAction              `json:"protected"`
	Retained    int                     `json:"retained_persistent"` // EXPIRED persistent items kept (soft supersession)
	Cursors     map[memgov.Layer]string `json:"cursors"`
	ErasureLSN  int64                   `json:"erasure_lsn,omitempty"`
}

// GC runs one batch of garbage collection (spec §12.7.4, §12.7.5, §12.10.4):
//
//   - Phase 1, soft delete: in each layer from its resumable cursor, an ACTIVE
//     item is expired (an EXPIRE entry; it leaves every index) when its TTL has
//     passed (mode 1), its classification's retention has passed (spec §12.10.4,
//     overriding relevance), or rho(m,t) < tau_gc(l) and it has been idle
//     longer than T_idle(l) (mode 2). Reads reinforce relevance through
//     n_access and impact(m) from usage feedback.
//   - Phase 2, hard delete: an item EXPIRED for longer than T_grace loses its
//     content through an ERASE entry of kind gc_hard_delete, but only in the
//     transient layers (WORKING, SESSION). Persistent memory (EPISODIC,
//     SEMANTIC, PROCEDURAL) is never hard-deleted by GC (spec §13.16: soft
//     supersession; only erasure removes it). PII past its retention is hard
//     deleted at once in every layer (spec §12.10.4 "hard delete + audit").
//
// Pinned items and items load-bearing for an action (cited by live memory,
// under or carrying a human approval, part of a rollback or a baseline) are
// never collected. A dry run decides without writing anything.
func (s *Service) GC(ctx context.Context, o GCOptions) (GCReport, error) {
	if o.Batch <= 0 {
		o.Batch = 500
	}
	rep := GCReport{DryRun: o.DryRun, Cursors: map[memgov.Layer]string{}, Expired: []GCAction{}, HardDeleted: []GCAction{}, Protected: []GCAction{}}
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		now := s.now()
		rep.At = now
		who, err := tx.Principal(ctx, o.By)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q (gc --by a curator or orchestrator)", memgov.ErrUnauthorized, o.By)
		}
		if err := tx.FoldReads(ctx); err != nil {
			return err
		}
		pol := s.policy
		var retentionHard []string
		for _, layer := range memgov.Layers {
			if !pol.Allowed(string(who.Role), string(layer), policy.OpDelete) {
				continue
			}
			cursor, err := tx.GCCursor(ctx, layer)
			if err != nil {
				return err
			}
			items, err := tx.GCScan(ctx, layer, cursor, o.Batch, now, pol.Decay.AccessWindow.Std())
			if err != nil {
				return err
			}
			for _, g := range items {
				if !authz.Governs(who, tenantOf(g.Item.MemoryRef)) {
					continue
				}
				rep.Scanned++
				act := GCAction{ItemID: g.Item.ID, MemoryRef: g.Item.MemoryRef, Key: g.Item.Key, Layer: layer}
				u := usageOf(g, now)
				act.Relevance = round3(pol.Relevance(u))
				class := g.Item.Classification
				if class == "" {
					class = g.Head.Classification
				}
				switch {
				case g.Item.Pinned:
					act.Mode = oplog.GCModePinned
				case g.Linked != "":
					act.Mode, act.Detail = oplog.GCModeLinked, g.Linked
				case g.Head.ExpiredAt(now):
					act.Mode = oplog.GCModeTTL
				case class != "" && pol.RetentionExpired(class, now.Sub(g.Item.CreatedAt)):
					act.Mode, act.Detail = oplog.GCModeRetention, class
					if r, ok := pol.Retention.Get(class); ok && r.Action == policy.HardDeleteAudit {
						retentionHard = append(retentionHard, g.Item.ID)
					}
				case decayedBelowFloor(&pol, g.Head, now):
					c, _ := pol.DecayConfidence(g.Head.Source, g.Head.Confidence, now.Sub(g.Head.CreatedAt))
					act.Mode, act.Detail = oplog.GCModeConfidence, fmt.Sprintf("%s confidence decayed from %.2f to %.2f, below %.2f",
						g.Head.Source, g.Head.Confidence, c, pol.ConfidenceDecay.EvictBelow)
				case pol.GCEligible(u):
					act.Mode = oplog.GCModeRelevance
				default:
					continue
				}
				if act.Mode == oplog.GCModePinned || act.Mode == oplog.GCModeLinked {
					// Retention still applies to what GC may not touch: the
					// compliance report lists it as a breach.
					rep.Protected = append(rep.Protected, act)
					continue
				}
				rep.Expired = append(rep.Expired, act)
				if o.DryRun {
					continue
				}
				data, _ := json.Marshal(oplog.ExpireData{GC: act.Mode})
				entry := &oplog.Entry{Time: now, Op: oplog.Expire, MemoryRef: g.Item.MemoryRef, ItemID: g.Item.ID, VersionID: g.Head.ID, PrevVersionID: g.Head.Prev, Actor: o.By}
				reason := "gc: " + act.Mode
				if act.Detail != "" {
					reason += " (" + act.Detail + ")"
				}
				if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason, Data: data}); err != nil {
					return err
				}
			}
			next := ""
			if len(items) == o.Batch {
				next = items[len(items)-1].Item.ID
			}
			rep.Cursors[layer] = next
			if !o.DryRun {
				if err := tx.SetGCCursor(ctx, layer, next); err != nil {
					return err
				}
			}
		}
		// Phase 2.
		var hard []string
		seen := map[string]bool{}
		for _, id := range retentionHard {
			seen[id] = true
			hard = append(hard, id)
			for i := range rep.Expired {
				if rep.Expired[i].ItemID == id {
					a := rep.Expired[i]
					a.Detail = "PII past retention: hard delete + audit"
					rep.HardDeleted = append(rep.HardDeleted, a)
				}
			}
		}
		purgeable, err := tx.GCPurgeable(ctx, now.Add(-pol.Decay.Grace.Std()), o.Batch)
		if err != nil {
			return err
		}
		for _, g := range purgeable {
			if seen[g.Item.ID] || !authz.Governs(who, tenantOf(g.Item.MemoryRef)) {
				continue
			}
			act := GCAction{ItemID: g.Item.ID, MemoryRef: g.Item.MemoryRef, Key: g.Item.Key, Layer: g.Item.Layer, Mode: oplog.GCModeGrace,
				Detail: "expired " + g.ExpiredAt.Format(time.RFC3339)}
			switch {
			case g.Item.Layer.Durable():
				rep.Retained++
				continue
			case g.Linked != "":
				act.Mode, act.Detail = oplog.GCModeLinked, g.Linked
				rep.Protected = append(rep.Protected, act)
				continue
			}
			hard = append(hard, g.Item.ID)
			rep.HardDeleted = append(rep.HardDeleted, act)
		}
		if len(hard) == 0 || o.DryRun {
			return nil
		}
		for _, id := range hard {
			item, err := tx.Item(ctx, id)
			if err != nil {
				return err
			}
			if !pol.Allowed(string(who.Role), string(item.Layer), policy.OpHardDelete) {
				return fmt.Errorf("%w: hard deletes after the grace period need a curator; %s is a %s (run gc --by a curator, or --dry-run)", memgov.ErrForbidden, who.ID, who.Role)
			}
		}
		if err := tx.SecureDelete(ctx); err != nil {
			return err
		}
		kind := EraseGCHard
		if len(retentionHard) > 0 {
			kind = EraseRetention
		}
		row, err := s.purge(ctx, tx, o.By, kind, oplog.NewID(), "", hard, now)
		rep.ErasureLSN = row.LSN
		return err
	})
	if err == nil && rep.ErasureLSN > 0 {
		err = s.store.Compact(ctx)
	}
	return rep, err
}

// decayedBelowFloor reports an entry of a decaying source (agent_inferred by
// default) whose confidence, decayed since it was written, fell below the
// eviction floor (spec §14.7). The expiry is an EXPIRE entry; within the
// grace period the version can be restored (review: restore a version).
func decayedBelowFloor(pol *policy.Policy, v memgov.Version, now time.Time) bool {
	_, evict := pol.DecayConfidence(v.Source, v.Confidence, now.Sub(v.CreatedAt))
	return evict
}

func usageOf(g memgov.GCItem, now time.Time) policy.Usage {
	rho0 := max(g.Head.ValidationScore, g.Head.Confidence)
	if rho0 <= 0 {
		rho0 = 1
	}
	last := g.Head.CreatedAt
	if g.LastAccess.After(last) {
		last = g.LastAccess
	}
	return policy.Usage{Layer: string(g.Item.Layer), Initial: rho0, Age: now.Sub(g.Head.CreatedAt), Accesses: g.Accesses,
		Impact: g.Impact, Idle: now.Sub(last), Pinned: g.Item.Pinned}
}
