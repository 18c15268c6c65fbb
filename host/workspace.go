package host

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/scope"
)

// This file is the workspace isolation pattern of spec §12.8.4: an agent writes
// into a copy-on-write workspace over a shared memoryRef and submits a merge
// request that enters the review queue with its conflicts listed.
//
//   - CreateWorkspace opens <tenant>/<agent>/ws/<name> over a base ref at the
//     current log position (a WORKSPACE "open" entry). Reads of the workspace
//     ref see the base's visible entries as of that position (the
//     copy-on-write snapshot) overlaid by the workspace's own writes: a key the
//     workspace has written shows the workspace's version (or nothing, if the
//     workspace retracted it); a key it removed (RemoveFromWorkspace) is hidden.
//   - Writes to the workspace ref go through the normal pipeline. The owner's
//     writes there are not routed to review (the merge request is the review):
//     rejecting gates still apply, deferring ones commit into the workspace.
//   - SubmitWorkspace computes the changeset against the snapshot (ADDED,
//     CHANGED, REMOVED keys) and the conflicts (keys of the changeset whose
//     base version changed since the snapshot) and stages each change as a
//     DRAFT version on the base ref with ONE REVIEW PER CHANGE, so that a
//     curator can take the good changes and leave the conflicting ones. Each
//     review's detail lists, under related, the conflicts of the merge request
//     (relation CONFLICTS_WITH, the key's base text now in text and at the
//     snapshot in old_text), its own key's first. Approving a review applies
//     that change (a removal is applied by a RETRACT of the base entry after
//     the approval); when no review of the request is open any more, a
//     WORKSPACE "merge" entry (any change approved) or "reject" entry closes it.

// Change kinds of a merge request.
const (
	ChangeAdded   = "ADDED"
	ChangeChanged = "CHANGED"
	ChangeRemoved = "REMOVED"
)

// Review reasons of a merge request.
const (
	ReasonWorkspaceMerge    = "WORKSPACE_MERGE"
	ReasonWorkspaceConflict = "WORKSPACE_CONFLICT"
	RelationConflictsWith   = "CONFLICTS_WITH"
)

// WorkspaceRef is the memoryRef of an agent's workspace over base.
func WorkspaceRef(baseRef, agent, name string) string {
	tenant, _, _ := strings.Cut(baseRef, "/")
	return tenant + "/" + agent + "/ws/" + name
}

func (svc *Service) appendWorkspace(ctx context.Context, tx memgov.Tx, ref, actor, reason string, d oplog.WorkspaceData) (int64, error) {
	entry := &oplog.Entry{Time: svc.now(), Op: oplog.Workspace, MemoryRef: ref, Actor: actor}
	if err := oplog.AppendData(ctx, tx, entry, reason, d); err != nil {
		return 0, err
	}
	return entry.LSN, nil
}

// CreateWorkspace opens a copy-on-write workspace named name over baseRef for
// agent, a registered principal of the base's tenant.
func (svc *Service) CreateWorkspace(ctx context.Context, agent, baseRef, name string) (memgov.Workspace, error) {
	base, err := scope.Parse(baseRef)
	if err != nil {
		return memgov.Workspace{}, fmt.Errorf("%w: base memoryRef: %v", memgov.ErrInvalid, err)
	}
	if !scope.ValidSegment(name) {
		return memgov.Workspace{}, fmt.Errorf("%w: a workspace name is 1 to 64 characters of [A-Za-z0-9._-]", memgov.ErrInvalid)
	}
	if len(base.Namespace) >= 1 && base.Namespace[0] == "ws" {
		return memgov.Workspace{}, fmt.Errorf("%w: %s is itself a workspace; open the workspace over its base", memgov.ErrInvalid, baseRef)
	}
	ref := WorkspaceRef(baseRef, agent, name)
	if _, err := scope.Parse(ref); err != nil {
		return memgov.Workspace{}, fmt.Errorf("%w: workspace ref: %v", memgov.ErrInvalid, err)
	}
	var out memgov.Workspace
	err = svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		p, err := tx.Principal(ctx, agent)
		if err != nil {
			return fmt.Errorf("%w: unknown principal %q", memgov.ErrUnauthorized, agent)
		}
		if err := svc.authz.Permit(p, authz.ActWorkspace, authz.Target{Ref: baseRef}); err != nil {
			return err
		}
		if _, found, err := tx.WorkspaceByRef(ctx, ref); err != nil {
			return err
		} else if found {
			return fmt.Errorf("%w: workspace %s exists; pick another name", memgov.ErrConflict, ref)
		}
		size, err := tx.LogSize(ctx)
		if err != nil {
			return err
		}
		id := oplog.NewID()
		if _, err := svc.appendWorkspace(ctx, tx, ref, agent, "workspace opened over "+baseRef,
			oplog.WorkspaceData{Action: "open", ID: id, Name: name, BaseRef: baseRef, BaseLSN: size}); err != nil {
			return err
		}
		out, err = tx.WorkspaceByID(ctx, id)
		return err
	})
	return out, err
}

