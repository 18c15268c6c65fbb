package merkle

import (
	"errors"
	"strings"
	"testing"
)

func TestParseHash(t *testing.T) {
	const hex = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	tests := []struct {
		name     string
		in       string
		prefixed bool
		wantErr  bool
	}{
		{"hex", hex, false, false},
		{"upper-case hex", strings.ToUpper(hex), false, false},
		{"prefixed", "sha256:" + hex, true, false},
		{"prefix where none is expected", "sha256:" + hex, false, true},
		{"missing prefix", hex, true, true},
		{"other algorithm", "sha512:" + hex, true, true},
		{"short", hex[:63], false, true},
		{"long", hex + "0", false, true},
		{"not hex", "g" + hex[1:], false, true},
		{"empty", "", false, true},
		{"prefixed empty", "sha256:", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := ParseHash
			if tt.prefixed {
				parse = ParsePrefixed
			}
			h, err := parse(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrMalformedHash) {
					t.Fatalf("parse(%q) = %v, %v; want ErrMalformedHash", tt.in, h, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h != EmptyRoot() || h.String() != hex || h.Prefixed() != "sha256:"+hex {
				t.Fatalf("parse(%q) = %s", tt.in, h)
			}
		})
	}
}

func TestLeafAndNodeHashDomains(t *testing.T) {
	// A leaf never equals an interior node over the same bytes (0x00 vs 0x01
	// prefix), and tags separate the kinds of leaf.
	var l, r Hash
	l[0], r[0] = 1, 2
	both := append(append([]byte{}, l[:]...), r[:]...)
	if LeafHash("", both) == NodeHash(l, r) {
		t.Error("leaf and node hash coincide")
	}
	seen := map[Hash]string{}
	for _, tag := range []string{TagTraceEntry, TagKV, TagVec, TagGraphNode, TagGraphEdge} {
		if !strings.HasSuffix(tag, "\x00") {
			t.Errorf("tag %q lacks its NUL terminator", tag)
		}
		h := LeafHash(tag, []byte(`{}`))
		if other, ok := seen[h]; ok {
			t.Errorf("tags %q and %q give the same leaf", tag, other)
		}
		seen[h] = tag
	}
}
