package sqlstore

import (
	"slices"
	"testing"
)

// A topic query keeps its rarest words while their documents add up to the
// budget, never fewer than topicMinTerms, in the order the words came.
func TestRarestWords(t *testing.T) {
	ws := []string{"office", "lisbon", "manages", "priya", "quarterly"}
	for _, c := range []struct {
		docs []int
		want []string
	}{
		// Few documents in all: the query is every word.
		{[]int{10, 3, 40, 1, 0}, ws},
		// Common words over the budget go, the rarest stay.
		{[]int{1100, 3, 1200, 1, 0}, []string{"lisbon", "priya", "quarterly"}},
		{[]int{400, 3, 600, 1, 0}, []string{"office", "lisbon", "priya", "quarterly"}},
		// Every word common: still the topicMinTerms rarest.
		{[]int{5000, 2000, 1001, 3000, 1500}, []string{"lisbon", "manages", "quarterly"}},
	} {
		if got := rarestWords(ws, c.docs); !slices.Equal(got, c.want) {
			t.Errorf("rarestWords(%v) = %v, want %v", c.docs, got, c.want)
		}
	}
	short := []string{"dana", "office"}
	if got := rarestWords(short, []int{5000, 5000}); !slices.Equal(got, short) {
		t.Errorf("rarestWords of %d words = %v, want all of them", len(short), got)
	}
}

func TestDistinctOver(t *testing.T) {
	p := map[string][]int64{"a": {9, 7, 5}, "b": {9, 8, 5}, "c": {4, 3, 2, 1}}
	for _, c := range []struct {
		ws   []string
		n    int
		want bool
	}{
		{[]string{"a", "b"}, 4, false}, // 9 8 7 5: shared rowids count once
		{[]string{"a", "b"}, 3, true},
		{[]string{"a", "b", "c"}, 7, true},
		{[]string{"a", "b", "c"}, 8, false},
		{[]string{"c"}, 3, true}, // one word's postings alone
		{nil, 0, false},
	} {
		if got := distinctOver(p, c.ws, c.n); got != c.want {
			t.Errorf("distinctOver(%v, %d) = %v, want %v", c.ws, c.n, got, c.want)
		}
	}
}