// Workspace returns a workspace by id.
func (svc *Service) Workspace(ctx context.Context, id string) (memgov.Workspace, error) {
	var w memgov.Workspace
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		w, err = tx.WorkspaceByID(ctx, id)
		return err
	})
	return w, err
}

// Workspaces lists the workspaces of a tenant ("" or "*": every tenant).
func (svc *Service) Workspaces(ctx context.Context, tenant string) ([]memgov.Workspace, error) {
	var out []memgov.Workspace
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = tx.WorkspaceList(ctx, tenant)
		return err
	})
	return out, err
}

// RemoveFromWorkspace removes a base key in the workspace: reads of the
// workspace no longer see it and the merge request proposes its removal.
func (svc *Service) RemoveFromWorkspace(ctx context.Context, id, agent, key string) (int64, error) {
	var lsn int64
	err := svc.store.Update(ctx, func(tx memgov.Tx) error {
		ws, err := svc.ownOpenWorkspace(ctx, tx, id, agent)
		if err != nil {
			return err
		}
		lsn, err = svc.appendWorkspace(ctx, tx, ws.Ref, agent, "key removed in the workspace", oplog.WorkspaceData{Action: "remove", Key: key})
		return err
	})
	return lsn, err
}

func (svc *Service) ownOpenWorkspace(ctx context.Context, tx memgov.ReadTx, id, agent string) (memgov.Workspace, error) {
	ws, err := tx.WorkspaceByID(ctx, id)
	if err != nil {
		return ws, err
	}
	if ws.Owner != agent {
		return ws, fmt.Errorf("%w: rule %s: %s may act only on its own workspaces", memgov.ErrForbidden, authz.ActWorkspace, agent)
	}
	if ws.Status != memgov.WorkspaceOpen {
		return ws, fmt.Errorf("%w: workspace %s is %s", memgov.ErrConflict, ws.Name, ws.Status)
	}
	return ws, nil
}

// WorkspaceDiff computes a workspace's merge request without submitting it.
func (svc *Service) WorkspaceDiff(ctx context.Context, id string) (memgov.MergeRequest, error) {
	var mr memgov.MergeRequest
	err := svc.store.View(ctx, func(tx memgov.ReadTx) error {
		ws, err := tx.WorkspaceByID(ctx, id)
		if err != nil {
			return err
		}
		if ws.Status != memgov.WorkspaceOpen && len(ws.Request) > 2 {
			return json.Unmarshal(ws.Request, &mr)
		}
		mr, err = svc.changeset(ctx, tx, ws)
		return err
	})
	return mr, err
}

func byKey(vs []memgov.Version) map[string]memgov.Version {
	m := make(map[string]memgov.Version, len(vs))
	for _, v := range vs {
		m[v.Key] = v
	}
	return m
}

