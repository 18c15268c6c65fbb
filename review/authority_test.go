package review_test

import (
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/review"
)

// The console offers a person exactly the decisions the engine's authority
// table grants them: for every role, suspended or not, deciding reviews,
// acknowledging drift and approving baselines are offered when and only when
// authz permits the action on memory of the person's tenant written by
// someone else.
func TestConsoleOffersWhatTheTableGrants(t *testing.T) {
	f := setup(t)
	az := f.eng.Authz()
	n := 0
	for _, role := range memgov.Roles {
		for _, suspended := range []bool{false, true} {
			p := memgov.Principal{ID: "person", Role: role, Tenant: "acme", Suspended: suspended}
			svc := review.New(f.eng, p)
			for _, c := range []struct {
				act     authz.Action
				target  authz.Target
				console error
			}{
				{authz.ActReviewDecide, authz.Target{Ref: ref, Layer: memgov.Semantic, Writer: "support-bot"}, svc.Queue().CanDecide()},
				{authz.ActDriftAck, authz.Target{Ref: ref}, svc.Drift().CanAck(ref)},
				{authz.ActBaselineApprove, authz.Target{Ref: ref}, svc.Drift().CanApprove(ref)},
			} {
				table := az.Permit(p, c.act, c.target)
				if (c.console == nil) != (table == nil) {
					t.Errorf("%s (suspended %v) %s: the console says %v, the table %v", role, suspended, c.act, c.console, table)
				}
				if c.console == nil {
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the console offered nothing to anyone")
	}
}
