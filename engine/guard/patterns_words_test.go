package guard

import "testing"

func TestWordBefore(t *testing.T) {
	for _, c := range []struct {
		text   string
		i      int
		word   string
		spaced bool
	}{
		{"a human agent", 8, "human", true},
		{"a real-life agent", 12, "real-life", true},
		{"the-agent", 4, "", false}, // a hyphen right before i ends no word
		{"-agent", 1, "", false},    // nor one at its start
		{"an  email", 4, "an", true},
		{"email", 0, "", false},
		{"x well-known", 12, "well-known", false},
	} {
		if w, spaced := wordBefore([]byte(c.text), c.i); w != c.word || spaced != c.spaced {
			t.Errorf("wordBefore(%q, %d) = %q, %v; want %q, %v", c.text, c.i, w, spaced, c.word, c.spaced)
		}
	}
}
