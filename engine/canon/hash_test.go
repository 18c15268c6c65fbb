package canon

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// The functions below are an independent RFC 8785 serializer of decoded
// JSON values (nil, bool, float64, string, []any, map[string]any), written
// from the RFC rather than from the code under test.

// refNumber formats f as ECMAScript's Number.prototype.toString does
// (ECMA-262 Number::toString, RFC 8785 3.2.2.3).
func refNumber(f float64) string {
	if f == 0 {
		return "0" // also -0
	}
	if f < 0 {
		return "-" + refNumber(-f)
	}
	// The shortest digits s (k of them) and exponent n with
	// f = 0.s × 10^n, from Go's shortest round-trip formatting.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, err := strconv.Atoi(exp)
	if err != nil {
		panic(err)
	}
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	exponent := "e" + sign + strconv.Itoa(abs(n-1))
	if k == 1 {
		return digits + exponent
	}
	return digits[:1] + "." + digits[1:] + exponent
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// refString escapes s per RFC 8785 3.2.2.2.
func refString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r < 0x20:
			fmt.Fprintf(&sb, `\u%04x`, r)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// refKeys returns the keys of m sorted by their UTF-16 code units.
func refKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return slices.Compare(utf16.Encode([]rune(keys[i])), utf16.Encode([]rune(keys[j]))) < 0
	})
	return keys
}

