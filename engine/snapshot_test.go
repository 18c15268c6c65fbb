package engine_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/memgov/memgov"
)

// jcs is an independent RFC 8785 serializer for what encoding/json decodes
// (with UseNumber): it shares no code with engine/canon.
func jcs(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			panic(err)
		}
		b.WriteString(es6(f))
	case string:
		jcsString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			jcs(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			jcsString(b, k)
			b.WriteByte(':')
			jcs(b, x[k])
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("jcs: %T", v))
	}
}

func utf16Less(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

// es6 formats a double as ECMAScript's Number.prototype.toString does.
func es6(f float64) string {
	if f == 0 {
		return "0"
	}
	mant, expS, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	exp, _ := strconv.Atoi(expS)
	if exp >= -6 && exp < 21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	return mant + "e" + sign + strconv.Itoa(exp)
}

func jcsString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

var edgeNumbers = []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-6, 1e-7, 1.5e-7, 1e20, 1e21, 1.5e21, 9.999999999999999e20,
	123e-20, 5e-324, math.MaxFloat64, -math.MaxFloat64, 1 << 53, 1<<53 + 2, 333333333.3333333, 4.35, 0.000001, 1e-5}

func TestSnapshotHashMatchesIndependentCanonicalisation(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	n := 0
	keyRune := rapid.OneOf(rapid.SampledFrom([]rune{'a', 'z', 'é', 'ж', '中', '\uE000', '\uFFFD', '😀', '𝄞', '"', '\\', '\n', 0x7f, '\u2028', ' '}), rapid.Rune())
	rapid.Check(t, func(rt *rapid.T) {
		n++
		ref := fmt.Sprintf("acme/prop-%d", n)
		m := rapid.MapOfN(rapid.StringOfN(keyRune, 1, 6, -1), rapid.Custom(func(rt *rapid.T) map[string]any {
			num := rapid.OneOf(rapid.SampledFrom(edgeNumbers), rapid.Float64Range(-1e300, 1e300)).Draw(rt, "n")
			return map[string]any{"text": "t" + rapid.StringOfN(keyRune, 0, 8, -1).Draw(rt, "text"), "n": num, "ok": rapid.Bool().Draw(rt, "ok")}
		}), 1, 6).Draw(rt, "map")
		for k, v := range m {
			body, err := json.Marshal(v)
			if err != nil {
				rt.Fatal(err)
			}
			if _, err := env.e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: k, Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
				rt.Fatal(err)
			}
		}
		var out bytes.Buffer
		info, err := env.e.Baselines().ExportSnapshot(ctx, ref, "", &out)
		if err != nil {
			rt.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
		dec.UseNumber()
		var parsed any
		if err := dec.Decode(&parsed); err != nil {
			rt.Fatalf("export is not JSON: %v\n%s", err, out.String())
		}
		var b strings.Builder
		jcs(&b, parsed)
		sum := sha256.Sum256([]byte(b.String()))
		if want := "sha256:" + hex.EncodeToString(sum[:]); info.Hash != want || b.String() != out.String() {
			rt.Fatalf("hash %s, independent %s\nexport      %s\nindependent %s", info.Hash, want, out.String(), b.String())
		}
		if h, err := env.e.Baselines().SnapshotHash(ctx, ref, ""); err != nil || h.Hash != info.Hash || h.Items != len(m) {
			rt.Fatalf("snapshot hash %+v %v", h, err)
		}
	})
}

// SQLite returns "\uE000" before "😀" (UTF-8 byte order); RFC 8785 puts the
// surrogate pair first. The hash must follow RFC 8785.
func TestSnapshotHashOrdersKeysByUTF16(t *testing.T) {
	env := newBEnv(t)
	env.put("acme/order", "\uE000", "private use")
	env.put("acme/order", "😀", "emoji")
	var out bytes.Buffer
	info, err := env.e.Baselines().ExportSnapshot(context.Background(), "acme/order", "", &out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"😀":{"text":"emoji"},"` + "\uE000" + `":{"text":"private use"}}`
	sum := sha256.Sum256([]byte(want))
	if out.String() != want || info.Hash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Fatalf("export %s hash %s", out.String(), info.Hash)
	}
}
