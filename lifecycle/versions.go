package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// Rollback retracts a bad ACTIVE version and, when its predecessor was
// superseded by it, reactivates the predecessor's content as a new version.
func (s *Service) Rollback(ctx context.Context, versionID, actor, reason string) (memgov.RollbackResult, error) {
	if strings.TrimSpace(reason) == "" {
		return memgov.RollbackResult{}, fmt.Errorf("%w: a rollback needs a reason", memgov.ErrInvalid)
	}
	var res memgov.RollbackResult
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		bad, err := s.rollbackTarget(ctx, tx, versionID, actor)
		if err != nil {
			return err
		}
		if bad.State != memgov.Active {
			return fmt.Errorf("%w: version %s is %s; only the ACTIVE version can be rolled back", memgov.ErrConflict, versionID, bad.State)
		}
		now := s.now()
		retract := &oplog.Entry{Time: now, Op: oplog.Retract, MemoryRef: bad.MemoryRef, ItemID: bad.ItemID,
			VersionID: bad.ID, PrevVersionID: bad.Prev, Actor: actor}
		if err := oplog.Append(ctx, tx, retract, oplog.Payload{Reason: reason}); err != nil {
			return err
		}
		res = memgov.RollbackResult{Status: "ROLLED_BACK_NO_PREDECESSOR", ItemID: bad.ItemID, RetractedID: bad.ID, RetractLSN: retract.LSN}
		if bad.Prev == "" {
			return nil
		}
		pred, err := tx.Version(ctx, bad.Prev)
		if err != nil {
			return err
		}
		if pred.State != memgov.Superseded || pred.ExpiredAt(now) {
			return nil
		}
		re := &oplog.Entry{Time: now, Op: oplog.Update, MemoryRef: bad.MemoryRef, ItemID: bad.ItemID,
			VersionID: oplog.NewID(), PrevVersionID: pred.ID, Actor: actor}
		if err := oplog.Append(ctx, tx, re, RestorePayload(pred, "Reactivated after rollback of "+bad.ID)); err != nil {
			return err
		}
		res.Status, res.RestoredFrom, res.NewVersionID, res.ReactivationLSN = "ROLLED_BACK_WITH_REACTIVATION", pred.ID, re.VersionID, re.LSN
		return nil
	})
	return res, err
}

// RestoreVersion makes the content of an earlier version of an item current
// again: the ACTIVE head (if any) is retracted and the chosen version's content
// becomes a new ACTIVE version. This is "roll back to this version".
func (s *Service) RestoreVersion(ctx context.Context, versionID, actor, reason string) (memgov.RollbackResult, error) {
	if strings.TrimSpace(reason) == "" {
		return memgov.RollbackResult{}, fmt.Errorf("%w: a rollback needs a reason", memgov.ErrInvalid)
	}
	var res memgov.RollbackResult
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		target, err := s.rollbackTarget(ctx, tx, versionID, actor)
		if err != nil {
			return err
		}
		if target.State == memgov.Draft || target.State == memgov.Quarantined {
			return fmt.Errorf("%w: version %s is %s and was never approved; it cannot be restored", memgov.ErrConflict, versionID, target.State)
		}
		if len(target.Content) == 0 {
			return fmt.Errorf("%w: version %s was erased", memgov.ErrConflict, versionID)
		}
		item, err := tx.Item(ctx, target.ItemID)
		if err != nil {
			return err
		}
		if item.Head == target.ID {
			return fmt.Errorf("%w: version %s is already the active version", memgov.ErrConflict, versionID)
		}
		now := s.now()
		res = memgov.RollbackResult{Status: "RESTORED", ItemID: item.ID, RestoredFrom: target.ID}
		prev := target.ID
		if item.Head != "" {
			retract := &oplog.Entry{Time: now, Op: oplog.Retract, MemoryRef: item.MemoryRef, ItemID: item.ID,
				VersionID: item.Head, Actor: actor}
			head, err := tx.Version(ctx, item.Head)
			if err != nil {
				return err
			}
			retract.PrevVersionID = head.Prev
			if err := oplog.Append(ctx, tx, retract, oplog.Payload{Reason: reason}); err != nil {
				return err
			}
			res.RetractedID, res.RetractLSN = head.ID, retract.LSN
			prev = head.ID
		}
		re := &oplog.Entry{Time: now, Op: oplog.Update, MemoryRef: item.MemoryRef, ItemID: item.ID,
			VersionID: oplog.NewID(), PrevVersionID: prev, Actor: actor}
		if err := oplog.Append(ctx, tx, re, RestorePayload(target, "Restored v"+fmt.Sprint(target.Seq)+": "+reason)); err != nil {
			return err
		}
		res.NewVersionID, res.ReactivationLSN = re.VersionID, re.LSN
		return nil
	})
	return res, err
}