// changeset compares the workspace with the base snapshot it was opened on,
// and the snapshot with the base now.
func (svc *Service) changeset(ctx context.Context, tx memgov.ReadTx, ws memgov.Workspace) (memgov.MergeRequest, error) {
	mr := memgov.MergeRequest{WorkspaceID: ws.ID, Ref: ws.Ref, BaseRef: ws.BaseRef, BaseLSN: ws.BaseLSN, Changes: []memgov.WorkspaceChange{}, Conflicts: []memgov.RelatedItem{}}
	now := svc.now()
	snapVs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.BaseRef, AtLSN: ws.BaseLSN, Now: now})
	if err != nil {
		return mr, err
	}
	curVs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.BaseRef, Now: now})
	if err != nil {
		return mr, err
	}
	ownVs, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.Ref, Now: now})
	if err != nil {
		return mr, err
	}
	for _, vs := range [][]memgov.Version{snapVs, curVs, ownVs} {
		if err := readable(vs...); err != nil {
			return mr, err
		}
	}
	snap, cur, own := byKey(snapVs), byKey(curVs), byKey(ownVs)
	written, removed, err := tx.WorkspaceTouched(ctx, ws.Ref)
	if err != nil {
		return mr, err
	}
	keys := map[string]bool{}
	for k := range written {
		keys[k] = true
	}
	for k := range removed {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		s, inSnap := snap[k]
		o, inOwn := own[k]
		var c memgov.WorkspaceChange
		switch {
		case written[k] && inOwn && !inSnap:
			c = memgov.WorkspaceChange{Key: k, Kind: ChangeAdded, Layer: o.Layer, Text: o.Text()}
		case written[k] && inOwn && s.ContentHash != o.ContentHash:
			c = memgov.WorkspaceChange{Key: k, Kind: ChangeChanged, Layer: o.Layer, Text: o.Text(), BaseText: s.Text()}
		case inSnap && (!inOwn || (removed[k] && !written[k])):
			c = memgov.WorkspaceChange{Key: k, Kind: ChangeRemoved, Layer: s.Layer, BaseText: s.Text()}
		default:
			continue
		}
		n, inCur := cur[k]
		if inCur != inSnap || (inCur && n.ID != s.ID) {
			c.Conflict = true
			rel := memgov.RelatedItem{Relation: RelationConflictsWith, Key: k, OldText: s.Text(), State: memgov.Retracted}
			if inCur {
				rel.ItemID, rel.VersionID, rel.Text, rel.State, rel.Confidence = n.ItemID, n.ID, n.Text(), n.State, n.Confidence
			} else if inSnap {
				rel.ItemID, rel.VersionID = s.ItemID, s.ID
			}
			mr.Conflicts = append(mr.Conflicts, rel)
		}
		mr.Changes = append(mr.Changes, c)
	}
	return mr, nil
}

// SubmitWorkspace turns the workspace's changeset into a merge request: one
// DRAFT version on the base ref and one review per change, each listing the
// request's conflicts. Only the owner submits, once.
func (svc *Service) SubmitWorkspace(ctx context.Context, id, agent string) (memgov.MergeRequest, error) {
	var mr memgov.MergeRequest
	err := svc.store.Update(ctx, func(tx memgov.Tx) error {
		ws, err := svc.ownOpenWorkspace(ctx, tx, id, agent)
		if err != nil {
			return err
		}
		if mr, err = svc.changeset(ctx, tx, ws); err != nil {
			return err
		}
		if len(mr.Changes) == 0 {
			return fmt.Errorf("%w: workspace %s has no changes against %s", memgov.ErrInvalid, ws.Name, ws.BaseRef)
		}
		now := svc.now()
		cur, err := tx.Active(ctx, memgov.ActiveQuery{MemoryRef: ws.Ref, Now: now})
		if err != nil {
			return err
		}
		own := byKey(cur)
		for i := range mr.Changes {
			if err := svc.stageChange(ctx, tx, ws, &mr, i, own, now); err != nil {
				return err
			}
		}
		req, err := json.Marshal(mr)
		if err != nil {
			return err
		}
		_, err = svc.appendWorkspace(ctx, tx, ws.Ref, agent, fmt.Sprintf("merge request: %d changes, %d conflicts", len(mr.Changes), len(mr.Conflicts)),
			oplog.WorkspaceData{Action: "submit", Request: req})
		return err
	})
	return mr, err
}

