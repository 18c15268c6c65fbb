package reviews

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
)

// Decide approves or rejects a deferred write. Only curators decide, never the
// agent that wrote it; a claim held by someone else, or a stale fencing token,
// refuses the decision. The decision is a log entry (APPROVE or REJECT) with
// the reviewer, the code and the note.
//
// A SYNC_BLOCK review past its deadline is not decided: it is rejected with
// APPROVAL_TIMEOUT (fail-closed) and Decide returns ErrApprovalTimeout.
func (s *Service) Decide(ctx context.Context, d memgov.Decision) (memgov.Review, error) {
	var (
		out     memgov.Review
		expired bool
	)
	err := s.store.Update(ctx, func(tx memgov.Tx) error {
		var err error
		out, expired, err = s.decideOrExpire(ctx, tx, d)
		return err
	})
	if err == nil && expired {
		return out, timeoutError(out)
	}
	return out, err
}

// decideOrExpire decides d, or, when its review is a SYNC_BLOCK review past
// its deadline, rejects it with APPROVAL_TIMEOUT and reports expired.
func (s *Service) decideOrExpire(ctx context.Context, tx memgov.Tx, d memgov.Decision) (memgov.Review, bool, error) {
	if r, err := tx.Review(ctx, d.ReviewID); err == nil && s.pastDeadline(r, s.now()) {
		if _, err := s.curatorCheck(ctx, tx, r, d.Reviewer); err != nil {
			return memgov.Review{}, false, err
		}
		if _, err := s.expireReview(ctx, tx, r); err != nil {
			return memgov.Review{}, false, err
		}
		r, err = tx.Review(ctx, r.ID)
		return r, true, err
	}
	r, err := s.decide(ctx, tx, d)
	return r, false, err
}

// curatorCheck refuses anyone but a curator governing r's tenant.
func (s *Service) curatorCheck(ctx context.Context, tx memgov.ReadTx, r memgov.Review, reviewer string) (memgov.Principal, error) {
	who, err := tx.Principal(ctx, reviewer)
	if err != nil {
		return memgov.Principal{}, authz.Require(ctx, tx, reviewer)
	}
	if err := authz.CuratorOnly(who, "decide reviews"); err != nil {
		return memgov.Principal{}, err
	}
	if !authz.Governs(who, r.Tenant) {
		return memgov.Principal{}, fmt.Errorf("%w: %s does not govern tenant %s", memgov.ErrForbidden, who.ID, r.Tenant)
	}
	return who, nil
}

func (s *Service) decide(ctx context.Context, tx memgov.Tx, d memgov.Decision) (memgov.Review, error) {
	if _, err := tx.Principal(ctx, d.Reviewer); err != nil {
		return memgov.Review{}, authz.Require(ctx, tx, d.Reviewer)
	}
	r, err := tx.Review(ctx, d.ReviewID)
	if err != nil {
		return memgov.Review{}, err
	}
	if _, err := s.authz.PermitID(ctx, tx, d.Reviewer, authz.ActReviewDecide, Target(r)); err != nil {
		return memgov.Review{}, err
	}
	if !r.Open() {
		return memgov.Review{}, fmt.Errorf("%w: review %s was already %s by %s", memgov.ErrConflict, r.ID, strings.ToLower(r.Status), r.DecidedBy)
	}
	now := s.now()
	if r.ClaimHolder != "" && r.ClaimHolder != d.Reviewer && now.Before(r.ClaimExpires) {
		return memgov.Review{}, fmt.Errorf("%w: %s holds the claim on this review until %s", memgov.ErrConflict, r.ClaimHolder, r.ClaimExpires.Format(time.Kitchen))
	}
	if d.Token != 0 && d.Token != r.ClaimToken {
		return memgov.Review{}, fmt.Errorf("%w: stale claim (fencing token %d, current %d); reopen the review", memgov.ErrConflict, d.Token, r.ClaimToken)
	}
	op := oplog.Approve
	reason := "approved by " + d.Reviewer
	if !d.Approve {
		if !slices.Contains(RejectCodes, d.Code) {
			return memgov.Review{}, fmt.Errorf("%w: a rejection needs a reason code: one of %s", memgov.ErrInvalid, strings.Join(RejectCodes, ", "))
		}
		op = oplog.Reject
		reason = "rejected by " + d.Reviewer + ": " + d.Code
	} else if d.Code == "" {
		d.Code = "APPROVED"
	}
	if d.Note != "" {
		reason += " — " + d.Note
	}
	entry := &oplog.Entry{Time: now, Op: op, MemoryRef: r.MemoryRef, ItemID: r.ItemID, VersionID: r.VersionID, Actor: d.Reviewer}
	if err := oplog.AppendData(ctx, tx, entry, reason, oplog.VersionData{Decision: &oplog.DecisionData{ReviewID: r.ID, Code: d.Code, Note: d.Note}}); err != nil {
		return memgov.Review{}, err
	}
	if d.Approve {
		if err := s.supersede(ctx, tx, r, now, d.Reviewer); err != nil {
			return memgov.Review{}, err
		}
	}
	if err := s.effects.WorkspaceDecided(ctx, tx, r, d.Approve, d.Reviewer); err != nil {
		return memgov.Review{}, err
	}
	return tx.Review(ctx, r.ID)
}

// supersede retires the item an approved write was proposed to supersede
// (the contradiction gate's supersession proposal, spec §12.2.4).
func (s *Service) supersede(ctx context.Context, tx memgov.Tx, r memgov.Review, now time.Time, reviewer string) error {
	var d struct {
		Supersedes string `json:"supersedes"` // the key of the item it would supersede (writes.ReviewDetail)
	}
	if err := json.Unmarshal(r.Detail, &d); err != nil || d.Supersedes == "" {
		return nil
	}
	old, err := tx.ItemByKey(ctx, r.MemoryRef, d.Supersedes)
	if err != nil || old.Head == "" || old.ID == r.ItemID {
		return nil
	}
	entry := &oplog.Entry{Time: now, Op: oplog.Supersede, MemoryRef: r.MemoryRef, ItemID: old.ID, VersionID: old.Head, Actor: reviewer}
	return oplog.Append(ctx, tx, entry, oplog.Payload{Reason: "superseded by the approved write of review " + r.ID})
}

// Review returns one review; a SYNC_BLOCK review past its deadline is failed
// closed first.
func (s *Service) Review(ctx context.Context, id string) (memgov.Review, error) {
	if _, err := s.expireOverdue(ctx); err != nil {
		return memgov.Review{}, err
	}
	var r memgov.Review
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		r, err = tx.Review(ctx, id)
		return err
	})
	return r, err
}

// List lists reviews: SYNC_BLOCK first, then by risk and age.
func (s *Service) List(ctx context.Context, q memgov.ReviewQuery) ([]memgov.Review, int, error) {
	if q.Now.IsZero() {
		q.Now = s.now()
	}
	if _, err := s.expireOverdue(ctx); err != nil {
		return nil, 0, err
	}
	var (
		rs    []memgov.Review
		total int
	)
	err := s.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		rs, total, err = tx.Reviews(ctx, q)
		return err
	})
	return rs, total, err
}
