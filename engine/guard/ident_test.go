package guard

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckIdentifier(t *testing.T) {
	for _, ok := range []string{"customer-42/channel", "acme/support-bot", "chat://s-71", "Zoë’s notes", ""} {
		if err := CheckIdentifier("key", ok); err != nil {
			t.Errorf("CheckIdentifier(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"k\x1b]52;c;aGk=\x07", "a\u202eb", "a\u200bb", "line\nbreak", "tab\tbed", "c1\u0085", "del\x7f", "bad\xffutf8", "tag\U000E0041"} {
		err := CheckIdentifier("key", bad)
		if err == nil {
			t.Errorf("CheckIdentifier(%q) = nil, want a refusal", bad)
			continue
		}
		if strings.ContainsAny(err.Error(), "\x1b\u202e\u200b\n\t\x7f") {
			t.Errorf("the refusal of %q prints the character: %q", bad, err)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	in := map[string]string{"k": "a\u202eb\u200bc\u0085d\x7fe\U000E0041 plain"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := EscapeJSON(b)
	for _, r := range string(out) {
		if Unsafe(r) {
			t.Fatalf("escaped JSON still holds U+%04X: %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("escaped JSON does not parse: %v (%s)", err, out)
	}
	if back["k"] != in["k"] {
		t.Fatalf("round trip changed the string: %q != %q", back["k"], in["k"])
	}
	if plain := []byte(`{"a":"b"}`); &EscapeJSON(plain)[0] != &plain[0] {
		t.Error("clean JSON was copied")
	}
}