func (svc *Service) stageChange(ctx context.Context, tx memgov.Tx, ws memgov.Workspace, mr *memgov.MergeRequest, i int, own map[string]memgov.Version, now time.Time) error {
	c := &mr.Changes[i]
	entry := &oplog.Entry{Time: now, Op: oplog.Stage, MemoryRef: ws.BaseRef, VersionID: oplog.NewID(), Actor: ws.Owner}
	item, err := tx.ItemByKey(ctx, ws.BaseRef, c.Key)
	switch {
	case err == nil:
		if item.Layer != c.Layer {
			return fmt.Errorf("%w: key %s is %s memory in %s and %s memory in the workspace", memgov.ErrConflict, c.Key, item.Layer, ws.BaseRef, c.Layer)
		}
		entry.ItemID, entry.PrevVersionID = item.ID, item.Head
	case isNotFound(err):
		entry.ItemID = oplog.NewID()
	default:
		return err
	}
	var src memgov.Version
	if c.Kind == ChangeRemoved {
		// The removal's draft carries the base's content; the approval is
		// followed by its RETRACT.
		if item.Head == "" {
			return fmt.Errorf("%w: key %s is no longer in %s; nothing to remove", memgov.ErrConflict, c.Key, ws.BaseRef)
		}
		if src, err = tx.Version(ctx, item.Head); err != nil {
			return err
		}
	} else {
		src = own[c.Key]
	}
	reasons := []string{ReasonWorkspaceMerge}
	related := []memgov.RelatedItem{}
	for _, r := range mr.Conflicts {
		if r.Key == c.Key {
			related = append([]memgov.RelatedItem{r}, related...)
		} else {
			related = append(related, r)
		}
	}
	if c.Conflict {
		reasons = []string{ReasonWorkspaceConflict, ReasonWorkspaceMerge}
	}
	detail := StagedReview{Reasons: reasons, RiskFormula: "workspace merge request", Related: related, ValidationScore: src.ValidationScore,
		Findings: []string{fmt.Sprintf("%s %s from workspace %s (%s): %d changes, %d conflicts in the merge request", c.Kind, c.Key, ws.Name, ws.Ref, len(mr.Changes), len(mr.Conflicts))}}
	var meta oplog.VersionData
	if src.ID != "" {
		if p, err := svc.writes.Payload(ctx, tx, src.CreatedLSN); err == nil {
			if err := memgov.DecodeStored(fmt.Sprintf("the payload data of log entry %d (version %s)", src.CreatedLSN, src.ID), p.Data, &meta); err != nil {
				return err
			}
		}
	}
	detail.Evidence = meta.Evidence
	detail.Risk = 0.5
	if c.Conflict {
		detail.Risk = 0.8
	}
	rv, err := svc.writes.StagedReview(detail, now)
	if err != nil {
		return err
	}
	conf, score := src.Confidence, src.ValidationScore
	p := oplog.Payload{Reason: fmt.Sprintf("workspace merge request %s: %s %s", ws.ID, c.Kind, c.Key), Key: c.Key, Layer: string(c.Layer),
		Content: src.Content, ContentHash: src.ContentHash, Tags: src.Tags, Confidence: &conf, ValidationScore: &score, Classification: src.Classification}
	data, err := json.Marshal(oplog.VersionData{Review: rv, Evidence: meta.Evidence, SessionID: meta.SessionID, ObservationType: meta.ObservationType, Residency: meta.Residency})
	if err != nil {
		return err
	}
	p.Data = data
	if err := oplog.Append(ctx, tx, entry, p); err != nil {
		return err
	}
	c.ItemID, c.VersionID, c.ReviewID = entry.ItemID, entry.VersionID, rv.ID
	return nil
}

// WorkspaceDecided applies a decided merge request review, in the
// transaction of the decision: an approved removal retracts the base entry;
// the last decision closes the request. A review of no merge request is left
// alone.
func (svc *Service) WorkspaceDecided(ctx context.Context, tx memgov.Tx, r memgov.Review, approved bool, reviewer string) error {
	ref, key, kind, found, err := tx.WorkspaceOfReview(ctx, r.ID)
	if err != nil || !found {
		return err
	}
	if approved && kind == ChangeRemoved {
		v, err := tx.Version(ctx, r.VersionID)
		if err != nil {
			return err
		}
		if _, err := svc.writes.Retract(ctx, tx, v, reviewer, "removed by the approved workspace merge request of "+ref); err != nil {
			return err
		}
	}
	open, nApproved, err := tx.WorkspaceReviewCounts(ctx, ref)
	if err != nil || open > 0 {
		return err
	}
	action, why := "merge", fmt.Sprintf("merge request decided: %d changes approved", nApproved)
	if nApproved == 0 {
		action, why = "reject", "merge request decided: every change rejected"
	}
	_ = key
	_, err = svc.appendWorkspace(ctx, tx, ref, reviewer, why, oplog.WorkspaceData{Action: action})
	return err
}
