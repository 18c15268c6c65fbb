package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/oplog"
)

// MemSession is a session boundary of session memory (spec §3.2.6.1:
// session memory is checked against its baseline when a session starts and is
// exempt from drift detection inside the session).
type MemSession struct {
	ID        string     `json:"session_id"`
	MemoryRef string     `json:"memory_ref"`
	StartedBy string     `json:"started_by"`
	StartedAt time.Time  `json:"started_at"`
	StartLSN  int64      `json:"start_lsn"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	EndLSN    int64      `json:"end_lsn,omitempty"`
}

// errSessionDenied reports a session refused by the drift policy; the VerifyResult says why.
var errSessionDenied = fmt.Errorf("%w: the drift policy denies the session", ErrForbidden)

// StartSession checks session memory against its baseline, as at agent start-up,
// and opens a session boundary (a SESSION_START entry) unless the verdict is
// deny, in which case the error wraps ErrForbidden and the result says why.
func (e *Engine) StartSession(ctx context.Context, ref, actor string) (MemSession, VerifyResult, error) {
	res, err := e.VerifyMemory(ctx, VerifyRequest{MemoryRef: ref, Actor: actor})
	if err != nil {
		return MemSession{}, res, err
	}
	if res.MemoryType != MemorySession {
		return MemSession{}, res, fmt.Errorf("%w: %s is %s memory; only session memory has sessions", ErrInvalid, ref, res.MemoryType)
	}
	if res.Action == "deny" {
		return MemSession{}, res, errSessionDenied
	}
	var s MemSession
	err = e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		if open, err := tx.OpenSession(ctx, res.BaselineRef); err == nil {
			return fmt.Errorf("%w: session %s of %s is still open; end it with: memgov session end %s --by %s", ErrConflict, open.ID, res.BaselineRef, ref, actor)
		} else if !isNotFound(err) {
			return err
		}
		data, _ := json.Marshal(oplog.SessionData{SessionID: NewID()})
		entry := &LogEntry{Time: e.Now(), Op: OpSessionStart, MemoryRef: res.BaselineRef, Actor: actor}
		if err := entry.Seal(Payload{Reason: "session start", Data: data}); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		s, err = tx.OpenSession(ctx, res.BaselineRef)
		return err
	})
	return s, res, err
}

// EndSession closes the open session of ref (a SESSION_END entry), then
// checks the memory against its baseline: a change the session left behind
// is drift from now on, recorded as an episode under the baseline's policy
// (VerifyMemory and memgov drift list report it).
func (e *Engine) EndSession(ctx context.Context, ref, actor string) (MemSession, error) {
	s, err := e.endSession(ctx, ref, actor)
	if err != nil {
		return s, err
	}
	_, err = e.VerifyMemory(ctx, VerifyRequest{MemoryRef: ref, Actor: actor})
	return s, err
}

func (e *Engine) endSession(ctx context.Context, ref, actor string) (MemSession, error) {
	var s MemSession
	err := e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		b, err := resolveBaseline(ctx, tx, ref)
		if err != nil {
			return err
		}
		open, err := tx.OpenSession(ctx, b.MemoryRef)
		if isNotFound(err) {
			return fmt.Errorf("%w: %s has no open session", ErrConflict, ref)
		}
		if err != nil {
			return err
		}
		data, _ := json.Marshal(oplog.SessionData{SessionID: open.ID})
		entry := &LogEntry{Time: e.Now(), Op: OpSessionEnd, MemoryRef: b.MemoryRef, Actor: actor}
		if err := entry.Seal(Payload{Reason: "session end", Data: data}); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
		s = open
		t := entry.Time
		s.EndedAt, s.EndLSN = &t, entry.LSN
		return e.clearWorking(ctx, tx, b.MemoryRef, actor, "session "+open.ID+" ended")
	})
	return s, err
}

// clearWorking expires the WORKING memory of ref when its session ends (seed
// 003: working memory lives for one session): an EXPIRE entry per item,
// logged with the session.
func (e *Engine) clearWorking(ctx context.Context, tx Tx, ref, actor, why string) error {
	now := e.Now()
	vs, err := activeView(ctx, tx, ActiveQuery{MemoryRef: ref, Now: now})
	if err != nil {
		return err
	}
	for _, v := range vs {
		if v.Layer != Working {
			continue
		}
		data, _ := json.Marshal(oplog.ExpireData{GC: GCModeSessionEnd})
		entry := &LogEntry{Time: now, Op: OpExpire, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
		if err := entry.Seal(Payload{Reason: "working memory cleared: " + why, Data: data}); err != nil {
			return err
		}
		if err := tx.Append(ctx, entry); err != nil {
			return err
		}
	}
	return nil
}
