package judge

import (
	"sort"
	"testing"
)

// TestFactEditCorpus measures the contradiction rules on single-valued fact
// edits (a fact and the same fact with another value) and compatible pairs
// about the same subjects, per split: "dev" was written before the
// relation table, "first-look" after it and before any tuning on it.
func TestFactEditCorpus(t *testing.T) {
	recs := loadCorpus(t, "factedit.jsonl")
	splits := map[string]*confusion{}
	for _, r := range recs {
		split := r.Split
		if splits[split] == nil {
			splits[split] = &confusion{}
		}
		v := Contradiction(r.A, r.B)
		want := r.Label == "contradiction"
		splits[split].add(v.Contradicts, want)
		if testing.Verbose() && v.Contradicts != want {
			t.Logf("miss (%s) want %s got %v [%s]: %q / %q %v / %v", split, r.Label, v.Contradicts, v.Explanation, r.A, r.B, Extract(r.A), Extract(r.B))
		}
	}
	names := make([]string, 0, len(splits))
	for n := range splits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := splits[n]
		t.Logf("fact edits %-10s recall %.3f precision %.3f (tp %d fp %d tn %d fn %d)", n, c.recall(), c.precision(), c.tp, c.fp, c.tn, c.fn)
		if c.recall() < 0.8 || c.precision() < 0.95 {
			t.Errorf("fact edits %s: recall %.3f precision %.3f, want recall >= 0.8 at precision >= 0.95", n, c.recall(), c.precision())
		}
	}
}
