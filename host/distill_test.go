package host_test

import (
	"reflect"
	"testing"

	"github.com/memgov/memgov/host"
)

func TestTokenizer(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  []string
		words int
	}{
		{"Refund > $1,000.", []string{"Refund", ">", "$", "1", ",", "000", "."}, 3},
		{"  two\twords\n", []string{"two", "words"}, 2},
		{"[REDACTED:stripe-key]", []string{"[", "REDACTED", ":", "stripe", "-", "key", "]"}, 3},
		{"café naïve_x", []string{"café", "naïve_x"}, 2},
		{"", nil, 0},
	} {
		got := host.Tokens(tc.in)
		if !reflect.DeepEqual(got, tc.want) || host.CountTokens(tc.in) != len(tc.want) {
			t.Errorf("Tokens(%q) = %q (count %d), want %q", tc.in, got, host.CountTokens(tc.in), tc.want)
		}
		words := 0
		for _, tok := range got {
			if host.WordToken(tok) {
				words++
			}
		}
		if words != tc.words {
			t.Errorf("Tokens(%q) has %d word tokens, want %d", tc.in, words, tc.words)
		}
	}
}
