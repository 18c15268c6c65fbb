package oplog

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memgov/memgov/engine/canon"
)

// awkward are strings whose canonical JSON differs from a naive encoding:
// HTML characters encoding/json escapes, line and paragraph separators,
// control characters, quotes, non-ASCII and bytes that are not UTF-8.
var awkward = []string{"", "plain", "a<b>&c", "line\u2028para\u2029", "tab\tnl\ncr\rbs\bff\f\x00\x01\x1f\x7f", `q"uo\te`,
	"é ü 日本 🙂", "bad\xff\xfeutf8", "\xed\xa0\x80", "/slash/", "sha256:00ff"}

var numbers = []float64{0, 1, 0.5, 0.1, 0.95, 1.0 / 3, 1e21, 1e-7, 123456789012345680000, 5e-324, math.MaxFloat64, math.Copysign(0, -1), -2.5}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// TestCanonicalWritersMatchMarshal checks that the log's own writers of its
// canonical entry and payload give canon.Marshal's bytes for every value,
// or defer to it.
func TestCanonicalWritersMatchMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	raws := []json.RawMessage{nil, json.RawMessage(`{"text":"x"}`), json.RawMessage(` { "b" : 1.50, "a" : "<&>" , "c":[true,null,1e2]} `),
		json.RawMessage(`"scalar"`), json.RawMessage(`null`), json.RawMessage(`{"text":"caf\u00e9 \u2028"}`)}
	lsns := []int64{0, 1, 42, 1 << 40, 1 << 53, 1<<53 + 1, -1, math.MaxInt64}
	for i := 0; i < 5000; i++ {
		c := canonicalEntry{Actor: pick(r, awkward), ItemID: pick(r, awkward), LSN: pick(r, lsns), MemoryRef: pick(r, awkward),
			Op: Op(pick(r, awkward)), PayloadHash: pick(r, awkward), PrevVersionID: pick(r, awkward), Time: pick(r, awkward), VersionID: pick(r, awkward)}
		want, err := canon.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := c.canonical(); ok && !bytes.Equal(got, want) {
			t.Fatalf("entry %+v:\n got %s\nwant %s", c, got, want)
		}

		p := Payload{Reason: pick(r, awkward), Salt: pick(r, awkward), Key: pick(r, awkward), Layer: pick(r, awkward),
			Content: pick(r, raws), ContentHash: pick(r, awkward), Classification: pick(r, awkward), ExpiresAt: pick(r, awkward),
			MergedFrom: pick(r, awkward), Data: pick(r, raws)}
		for n := r.IntN(4); n > 0; n-- {
			p.Tags = append(p.Tags, pick(r, awkward))
		}
		if r.IntN(3) > 0 {
			f := pick(r, numbers)
			p.Confidence = &f
		}
		if r.IntN(3) > 0 {
			f := pick(r, numbers)
			p.ValidationScore = &f
		}
		want, err = canon.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := p.canonical()
		if err != nil {
			t.Fatalf("payload %+v: %v", p, err)
		}
		if ok && !bytes.Equal(got, want) {
			t.Fatalf("payload %+v:\n got %s\nwant %s", p, got, want)
		}
	}
	// The writers take the common case themselves.
	conf := 0.9
	if _, ok, err := (Payload{Salt: "00", Key: "k", Content: json.RawMessage(`{"text":"t"}`), Tags: []string{"a"}, Confidence: &conf}).canonical(); !ok || err != nil {
		t.Fatalf("plain payload deferred: %v %v", ok, err)
	}
	if _, ok := (canonicalEntry{Actor: "a", LSN: 9, Op: Insert}).canonical(); !ok {
		t.Fatal("plain entry deferred")
	}
}

// TestSealedPayloadDecodesAsStored checks that the decoding Seal keeps is
// the decoding of the stored bytes, and that changing what DecodePayload
// returned changes nothing a later reader sees.
func TestSealedPayloadDecodesAsStored(t *testing.T) {
	conf, score := 0.25, 0.75
	p := Payload{Reason: "a<b", Key: "k", Layer: "EPISODIC", Content: json.RawMessage(`{ "text": "x", "a": 1 }`), ContentHash: "sha256:00",
		Tags: []string{"t1", "t2"}, Confidence: &conf, ValidationScore: &score, Data: json.RawMessage(`{"evidence":[]}`)}
	e := &Entry{Op: Insert}
	if err := e.Seal(p); err != nil {
		t.Fatal(err)
	}
	got, err := e.DecodePayload()
	if err != nil {
		t.Fatal(err)
	}
	var want Payload
	if err := json.Unmarshal(e.Payload, &want); err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("sealed decoding %s, stored bytes decode to %s", gj, wj)
	}
	got.Tags[0], got.Content[0], *got.Confidence = "changed", 'X', 9
	again, _ := e.DecodePayload()
	if aj, _ := json.Marshal(again); !bytes.Equal(aj, wj) {
		t.Fatalf("a caller's change leaked: %s", aj)
	}
	// Payload bytes set after Seal (a store's, an erasure's) are decoded
	// afresh.
	e.Payload = json.RawMessage(`{"salt":"00","key":"other"}`)
	if d, _ := e.DecodePayload(); d.Key != "other" {
		t.Fatalf("decoded a stale payload: %+v", d)
	}
}

// TestCanonicalWritersKnowEveryField fails when a field is added to the
// entry's canonical part or to the payload: the writers of canonical.go
// name each member themselves, and a member they leave out would change
// what a leaf or a payload hash commits to. Add the member there, in RFC
// 8785 order, and to TestCanonicalWritersMatchMarshal's values.
func TestCanonicalWritersKnowEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{canonicalEntry{}, []string{"actor", "item_id", "lsn", "memory_ref", "op", "payload_hash", "previous_version_id", "ts", "version_id"}},
		{Payload{}, nil},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			got = append(got, name)
		}
		if c.want == nil {
			c.want = []string{"classification", "confidence", "content", "content_hash", "data", "expires_at", "key", "layer",
				"merged_from", "reason", "salt", "tags", "validation_score"}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s has the members %v; canonical.go writes %v", typ, got, c.want)
		}
	}
}
