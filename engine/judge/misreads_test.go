package judge

import "testing"

// Misreads seen on text written elsewhere: spellings of one word, bounds
// read as values, and a preference reversed. Each verdict names its rule.
func TestContradictionMisreads(t *testing.T) {
	j := New(nil)
	for _, tc := range []struct {
		a, b string
		rule string // "" : no contradiction
	}{
		// One word, spelled closed up, hyphenated or apart.
		{"The user prefers e-mail updates.", "The user prefers email updates.", ""},
		{"Alice lives in New York.", "Alice lives in NewYork.", ""},
		{"Bob's role is co-founder.", "Bob's role is cofounder.", ""},
		{"The user's favourite colour is grey.", "The user's favorite color is gray.", ""},
		{"The user's favourite colour is blue.", "The user's favorite color is green.", RuleSingleValued},
		// Bounds are not values of a single-valued relation.
		{"The budget is at most $500.", "The budget is less than $500.", ""},
		{"The budget is under $500.", "The budget is below $500.", ""},
		{"Alice's age is under 30.", "Alice's age is less than 30.", ""},
		{"The price is less than $20.", "The price is under $20.", ""},
		{"The price is at most $20.", "The price is $15.", ""},
		// A bound moved is still an edit, and a value is still one value.
		{"The budget is under $500.", "The budget is under $600.", RuleQuantityInText},
		{"Alice lives in Berlin.", "Alice lives in Lisbon.", RuleSingleValued},
		{"Dana's manager is Tomas.", "Dana's manager is Priya.", RuleSingleValued},
		// A preference reversed is a contradiction, by its own rule.
		{"The user prefers tea to coffee.", "The user prefers coffee to tea.", RulePreferenceSwap},
		{"Alice prefers tea over coffee.", "Alice prefers coffee over tea.", RulePreferenceSwap},
		{"The user likes tea more than coffee.", "The user likes coffee more than tea.", RulePreferenceSwap},
		{"Alice prefers tea rather than coffee in the morning.", "Alice prefers coffee rather than tea.", RulePreferenceSwap},
		{"Dana prefers working remotely to working in the office.", "Dana prefers working in the office to working remotely.", RulePreferenceSwap},
		{"The team prefers Slack over e-mail.", "The team prefers email over Slack.", RulePreferenceSwap},
		{"The user prefers tea.", "The user prefers coffee to tea.", RulePreferenceSwap},
		{"The user prefers tea to coffee.", "The user prefers coffee.", RulePreferenceSwap},
		// Liking one thing says nothing of liking another more.
		{"The user likes rock.", "The user likes jazz more than rock.", ""},
		{"The user prefers tea.", "The user prefers tea to coffee.", ""},
		// The same preference in other words, and other people's.
		{"Alice prefers tea to coffee.", "Alice prefers tea over coffee.", ""},
		{"Alice prefers tea to coffee.", "Bob prefers coffee to tea.", ""},
		{"Alice prefers to work from home.", "Alice prefers home to work.", ""},
	} {
		v := j.Contradiction(tc.a, tc.b)
		switch {
		case tc.rule == "" && v.Contradicts:
			t.Errorf("%q / %q: contradiction by %s (%s), want none", tc.a, tc.b, v.Rule, v.Explanation)
		case tc.rule != "" && (!v.Contradicts || v.Rule != tc.rule):
			t.Errorf("%q / %q: %+v, want a contradiction by rule %s", tc.a, tc.b, v, tc.rule)
		}
	}
	if _, ok := LookupRule(RulePreferenceSwap); !ok {
		t.Fatalf("rule %s is not in the rule table", RulePreferenceSwap)
	}
}

// A bound written before money is read through the currency sign: "$500"
// and "under $500" are another bound, not a text that says more.
func TestBoundThroughCurrencySign(t *testing.T) {
	d := New(nil).Compare("The budget is $500.", "The budget is under $500.")
	if dec := d.Decide(); dec.Kind == ResolveMerge || dec.Kind == ResolveDuplicate || dec.Rule != RuleBoundDiffers {
		t.Fatalf("decision %+v, want the pair kept apart by rule %s", dec, RuleBoundDiffers)
	}
}

// "no more than" and "no later than" write bounds, not denials, and "at
// most" a bound, not a hedge: the pair is told apart by its bound or kept,
// never by a negation or hedge rule.
func TestBoundIsNotNegation(t *testing.T) {
	j := New(nil)
	for _, p := range [][2]string{
		{"The fee is no more than $5.", "The fee is at most $5."},
		{"The deadline is no later than Friday.", "The deadline is before Friday."},
	} {
		if d, ok := negationDiff(p[0], p[1], DefaultLexicon()); ok {
			t.Errorf("%q / %q: read as a negation (%+v)", p[0], p[1], d)
		}
		if dec := j.Compare(p[0], p[1]).Decide(); dec.Rule == RuleNegationDiffers || dec.Rule == RuleHedgeDiffers {
			t.Errorf("%q / %q: decided by %s", p[0], p[1], dec.Rule)
		}
	}
	// A denial is still one.
	if _, ok := negationDiff("The office is open on Fridays.", "The office is not open on Fridays.", DefaultLexicon()); !ok {
		t.Error("a denial is no longer read as one")
	}
}
