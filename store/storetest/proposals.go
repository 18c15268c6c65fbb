package storetest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/memgov/memgov"
)

var proposalTests = []test{
	{"ProposalsAndRevisions", testProposals},
}

// Proposals, Proposal and ProposalRevisions follow a proposal through a
// revision.
func testProposals(t *testing.T, f Factory) {
	fx := newFixture(t, f)
	p1, err := fx.e.CreateProposal(fx.ctx, memgov.ProposalInput{Kind: "prompt-template", Title: "Refund follow-up",
		Artifact: json.RawMessage(`{"template":"Dear {{name}}"}`), Rationale: "first", SourceRunIDs: []string{"run-1"}}, curator)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := fx.e.CreateProposal(fx.ctx, memgov.ProposalInput{Kind: "automation", Title: "Nightly GC",
		Artifact: json.RawMessage(`{"schedule":"@daily"}`), Tenant: "globex"}, operator)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fx.e.ReviseProposal(fx.ctx, p1.ID, memgov.ProposalInput{Artifact: json.RawMessage(`{"template":"Hello {{name}}"}`), Rationale: "second"}, curator); err != nil {
		t.Fatal(err)
	}
	fx.view(func(tx memgov.ReadTx) error {
		p, err := tx.Proposal(fx.ctx, p1.ID)
		if err != nil {
			return err
		}
		if p.ID != p1.ID || p.Kind != "prompt-template" || p.Title != "Refund follow-up" || p.State != memgov.ProposalRevised || p.Revision != 2 ||
			string(p.Artifact) != `{"template":"Hello {{name}}"}` || p.ArtifactHash == p1.ArtifactHash || p.Rationale != "second" ||
			p.Owner.Tenant != "acme" || p.Owner.Principal != curator || len(p.Provenance.SourceRunIDs) != 1 || p.Provenance.SourceRunIDs[0] != "run-1" ||
			!p.CreatedAt.Equal(p1.CreatedAt) || p.UpdatedAt.Before(p.CreatedAt) {
			t.Errorf("Proposal = %+v", p)
		}
		if _, err := tx.Proposal(fx.ctx, "no-such-proposal"); !errors.Is(err, memgov.ErrNotFound) {
			t.Errorf("unknown proposal: %v, want ErrNotFound", err)
		}
		revs, err := tx.ProposalRevisions(fx.ctx, p1.ID)
		if err != nil || len(revs) != 2 || revs[0].Revision != 1 || revs[1].Revision != 2 || revs[0].ArtifactHash != p1.ArtifactHash ||
			string(revs[1].Artifact) != string(p.Artifact) || revs[1].Rationale != "second" || revs[0].By != curator || revs[1].LSN <= revs[0].LSN {
			t.Errorf("ProposalRevisions = %+v, %v", revs, err)
		}
		if revs, err := tx.ProposalRevisions(fx.ctx, "no-such-proposal"); err != nil || len(revs) != 0 {
			t.Errorf("revisions of an unknown proposal = %+v, %v", revs, err)
		}
		for what, c := range map[string]struct {
			q    memgov.ProposalQuery
			want []string
		}{
			"every proposal":    {memgov.ProposalQuery{}, []string{p2.ID, p1.ID}},
			"every tenant":      {memgov.ProposalQuery{Tenant: memgov.AllTenants}, []string{p2.ID, p1.ID}},
			"acme's":            {memgov.ProposalQuery{Tenant: "acme"}, []string{p1.ID}},
			"of a kind":         {memgov.ProposalQuery{Kind: "automation"}, []string{p2.ID}},
			"in a state":        {memgov.ProposalQuery{State: memgov.ProposalRevised}, []string{p1.ID}},
			"by artifact hash":  {memgov.ProposalQuery{ArtifactHash: p2.ArtifactHash}, []string{p2.ID}},
			"limit 1":           {memgov.ProposalQuery{Limit: 1}, []string{p2.ID}},
			"of another tenant": {memgov.ProposalQuery{Tenant: "initech"}, nil},
		} {
			ps, err := tx.Proposals(fx.ctx, c.q)
			var got []string
			for _, p := range ps {
				got = append(got, p.ID)
			}
			if err != nil || len(got) != len(c.want) || len(got) > 0 && (got[0] != c.want[0] || got[len(got)-1] != c.want[len(c.want)-1]) {
				t.Errorf("Proposals %s = %v, %v; want %v (newest first)", what, got, err, c.want)
			}
		}
		return nil
	})
}
