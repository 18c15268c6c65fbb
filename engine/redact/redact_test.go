package redact

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

func TestString(t *testing.T) {
	tests := []struct {
		name    string
		secrets map[string]string
		in      string
		want    string
	}{
		{"no secrets", nil, "nothing to hide here", "nothing to hide here"},
		{"whole", map[string]string{"api": "sk-live-12345"}, "key sk-live-12345 used", "key [REDACTED:api] used"},
		{"inside a word", map[string]string{"pw": "hunter2hunter2"}, "xxhunter2hunter2yy", "xx[REDACTED:pw]yy"},
		{"twice", map[string]string{"pw": "hunter2hunter2"}, "hunter2hunter2 and hunter2hunter2", "[REDACTED:pw] and [REDACTED:pw]"},
		{"adjacent", map[string]string{"pw": "abcdefgh"}, "abcdefghabcdefgh", "[REDACTED:pw][REDACTED:pw]"},
		{"shorter than 8 untouched", map[string]string{"pin": "1234567"}, "pin 1234567", "pin 1234567"},
		{
			"longest first: a secret containing another is replaced whole",
			map[string]string{"inner": "SECRET-12", "outer": "xxSECRET-12yy"},
			"a xxSECRET-12yy b SECRET-12 c",
			"a [REDACTED:outer] b [REDACTED:inner] c",
		},
		{
			"same start, longest wins",
			map[string]string{"short": "tokentoken", "long": "tokentoken-extended"},
			"tokentoken-extended tokentoken",
			"[REDACTED:long] [REDACTED:short]",
		},
		{
			"overlapping secrets are both removed",
			map[string]string{"a": "AAAABBBB", "b": "BBBBCCCC"},
			"<AAAABBBBCCCC>",
			"<[REDACTED:a][REDACTED:b]>",
		},
		{
			"chain of overlaps",
			map[string]string{"a": "11112222", "b": "22223333", "c": "33334444"},
			"11112222333344445555",
			"[REDACTED:a][REDACTED:b][REDACTED:c]5555",
		},
		{
			"regexp metacharacters are literal",
			map[string]string{"re": "a.*b+c?(d)|e"},
			"aXXXb a.*b+c?(d)|e",
			"aXXXb [REDACTED:re]",
		},
		{
			"marker would spell a secret with the text after it: ids dropped",
			map[string]string{"x": "REDACTED:y]zzz", "y": "the-y-secret"},
			"the-y-secretzzz",
			"[REDACTED]zzz",
		},
		{
			"unicode",
			map[string]string{"u": "pässwörd-秘密"},
			"naïve pässwörd-秘密 café",
			"naïve [REDACTED:u] café",
		},
		{
			"marker would spell a secret: ids dropped",
			map[string]string{"db-password-prod": "db-password"},
			"use db-password now",
			"use [REDACTED] now",
		},
		{
			"marker would spell a secret: value removed",
			map[string]string{"word": "REDACTED", "other": "other-secret"},
			"REDACTED other-secret",
			"[] []",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRedactor(tt.secrets)
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if !r.Empty() || r.Len() != 0 {
		t.Fatal("nil Redactor is not empty")
	}
	if got := r.String("abcdefghij"); got != "abcdefghij" {
		t.Errorf("String = %q", got)
	}
	got, err := r.JSON([]byte(`{"a": [1.50, "x"]}`))
	if err != nil || string(got) != `{"a":[1.50,"x"]}` {
		t.Errorf("JSON = %s, %v", got, err)
	}
}

func TestRegistry(t *testing.T) {
	g := NewRegistry()
	mustRegister := func(run, id, v string, want bool) {
		t.Helper()
		ok, err := g.Register(run, id, v)
		if err != nil {
			t.Fatalf("Register(%q, %q): %v", run, id, err)
		}
		if ok != want {
			t.Fatalf("Register(%q, %q) registered = %v, want %v", run, id, ok, want)
		}
	}
	mustRegister("run-1", "stripe", "sk_live_abcdef", true)
	mustRegister("run-2", "github", "ghp_0123456789", true)
	mustRegister("", "platform", "tenant-wide-secret", true)
	mustRegister("run-1", "pin", "1234", false)

	text := "sk_live_abcdef ghp_0123456789 tenant-wide-secret 1234"
	tests := []struct {
		run, want string
	}{
		{"run-1", "[REDACTED:stripe] ghp_0123456789 [REDACTED:platform] 1234"},
		{"run-2", "sk_live_abcdef [REDACTED:github] [REDACTED:platform] 1234"},
		{"run-3", "sk_live_abcdef ghp_0123456789 [REDACTED:platform] 1234"},
		{"", "sk_live_abcdef ghp_0123456789 [REDACTED:platform] 1234"},
	}
	for _, tt := range tests {
		if got := g.Redactor(tt.run).String(text); got != tt.want {
			t.Errorf("run %q: got %q, want %q", tt.run, got, tt.want)
		}
	}

	snap := g.Redactor("run-1")
	g.Forget("run-1")
	if got := g.Redactor("run-1").String(text); strings.Contains(got, "REDACTED:stripe") {
		t.Errorf("after Forget: %q", got)
	}
	if got := snap.String("sk_live_abcdef"); got != "[REDACTED:stripe]" {
		t.Errorf("snapshot changed after Forget: %q", got)
	}
	if g.Redactor("nobody").Len() != 1 {
		t.Errorf("global secrets: Len = %d, want 1", g.Redactor("nobody").Len())
	}
	g.Forget("")
	if g.Redactor("run-2").Len() != 1 {
		t.Errorf("run-2 should keep its own secret")
	}
	if !g.Redactor("run-3").Empty() {
		t.Errorf("run-3 should have no secrets after Forget(\"\")")
	}
}

func TestRegistryZeroValue(t *testing.T) {
	var g Registry
	if !g.Redactor("run").Empty() {
		t.Fatal("zero Registry is not empty")
	}
	g.Forget("run")
	if ok, err := g.Register("run", "k", "a-long-secret"); !ok || err != nil {
		t.Fatalf("Register on zero Registry = %v, %v", ok, err)
	}
	if got := g.Redactor("run").String("x a-long-secret"); got != "x [REDACTED:k]" {
		t.Errorf("String = %q", got)
	}
}

func TestRegisterInvalidID(t *testing.T) {
	g := NewRegistry()
	for _, id := range []string{"", "a b", "a/b", "ключ", strings.Repeat("a", 65)} {
		_, err := g.Register("run", id, "a-long-secret-value")
		if !errors.Is(err, ErrInvalidSecretID) {
			t.Errorf("Register(id %q): err = %v, want ErrInvalidSecretID", id, err)
		}
		if err != nil && strings.Contains(err.Error(), "a-long-secret-value") {
			t.Errorf("error repeats the value: %v", err)
		}
	}
	if g.Redactor("run").Len() != 0 {
		t.Error("an invalid registration was kept")
	}
}

func TestRegistryConcurrent(t *testing.T) {
	g := NewRegistry()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := string(rune('a' + i))
			for j := range 100 {
				if _, err := g.Register(run, "s", strings.Repeat(run, 8+j%4)); err != nil {
					t.Error(err)
					return
				}
				_ = g.Redactor(run).String("text aaaaaaaaaa bbbbbbbbbb")
				if j%10 == 0 {
					g.Forget(run)
				}
			}
		}()
	}
	wg.Wait()
}

