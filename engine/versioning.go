package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// PutRequest is an ungated write: it commits a version directly, without the
// governed pipeline. It exists for tests and trusted loaders; agents write
// through Write.
type PutRequest struct {
	MemoryRef      string
	Key            string // empty: a new item with a generated key
	Layer          Layer
	Content        json.RawMessage // a JSON object with a "text" string
	Tags           []string
	Confidence     float64
	Classification string
	TTL            time.Duration // 0: no expiry
	Actor          string
	Reason         string
	Evidence       []EvidenceRef // recorded as the version's evidence (MEMORY_ITEM citations are indexed)
}

// PutResult identifies what a write committed.
type PutResult struct {
	ItemID    string `json:"item_id"`
	VersionID string `json:"version_id"`
	Key       string `json:"key"`
	LSN       int64  `json:"lsn"`
}

// Put commits a version without the governed pipeline (see PutRequest).
func (e *Engine) Put(ctx context.Context, r PutRequest) (PutResult, error) {
	if _, err := scope.Parse(r.MemoryRef); err != nil {
		return PutResult{}, fmt.Errorf("%w: memory ref: %v", ErrInvalid, err)
	}
	if _, err := ParseLayer(string(r.Layer)); err != nil {
		return PutResult{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	content, err := canonicalContent(r.Content)
	if err != nil {
		return PutResult{}, err
	}
	if r.Actor == "" {
		return PutResult{}, fmt.Errorf("%w: a write needs an actor", ErrInvalid)
	}
	if r.Key == "" {
		r.Key = NewID()
	}
	var res PutResult
	err = e.store.Update(ctx, func(tx Tx) error {
		now := e.Now()
		p := Payload{Reason: r.Reason, Key: r.Key, Layer: string(r.Layer), Content: content,
			ContentHash: HashPayload(content), Tags: normTags(r.Tags), Confidence: &r.Confidence,
			Classification: r.Classification}
		if r.TTL > 0 {
			p.ExpiresAt = now.Add(r.TTL).Format(TimeFormat)
		}
		if len(r.Evidence) > 0 {
			data, err := json.Marshal(oplog.VersionData{Evidence: r.Evidence})
			if err != nil {
				return err
			}
			p.Data = data
		}
		entry, err := e.versionEntry(ctx, tx, r.MemoryRef, r.Key, r.Layer, r.Actor, now)
		if err != nil {
			return err
		}
		if err := entry.Seal(p); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		res = PutResult{ItemID: entry.ItemID, VersionID: entry.VersionID, Key: r.Key, LSN: entry.LSN}
		return nil
	})
	return res, err
}

// versionEntry prepares the INSERT or UPDATE entry for a new ACTIVE version of
// ref/key: UPDATE when the item exists, INSERT otherwise.
func (e *Engine) versionEntry(ctx context.Context, tx Tx, ref, key string, layer Layer, actor string, now time.Time) (*LogEntry, error) {
	entry := &LogEntry{Time: now, MemoryRef: ref, VersionID: NewID(), Actor: actor}
	item, err := tx.ItemByKey(ctx, ref, key)
	switch {
	case isNotFound(err):
		entry.Op = OpInsert
		entry.ItemID = NewID()
	case err != nil:
		return nil, err
	default:
		if item.Layer != layer {
			return nil, fmt.Errorf("%w: item %s is %s memory; writing it as %s needs a reclassification", ErrConflict, key, item.Layer, layer)
		}
		entry.Op = OpUpdate
		entry.ItemID = item.ID
		entry.PrevVersionID = item.Head
		if entry.PrevVersionID == "" {
			hist, err := tx.History(ctx, item.ID)
			if err != nil {
				return nil, err
			}
			if len(hist) > 0 {
				entry.PrevVersionID = hist[0].ID
			}
		}
	}
	return entry, nil
}

// canonicalContent validates a content object and returns its RFC 8785 form.
func canonicalContent(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("%w: content is required", ErrInvalid)
	}
	c, err := canon.Canonicalize(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: content: %v", ErrInvalid, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(c, &obj); err != nil {
		return nil, fmt.Errorf("%w: content must be a JSON object", ErrInvalid)
	}
	text, ok := obj["text"].(string)
	if !ok || strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: content.text must be a non-empty string", ErrInvalid)
	}
	return c, nil
}

