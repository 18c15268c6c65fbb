package scope

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	long64 := strings.Repeat("a", 64)
	tests := []struct {
		name   string
		in     string
		want   Ref
		reason string // substring of the error; "" means valid
	}{
		{"tenant and agent", "acme/support", Ref{Tenant: "acme", Agent: "support"}, ""},
		{"namespaces", "acme/support/refunds/2026", Ref{"acme", "support", []string{"refunds", "2026"}}, ""},
		{"upper case", "ACME/x", Ref{Tenant: "ACME", Agent: "x"}, ""},
		{"punctuation", "a.b/c_d/e-f/.hidden/v1..2", Ref{"a.b", "c_d", []string{"e-f", ".hidden", "v1..2"}}, ""},
		{"64-byte segment", "acme/" + long64, Ref{Tenant: "acme", Agent: long64}, ""},
		{"eight segments", "a/b/c/d/e/f/g/h", Ref{"a", "b", []string{"c", "d", "e", "f", "g", "h"}}, ""},

		{"empty", "", Ref{}, "empty"},
		{"single segment", "acme", Ref{}, "fewer than 2 segments"},
		{"nine segments", "a/b/c/d/e/f/g/h/i", Ref{}, "more than 8 segments"},
		{"traversal", "acme/../globex/x", Ref{}, "segment 2 is made only of dots"},
		{"dot agent", "acme/./x", Ref{}, "segment 2 is made only of dots"},
		{"dot tenant", "./x", Ref{}, "segment 1 is made only of dots"},
		{"triple dot", "acme/.../x", Ref{}, "segment 2 is made only of dots"},
		{"percent encoded dots", "acme/%2e%2e/x", Ref{}, "segment 2 contains a disallowed byte at offset 0"},
		{"double slash", "acme//x", Ref{}, "segment 2 is empty"},
		{"leading slash", "/acme/x", Ref{}, "leading slash"},
		{"trailing slash", "acme/x/", Ref{}, "trailing slash"},
		{"NUL", "acme/x\x00", Ref{}, "segment 2 contains a disallowed byte at offset 1"},
		{"control byte", "acme/x\ny", Ref{}, "disallowed byte"},
		{"DEL", "acme/x\x7f", Ref{}, "disallowed byte"},
		{"backslash", `acme\..\globex/x`, Ref{}, "segment 1 contains a disallowed byte at offset 4"},
		{"space", "acme/x y", Ref{}, "disallowed byte"},
		{"tab", "acme\t/x", Ref{}, "disallowed byte"},
		{"colon", "mem://acme/x", Ref{}, "disallowed byte"},
		{"cyrillic a lookalike", "\u0430cme/x", Ref{}, "segment 1 contains a disallowed byte at offset 0"},
		{"fullwidth solidus", "acme\uff0fx/y", Ref{}, "disallowed byte"},
		{"one-dot leader", "acme/\u2024\u2024/x", Ref{}, "disallowed byte"},
		{"invalid UTF-8", "acme/\xff", Ref{}, "disallowed byte"},
		{"65-byte segment", "acme/" + long64 + "a", Ref{}, "segment 2 is longer than 64 bytes"},
		{"300-byte ref", "acme/" + strings.Repeat(long64[:60]+"/", 4) + strings.Repeat("b", 55), Ref{}, "longer than 256 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("Parse: unexpected error %v", err)
				}
				if got.Tenant != tt.want.Tenant || got.Agent != tt.want.Agent || !slices.Equal(got.Namespace, tt.want.Namespace) {
					t.Fatalf("Parse = %#v, want %#v", got, tt.want)
				}
				if s := got.String(); s != tt.in {
					t.Errorf("String() = %q, want %q", s, tt.in)
				}
				if !Valid(tt.in) || !got.Valid() {
					t.Errorf("Valid = false for an accepted ref")
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse accepted a malformed ref: %#v", got)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v does not wrap ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q does not mention %q", err, tt.reason)
			}
			if Valid(tt.in) {
				t.Errorf("Valid = true for a rejected ref")
			}
		})
	}
}

