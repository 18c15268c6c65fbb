package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/writes"
)

func wsWrite(t *testing.T, e *engine.Engine, agent, ref, key, text string) memgov.WriteResult {
	t.Helper()
	return write(t, e, []byte(fmt.Sprintf(`{"source_agent_id":%q,"memory_ref":%q,"key":%q,"target_layer":"EPISODIC","observation_type":"tool_result_verified","confidence":0.8,
		"content":{"text":%q},"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://runbook/1","authority":0.95}]}`, agent, ref, key, text)))
}

func keyTexts(vs []memgov.Version) map[string]string {
	out := map[string]string{}
	for _, v := range vs {
		out[v.Key] = v.Text()
	}
	return out
}

func TestWorkspaceCopyOnWriteMergeRequest(t *testing.T) {
	ctx := context.Background()
	e, c := enginetest.Lifecycle(t, "")
	base := "acme/shared"
	enginetest.PutText(t, e, base, "a", memgov.Episodic, "the deploy window is on tuesdays", nil)
	enginetest.PutText(t, e, base, "b", memgov.Episodic, "the staging cluster has four nodes", nil)
	enginetest.PutText(t, e, base, "c", memgov.Episodic, "the old runbook lives in the wiki", nil)

	ws, err := e.Host().CreateWorkspace(ctx, "bot", base, "task-1")
	if err != nil {
		t.Fatal(err)
	}
	if ws.Ref != "acme/bot/ws/task-1" || ws.Status != memgov.WorkspaceOpen || ws.ID == "" || ws.BaseRef != base {
		t.Fatalf("workspace: %+v", ws)
	}
	if _, err := e.Host().CreateWorkspace(ctx, "bot", base, "task-1"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("second workspace of the same name: %v", err)
	}
	c.Add(time.Minute)
	// The agent's writes into its workspace commit (the merge request is the review).
	if r := wsWrite(t, e, "bot", ws.Ref, "b", "the staging cluster has six nodes after the upgrade"); r.Status != memgov.StatusCommitted {
		t.Fatalf("workspace write: %+v", r)
	}
	if r := wsWrite(t, e, "bot", ws.Ref, "d", "the canary runs for thirty minutes before promotion"); r.Status != memgov.StatusCommitted {
		t.Fatalf("workspace write: %+v", r)
	}
	if _, err := e.Host().RemoveFromWorkspace(ctx, ws.ID, "bot", "c"); err != nil {
		t.Fatal(err)
	}
	// Meanwhile the base moves on: b changes (a conflict), e is added.
	enginetest.PutText(t, e, base, "b", memgov.Episodic, "the staging cluster has five nodes", nil)
	enginetest.PutText(t, e, base, "e", memgov.Episodic, "the on-call rotation is weekly", nil)

	// Copy-on-write reads: the snapshot overlaid by the workspace's writes.
	snap, err := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: ws.Ref})
	if err != nil {
		t.Fatal(err)
	}
	got := keyTexts(snap.Versions)
	if len(got) != 3 || got["a"] == "" || got["b"] != "the staging cluster has six nodes after the upgrade" || got["d"] == "" {
		t.Fatalf("workspace view: %v", got)
	}
	if vs, err := e.Host().Adapter(memgov.As("bot")).ListVersions(ctx, ws.Ref, host.ListOptions{}); err != nil || len(vs) != 3 {
		t.Fatalf("adapter view: %v %v", keyTexts(vs), err)
	}
	if v, err := e.Host().Get(ctx, memgov.Owner, ws.Ref, "a"); err != nil || v.MemoryRef != base {
		t.Fatalf("get through the workspace: %+v %v", v, err)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, ws.Ref, "c"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("removed key: %v", err)
	}
	if p, _ := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: ws.Ref, Limit: 1, AfterKey: "a"}); len(p.Versions) != 1 || p.Versions[0].Key != "b" {
		t.Fatalf("paging: %+v", p.Versions)
	}

	// Only the owner submits.
	if _, err := e.Host().SubmitWorkspace(ctx, ws.ID, "orch"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("submit by another agent: %v", err)
	}
	c.Add(time.Minute)
	mr, err := e.Host().SubmitWorkspace(ctx, ws.ID, "bot")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]memgov.WorkspaceChange{}
	for _, ch := range mr.Changes {
		kinds[ch.Key] = ch
	}
	if len(mr.Changes) != 3 || kinds["b"].Kind != host.ChangeChanged || !kinds["b"].Conflict || kinds["c"].Kind != host.ChangeRemoved ||
		kinds["d"].Kind != host.ChangeAdded || kinds["d"].Conflict {
		t.Fatalf("changes: %+v", mr.Changes)
	}
	if len(mr.Conflicts) != 1 || mr.Conflicts[0].Relation != host.RelationConflictsWith || mr.Conflicts[0].Key != "b" ||
		mr.Conflicts[0].Text != "the staging cluster has five nodes" || mr.Conflicts[0].OldText != "the staging cluster has four nodes" {
		t.Fatalf("conflicts: %+v", mr.Conflicts)
	}
	if _, err := e.Host().SubmitWorkspace(ctx, ws.ID, "bot"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("second submit: %v", err)
	}
	// Each change is a DRAFT on the base with a review listing the conflicts.
	rs, total, err := e.Reviews().List(ctx, memgov.ReviewQuery{})
	if err != nil || total != 3 {
		t.Fatalf("queue: %d %v", total, err)
	}
	for _, r := range rs {
		var d writes.ReviewDetail
		if err := json.Unmarshal(r.Detail, &d); err != nil {
			t.Fatal(err)
		}
		if r.MemoryRef != base || r.Agent != "bot" || len(d.Related) != 1 || d.Related[0].Relation != host.RelationConflictsWith {
			t.Fatalf("review: %+v %+v", r, d)
		}
		if r.ID == kinds["b"].ReviewID && (r.Reason != host.ReasonWorkspaceConflict || d.Related[0].OldText == "") {
			t.Fatalf("conflicting change's review: %+v", r)
		}
	}
	if v, _ := e.Host().Get(ctx, memgov.Owner, base, "d"); v.ID != "" {
		t.Fatalf("a draft is visible before approval: %+v", v)
	}
	// Approving applies; the last decision closes the request.
	for _, d := range []memgov.Decision{
		{ReviewID: kinds["d"].ReviewID, Reviewer: "jane", Approve: true},
		{ReviewID: kinds["c"].ReviewID, Reviewer: "jane", Approve: true},
	} {
		if _, err := e.Reviews().Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if w, _ := e.Host().Workspace(ctx, ws.ID); w.Status != memgov.WorkspaceSubmitted {
		t.Fatalf("status with an open review: %s", w.Status)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: kinds["b"].ReviewID, Reviewer: "jane", Code: "CONTRADICTION", Note: "the base says five"}); err != nil {
		t.Fatal(err)
	}
	w, _ := e.Host().Workspace(ctx, ws.ID)
	if w.Status != memgov.WorkspaceMerged || w.DecidedBy != "jane" {
		t.Fatalf("merged workspace: %+v", w)
	}
	now, _ := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: base})
	got = keyTexts(now.Versions)
	if len(got) != 4 || got["b"] != "the staging cluster has five nodes" || got["d"] != "the canary runs for thirty minutes before promotion" || got["c"] != "" {
		t.Fatalf("base after the merge: %v", got)
	}
	if list, _ := e.Host().Workspaces(ctx, "acme"); len(list) != 1 || list[0].ID != ws.ID {
		t.Fatalf("list: %+v", list)
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}

