package merkle

import (
	"errors"
	"testing"
)

func TestKVOpCanonical(t *testing.T) {
	tests := []struct {
		name string
		op   KVOp
		want string
	}{
		{"put number", KVOp{Key: "a", Op: OpPut, Value: []byte("1")}, `{"key":"a","op":"PUT","value":1}`},
		{"del", KVOp{Key: "a", Op: OpDel}, `{"key":"a","op":"DEL"}`},
		{"value canonicalised", KVOp{Key: "k", Op: OpPut, Value: []byte(` { "b" : 1.0, "a" : [true, null, "x"] } `)},
			`{"key":"k","op":"PUT","value":{"a":[true,null,"x"],"b":1}}`},
		{"number in ES6 form", KVOp{Key: "n", Op: OpPut, Value: []byte("1e21")}, `{"key":"n","op":"PUT","value":1e+21}`},
		{"key escapes per RFC 8785", KVOp{Key: "q\"\\\n\u2028<é>", Op: OpDel},
			"{\"key\":\"q\\\"\\\\\\n\u2028<é>\",\"op\":\"DEL\"}"},
		{"control character key", KVOp{Key: "\x01", Op: OpDel}, `{"key":"\u0001","op":"DEL"}`},
		{"empty key", KVOp{Key: "", Op: OpPut, Value: []byte(`"v"`)}, `{"key":"","op":"PUT","value":"v"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.op.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("Canonical = %s, want %s", got, tt.want)
			}
			leaf, err := tt.op.Leaf()
			if err != nil {
				t.Fatal(err)
			}
			if leaf != LeafHash(TagKV, []byte(tt.want)) {
				t.Fatalf("Leaf = %s, not the tagged hash of the canonical form", leaf)
			}
		})
	}
}

func TestKVOpRejects(t *testing.T) {
	tests := []struct {
		name string
		op   KVOp
	}{
		{"unknown op", KVOp{Key: "a", Op: "put", Value: []byte("1")}},
		{"empty op", KVOp{Key: "a"}},
		{"put without value", KVOp{Key: "a", Op: OpPut}},
		{"put of invalid JSON", KVOp{Key: "a", Op: OpPut, Value: []byte("{")}},
		{"put of non-JSON number", KVOp{Key: "a", Op: OpPut, Value: []byte("01")}},
		{"put of two values", KVOp{Key: "a", Op: OpPut, Value: []byte("1 2")}},
		{"put of duplicate keys", KVOp{Key: "a", Op: OpPut, Value: []byte(`{"x":1,"x":2}`)}},
		{"put of an out-of-range number", KVOp{Key: "a", Op: OpPut, Value: []byte("1e400")}},
		{"del with value", KVOp{Key: "a", Op: OpDel, Value: []byte("1")}},
		{"key not UTF-8", KVOp{Key: "\xff", Op: OpDel}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, err := tt.op.Canonical(); !errors.Is(err, ErrInvalidOp) {
				t.Fatalf("Canonical = %q, %v; want ErrInvalidOp", c, err)
			}
			if _, err := tt.op.Leaf(); !errors.Is(err, ErrInvalidOp) {
				t.Fatalf("Leaf error = %v; want ErrInvalidOp", err)
			}
		})
	}
}