func TestParseErrorDoesNotEchoInput(t *testing.T) {
	secret := "sk-live-0123456789abcdef"
	inputs := []string{
		"acme/" + secret + " ",
		secret + "/../x",
		"acme/" + secret + "/%00",
		strings.Repeat(secret+"/", 20),
		"/" + secret + "/x",
	}
	for _, in := range inputs {
		_, err := Parse(in)
		if err == nil {
			t.Fatalf("Parse accepted a malformed ref")
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q repeats the input", err)
		}
	}
}

func TestValidSegment(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"acme", true},
		{"agent-7.v2_x", true},
		{strings.Repeat("z", 64), true},
		{"", false},
		{".", false},
		{"..", false},
		{"a/b", false},
		{"a b", false},
		{strings.Repeat("z", 65), false},
		{"\u0430cme", false},
	}
	for _, tt := range tests {
		if got := ValidSegment(tt.in); got != tt.want {
			t.Errorf("ValidSegment(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestWithin(t *testing.T) {
	r, err := Parse("acme/support/refunds")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref    Ref
		tenant string
		want   bool
	}{
		{r, "acme", true},
		{r, "ACME", false},
		{r, "globex", false},
		{r, "", false},
		{r, "acme/support", false},
		{Ref{Tenant: "acme/..", Agent: "x"}, "acme/..", false},
		{Ref{Tenant: "acme", Agent: "x/../../globex"}, "acme", false},
		{Ref{Tenant: "acme", Agent: ""}, "acme", false},
		{Ref{}, "", false},
	}
	for _, tt := range tests {
		if got := tt.ref.Within(tt.tenant); got != tt.want {
			t.Errorf("%#v.Within(%q) = %v, want %v", tt.ref, tt.tenant, got, tt.want)
		}
	}
}

func TestRefValid(t *testing.T) {
	tests := []struct {
		ref  Ref
		want bool
	}{
		{Ref{Tenant: "acme", Agent: "x"}, true},
		{Ref{Tenant: "acme", Agent: "x", Namespace: []string{"a", "b"}}, true},
		{Ref{Tenant: "acme", Agent: "x/y"}, false},
		{Ref{Tenant: "acme", Agent: "x", Namespace: []string{""}}, false},
		{Ref{Tenant: "acme", Agent: "x", Namespace: []string{"a/b"}}, false},
		{Ref{Tenant: "acme"}, false},
	}
	for _, tt := range tests {
		if got := tt.ref.Valid(); got != tt.want {
			t.Errorf("%#v.Valid() = %v, want %v", tt.ref, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"acme/support", "acme/support/a/b", "ACME/x", "acme/../globex/x", "acme/%2e%2e/x",
		"acme//x", "./x", "acme/x/", "acme/x\x00", "\u0430cme/x", "a/b/c/d/e/f/g/h/i",
		"acme/.../x", "a.b/..c", strings.Repeat("a", 300),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			if len(s) >= 8 && strings.Contains(err.Error(), s) {
				t.Fatalf("error repeats the input")
			}
			if Valid(s) {
				t.Fatalf("Valid disagrees with Parse")
			}
			return
		}
		if got := r.String(); got != s {
			t.Fatalf("round trip: %q -> %q", s, got)
		}
		if len(s) > MaxRefLen {
			t.Fatalf("accepted a %d-byte ref", len(s))
		}
		segs := strings.Split(s, "/")
		if segs[0] != r.Tenant || segs[1] != r.Agent {
			t.Fatalf("tenant/agent %q/%q do not match the leading segments", r.Tenant, r.Agent)
		}
		if !r.Within(segs[0]) {
			t.Fatalf("ref is not within its own tenant")
		}
		if len(segs) < MinSegments || len(segs) > MaxSegments {
			t.Fatalf("accepted %d segments", len(segs))
		}
		for _, seg := range segs {
			if strings.Trim(seg, ".") == "" || len(seg) > MaxSegmentLen {
				t.Fatalf("accepted segment %q", seg)
			}
		}
		for i := 0; i < len(s); i++ {
			if s[i] != '/' && !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", rune(s[i])) {
				t.Fatalf("accepted byte %#x", s[i])
			}
		}
	})
}