// refCanonical serializes v per RFC 8785.
func refCanonical(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return refNumber(v)
	case string:
		return refString(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = refCanonical(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		var parts []string
		for _, k := range refKeys(v) {
			parts = append(parts, refString(k)+":"+refCanonical(v[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	panic(fmt.Sprintf("refCanonical: unexpected %T", v))
}

// messy serializes v as valid but non-canonical JSON: members in Go's
// random map order, whitespace, \u escapes, other number spellings.
func messy(t *rapid.T, v any) string {
	switch v := v.(type) {
	case float64:
		switch rapid.IntRange(0, 3).Draw(t, "number form") {
		case 0:
			return strconv.FormatFloat(v, 'g', -1, 64)
		case 1:
			return strings.ToUpper(strconv.FormatFloat(v, 'e', 20, 64))
		case 2:
			return strconv.FormatFloat(v, 'e', -1, 64)
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatFloat(v, 'f', 3, 64)
		}
		return refNumber(v)
	case string:
		var sb strings.Builder
		sb.WriteByte('"')
		for _, r := range v {
			if rapid.IntRange(0, 3).Draw(t, "escape") == 0 || r < 0x20 || r == '"' || r == '\\' {
				for _, u := range utf16.Encode([]rune{r}) {
					fmt.Fprintf(&sb, `\u%04X`, u)
				}
			} else {
				sb.WriteRune(r)
			}
		}
		sb.WriteByte('"')
		return sb.String()
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = messy(t, e)
		}
		return "[ " + strings.Join(parts, " ,\n") + " ]"
	case map[string]any:
		var parts []string
		for k, e := range v {
			parts = append(parts, messy(t, k)+" :\t"+messy(t, e))
		}
		return "{\r\n" + strings.Join(parts, ",") + "}"
	}
	return refCanonical(v)
}

var pointThree = pointOne + pointTwo

// edgeNumbers are at the edges of ES6 number formatting.
var edgeNumbers = []float64{
	0, math.Copysign(0, -1), 1, -1, 1e21, 1e20, 999999999999999900000, 1e-6, 1e-7,
	0.000001, 9.999999999999997e-7, 5e-324, -5e-324, 2.2250738585072014e-308,
	1.7976931348623157e308, -1.7976931348623157e308, pointThree, 0.1, 1.5, 100,
	1 << 53, 1<<53 - 1, 1<<53 + 2, -(1 << 53), 9007199254740994, 333333333.3333333,
	1e30, 4.5, 0.002, 1e-27, 123456789012345680000, 1.2345678901234567e-7,
}

var numberGen = rapid.OneOf(
	rapid.SampledFrom(edgeNumbers),
	rapid.Map(rapid.Uint64(), func(u uint64) float64 {
		f := math.Float64frombits(u)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0
		}
		return f
	}),
	rapid.Map(rapid.Int64Range(-1<<54, 1<<54), func(i int64) float64 { return float64(i) }),
)

func valueGen(depth int) *rapid.Generator[any] {
	gens := []*rapid.Generator[any]{
		rapid.Just[any](nil),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Map(numberGen, func(f float64) any { return f }),
		rapid.Map(numberGen, func(f float64) any { return f }),
		rapid.Map(keyGen, func(s string) any { return s }),
		rapid.Map(keyGen, func(s string) any { return s }),
	}
	if depth > 0 {
		gens = append(gens,
			rapid.Map(rapid.SliceOfN(valueGen(depth-1), 0, 3), func(s []any) any { return s }),
			rapid.Map(rapid.MapOfN(keyGen, valueGen(depth-1), 0, 3), func(m map[string]any) any { return m }),
		)
	}
	return rapid.OneOf(gens...)
}

func TestRefNumber(t *testing.T) {
	// Sample lines of the ES6 test file described in the
	// json-canonicalization testdata README.
	tests := []struct {
		bits uint64
		want string
	}{
		{0x4340000000000001, "9007199254740994"},
		{0x4340000000000002, "9007199254740996"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := refNumber(f); got != tt.want {
			t.Errorf("refNumber(%x) = %s, want %s", tt.bits, got, tt.want)
		}
		got, err := Marshal(f)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%x) = %s, %v; want %s", tt.bits, got, err, tt.want)
		}
	}
}

// entriesOf returns the members of m with canonical values, in RFC 8785 key
// order, made the way a store would: each value canonicalised on its own
// (from encoding/json output or from messy JSON), keys first in byte order.
func entriesOf(t *rapid.T, m map[string]any) []Entry {
	var entries []Entry
	for k, v := range m {
		var c []byte
		var err error
		if rapid.Bool().Draw(t, "via Marshal") {
			c, err = Marshal(v)
		} else {
			c, err = Canonicalize([]byte(messy(t, v)))
		}
		if err != nil {
			t.Fatalf("canonicalising %#v: %v", v, err)
		}
		entries = append(entries, Entry{k, c})
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	SortEntries(entries)
	return entries
}

func seqOf(entries []Entry) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		for _, e := range entries {
			if !yield(e.Key, e.Value) {
				return
			}
		}
	}
}

// TestHasherMatchesReference checks the snapshot hash against SHA-256 and
// SHAKE-256 over an independent canonicalisation of the same map.
func TestHasherMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.MapOfN(keyGen, valueGen(2), 0, 12).Draw(t, "map")
		want := []byte(refCanonical(m))
		entries := entriesOf(t, m)

		var buf bytes.Buffer
		n, err := WriteMap(&buf, seqOf(entries))
		if err != nil {
			t.Fatalf("WriteMap: %v", err)
		}
		if !bytes.Equal(buf.Bytes(), want) || n != int64(len(want)) {
			t.Fatalf("WriteMap = %d, %q\nwant %q", n, buf.Bytes(), want)
		}

		whole, err := Marshal(m)
		if err != nil || !bytes.Equal(whole, want) {
			t.Fatalf("Marshal(map) = %q, %v\nwant %q", whole, err, want)
		}

		sum := sha256.Sum256(want)
		shake := sha3.SumSHAKE256(want, 32)
		for alg, wantDigest := range map[Algorithm]string{
			SHA256:   "sha256:" + hex.EncodeToString(sum[:]),
			SHAKE256: "shake256:" + hex.EncodeToString(shake),
		} {
			h, err := NewHasher(alg)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if err := h.Add(e.Key, e.Value); err != nil {
					t.Fatalf("Add(%q): %v", e.Key, err)
				}
			}
			if got := h.Sum(); got != wantDigest {
				t.Fatalf("%s Hasher.Sum = %s, want %s", alg, got, wantDigest)
			}
			got, err := HashMap(alg, seqOf(entries))
			if err != nil || got != wantDigest {
				t.Fatalf("HashMap(%s) = %s, %v; want %s", alg, got, err, wantDigest)
			}
		}
	})
}