func TestWorkspaceAllRejected(t *testing.T) {
	ctx := context.Background()
	e, _ := enginetest.Lifecycle(t, "")
	enginetest.PutText(t, e, "acme/shared", "a", memgov.Episodic, "the deploy window is on tuesdays", nil)
	ws, err := e.Host().CreateWorkspace(ctx, "bot", "acme/shared", "t2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Host().SubmitWorkspace(ctx, ws.ID, "bot"); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("empty merge request: %v", err)
	}
	wsWrite(t, e, "bot", ws.Ref, "a", "the deploy window moved to thursdays")
	mr, err := e.Host().SubmitWorkspace(ctx, ws.ID, "bot")
	if err != nil || len(mr.Changes) != 1 || len(mr.Conflicts) != 0 {
		t.Fatalf("submit: %+v %v", mr, err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: mr.Changes[0].ReviewID, Reviewer: "bot", Approve: true}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("the agent decides its own merge: %v", err)
	}
	if _, err := e.Reviews().Decide(ctx, memgov.Decision{ReviewID: mr.Changes[0].ReviewID, Reviewer: "jane", Code: "OTHER"}); err != nil {
		t.Fatal(err)
	}
	if w, _ := e.Host().Workspace(ctx, ws.ID); w.Status != memgov.WorkspaceRejected {
		t.Fatalf("status: %s", w.Status)
	}
	if v, _ := e.Host().Get(ctx, memgov.Owner, "acme/shared", "a"); v.Text() != "the deploy window is on tuesdays" {
		t.Fatalf("base changed: %s", v.Text())
	}
	if rb, err := e.Audit().Rebuild(ctx); err != nil || len(rb.Differences) != 0 {
		t.Fatalf("rebuild: %v %v", rb.Differences, err)
	}
}
