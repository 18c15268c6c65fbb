package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVectors checks the RFC 8785 reference vectors shipped with
// github.com/cyberphone/json-canonicalization (testdata/input, output and
// outhex), byte for byte.
func TestVectors(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "input", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != 6 {
		t.Fatalf("found %d input vectors, want 6", len(inputs))
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			input := readFile(t, in)
			want := readFile(t, filepath.Join("testdata", "output", name+".json"))
			hexText := readFile(t, filepath.Join("testdata", "outhex", name+".txt"))
			wantHex, err := hex.DecodeString(strings.Join(strings.Fields(string(hexText)), ""))
			if err != nil {
				t.Fatalf("outhex: %v", err)
			}
			if !bytes.Equal(want, wantHex) {
				t.Fatalf("output and outhex disagree:\n%q\n%q", want, wantHex)
			}
			got, err := Canonicalize(input)
			if err != nil {
				t.Fatalf("Canonicalize: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Canonicalize =\n%s\nwant\n%s", got, want)
			}
			again, err := Canonicalize(got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("Canonicalize(output) = %q, %v; want a fixed point", again, err)
			}
		})
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{}`, `{}`},
		{` [ ] `, `[]`},
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{"\t{ \"a\" :\r\n[1 , 2] }\n", `{"a":[1,2]}`},
		{`null`, `null`},
		{` true `, `true`},
		{`false`, `false`},
		{`"x"`, `"x"`},
		{`"\u00e9\/\u0041"`, `"é/A"`},
		{`"\u001f\u007f\u2028"`, "\"\\u001f\x7f\u2028\""},
		{`"\b\f\n\r\t\"\\"`, `"\b\f\n\r\t\"\\"`},
		{`"\ud83d\ude02"`, `"😂"`},
		{`1`, `1`},
		{`-0`, `0`},
		{`-0.0e5`, `0`},
		{`1.0`, `1`},
		{`1E2`, `100`},
		{`1e21`, `1e+21`},
		{`1e20`, `100000000000000000000`},
		{`0.000001`, `0.000001`},
		{`1e-7`, `1e-7`},
		{`5e-324`, `5e-324`},
		{`1e-400`, `0`}, // underflows to zero, as in JSON.parse
		{`1.7976931348623157e308`, `1.7976931348623157e+308`},
		{`9007199254740993`, `9007199254740992`},
		{`0.30000000000000004`, `0.30000000000000004`},
		{`[1e+2,-1.5E-3]`, `[100,-0.0015]`},
		{`{"\u20ac":1,"\r":2,"\ud83d\ude02":3,"\ufb33":4}`, "{\"\\r\":2,\"€\":1,\"😂\":3,\"\ufb33\":4}"},
		{`{"a":{"d":1,"c":2},"A":[{"z":null,"y":true}]}`, `{"A":[{"y":true,"z":null}],"a":{"c":2,"d":1}}`},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in))
		if err != nil {
			t.Errorf("Canonicalize(%q): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Canonicalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		offset int64
		msg    string // part of the error message
	}{
		{"empty", ``, 0, "end of input"},
		{"space only", `  `, 2, "end of input"},
		{"duplicate key", `{"a":1,"a":2}`, 7, "duplicate object key"},
		{"duplicate key after unescaping", `{"a":1,"\u0061":2}`, 7, "duplicate object key"},
		{"duplicate nested key", `[{"k":{"x":1,"x":1}}]`, 13, "duplicate"},
		{"trailing garbage", `{"a":1}x`, 7, "after top-level value"},
		{"two values", `1 2`, 2, "after top-level value"},
		{"trailing comma in object", `{"a":1,}`, 7, "want an object key"},
		{"trailing comma in array", `[1,]`, 3, "want a value"},
		{"NaN", `NaN`, 0, "want a value"},
		{"Infinity", `[Infinity]`, 1, "want a value"},
		{"minus Infinity", `-Infinity`, 1, "want a digit"},
		{"leading zero", `01`, 1, "leading zero"},
		{"negative leading zero", `[-012]`, 3, "leading zero"},
		{"plus sign", `+1`, 0, "want a value"},
		{"bare dot", `.5`, 0, "want a value"},
		{"dot without digits", `1.`, 2, "after '.'"},
		{"exponent without digits", `1e+`, 3, "exponent"},
		{"hex number", `0x10`, 1, "after top-level value"},
		{"underscore", `1_000`, 1, "after top-level value"},
		{"overflow", `1e400`, 0, "not a finite IEEE-754 double"},
		{"negative overflow", `[-1.8e308]`, 1, "not a finite"},
		{"lone high surrogate", `"\ud800"`, 1, "lone high surrogate"},
		{"high surrogate then char", `"\ud800x"`, 1, "lone high surrogate"},
		{"two high surrogates", `"\ud800\ud800"`, 1, "lone high surrogate"},
		{"lone low surrogate", `"a\udc00"`, 2, "lone low surrogate"},
		{"short unicode escape", `"\u12"`, 1, "four hex digits"},
		{"bad escape", `"\x"`, 2, "invalid escape"},
		{"invalid UTF-8", "\"\xff\"", 1, "invalid UTF-8"},
		{"truncated UTF-8", "\"\xe2\x82\"", 1, "invalid UTF-8"},
		{"UTF-8 surrogate", "\"\xed\xa0\x80\"", 1, "invalid UTF-8"},
		{"overlong UTF-8", "\"\xc0\xaf\"", 1, "invalid UTF-8"},
		{"invalid UTF-8 in key", "{\"\xfe\":1}", 2, "invalid UTF-8"},
		{"byte order mark", "\xef\xbb\xbf{}", 0, "want a value"},
		{"control character", "\"a\nb\"", 2, "control character"},
		{"unterminated string", `"abc`, 4, "end of input"},
		{"unterminated object", `{"a":1`, 6, "end of input"},
		{"unterminated array", `[1`, 2, "end of input"},
		{"single quotes", `{'a':1}`, 1, "want an object key"},
		{"missing colon", `{"a" 1}`, 5, "want ':'"},
		{"bad literal", `nul`, 3, "literal null"},
		{"capital literal", `True`, 0, "want a value"},
		{"comment", `[1/*x*/]`, 2, "want ',' or ']'"},
		{"vertical tab", "[\v1]", 1, "want a value"},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), MaxDepth, "nesting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Canonicalize([]byte(tt.in))
			if err == nil {
				t.Fatalf("Canonicalize(%q) = %q, want an error", tt.in, out)
			}
			if !errors.Is(err, ErrInvalidJSON) {
				t.Errorf("error %v does not wrap ErrInvalidJSON", err)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Offset != tt.offset {
				t.Errorf("offset = %d, want %d (%v)", se.Offset, tt.offset, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

func TestCanonicalizeAcceptsMaxDepth(t *testing.T) {
	in := strings.Repeat(`{"a":`, MaxDepth-1) + "[]" + strings.Repeat("}", MaxDepth-1)
	out, err := Canonicalize([]byte(in))
	if err != nil {
		t.Fatalf("Canonicalize at depth %d: %v", MaxDepth, err)
	}
	if string(out) != in {
		t.Errorf("Canonicalize changed canonical input")
	}
}

func TestErrorDoesNotEchoInput(t *testing.T) {
	key := strings.Repeat("k", 10000)
	in := `{"` + key + `":1,"` + key + `":2}`
	_, err := Canonicalize([]byte(in))
	if err == nil {
		t.Fatal("duplicate key accepted")
	}
	if n := len(err.Error()); n > 200 {
		t.Errorf("error message is %d bytes long", n)
	}
}

// pointOne and pointTwo are variables so that their sum is computed in
// float64 arithmetic, not as an exact constant.
var pointOne, pointTwo = 0.1, 0.2

func TestMarshal(t *testing.T) {
	type item struct {
		Op    string `json:"op"`
		Key   string `json:"key"`
		Value any    `json:"value,omitempty"`
	}
	tests := []struct {
		v    any
		want string
	}{
		{nil, `null`},
		{map[string]any{"b": 1.0, "a": "<&>"}, `{"a":"<&>","b":1}`},
		{item{Op: "PUT", Key: "a", Value: 1}, `{"key":"a","op":"PUT","value":1}`},
		{item{Op: "DEL", Key: "a"}, `{"key":"a","op":"DEL"}`},
		{[]float64{1e21, 1e-7, math.Copysign(0, -1), pointOne + pointTwo}, `[1e+21,1e-7,0,0.30000000000000004]`},
		{"\u2028\x00", "\"\u2028\\u0000\""},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.v)
		if err != nil {
			t.Errorf("Marshal(%#v): %v", tt.v, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Marshal(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	for _, v := range []any{make(chan int), func() {}, map[string]any{"x": complex(1, 2)}} {
		if out, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%T) = %s, want an error", v, out)
		}
	}
}

// TestSpecVectors reproduces the canonical JSON behind leaf hashes given in
// the agent-manifest reference (spec §3.2.6.2 and §3.2.7.1).
func TestSpecVectors(t *testing.T) {
	tests := []struct {
		tag  string
		v    any
		want string
	}{
		{"am-mem-kv\x00", map[string]any{"op": "PUT", "key": "a", "value": 1},
			"f2904e572018f088488c4fbd2e5fffaa3bc5f94488eec27ca73f4d1348595b91"},
		{"am-trace-entry\x00", map[string]any{"tool": "kyc.lookup", "seq": 0, "decision": "allow"},
			"60254cf11420c61e878667adc185b683d261a19e9c74da5d224687758db65267"},
		{"am-trace-entry\x00", map[string]any{"tool": "kyc.lookup", "seq": 2, "decision": "allow"},
			"d2a1bd03e6ea0d31241263f59252f5fab5f4f9a6625c8b89c90d0d116b17d441"},
	}
	for _, tt := range tests {
		c, err := Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write([]byte{0})
		h.Write([]byte(tt.tag))
		h.Write(c)
		if got := hex.EncodeToString(h.Sum(nil)); got != tt.want {
			t.Errorf("leaf(%q, %s) = %s, want %s", tt.tag, c, got, tt.want)
		}
	}
}
