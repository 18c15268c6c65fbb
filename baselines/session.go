package baselines

import (
	"context"
	"fmt"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// errSessionDenied reports a session refused by the drift policy; the VerifyResult says why.
var errSessionDenied = fmt.Errorf("%w: the drift policy denies the session", memgov.ErrForbidden)

// StartSession checks session memory against its baseline, as at agent start-up,
// and opens a session boundary (a SESSION_START entry) unless the verdict is
// deny, in which case the error wraps memgov.ErrForbidden and the result says why.
func (svc *Service) StartSession(ctx context.Context, ref, actor string) (memgov.MemSession, memgov.VerifyResult, error) {
	res, err := svc.VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref, Actor: actor})
	if err != nil {
		return memgov.MemSession{}, res, err
	}
	if res.MemoryType != memgov.MemorySession {
		return memgov.MemSession{}, res, fmt.Errorf("%w: %s is %s memory; only session memory has sessions", memgov.ErrInvalid, ref, res.MemoryType)
	}
	if res.Action == "deny" {
		return memgov.MemSession{}, res, errSessionDenied
	}
	var s memgov.MemSession
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		if err := authz.Require(ctx, tx, actor); err != nil {
			return err
		}
		if open, err := tx.OpenSession(ctx, res.BaselineRef); err == nil {
			return &StateError{Kind: memgov.ErrConflict, Ref: ref, Session: open.ID, Msg: fmt.Sprintf("session %s of %s is still open", open.ID, res.BaselineRef)}
		} else if !notFound(err) {
			return err
		}
		entry := &oplog.Entry{Time: svc.now(), Op: oplog.SessionStart, MemoryRef: res.BaselineRef, Actor: actor}
		if err := oplog.AppendData(ctx, tx, entry, "session start", oplog.SessionData{SessionID: oplog.NewID()}); err != nil {
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
func (svc *Service) EndSession(ctx context.Context, ref, actor string) (memgov.MemSession, error) {
	s, err := svc.endSession(ctx, ref, actor)
	if err != nil {
		return s, err
	}
	_, err = svc.VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref, Actor: actor})
	return s, err
}

func (svc *Service) endSession(ctx context.Context, ref, actor string) (memgov.MemSession, error) {
	var s memgov.MemSession
	err := svc.store.Update(ctx, func(tx memgov.Tx) error {
		if err := authz.Require(ctx, tx, actor); err != nil {
			return err
		}
		b, err := resolveBaseline(ctx, tx, ref)
		if err != nil {
			return err
		}
		open, err := tx.OpenSession(ctx, b.MemoryRef)
		if notFound(err) {
			return fmt.Errorf("%w: %s has no open session", memgov.ErrConflict, ref)
		}
		if err != nil {
			return err
		}
		entry := &oplog.Entry{Time: svc.now(), Op: oplog.SessionEnd, MemoryRef: b.MemoryRef, Actor: actor}
		if err := oplog.AppendData(ctx, tx, entry, "session end", oplog.SessionData{SessionID: open.ID}); err != nil {
			return err
		}
		s = open
		t := entry.Time
		s.EndedAt, s.EndLSN = &t, entry.LSN
		return svc.clearWorking(ctx, tx, b.MemoryRef, actor, "session "+open.ID+" ended")
	})
	return s, err
}

// clearWorking expires the WORKING memory of ref when its session ends (seed
// 003: working memory lives for one session): an EXPIRE entry per item,
// logged with the session.
func (svc *Service) clearWorking(ctx context.Context, tx memgov.Tx, ref, actor, why string) error {
	now := svc.now()
	vs, err := svc.versions.Active(ctx, tx, memgov.ActiveQuery{MemoryRef: ref, Now: now})
	if err != nil {
		return err
	}
	for _, v := range vs {
		if v.Layer != memgov.Working {
			continue
		}
		entry := &oplog.Entry{Time: now, Op: oplog.Expire, MemoryRef: v.MemoryRef, ItemID: v.ItemID, VersionID: v.ID, PrevVersionID: v.Prev, Actor: actor}
		if err := oplog.AppendData(ctx, tx, entry, "working memory cleared: "+why, oplog.ExpireData{GC: oplog.GCModeSessionEnd}); err != nil {
			return err
		}
	}
	return nil
}
