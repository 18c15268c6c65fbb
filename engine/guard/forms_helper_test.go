package guard

import (
	"strings"
	"testing"
)

// A formCase is a text beside what the content policy must make of it in a
// layer that states facts: passed, held or refused. desc, when set, is the
// rule that must fire, and its finding must quote the words it read; on a
// text that passes, the rule's order is one the learned model released
// (Verdict.Released).
type formCase struct {
	why, text string
	want      outcome
	desc      string
}

// checkForms checks each case's outcome and, where it names one, its rule.
func checkForms(t *testing.T, cases []formCase) {
	t.Helper()
	names := []string{"passed", "held", "refused"}
	for _, tt := range cases {
		v := Check(tt.text)
		if got := outcomeOf(v); got != tt.want {
			t.Errorf("%s: %q: %s (%v %v), want %s", tt.why, tt.text, names[got], v.Findings, v.Orders, names[tt.want])
			continue
		}
		if tt.desc == "" {
			continue
		}
		found := false
		for _, f := range append(append(append([]Finding(nil), v.Findings...), v.Orders...), v.Released...) {
			if strings.HasPrefix(f.Detail, tt.desc+": \"") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q: no finding %q quoting the words (%v %v)", tt.why, tt.text, tt.desc, v.Findings, v.Orders)
		}
	}
}
