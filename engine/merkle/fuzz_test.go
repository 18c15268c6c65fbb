package merkle

import (
	"slices"
	"strings"
	"testing"
)

// FuzzVerifyConsistency feeds VerifyConsistency arbitrary sizes, roots and
// proof bytes: it must never panic. It also tampers with a real proof using
// the same bytes: a changed proof must not verify.
func FuzzVerifyConsistency(f *testing.F) {
	leaves := testLeaves(200, 10)
	for _, mn := range [][2]uint64{{1, 2}, {2, 3}, {3, 7}, {0, 5}, {5, 5}, {6, 8}, {127, 200}} {
		p, _ := ConsistencyProof(leaves[:mn[1]], mn[0])
		var data []byte
		old, new := Root(leaves[:mn[0]]), Root(leaves[:mn[1]])
		data = append(data, old[:]...)
		data = append(data, new[:]...)
		for _, h := range p {
			data = append(data, h[:]...)
		}
		f.Add(mn[0], mn[1], data)
	}
	f.Add(uint64(1<<63), ^uint64(0), make([]byte, 64+32*70))

	f.Fuzz(func(t *testing.T, m, n uint64, data []byte) {
		// Raw input: sizes as given, roots and proof nodes from the bytes.
		var old, new Hash
		rest := data[copy(old[:], data):]
		rest = rest[copy(new[:], rest):]
		proof := make([]Hash, len(rest)/Size)
		for i := range proof {
			copy(proof[i][:], rest[i*Size:])
		}
		_ = VerifyConsistency(m, n, old, new, proof)

		// Tampered real proof: the bytes are XORed into it.
		sn := n % uint64(len(leaves)+1)
		sm := m % (sn + 1)
		real, err := ConsistencyProof(leaves[:sn], sm)
		if err != nil {
			t.Fatal(err)
		}
		tampered := slices.Clone(real)
		for i, b := range data {
			if len(tampered) == 0 {
				break
			}
			tampered[(i/Size)%len(tampered)][i%Size] ^= b
		}
		if len(data) > 0 && len(data)%7 == 0 {
			tampered = append(tampered, old) // also try a longer proof
		}
		err = VerifyConsistency(sm, sn, Root(leaves[:sm]), Root(leaves[:sn]), tampered)
		if slices.Equal(tampered, real) {
			if err != nil {
				t.Fatalf("valid proof %d -> %d rejected: %v", sm, sn, err)
			}
		} else if err == nil {
			t.Fatalf("tampered proof %d -> %d accepted", sm, sn)
		}
	})
}

// FuzzFrontierUnmarshal checks that arbitrary bytes never make a Frontier
// panic, and that an accepted encoding round-trips.
func FuzzFrontierUnmarshal(f *testing.F) {
	fr := NewTree(testLeaves(11, 11)).Frontier()
	good, _ := fr.MarshalBinary()
	f.Add(good)
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Frontier
		if err := g.UnmarshalBinary(data); err != nil {
			return
		}
		_ = g.Root()
		out, err := g.MarshalBinary()
		if err != nil || string(out) != string(data) {
			t.Fatalf("round trip of %x gave %x, %v", data, out, err)
		}
		_ = g.Append(Hash{})
	})
}

// FuzzKVOp checks that arbitrary keys and values never make Canonical
// panic, and that what it accepts is stable under a second pass.
func FuzzKVOp(f *testing.F) {
	f.Add("a", []byte("1"), true)
	f.Add("k\u2028", []byte(`{"b":[1e21,"\u00e9"],"a":null}`), true)
	f.Add("a", []byte(nil), false)
	f.Fuzz(func(t *testing.T, key string, value []byte, put bool) {
		op := KVOp{Key: key, Op: OpDel}
		if put {
			op = KVOp{Key: key, Op: OpPut, Value: value}
		}
		c, err := op.Canonical()
		if err != nil {
			return
		}
		if !put {
			return
		}
		// Canonicalising the canonical value again changes nothing.
		again, err := KVOp{Key: key, Op: OpPut, Value: canonicalValue(t, c)}.Canonical()
		if err != nil || string(again) != string(c) {
			t.Fatalf("second pass over %s gave %s, %v", c, again, err)
		}
	})
}

// canonicalValue extracts the "value" member of a canonical PUT. The key
// before it cannot hold an unescaped quote, so the first marker is the one.
func canonicalValue(t *testing.T, c []byte) []byte {
	const marker = `,"op":"PUT","value":`
	_, v, ok := strings.Cut(string(c), marker)
	if !ok {
		t.Fatalf("no value in %s", c)
	}
	return []byte(v[:len(v)-1])
}
