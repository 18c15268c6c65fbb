package gate

import (
	"context"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
)

// The dedup gate discards only what it proves, and names the rule: the
// same claims are REJECTED, a strict superset in the same roles is MERGED,
// and a near text that differs is kept, linked NEAR_DUPLICATE in EPISODIC
// memory and sent to a person in SEMANTIC memory. In EPISODIC memory
// nothing is REJECTED or MERGED: the same words again, or more of them,
// are a later event, linked to the earlier one; SESSION memory's notes are
// linked the same way. WORKING memory is not deduplicated.
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
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany.", memgov.Semantic, Merge, judge.RuleStrictSuperset, false, "MERGES_INTO"},
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany.", memgov.Episodic, Accept, judge.RuleExtendsEvent, true, ""},
		{"Thanks!", "Thanks!", memgov.Semantic, Reject, judge.RuleExactHash, false, "DUPLICATES"},
		{"Thanks!", "Thanks!", memgov.Episodic, Accept, judge.RuleRepeatsEvent, true, ""},
		{"Thanks!", "Thanks!", memgov.Session, Accept, judge.RuleRepeatsEvent, true, ""},
		{"Alice lives in Berlin.", "Alice lives in Berlin, Germany.", memgov.Session, Accept, judge.RuleExtendsEvent, true, ""},
		{"Thanks!", "Thanks!", memgov.Working, Accept, "", false, ""},
		{"Hello there. How are you?", "Hi, how are you?", memgov.Episodic, Accept, judge.RuleRepeatsEvent, true, ""},
		{"Dana's manager is Priya.", "Priya is Dana's manager.", memgov.Episodic, Accept, judge.RuleRepeatsEvent, true, ""},
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

// In EPISODIC memory the same content in another item is another event
// (linked, repeats-event), but the same content written again to the
// write's own item changes nothing of it and is REJECTED as before.
func TestDedupEventLayerOwnItem(t *testing.T) {
	pol := policy.Default()
	f, err := memory.FeaturesOf([]byte(`{"text":"Thanks!"}`))
	if err != nil {
		t.Fatal(err)
	}
	c := memgov.Candidate{VersionID: "v1", ItemID: "i1", Key: "thanks", Layer: memgov.Episodic, State: memgov.Active,
		ContentHash: "sha256:same", Fingerprint: f.Fingerprint[:], Text: "Thanks!"}
	for _, tc := range []struct {
		layer   memgov.Layer
		own     string
		verdict Verdict
		rule    string
	}{
		{memgov.Episodic, "i1", Reject, judge.RuleExactHash},
		{memgov.Episodic, "", Accept, judge.RuleRepeatsEvent},
		{memgov.Episodic, "i2", Accept, judge.RuleRepeatsEvent},
		// A session note written again to its own item is a new version
		// of it, as before; another note is linked.
		{memgov.Session, "i1", Accept, ""},
		{memgov.Session, "i2", Accept, judge.RuleRepeatsEvent},
	} {
		c.Layer = tc.layer
		r, err := Dedup{}.Evaluate(context.Background(), DedupInput{MemoryRef: "acme/bot", Layer: tc.layer, ContentHash: "sha256:same",
			Features: f, OwnItemID: tc.own, Policy: &pol, Reader: pairReader{c: c}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != tc.verdict || r.Rule != tc.rule || (tc.rule == judge.RuleRepeatsEvent) != (len(r.Links) == 1) {
			t.Errorf("%s, own item %q: %s rule %q links %d (%s), want %s by %q", tc.layer, tc.own, r.Verdict, r.Rule, len(r.Links), r.Detail, tc.verdict, tc.rule)
		}
	}
}
