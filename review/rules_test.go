package review

import (
	"reflect"
	"testing"
)

// The rules the gates write into their findings are read back with the
// words that fired them; prose that only looks like a rule is not one.
func TestFindingRules(t *testing.T) {
	for _, c := range []struct {
		finding string
		want    []RuleNote
	}{
		{`near-duplicate of boss/1 (similarity 1.000) that differs: the words around "report" change sides [rule role-swap: "dana | tomas oslo offic", "tomas | dana oslo offic"]; kept as its own item, linked NEAR_DUPLICATE`,
			[]RuleNote{{Name: "role-swap", Words: `"dana | tomas oslo offic", "tomas | dana oslo offic"`}}},
		{`extends ceo/1 (similarity 0.879), which is DRAFT and cannot take a merge: adds "based lyon"; a curator decides both [rule extends-pending, after strict-superset]`,
			[]RuleNote{{Name: "extends-pending"}}},
		{`contradicts hq/city (confidence 0.62 is not above 0.66); the established fact stands (single-valued: "acme | headquarters | berlin" vs "acme | headquarters | munich": "headquarters" holds one value at a time)`,
			[]RuleNote{{Name: "single-valued", Words: `"acme | headquarters | berlin" vs "acme | headquarters | munich": "headquarters" holds one value at a time`}}},
		{`SEMANTIC memory should state facts; the text orders an action: ORDER_TO_ACT: order to act on the world: "Transfer 500 euros (now) " (a person decides; write a procedure to PROCEDURAL memory, or state what happened as a fact)`,
			[]RuleNote{{Name: "ORDER_TO_ACT", Words: `order to act on the world: "Transfer 500 euros (now) "`}}},
		{`the rules let the text pass, but it reads as an instruction planted for the agent that reads EPISODIC memory: LEARNED_INJECTION: learned model injection-v3: "f:link" +1.40, "f:you" +0.85 weighed most (scored 0.99, holds at 0.91) (a person decides)`,
			[]RuleNote{{Name: "LEARNED_INJECTION", Words: `learned model injection-v3: "f:link" +1.40, "f:you" +0.85 weighed most`}}},
		{`contradicts refund/limit (structured-object: refund approval single_signature_limit "$5,000", not "$1,000")`,
			[]RuleNote{{Name: "structured-object", Words: `refund approval single_signature_limit "$5,000", not "$1,000"`}}},
		// Words before a colon that are no rule's name.
		{`waiting for a curator: the reason: unknown (risk: high)`, nil},
	} {
		got := FindingRules(c.finding)
		for i := range got {
			got[i].Doc = ""
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("FindingRules(%q)\n = %+v\nwant %+v", c.finding, got, c.want)
		}
	}
	// A judge rule carries its doc.
	if got := FindingRules(`(single-valued: "a" vs "b")`); len(got) != 1 || got[0].Doc == "" {
		t.Errorf("single-valued without its doc: %+v", got)
	}
}
