package storetest

import (
	"errors"
	"testing"

	"github.com/memgov/memgov"
)

var workspaceTests = []test{
	{"WorkspaceLifecycle", testWorkspaces},
}

// wsWrite is the owner's write into its workspace; it commits there.
func (fx *fixture) wsWrite(wsRef, key, body string) {
	fx.t.Helper()
	req := request(executor, wsRef, key, body)
	req["observation_type"] = "tool_result_verified"
	req["evidence_refs"] = []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://runbook/1", "authority": 0.95}}
	if r := fx.write(req); r.Status != memgov.StatusCommitted {
		fx.t.Fatalf("workspace write: %+v", r)
	}
}

// The workspace reads follow a workspace from opening through its merge
// request to the decisions on it.
func testWorkspaces(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	const base = "acme/shared"
	episodic := func(p *memgov.PutRequest) { p.Layer = memgov.Episodic }
	fx.put(base, "a", "the deploy window is on tuesdays", episodic)
	fx.put(base, "c", "the old runbook lives in the wiki", episodic)
	ws, err := fx.e.CreateWorkspace(fx.ctx, executor, base, "task-1")
	if err != nil {
		t.Fatal(err)
	}
	fx.wsWrite(ws.Ref, "a", "the deploy window moved to wednesdays")
	fx.wsWrite(ws.Ref, "d", "the canary runs for thirty minutes")
	if _, err := fx.e.RemoveFromWorkspace(fx.ctx, ws.ID, executor, "c"); err != nil {
		t.Fatal(err)
	}
	plain := fx.deferred("c7/lang", "Customer 7 wants invoices in German.")
	fx.view(func(tx memgov.ReadTx) error {
		got, err := tx.WorkspaceByID(fx.ctx, ws.ID)
		if err != nil || got.ID != ws.ID || got.Name != "task-1" || got.Ref != ws.Ref || got.BaseRef != base || got.Owner != executor ||
			got.Status != memgov.WorkspaceOpen || got.BaseLSN != ws.BaseLSN || got.BaseLSN < 1 || !got.CreatedAt.Equal(ws.CreatedAt) {
			t.Errorf("WorkspaceByID = %+v, %v; want %+v", got, err, ws)
		}
		if _, err := tx.WorkspaceByID(fx.ctx, "no-such-workspace"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown workspace: %v, want ErrNotFound", err)
		}
		if got, found, err := tx.WorkspaceByRef(fx.ctx, ws.Ref); err != nil || !found || got.ID != ws.ID {
			t.Errorf("WorkspaceByRef = %+v, %v, %v", got, found, err)
		}
		if _, found, err := tx.WorkspaceByRef(fx.ctx, base); err != nil || found {
			t.Errorf("WorkspaceByRef of a plain ref = %v, %v; want not found", found, err)
		}
		written, removed, err := tx.WorkspaceTouched(fx.ctx, ws.Ref)
		if err != nil || len(written) != 2 || !written["a"] || !written["d"] || len(removed) != 1 || !removed["c"] {
			t.Errorf("WorkspaceTouched = %v, %v, %v; want written a, d and removed c", written, removed, err)
		}
		return nil
	})
	other, err := fx.e.CreateWorkspace(fx.ctx, executor, base, "task-2")
	if err != nil {
		t.Fatal(err)
	}
	mr, err := fx.e.SubmitWorkspace(fx.ctx, ws.ID, executor)
	if err != nil || len(mr.Changes) != 3 {
		t.Fatalf("submit = %+v, %v", mr, err)
	}
	change := map[string]memgov.WorkspaceChange{}
	for _, c := range mr.Changes {
		change[c.Key] = c
	}
	fx.view(func(tx memgov.ReadTx) error {
		ws, err := tx.WorkspaceByID(fx.ctx, ws.ID)
		if err != nil || ws.Status != memgov.WorkspaceSubmitted || len(ws.Request) == 0 {
			t.Errorf("submitted workspace = %+v, %v", ws, err)
		}
		for _, c := range []struct{ tenant string }{{"acme"}, {""}, {memgov.AllTenants}} {
			list, err := tx.WorkspaceList(fx.ctx, c.tenant)
			if err != nil || len(list) != 2 || list[0].ID != ws.ID || list[1].ID != other.ID {
				t.Errorf("WorkspaceList(%q) = %+v, %v; want both, by creation", c.tenant, list, err)
			}
		}
		if list, err := tx.WorkspaceList(fx.ctx, "globex"); err != nil || len(list) != 0 {
			t.Errorf("WorkspaceList of another tenant = %+v, %v", list, err)
		}
		for key, c := range change {
			ref, k, kind, found, err := tx.WorkspaceOfReview(fx.ctx, c.ReviewID)
			if err != nil || !found || ref != ws.Ref || k != key || kind != c.Kind {
				t.Errorf("WorkspaceOfReview(%s) = %s %s %s %v %v; want %s %s %s", key, ref, k, kind, found, err, ws.Ref, key, c.Kind)
			}
		}
		if _, _, _, found, err := tx.WorkspaceOfReview(fx.ctx, plain.ReviewID); err != nil || found {
			t.Errorf("WorkspaceOfReview of a plain review = %v, %v; want not found", found, err)
		}
		if open, approved, err := tx.WorkspaceReviewCounts(fx.ctx, ws.Ref); err != nil || open != 3 || approved != 0 {
			t.Errorf("WorkspaceReviewCounts = %d, %d, %v; want 3 open", open, approved, err)
		}
		return nil
	})
	decide := func(key string, approve bool) {
		t.Helper()
		d := memgov.Decision{ReviewID: change[key].ReviewID, Reviewer: curator, Approve: approve}
		if !approve {
			d.Code = "FACTUAL_ERROR"
		}
		if _, err := fx.e.Decide(fx.ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	counts := func(ref string, wantOpen, wantApproved int) {
		t.Helper()
		fx.view(func(tx memgov.ReadTx) error {
			if open, approved, err := tx.WorkspaceReviewCounts(fx.ctx, ref); err != nil || open != wantOpen || approved != wantApproved {
				t.Errorf("WorkspaceReviewCounts(%s) = %d open, %d approved, %v; want %d, %d", ref, open, approved, err, wantOpen, wantApproved)
			}
			return nil
		})
	}
	decide("d", true)
	decide("c", true)
	counts(ws.Ref, 1, 2)
	decide("a", false)
	counts(ws.Ref, 0, 2)
	counts(other.Ref, 0, 0)
}
