package canon

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// utf16Compare is the RFC 8785 key order written as directly as possible.
func utf16Compare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func TestCompareKeys(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "a", -1},
		{"a", "", 1},
		{"a", "b", -1},
		{"B", "a", -1},
		{"ab", "a", 1},
		{"10", "1", 1},
		{"peach", "péché", -1},
		{"péché", "pêche", -1},
		{"\u00e9", "\u00e9", 0},
		{"\u00e9", "\u00e8", 1},
		// Above U+FFFF sorts before U+E000..U+FFFF in UTF-16 but after in UTF-8.
		{"\U0001F602", "\uFB33", -1},
		{"\uFB33", "\U0001F602", 1},
		{"\U00010000", "\uE000", -1},
		{"\U0010FFFF", "\uFFFF", -1},
		{"\U0001F602", "\uD7FF", 1},
		{"x\U0001F602", "x\uFFFD", -1},
		{"\U0001F600", "\U0001F601", -1},
		{"\U0001F600", "\U0001F600a", -1},
		{"\U00010400", "\U000103FF", 1}, // different high surrogates
		{"\u20ac", "\r", 1},
		{"\x7f", "\u0080", -1},
		// Invalid UTF-8 counts as U+FFFD, ties broken by bytes.
		{"\xff", "\uFFFD", 1},
		{"\xfe", "\xff", -1},
		{"\xff", "\U00010000", 1},
		{"\xf0\x90", "\U00010000", 1},
	}
	for _, tt := range tests {
		if got := CompareKeys(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareKeys(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// keyRune draws characters from the ranges where key order is subtle.
var keyRune = rapid.OneOf(
	rapid.Int32Range(0x20, 0x7e),
	rapid.Int32Range(0, 0x1f),
	rapid.Int32Range(0x7f, 0x7ff),
	rapid.Int32Range(0x800, 0xD7FF),
	rapid.Int32Range(0xE000, 0xFFFF),
	rapid.Int32Range(0x10000, 0x10FFFF),
	rapid.Int32Range(0x1F600, 0x1F64F),
	rapid.SampledFrom([]rune{'"', '\\', '/', 0x2028, 0x2029, 0xFEFF, 0xFFFD}),
)

var keyGen = rapid.Custom(func(t *rapid.T) string {
	return string(rapid.SliceOfN(keyRune, 0, 6).Draw(t, "runes"))
})

func TestCompareKeysMatchesUTF16(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := keyGen.Draw(t, "a")
		b := keyGen.Draw(t, "b")
		if rapid.Bool().Draw(t, "shared prefix") {
			b = a + b
		}
		if got, want := CompareKeys(a, b), utf16Compare(a, b); got != want {
			t.Fatalf("CompareKeys(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// TestCompareKeysTotalOrder checks that CompareKeys is a total order on
// arbitrary byte strings, including invalid UTF-8.
func TestCompareKeysTotalOrder(t *testing.T) {
	bytesKey := rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.OneOf(
			rapid.Map(keyGen, func(s string) []byte { return []byte(s) }),
			rapid.SliceOfN(rapid.Byte(), 1, 3),
			rapid.SampledFrom([][]byte{{0xf0, 0x90}, {0xed, 0xa0, 0x80}, {0xff}, {0x80}}),
		), 0, 3).Draw(t, "parts")
		var sb strings.Builder
		for _, p := range parts {
			sb.Write(p)
		}
		return sb.String()
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := bytesKey.Draw(t, "a"), bytesKey.Draw(t, "b"), bytesKey.Draw(t, "c")
		ab, ba := CompareKeys(a, b), CompareKeys(b, a)
		if ab != -ba {
			t.Fatalf("CompareKeys(a, b) = %d but CompareKeys(b, a) = %d", ab, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("CompareKeys(%q, %q) = %d", a, b, ab)
		}
		if utf8.ValidString(a) && utf8.ValidString(b) && ab != utf16Compare(a, b) {
			t.Fatalf("CompareKeys(%q, %q) = %d, want UTF-16 order", a, b, ab)
		}
		if ab <= 0 && CompareKeys(b, c) <= 0 && CompareKeys(a, c) > 0 {
			t.Fatalf("not transitive: %q <= %q <= %q but CompareKeys(a, c) > 0", a, b, c)
		}
	})
}

func TestSortEntries(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(keyGen, 0, 30).Draw(t, "keys")
		// Start from byte order, as SQLite returns rows.
		sort.Strings(keys)
		entries := make([]Entry, len(keys))
		for i, k := range keys {
			entries[i] = Entry{Key: k, Value: []byte{byte(i)}}
		}
		SortEntries(entries)
		for i := 1; i < len(entries); i++ {
			if utf16Compare(entries[i-1].Key, entries[i].Key) > 0 {
				t.Fatalf("entries %d and %d out of order: %q, %q", i-1, i, entries[i-1].Key, entries[i].Key)
			}
			if entries[i-1].Key == entries[i].Key && entries[i-1].Value[0] > entries[i].Value[0] {
				t.Fatalf("equal keys %q reordered", entries[i].Key)
			}
		}
	})
}