func TestJSON(t *testing.T) {
	r := NewRedactor(map[string]string{"k": "sk-live-12345", "inner": "live-12"})
	tests := []struct {
		name, in, want string
	}{
		{"string value", `{"a":"token sk-live-12345"}`, `{"a":"token [REDACTED:k]"}`},
		{"object key", `{"sk-live-12345":1}`, `{"[REDACTED:k]":1}`},
		{"nested arrays", `[[["x sk-live-12345"]],{"b":["sk-live-12345"]}]`, `[[["x [REDACTED:k]"]],{"b":["[REDACTED:k]"]}]`},
		{"numbers preserved", `{"n": 1.50, "big": 12345678901234567890123, "e": 1e-7, "neg": -0}`, `{"n":1.50,"big":12345678901234567890123,"e":1e-7,"neg":-0}`},
		{"order preserved", `{"z":1,"a":2,"m":3}`, `{"z":1,"a":2,"m":3}`},
		{"literals", `[true,false,null]`, `[true,false,null]`},
		{"escapes decoded before matching", `"sk-live-\u0031\u00323\u00345 <&>"`, `"[REDACTED:k] <&>"`},
		{"scalar document", `"sk-live-12345"`, `"[REDACTED:k]"`},
		{"empty containers", ` { "a" : [ ] , "b" : { } } `, `{"a":[],"b":{}}`},
		{"unicode", `{"ключ":"значение sk-live-12345 ✓"}`, `{"ключ":"значение [REDACTED:k] ✓"}`},
		{"marker characters escaped correctly", `{"q":"say \"sk-live-12345\"\n"}`, `{"q":"say \"[REDACTED:k]\"\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := r.JSON([]byte(tt.in))
			if err != nil {
				t.Fatalf("JSON: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestJSONInvalid(t *testing.T) {
	r := NewRedactor(map[string]string{"k": "sk-live-12345"})
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	for _, in := range []string{
		``, `{`, `{"a" "sk-live-12345"}`, `{"a":1}{}`, `[1,]`, `{"sk-live-12345":}`, `nul`, `"sk-live-12345`, `{1:2}`, deep,
	} {
		_, err := r.JSON([]byte(in))
		if err == nil {
			t.Errorf("JSON(%.40q) accepted invalid input", in)
			continue
		}
		if strings.Contains(err.Error(), "sk-live") {
			t.Errorf("error repeats content: %v", err)
		}
	}
}

// TestNoSecretSurvives checks SR-1: after redaction no registered value
// occurs in the output, whatever the values, ids and text.
func TestNoSecretSurvives(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// A small alphabet that includes marker characters makes overlaps,
		// containment and marker collisions likely.
		alpha := rapid.SampledFrom([]rune("ab[]REDACTED:x-é"))
		word := rapid.StringOfN(alpha, 1, 24, -1)
		ids := rapid.StringMatching(`[A-Za-z0-9._-]{1,12}`)
		secrets := rapid.MapOfN(ids, word, 0, 6).Draw(t, "secrets")
		parts := rapid.SliceOfN(rapid.OneOf(word, rapid.SampledFrom(values(secrets))), 0, 12).Draw(t, "parts")
		text := strings.Join(parts, "")

		out := NewRedactor(secrets).String(text)
		for id, v := range secrets {
			if len(v) >= MinSecretLen && strings.Contains(out, v) {
				t.Fatalf("secret %q (%q) survives in %q (input %q)", id, v, out, text)
			}
		}
	})
}