// rollbackTarget reads, in tx, the version a rollback or a restore acts on,
// once it knows the actor and authz lets the actor roll back its layer.
func (s *Service) rollbackTarget(ctx context.Context, tx memgov.Tx, versionID, actor string) (memgov.Version, error) {
	if err := requirePrincipal(ctx, tx, actor); err != nil {
		return memgov.Version{}, err
	}
	v, err := tx.Version(ctx, versionID)
	if err != nil {
		return v, err
	}
	_, err = s.permitTx(ctx, tx, actor, authz.ActRollback, authz.Target{Ref: v.MemoryRef, Layer: v.Layer})
	return v, err
}

// RestorePayload is the payload of a new version that makes v's content
// current again (a rollback's reactivation, a restore, a release from
// quarantine), with reason.
func RestorePayload(v memgov.Version, reason string) oplog.Payload {
	conf, score := v.Confidence, v.ValidationScore
	p := oplog.Payload{Reason: reason, Key: v.Key, Layer: string(v.Layer), Content: v.Content, ContentHash: v.ContentHash,
		Tags: v.Tags, Confidence: &conf, ValidationScore: &score, Classification: v.Classification}
	if v.ExpiresAt != nil {
		p.ExpiresAt = v.ExpiresAt.UTC().Format(oplog.TimeFormat)
	}
	return p
}

// Pin protects an item from garbage collection; Unpin removes the protection.
func (s *Service) Pin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return s.setPin(ctx, itemID, actor, reason, true)
}

// Unpin removes an item's protection from garbage collection.
func (s *Service) Unpin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return s.setPin(ctx, itemID, actor, reason, false)
}

func (s *Service) setPin(ctx context.Context, itemID, actor, reason string, pin bool) (int64, error) {
	act, op := authz.ActUnpin, oplog.Unpin
	if pin {
		act, op = authz.ActPin, oplog.Pin
	}
	return s.itemEntry(ctx, itemID, actor, act, func(_ memgov.Tx, item memgov.Item, e *oplog.Entry) (oplog.Payload, error) {
		if item.Pinned == pin {
			return oplog.Payload{}, fmt.Errorf("%w: item %s is already %s", memgov.ErrConflict, itemID, map[bool]string{true: "pinned", false: "unpinned"}[pin])
		}
		if reason == "" {
			reason = strings.ToLower(string(op)) + " by " + actor
		}
		e.Op = op
		return oplog.Payload{Reason: reason}, nil
	})
}

// itemEntry is an operation on one item that one log entry records: in one
// transaction it refuses an actor memgov does not know, reads the item, asks
// authz whether the actor may act on the item's layer, lets build check the
// item and complete the entry (its op, versions) and its payload, appends
// the entry and returns its LSN.
func (s *Service) itemEntry(ctx context.Context, itemID, actor string, act authz.Action,
	build func(tx memgov.Tx, item memgov.Item, e *oplog.Entry) (oplog.Payload, error)) (int64, error) {
	var lsn int64
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		item, err := tx.Item(ctx, itemID)
		if err != nil {
			return err
		}
		if _, err := s.permitTx(ctx, tx, actor, act, authz.Target{Ref: item.MemoryRef, Layer: item.Layer}); err != nil {
			return err
		}
		entry := &oplog.Entry{Time: s.now(), MemoryRef: item.MemoryRef, ItemID: item.ID, Actor: actor}
		p, err := build(tx, item, entry)
		if err != nil {
			return err
		}
		if err := oplog.Append(ctx, tx, entry, p); err != nil {
			return err
		}
		lsn = entry.LSN
		return nil
	})
	return lsn, err
}