func normTags(tags []string) []string {
	seen := make(map[string]bool, len(tags))
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.TrimSpace(t)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ReadQuery selects what a read returns.
type ReadQuery struct {
	MemoryRef string
	Tag       string
	Limit     int
	AfterKey  string
	AtLSN     int64     // 0: now
	AtTime    time.Time // zero: now; otherwise resolved to the last LSN at or before it
}

// Snapshot is the visible memory of a memoryRef at one log position.
type Snapshot struct {
	MemoryRef string    `json:"memory_ref"`
	LSN       int64     `json:"lsn"`
	Time      time.Time `json:"time"`
	Versions  []Version `json:"items"`
}

// Read returns the ACTIVE, unexpired versions of a memoryRef, now or at a past
// log position. A malformed ref reads as empty: it never names data.
func (e *Engine) Read(ctx context.Context, q ReadQuery) (Snapshot, error) {
	snap := Snapshot{MemoryRef: q.MemoryRef, Versions: []Version{}}
	if _, err := scope.Parse(q.MemoryRef); err != nil {
		return snap, nil
	}
	err := e.store.View(ctx, func(tx ReadTx) error {
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		at, now := q.AtLSN, e.Now()
		switch {
		case !q.AtTime.IsZero():
			if at, err = tx.LSNAt(ctx, q.AtTime); err != nil {
				return err
			}
			now = q.AtTime.UTC()
		case at > 0:
			if at > size {
				return fmt.Errorf("%w: LSN %d is beyond the end of the log (%d entries)", ErrInvalid, at, size)
			}
			if now, err = tx.TimeOf(ctx, at); err != nil {
				return err
			}
		default:
			at = size
		}
		snap.LSN, snap.Time = at, now
		if at == 0 {
			return nil
		}
		vs, err := activeView(ctx, tx, ActiveQuery{MemoryRef: q.MemoryRef, Tag: q.Tag, AtLSN: at, Now: now, Limit: q.Limit, AfterKey: q.AfterKey})
		if err != nil {
			return err
		}
		snap.Versions = vs
		return nil
	})
	return snap, err
}

// Get returns the visible version of ref/key now, or ErrNotFound.
func (e *Engine) Get(ctx context.Context, ref, key string) (Version, error) {
	if _, err := scope.Parse(ref); err != nil {
		return Version{}, ErrNotFound
	}
	var v Version
	err := e.store.View(ctx, func(tx ReadTx) error {
		if _, ok := workspaceFor(ctx, tx, ref); ok {
			var found bool
			var err error
			if v, found, err = headView(ctx, tx, ref, key, e.Now()); err == nil && !found {
				err = ErrNotFound
			}
			return err
		}
		item, err := tx.ItemByKey(ctx, ref, key)
		if err != nil {
			return err
		}
		if item.Head == "" {
			return ErrNotFound
		}
		if v, err = tx.Version(ctx, item.Head); err != nil {
			return err
		}
		if v.State != Active || v.ExpiredAt(e.Now()) {
			return ErrNotFound
		}
		return nil
	})
	return v, err
}

// History returns every version of an item, newest first.
func (e *Engine) History(ctx context.Context, itemID string) (Item, []Version, error) {
	var (
		item Item
		vs   []Version
	)
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		if item, err = tx.Item(ctx, itemID); err != nil {
			return err
		}
		vs, err = tx.History(ctx, itemID)
		return err
	})
	return item, vs, err
}

// Item returns an item by id.
func (e *Engine) Item(ctx context.Context, id string) (Item, error) {
	var it Item
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		it, err = tx.Item(ctx, id)
		return err
	})
	return it, err
}

// Refs lists the memoryRefs that hold items.
func (e *Engine) Refs(ctx context.Context) ([]RefSummary, error) {
	var rs []RefSummary
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		rs, err = tx.Refs(ctx)
		return err
	})
	return rs, err
}

// RollbackResult reports what a rollback did (spec §12.5.6).
type RollbackResult struct {
	Status          string `json:"status"` // ROLLED_BACK_WITH_REACTIVATION or ROLLED_BACK_NO_PREDECESSOR
	ItemID          string `json:"item_id"`
	RetractedID     string `json:"retracted_version_id"`
	RestoredFrom    string `json:"restored_from_version_id,omitempty"`
	NewVersionID    string `json:"new_version_id,omitempty"`
	RetractLSN      int64  `json:"retract_lsn"`
	ReactivationLSN int64  `json:"reactivation_lsn,omitempty"`
}

