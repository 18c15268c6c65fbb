package writes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// Put commits a version without the governed pipeline (see PutRequest).
func (s *Service) Put(ctx context.Context, r memgov.PutRequest) (memgov.PutResult, error) {
	if _, err := scope.Parse(r.MemoryRef); err != nil {
		return memgov.PutResult{}, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	if _, err := memgov.ParseLayer(string(r.Layer)); err != nil {
		return memgov.PutResult{}, fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	content, err := canonicalContent(r.Content)
	if err != nil {
		return memgov.PutResult{}, err
	}
	if r.Actor == "" {
		return memgov.PutResult{}, fmt.Errorf("%w: a write needs an actor", memgov.ErrInvalid)
	}
	if r.Key == "" {
		r.Key = oplog.NewID()
	}
	var res memgov.PutResult
	err = s.store.Update(ctx, func(tx memgov.Tx) (err error) {
		res, err = s.putTx(ctx, tx, r, content)
		return err
	})
	return res, err
}

// putTx is Put's transaction: r is checked and content canonical.
func (s *Service) putTx(ctx context.Context, tx memgov.Tx, r memgov.PutRequest, content json.RawMessage) (memgov.PutResult, error) {
	now := s.now()
	p := oplog.Payload{Reason: r.Reason, Key: r.Key, Layer: string(r.Layer), Content: content,
		ContentHash: oplog.HashPayload(content), Tags: normTags(r.Tags), Confidence: &r.Confidence,
		Classification: r.Classification}
	if r.TTL > 0 {
		p.ExpiresAt = now.Add(r.TTL).Format(oplog.TimeFormat)
	}
	if len(r.Evidence) > 0 {
		data, err := json.Marshal(oplog.VersionData{Evidence: r.Evidence})
		if err != nil {
			return memgov.PutResult{}, err
		}
		p.Data = data
	}
	entry, err := s.VersionEntry(ctx, tx, r.MemoryRef, r.Key, r.Layer, r.Actor, now)
	if err != nil {
		return memgov.PutResult{}, err
	}
	if err := oplog.Append(ctx, tx, entry, p); err != nil {
		return memgov.PutResult{}, err
	}
	return memgov.PutResult{ItemID: entry.ItemID, VersionID: entry.VersionID, Key: r.Key, LSN: entry.LSN}, nil
}

// VersionEntry prepares the INSERT or UPDATE entry for a new ACTIVE version of
// ref/key: UPDATE when the item exists, INSERT otherwise.
func (s *Service) VersionEntry(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, actor string, now time.Time) (*oplog.Entry, error) {
	entry := &oplog.Entry{Time: now, MemoryRef: ref, VersionID: oplog.NewID(), Actor: actor}
	item, err := tx.ItemByKey(ctx, ref, key)
	switch {
	case isNotFound(err):
		entry.Op = oplog.Insert
		entry.ItemID = oplog.NewID()
	case err != nil:
		return nil, err
	default:
		if item.Layer != layer {
			return nil, fmt.Errorf("%w: item %s is %s memory; writing it as %s needs a reclassification", memgov.ErrConflict, key, item.Layer, layer)
		}
		entry.Op = oplog.Update
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
		return nil, fmt.Errorf("%w: content is required", memgov.ErrInvalid)
	}
	c, err := canon.Canonicalize(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: content: %v", memgov.ErrInvalid, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(c, &obj); err != nil {
		return nil, fmt.Errorf("%w: content must be a JSON object", memgov.ErrInvalid)
	}
	text, ok := obj["text"].(string)
	if !ok || strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: content.text must be a non-empty string", memgov.ErrInvalid)
	}
	return c, nil
}

func normTags(tags []string) []string { return oplog.NormTags(tags) }

// PutBatch commits many ungated writes in one transaction: for loading a
// corpus (benchmarks, imports) where a transaction per item would dominate.
func (s *Service) PutBatch(ctx context.Context, rs []memgov.PutRequest) error {
	return s.store.Update(ctx, func(tx memgov.Tx) error {
		now := s.now()
		for _, r := range rs {
			content, err := canonicalContent(r.Content)
			if err != nil {
				return err
			}
			if r.Key == "" {
				r.Key = oplog.NewID()
			}
			entry, err := s.VersionEntry(ctx, tx, r.MemoryRef, r.Key, r.Layer, r.Actor, now)
			if err != nil {
				return err
			}
			conf := r.Confidence
			p := oplog.Payload{Reason: r.Reason, Key: r.Key, Layer: string(r.Layer), Content: content, ContentHash: oplog.HashPayload(content),
				Tags: normTags(r.Tags), Confidence: &conf, Classification: r.Classification}
			if err := oplog.Append(ctx, tx, entry, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// PutTx is Put inside tx, a transaction of Store().
func (s *Service) PutTx(ctx context.Context, tx memgov.Tx, r memgov.PutRequest) (memgov.PutResult, error) {
	content, err := canonicalContent(r.Content)
	if err != nil {
		return memgov.PutResult{}, err
	}
	return s.putTx(ctx, tx, r, content)
}

// AppendVersion appends, in tx, the INSERT or UPDATE entry of a new ACTIVE
// version of ref/key that memgov writes itself (the host's distillation
// archive and index), without the gates.
func (s *Service) AppendVersion(ctx context.Context, tx memgov.Tx, ref, key string, layer memgov.Layer, content json.RawMessage, tags []string, confidence float64, actor, reason string) (*oplog.Entry, error) {
	content, err := canonicalContent(content)
	if err != nil {
		return nil, err
	}
	entry, err := s.VersionEntry(ctx, tx, ref, key, layer, actor, s.now())
	if err != nil {
		return nil, err
	}
	p := oplog.Payload{Reason: reason, Key: key, Layer: string(layer), Content: content, ContentHash: oplog.HashPayload(content),
		Tags: normTags(tags), Confidence: &confidence}
	if err := oplog.Append(ctx, tx, entry, p); err != nil {
		return nil, err
	}
	return entry, nil
}