func sha256Digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestHasher(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		want    string // canonical map, when valid
		err     error
	}{
		{"empty", nil, `{}`, nil},
		{"one", []Entry{{"a", []byte(`1`)}}, `{"a":1}`, nil},
		{"escaped keys", []Entry{{"\n", []byte(`null`)}, {"\"\x01", []byte(`"\u001f"`)}, {"\u2028", []byte(`[]`)}},
			"{\"\\n\":null,\"\\\"\\u0001\":\"\\u001f\",\"\u2028\":[]}", nil},
		{"astral before U+E000", []Entry{{"\U0001F602", []byte(`true`)}, {"\uFB33", []byte(`false`)}},
			"{\"\U0001F602\":true,\"\uFB33\":false}", nil},
		{"byte order", []Entry{{"\uFB33", []byte(`1`)}, {"\U0001F602", []byte(`2`)}}, "", ErrKeyOrder},
		{"duplicate key", []Entry{{"a", []byte(`1`)}, {"a", []byte(`1`)}}, "", ErrKeyOrder},
		{"decreasing", []Entry{{"b", []byte(`1`)}, {"a", []byte(`1`)}}, "", ErrKeyOrder},
		{"empty value", []Entry{{"a", nil}}, "", ErrInvalidEntry},
		{"padded value", []Entry{{"a", []byte(` 1`)}}, "", ErrInvalidEntry},
		{"trailing newline", []Entry{{"a", []byte("{}\n")}}, "", ErrInvalidEntry},
		{"invalid UTF-8 key", []Entry{{"\xff", []byte(`1`)}}, "", ErrInvalidEntry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := NewHasher(SHA256)
			if err != nil {
				t.Fatal(err)
			}
			var addErr error
			for _, e := range tt.entries {
				if addErr = h.Add(e.Key, e.Value); addErr != nil {
					break
				}
			}
			if tt.err != nil {
				if !errors.Is(addErr, tt.err) {
					t.Fatalf("Add error = %v, want %v", addErr, tt.err)
				}
				if !errors.Is(h.Err(), tt.err) {
					t.Errorf("Err() = %v, want %v", h.Err(), tt.err)
				}
				if err := h.Add("\U0010FFFF", []byte(`1`)); !errors.Is(err, tt.err) {
					t.Errorf("Add after failure = %v, want the same error", err)
				}
				if got := h.Sum(); got != "" {
					t.Errorf("Sum after failure = %q, want empty", got)
				}
				var buf bytes.Buffer
				if _, err := WriteMap(&buf, seqOf(tt.entries)); !errors.Is(err, tt.err) {
					t.Errorf("WriteMap error = %v, want %v", err, tt.err)
				}
				return
			}
			if addErr != nil {
				t.Fatalf("Add: %v", addErr)
			}
			want := sha256Digest(tt.want)
			if got := h.Sum(); got != want {
				t.Errorf("Sum = %s, want %s", got, want)
			}
			if got := h.Sum(); got != want {
				t.Errorf("second Sum = %s, want %s", got, want)
			}
			if err := h.Add("zzz", []byte(`1`)); !errors.Is(err, ErrClosed) {
				t.Errorf("Add after Sum = %v, want ErrClosed", err)
			}
			var buf bytes.Buffer
			if _, err := WriteMap(&buf, seqOf(tt.entries)); err != nil || buf.String() != tt.want {
				t.Errorf("WriteMap = %q, %v; want %q", buf.String(), err, tt.want)
			}
		})
	}
}

func TestNewHasherUnknownAlgorithm(t *testing.T) {
	for _, alg := range []Algorithm{"", "SHA256", "sha512", "md5"} {
		if _, err := NewHasher(alg); !errors.Is(err, ErrBadDigest) {
			t.Errorf("NewHasher(%q) error = %v, want ErrBadDigest", alg, err)
		}
	}
}

// TestMapWriterLargeValues crosses the buffer size so that flushing and
// writing large values straight through are exercised.
func TestMapWriterLargeValues(t *testing.T) {
	big := `"` + strings.Repeat("x", 3*flushSize) + `"`
	var entries []Entry
	var want strings.Builder
	want.WriteByte('{')
	for i := range 200 {
		k := fmt.Sprintf("k%04d", i)
		v := fmt.Sprintf(`"%s"`, strings.Repeat("v", i*37))
		if i%50 == 7 {
			v = big
		}
		if i > 0 {
			want.WriteByte(',')
		}
		fmt.Fprintf(&want, `"%s":%s`, k, v)
		entries = append(entries, Entry{k, []byte(v)})
	}
	want.WriteByte('}')

	var buf bytes.Buffer
	w := &countingWriter{w: &buf}
	n, err := WriteMap(w, seqOf(entries))
	if err != nil {
		t.Fatal(err)
	}
	if buf.String() != want.String() || n != int64(want.Len()) {
		t.Errorf("WriteMap wrote %d bytes (reported %d), want %d identical bytes", buf.Len(), n, want.Len())
	}
	if w.writes < 4 {
		t.Errorf("only %d writes; want output flushed as it goes", w.writes)
	}
	if got, want := mustHash(t, entries), sha256Digest(want.String()); got != want {
		t.Errorf("hash = %s, want %s", got, want)
	}
}

func mustHash(t *testing.T, entries []Entry) string {
	t.Helper()
	s, err := HashMap(SHA256, seqOf(entries))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type countingWriter struct {
	w      io.Writer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.w.Write(p)
}

// failingWriter accepts limit bytes, then fails.
type failingWriter struct{ limit int }

var errDiskFull = errors.New("disk full")

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.limit {
		n := f.limit
		f.limit = 0
		return n, errDiskFull
	}
	f.limit -= len(p)
	return len(p), nil
}