// Rollback retracts a bad ACTIVE version and, when its predecessor was
// superseded by it, reactivates the predecessor's content as a new version.
func (e *Engine) Rollback(ctx context.Context, versionID, actor, reason string) (RollbackResult, error) {
	if strings.TrimSpace(reason) == "" {
		return RollbackResult{}, fmt.Errorf("%w: a rollback needs a reason", ErrInvalid)
	}
	var res RollbackResult
	err := e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		bad, err := tx.Version(ctx, versionID)
		if err != nil {
			return err
		}
		if _, err := e.permitTx(ctx, tx, actor, ActRollback, Target{Ref: bad.MemoryRef, Layer: bad.Layer}); err != nil {
			return err
		}
		if bad.State != Active {
			return fmt.Errorf("%w: version %s is %s; only the ACTIVE version can be rolled back", ErrConflict, versionID, bad.State)
		}
		now := e.Now()
		retract := &LogEntry{Time: now, Op: OpRetract, MemoryRef: bad.MemoryRef, ItemID: bad.ItemID,
			VersionID: bad.ID, PrevVersionID: bad.Prev, Actor: actor}
		if err := retract.Seal(Payload{Reason: reason}); err != nil {
			return err
		}
		if err := tx.Append(ctx, retract); err != nil {
			return err
		}
		res = RollbackResult{Status: "ROLLED_BACK_NO_PREDECESSOR", ItemID: bad.ItemID, RetractedID: bad.ID, RetractLSN: retract.LSN}
		if bad.Prev == "" {
			return nil
		}
		pred, err := tx.Version(ctx, bad.Prev)
		if err != nil {
			return err
		}
		if pred.State != Superseded || pred.ExpiredAt(now) {
			return nil
		}
		re := &LogEntry{Time: now, Op: OpUpdate, MemoryRef: bad.MemoryRef, ItemID: bad.ItemID,
			VersionID: NewID(), PrevVersionID: pred.ID, Actor: actor}
		if err := re.Seal(restorePayload(pred, "Reactivated after rollback of "+bad.ID)); err != nil {
			return err
		}
		if err := tx.Append(ctx, re); err != nil {
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
func (e *Engine) RestoreVersion(ctx context.Context, versionID, actor, reason string) (RollbackResult, error) {
	if strings.TrimSpace(reason) == "" {
		return RollbackResult{}, fmt.Errorf("%w: a rollback needs a reason", ErrInvalid)
	}
	var res RollbackResult
	err := e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		target, err := tx.Version(ctx, versionID)
		if err != nil {
			return err
		}
		if _, err := e.permitTx(ctx, tx, actor, ActRollback, Target{Ref: target.MemoryRef, Layer: target.Layer}); err != nil {
			return err
		}
		if target.State == Draft || target.State == Quarantined {
			return fmt.Errorf("%w: version %s is %s and was never approved; it cannot be restored", ErrConflict, versionID, target.State)
		}
		if len(target.Content) == 0 {
			return fmt.Errorf("%w: version %s was erased", ErrConflict, versionID)
		}
		item, err := tx.Item(ctx, target.ItemID)
		if err != nil {
			return err
		}
		if item.Head == target.ID {
			return fmt.Errorf("%w: version %s is already the active version", ErrConflict, versionID)
		}
		now := e.Now()
		res = RollbackResult{Status: "RESTORED", ItemID: item.ID, RestoredFrom: target.ID}
		prev := target.ID
		if item.Head != "" {
			retract := &LogEntry{Time: now, Op: OpRetract, MemoryRef: item.MemoryRef, ItemID: item.ID,
				VersionID: item.Head, Actor: actor}
			head, err := tx.Version(ctx, item.Head)
			if err != nil {
				return err
			}
			retract.PrevVersionID = head.Prev
			if err := retract.Seal(Payload{Reason: reason}); err != nil {
				return err
			}
			if err := tx.Append(ctx, retract); err != nil {
				return err
			}
			res.RetractedID, res.RetractLSN = head.ID, retract.LSN
			prev = head.ID
		}
		re := &LogEntry{Time: now, Op: OpUpdate, MemoryRef: item.MemoryRef, ItemID: item.ID,
			VersionID: NewID(), PrevVersionID: prev, Actor: actor}
		if err := re.Seal(restorePayload(target, "Restored v"+fmt.Sprint(target.Seq)+": "+reason)); err != nil {
			return err
		}
		if err := tx.Append(ctx, re); err != nil {
			return err
		}
		res.NewVersionID, res.ReactivationLSN = re.VersionID, re.LSN
		return nil
	})
	return res, err
}

