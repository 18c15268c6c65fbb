package similar

import (
	"slices"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"Hello  World", "hello world"},
		{"\t Customer\n42 \r\n prefers\u00A0email  ", "customer 42 prefers email"},
		{"ÄRGER Über STRAẞE", "ärger über straße"},
		{"ΣΟΦΙΑ", "σοφια"},
		{"It\u2019s \u201Cquoted\u201D", `it's "quoted"`},
		{"2020\u20132021 \u2014 done\u2026", "2020-2021 - done..."},
		{"\u2212" + "5", "-5"},
		{"\uFF21\uFF22\uFF23\uFF11\uFF12", "abc12"},
		{"\u3000wide\u3000space\u3000", "wide space"},
		{"zero\u200Bwidth\uFEFF soft\u00ADhyphen", "zerowidth softhyphen"},
		{"\uFB01le \uFB02ow", "file flow"},
		{"bell\x07 and\x00nul", "bell andnul"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringMatching(`[ A-Za-z0-9,.'’“”\-–—…\t\n]{0,40}`)).Draw(t, "s")
		n := Normalize(s)
		if !utf8.ValidString(n) {
			t.Fatalf("Normalize(%q) = %q is not valid UTF-8", s, n)
		}
		if again := Normalize(n); again != n {
			t.Fatalf("Normalize not idempotent: %q -> %q -> %q", s, n, again)
		}
		if len(n) > 0 && (n[0] == ' ' || n[len(n)-1] == ' ') {
			t.Fatalf("Normalize(%q) = %q is not trimmed", s, n)
		}
		// Tokenising must not depend on a second normalisation either.
		if !slices.Equal(tokens(n), tokens(Normalize(n))) {
			t.Fatalf("tokens differ after renormalising %q", s)
		}
	})
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"customer 42, prefers e-mail!", []string{"customer", "42", "prefers", "email"}},
		{"don't stop", []string{"dont", "stop"}},
		{"pi is 3.14, not 3", []string{"pi", "is", "3.14", "not", "3"}},
		{"1,000 users", []string{"1,000", "users"}},
		{"temp -5 to +7 degrees", []string{"temp", "-5", "to", "+7", "degrees"}},
		{"pages 10-20", []string{"pages", "10", "20"}},
		{"covid-19", []string{"covid", "19"}},
		{"e.g. this", []string{"e", "g", "this"}},
		{"end-", []string{"end"}},
		{"-dash- 'quote'", []string{"dash", "quote"}},
		{"naïve café", []string{"naïve", "café"}},
		{"東京 tower", []string{"東京", "tower"}},
		{"a.b,c", []string{"a", "b", "c"}},
		{"42.", []string{"42"}},
	}
	for _, tt := range tests {
		if got := tokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Found by the rapid property test: a full-width form whose ASCII result is
// itself folded must fold in one pass.
func TestNormalizeFullWidthFoldsInOnePass(t *testing.T) {
	for _, s := range []string{"\uFF40", "a\uFF40b", "\uFF02x\uFF02"} {
		once := Normalize(s)
		if twice := Normalize(once); twice != once {
			t.Errorf("Normalize(%q) = %q, again %q", s, once, twice)
		}
	}
	if got := Normalize("\uFF40"); got != "'" {
		t.Errorf("Normalize(U+FF40) = %q, want '", got)
	}
}