func TestMapWriterWriteError(t *testing.T) {
	for _, limit := range []int{0, 10, flushSize + 5} {
		entries := []Entry{
			{"a", []byte(`"` + strings.Repeat("x", flushSize) + `"`)},
			{"b", []byte(`1`)},
		}
		n, err := WriteMap(&failingWriter{limit: limit}, seqOf(entries))
		if !errors.Is(err, errDiskFull) {
			t.Errorf("limit %d: WriteMap error = %v, want %v", limit, err, errDiskFull)
		}
		if n != int64(limit) {
			t.Errorf("limit %d: WriteMap n = %d", limit, n)
		}
	}
}

// TestExportAndHashInOnePass writes a map through a MapWriter to both an
// export and a Digest.
func TestExportAndHashInOnePass(t *testing.T) {
	entries := []Entry{{"a", []byte(`1`)}, {"b", []byte(`{"x":[true]}`)}}
	for _, alg := range []Algorithm{SHA256, SHAKE256} {
		d, err := NewDigest(alg)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		mw := NewMapWriter(io.MultiWriter(&out, d))
		for _, e := range entries {
			if err := mw.Add(e.Key, e.Value); err != nil {
				t.Fatal(err)
			}
		}
		if err := mw.Close(); err != nil {
			t.Fatal(err)
		}
		if mw.Len() != 2 || mw.N() != int64(out.Len()) {
			t.Errorf("Len, N = %d, %d; want 2, %d", mw.Len(), mw.N(), out.Len())
		}
		h, err := HashMap(alg, seqOf(entries))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Sum(); got != h {
			t.Errorf("%s: one-pass digest %s, HashMap %s", alg, got, h)
		}
		if out.String() != `{"a":1,"b":{"x":[true]}}` {
			t.Errorf("export = %s", out.String())
		}
		if _, err := d.Write([]byte("x")); !errors.Is(err, ErrClosed) {
			t.Errorf("Digest.Write after Sum = %v, want ErrClosed", err)
		}
	}
}

func TestDigestFormatParse(t *testing.T) {
	sum := sha256.Sum256([]byte("{}"))
	const emptyMap = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
	s, err := FormatDigest(SHA256, sum[:])
	if err != nil || s != emptyMap {
		t.Fatalf("FormatDigest = %q, %v; want %s", s, err, emptyMap)
	}
	if got, _ := HashMap(SHA256, seqOf(nil)); got != emptyMap {
		t.Errorf("HashMap(empty) = %s, want %s", got, emptyMap)
	}
	alg, b, err := ParseDigest(s)
	if err != nil || alg != SHA256 || !bytes.Equal(b, sum[:]) {
		t.Errorf("ParseDigest(%s) = %s, %x, %v", s, alg, b, err)
	}
	shake := "shake256:" + strings.Repeat("0f", 32)
	if alg, b, err := ParseDigest(shake); err != nil || alg != SHAKE256 || len(b) != 32 || b[0] != 0x0f {
		t.Errorf("ParseDigest(%s) = %s, %x, %v", shake, alg, b, err)
	}

	for _, bad := range []string{
		"",
		"sha256",
		"sha256:",
		strings.Repeat("a", 64),
		"md5:" + strings.Repeat("a", 64),
		"SHA256:" + strings.Repeat("a", 64),
		"sha256:" + strings.Repeat("A", 64),
		"sha256:" + strings.Repeat("a", 63),
		"sha256:" + strings.Repeat("a", 66),
		"sha256:" + strings.Repeat("g", 64),
		"sha256: " + strings.Repeat("a", 63),
		"sha256:" + strings.Repeat("a", 64) + "\n",
	} {
		if _, _, err := ParseDigest(bad); !errors.Is(err, ErrBadDigest) {
			t.Errorf("ParseDigest(%q) error = %v, want ErrBadDigest", bad, err)
		}
	}
	if _, err := FormatDigest("md5", sum[:]); !errors.Is(err, ErrBadDigest) {
		t.Errorf("FormatDigest(md5) error = %v", err)
	}
	if _, err := FormatDigest(SHAKE256, sum[:31]); !errors.Is(err, ErrBadDigest) {
		t.Errorf("FormatDigest(31 bytes) error = %v", err)
	}
}

// TestSnapshotExample pins the snapshot hash of a small store, computed
// independently with encoding/json (whose output for these plain ASCII
// values with sorted keys is already canonical).
func TestSnapshotExample(t *testing.T) {
	m := map[string]any{"user.name": "Ada", "prefs": map[string]any{"lang": "en", "tz": "UTC"}, "count": 3.0}
	plain, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	for k, v := range m {
		c, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, Entry{k, c})
	}
	SortEntries(entries)
	if got, want := mustHash(t, entries), sha256Digest(string(plain)); got != want {
		t.Errorf("snapshot hash = %s, want %s", got, want)
	}
}
