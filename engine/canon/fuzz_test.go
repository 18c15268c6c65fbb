package canon

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCanonicalize checks that Canonicalize never panics, accepts only
// what encoding/json also accepts, and that its output is valid JSON and a
// fixed point equal to the independent serializer's output for the value
// encoding/json decodes.
func FuzzCanonicalize(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "input", "*.json"))
	for _, in := range inputs {
		if b, err := os.ReadFile(in); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{}`, `[]`, `0`, `-0`, `1e400`, `1e-400`, `0x10`, `1_0`, `Infinity`, `NaN`,
		`"\ud800"`, `"\ud83d\ude02"`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `[1,]`,
		"\"\xff\"", `"\u0000\u001f"`, `{"\ufb33":1,"\ud83d\ude02":2}`, `[1e21,1e-7,5e-324]`,
		`[01]`, `[1.]`, `[.1]`, `[+1]`, `[1e]`, `{"a" :[ true , false , null ] }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonicalize(data)
		if err != nil {
			if out != nil {
				t.Fatalf("Canonicalize returned output %q with error %v", out, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Canonicalize accepted %q, which encoding/json rejects", data)
		}
		if !json.Valid(out) {
			t.Fatalf("Canonicalize(%q) = %q, not valid JSON", data, out)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("encoding/json cannot decode %q: %v", data, err)
		}
		if want := refCanonical(v); string(out) != want {
			t.Fatalf("Canonicalize(%q) = %q, independent serializer gives %q", data, out, want)
		}
		again, err := Canonicalize(out)
		if err != nil {
			t.Fatalf("Canonicalize(%q) = %q, which it then rejects: %v", data, out, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not a fixed point: %q -> %q -> %q", data, out, again)
		}
	})
}