func values(m map[string]string) []string {
	vs := []string{"filler"}
	for _, v := range m {
		vs = append(vs, v)
	}
	return vs
}

// TestShortValuesUntouched checks that text without any registered value of
// MinSecretLen bytes or more comes back unchanged.
func TestShortValuesUntouched(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		secrets := rapid.MapOfN(rapid.StringMatching(`[a-z]{1,8}`), rapid.StringN(1, MinSecretLen-1, -1), 0, 5).Draw(t, "secrets")
		text := rapid.String().Draw(t, "text")
		if out := NewRedactor(secrets).String(text); out != text {
			t.Fatalf("String changed text: %q -> %q", text, out)
		}
	})
}

func BenchmarkString(b *testing.B) {
	secrets := make(map[string]string)
	for i := range 20 {
		secrets["secret-"+string(rune('a'+i))] = "sk_" + strings.Repeat(string(rune('A'+i)), 10+i) + "_end"
	}
	var text strings.Builder
	i := 0
	for text.Len() < 2048 {
		text.WriteString("The agent resolved the refund and called the payments API with ")
		if i%3 == 0 {
			text.WriteString(secrets["secret-"+string(rune('a'+i%20))])
		}
		text.WriteString(". ")
		i++
	}
	r := NewRedactor(secrets)
	s := text.String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(s)
	}
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"sk-live-12345":["sk-live-12345",1.0e3,null]}`, `"x"`, `[`, `{"a":}`, `[1,2,{"b":true}]`} {
		f.Add([]byte(s))
	}
	r := NewRedactor(map[string]string{"k": "sk-live-12345", "b": "[brackets]"})
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := r.JSON(raw)
		if err != nil {
			if json.Valid(raw) && !strings.Contains(err.Error(), "nested too deeply") {
				t.Fatalf("rejected valid JSON: %v", err)
			}
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("accepted invalid JSON")
		}
		if !json.Valid(out) {
			t.Fatalf("produced invalid JSON %q", out)
		}
	})
}