func restorePayload(v Version, reason string) Payload {
	conf, score := v.Confidence, v.ValidationScore
	p := Payload{Reason: reason, Key: v.Key, Layer: string(v.Layer), Content: v.Content, ContentHash: v.ContentHash,
		Tags: v.Tags, Confidence: &conf, ValidationScore: &score, Classification: v.Classification}
	if v.ExpiresAt != nil {
		p.ExpiresAt = v.ExpiresAt.UTC().Format(TimeFormat)
	}
	return p
}

// Pin protects an item from garbage collection; Unpin removes the protection.
func (e *Engine) Pin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return e.setPin(ctx, itemID, actor, reason, true)
}

// Unpin removes an item's protection from garbage collection.
func (e *Engine) Unpin(ctx context.Context, itemID, actor, reason string) (int64, error) {
	return e.setPin(ctx, itemID, actor, reason, false)
}

func (e *Engine) setPin(ctx context.Context, itemID, actor, reason string, pin bool) (int64, error) {
	var lsn int64
	err := e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		item, err := tx.Item(ctx, itemID)
		if err != nil {
			return err
		}
		act := ActUnpin
		if pin {
			act = ActPin
		}
		if _, err := e.permitTx(ctx, tx, actor, act, Target{Ref: item.MemoryRef, Layer: item.Layer}); err != nil {
			return err
		}
		if item.Pinned == pin {
			return fmt.Errorf("%w: item %s is already %s", ErrConflict, itemID, map[bool]string{true: "pinned", false: "unpinned"}[pin])
		}
		op := OpUnpin
		if pin {
			op = OpPin
		}
		if reason == "" {
			reason = strings.ToLower(string(op)) + " by " + actor
		}
		entry := &LogEntry{Time: e.Now(), Op: op, MemoryRef: item.MemoryRef, ItemID: item.ID, Actor: actor}
		if err := entry.Seal(Payload{Reason: reason}); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		lsn = entry.LSN
		return nil
	})
	return lsn, err
}

// requirePrincipal refuses actors memgov does not know.
func requirePrincipal(ctx context.Context, tx ReadTx, actor string) error {
	if actor == "" {
		return fmt.Errorf("%w: the action needs an actor (--by)", ErrInvalid)
	}
	if _, err := tx.Principal(ctx, actor); err != nil {
		if isNotFound(err) {
			return fmt.Errorf("%w: %s is not a registered principal; register it with: memgov principal add --id %s --role curator --tenant TENANT", ErrUnauthorized, actor, actor)
		}
		return err
	}
	return nil
}

// PutBatch commits many ungated writes in one transaction: for loading a
// corpus (benchmarks, imports) where a transaction per item would dominate.
func (e *Engine) PutBatch(ctx context.Context, rs []PutRequest) error {
	return e.store.Update(ctx, func(tx Tx) error {
		now := e.Now()
		for _, r := range rs {
			content, err := canonicalContent(r.Content)
			if err != nil {
				return err
			}
			if r.Key == "" {
				r.Key = NewID()
			}
			entry, err := e.versionEntry(ctx, tx, r.MemoryRef, r.Key, r.Layer, r.Actor, now)
			if err != nil {
				return err
			}
			conf := r.Confidence
			p := Payload{Reason: r.Reason, Key: r.Key, Layer: string(r.Layer), Content: content, ContentHash: HashPayload(content),
				Tags: normTags(r.Tags), Confidence: &conf, Classification: r.Classification}
			if err := entry.Seal(p); err != nil {
				return err
			}
			if err := tx.Append(ctx, entry); err != nil {
				return err
			}
		}
		return nil
	})
}