// Annotate attaches a curation note to an item (spec §12.7.4 Mode 3); verifiers
// annotate with validation notes (spec §12.8.2). kind is free text such as
// "curation" or "validation".
func (s *Service) Annotate(ctx context.Context, itemID, actor, kind, note string) (int64, error) {
	if strings.TrimSpace(note) == "" {
		return 0, fmt.Errorf("%w: an annotation needs a note", memgov.ErrInvalid)
	}
	return s.itemEntry(ctx, itemID, actor, authz.ActAnnotate, func(_ memgov.Tx, _ memgov.Item, e *oplog.Entry) (oplog.Payload, error) {
		e.Op = oplog.Annotate
		data, err := json.Marshal(oplog.AnnotationData{Kind: kind, Note: note})
		return oplog.Payload{Reason: "annotation", Data: data}, err
	})
}

// Reclassify moves an item to another layer (spec §12.7.4 Mode 3), a layer
// configuration change: the actor needs "admin" on both layers.
func (s *Service) Reclassify(ctx context.Context, itemID string, to memgov.Layer, actor, reason string) (int64, error) {
	if _, err := memgov.ParseLayer(string(to)); err != nil {
		return 0, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	return s.itemEntry(ctx, itemID, actor, authz.ActReclassify, func(tx memgov.Tx, item memgov.Item, e *oplog.Entry) (oplog.Payload, error) {
		if item.Layer == to {
			return oplog.Payload{}, fmt.Errorf("%w: item %s is already %s memory", memgov.ErrConflict, item.Key, to)
		}
		if _, err := s.permitTx(ctx, tx, actor, authz.ActReclassify, authz.Target{Ref: item.MemoryRef, Layer: to}); err != nil {
			return oplog.Payload{}, err
		}
		e.Op, e.VersionID = oplog.Reclassify, item.Head
		data, err := json.Marshal(oplog.ReclassifyData{From: string(item.Layer), To: string(to)})
		return oplog.Payload{Reason: reason, Layer: string(to), Data: data}, err
	})
}

// Expire expires an item's ACTIVE version by hand, before its TTL, as a
// soft delete that needs the actor's "delete" permission on the item's layer
// (spec §12.8.2): the version becomes EXPIRED and the item has no visible
// version until a new one is written or an earlier one restored. It refuses
// with ErrConflict when the item has no ACTIVE version and returns the LSN
// of the EXPIRE entry.
func (s *Service) Expire(ctx context.Context, itemID, actor, reason string) (int64, error) {
	if strings.TrimSpace(reason) == "" {
		return 0, fmt.Errorf("%w: expiring an item by hand needs a reason", memgov.ErrInvalid)
	}
	return s.itemEntry(ctx, itemID, actor, authz.ActExpire, func(tx memgov.Tx, item memgov.Item, e *oplog.Entry) (oplog.Payload, error) {
		if item.Head == "" {
			return oplog.Payload{}, fmt.Errorf("%w: item %s has no ACTIVE version to expire", memgov.ErrConflict, item.Key)
		}
		head, err := tx.Version(ctx, item.Head)
		if err != nil {
			return oplog.Payload{}, err
		}
		if head.State != memgov.Active {
			return oplog.Payload{}, fmt.Errorf("%w: version %s of item %s is %s, not ACTIVE", memgov.ErrConflict, head.ID, item.Key, head.State)
		}
		e.Op, e.VersionID, e.PrevVersionID = oplog.Expire, head.ID, head.Prev
		return oplog.Payload{Reason: reason}, nil
	})
}

// HardDelete removes one item's content for good (an ERASE entry of kind
// gc_hard_delete): a curator's hard delete (spec §12.8.2).
func (s *Service) HardDelete(ctx context.Context, itemID, actor, reason string) (int64, error) {
	var lsn int64
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		item, who, err := itemAndPrincipal(ctx, tx, itemID, actor)
		if err != nil {
			return err
		}
		if err := s.authz.Authorized(who, item.MemoryRef, item.Layer, policy.OpHardDelete); err != nil {
			return err
		}
		if err := tx.SecureDelete(ctx); err != nil {
			return err
		}
		row, err := s.purge(ctx, tx, actor, EraseGCHard, oplog.NewID(), "", []string{item.ID}, s.now())
		lsn = row.LSN
		return err
	})
	if err == nil {
		err = s.store.Compact(ctx)
	}
	return lsn, err
}
