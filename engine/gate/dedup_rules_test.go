package gate

import (
	"context"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/policy"
)

// The dedup gate discards only what it proves, and names the rule: the
// same claims are REJECTED, a strict superset in the same roles is MERGED,
// and a near text that differs is kept, linked NEAR_DUPLICATE in EPISODIC
// memory and sent to a person in SEMANTIC memory.
func TestDedupKeepsWhatItCannotProve(t *testing.T) {
	pol := policy.Default()
	ctx := context.Background()
	for _, tc := range []struct {
		a, b       string
		layer      memgov.Layer
		verdict    Verdict
		rule       string
		linked     bool
		relatedRel string
	}{
		{"Dana's manager is Priya.", "Priya is Dana's manager.", memgov.Semantic, Reject, judge.RuleSameWords, false, "DUPLICATES"},
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany.", memgov.Episodic, Merge, judge.RuleStrictSuperset, false, "MERGES_INTO"},
		{"Priya is the sister of Dev and the cousin of Anil, and all three grew up in Pune near the old railway station.",
			"Priya is the sister of Anil and the cousin of Dev, and all three grew up together in Pune near the old railway station.",
			memgov.Episodic, Accept, judge.RuleSupersetReordered, true, ""},
		{"Priya is the sister of Dev and the cousin of Anil, and all three grew up in Pune near the old railway station.",
			"Priya is the sister of Anil and the cousin of Dev, and all three grew up together in Pune near the old railway station.",
			memgov.Semantic, Defer, judge.RuleSupersetReordered, false, "NEAR_DUPLICATE"},
		{"The customer said the parcel for order 4417 arrived damaged and asked for a replacement.",
			"Customer says the parcel for order 4417 arrived damaged.", memgov.Episodic, Accept, judge.RuleSubset, true, ""},
	} {
		j, err := JudgePair(ctx, &pol, tc.layer, tc.a, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		dd := j.Dedup
		if dd.Verdict != tc.verdict || dd.Rule != tc.rule || (len(dd.Links) > 0) != tc.linked {
			t.Errorf("%s %q after %q: %s rule %q links %d (%s), want %s rule %q linked %v",
				tc.layer, tc.b, tc.a, dd.Verdict, dd.Rule, len(dd.Links), dd.Detail, tc.verdict, tc.rule, tc.linked)
			continue
		}
		if tc.linked && (dd.Links[0].Relation != "NEAR_DUPLICATE" || dd.Links[0].Rule != tc.rule || dd.Links[0].Key != "stored") {
			t.Errorf("link %+v", dd.Links[0])
		}
		if tc.relatedRel != "" && (len(dd.Related) == 0 || dd.Related[0].Relation != tc.relatedRel || dd.Related[0].Rule != tc.rule) {
			t.Errorf("%q: related %+v, want %s with rule %s", tc.b, dd.Related, tc.relatedRel, tc.rule)
		}
	}
}
