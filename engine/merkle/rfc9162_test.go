package merkle

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The RFC 6962 / RFC 9162 reference log of Certificate Transparency: its
// entries are hashed with no tag, so LeafHash("", entry) is the RFC leaf.
var ctEntries = [][]byte{
	{},
	{0x00},
	{0x10},
	{0x20, 0x21},
	{0x30, 0x31},
	{0x40, 0x41, 0x42, 0x43},
	{0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57},
	{0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f},
}

var ctRoots = []string{
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
	"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
	"aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
	"d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
	"4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
	"76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
	"ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
	"5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}

func ctLeaves() []Hash {
	var ls []Hash
	for _, e := range ctEntries {
		ls = append(ls, LeafHash("", e))
	}
	return ls
}

func TestReferenceRoots(t *testing.T) {
	leaves := ctLeaves()
	tree := &Tree{}
	f := &Frontier{}
	for n := 0; n <= len(leaves); n++ {
		if n > 0 {
			tree.Append(leaves[n-1])
			if err := f.Append(leaves[n-1]); err != nil {
				t.Fatal(err)
			}
		}
		for name, got := range map[string]Hash{"Root": Root(leaves[:n]), "Tree": tree.Root(), "Frontier": f.Root()} {
			if got.String() != ctRoots[n] {
				t.Errorf("%s of size %d = %s, want %s", name, n, got, ctRoots[n])
			}
		}
	}
}

func TestReferenceProofs(t *testing.T) {
	leaves := ctLeaves()
	tree := NewTree(leaves)
	hs := func(ss ...string) []Hash {
		var out []Hash
		for _, s := range ss {
			out = append(out, mustHash(t, s))
		}
		return out
	}
	inclusion := []struct {
		index uint64
		want  []Hash
	}{
		{0, hs("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
			"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
			"6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")},
		{5, hs("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
			"ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
			"d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")},
	}
	root := Root(leaves)
	for _, tt := range inclusion {
		got, err := InclusionProof(leaves, tt.index)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("InclusionProof(%d) = %v, %v; want %v", tt.index, got, err, tt.want)
		}
		if got, _ := tree.InclusionProof(tt.index); !slices.Equal(got, tt.want) {
			t.Errorf("Tree.InclusionProof(%d) = %v; want %v", tt.index, got, tt.want)
		}
		if err := VerifyInclusion(leaves[tt.index], tt.index, 8, root, tt.want); err != nil {
			t.Errorf("VerifyInclusion(%d) = %v", tt.index, err)
		}
	}
	consistency := []struct {
		m, n uint64
		want []Hash
	}{
		{2, 8, hs("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
			"6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")},
		{6, 8, hs("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
			"ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
			"d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")},
		{2, 5, hs("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
			"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")},
	}
	for _, tt := range consistency {
		got, err := ConsistencyProof(leaves[:tt.n], tt.m)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ConsistencyProof(%d, %d) = %v, %v; want %v", tt.m, tt.n, got, err, tt.want)
		}
		if err := VerifyConsistency(tt.m, tt.n, Root(leaves[:tt.m]), Root(leaves[:tt.n]), tt.want); err != nil {
			t.Errorf("VerifyConsistency(%d, %d) = %v", tt.m, tt.n, err)
		}
	}
}

// testLeaves returns n distinct leaf hashes, varied by salt.
func testLeaves(n int, salt uint64) []Hash {
	leaves := make([]Hash, n)
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[8:], salt)
	for i := range leaves {
		binary.BigEndian.PutUint64(buf[:8], uint64(i))
		leaves[i] = LeafHash(TagKV, buf[:])
	}
	return leaves
}

func flip(h Hash, bit int) Hash {
	h[bit/8] ^= 1 << (bit % 8)
	return h
}

// TestAllSmallProofs checks every inclusion and consistency proof of every
// log up to 70 leaves, from both the pure functions and the Tree.
func TestAllSmallProofs(t *testing.T) {
	all := testLeaves(70, 1)
	tree := &Tree{}
	for n := 0; n <= len(all); n++ {
		if n > 0 {
			tree.Append(all[n-1])
		}
		leaves := all[:n]
		root := Root(leaves)
		if tree.Root() != root {
			t.Fatalf("size %d: Tree root %s, want %s", n, tree.Root(), root)
		}
		for i := range uint64(n) {
			p, err := InclusionProof(leaves, i)
			if err != nil {
				t.Fatal(err)
			}
			if tp, _ := tree.InclusionProof(i); !slices.Equal(tp, p) {
				t.Fatalf("size %d index %d: Tree inclusion proof differs", n, i)
			}
			if err := VerifyInclusion(leaves[i], i, uint64(n), root, p); err != nil {
				t.Fatalf("size %d index %d: %v", n, i, err)
			}
		}
		for m := range uint64(n + 1) {
			p, err := ConsistencyProof(leaves, m)
			if err != nil {
				t.Fatal(err)
			}
			if tp, _ := tree.ConsistencyProof(m); !slices.Equal(tp, p) {
				t.Fatalf("%d -> %d: Tree consistency proof %v, want %v", m, n, tp, p)
			}
			old, _ := tree.RootAt(m)
			if old != Root(leaves[:m]) {
				t.Fatalf("RootAt(%d) of %d differs from Root", m, n)
			}
			if err := VerifyConsistency(m, uint64(n), old, root, p); err != nil {
				t.Fatalf("%d -> %d: %v", m, n, err)
			}
		}
	}
}

func TestConsistencyProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 1100).Draw(t, "n")
		m := rapid.Uint64Range(0, uint64(n)).Draw(t, "m")
		leaves := testLeaves(n, rapid.Uint64().Draw(t, "salt"))
		oldRoot, newRoot := Root(leaves[:m]), Root(leaves)

		proof, err := ConsistencyProof(leaves, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyConsistency(m, uint64(n), oldRoot, newRoot, proof); err != nil {
			t.Fatalf("valid proof rejected: %v", err)
		}
		tree := NewTree(leaves)
		if tp, _ := tree.ConsistencyProof(m); !slices.Equal(tp, proof) {
			t.Fatalf("Tree proof %v, want %v", tp, proof)
		}
		if tree.Root() != newRoot {
			t.Fatalf("Tree root %s, want %s", tree.Root(), newRoot)
		}

		for i := range proof {
			bad := slices.Clone(proof)
			bad[i] = flip(bad[i], rapid.IntRange(0, 8*Size-1).Draw(t, "bit"))
			if VerifyConsistency(m, uint64(n), oldRoot, newRoot, bad) == nil {
				t.Fatalf("proof with node %d flipped accepted", i)
			}
		}
		if VerifyConsistency(m, uint64(n), flip(oldRoot, rapid.IntRange(0, 8*Size-1).Draw(t, "oldbit")), newRoot, proof) == nil {
			t.Fatal("wrong old root accepted")
		}
		if VerifyConsistency(m, uint64(n), oldRoot, flip(newRoot, rapid.IntRange(0, 8*Size-1).Draw(t, "newbit")), proof) == nil && m > 0 {
			t.Fatal("wrong new root accepted")
		}
		if VerifyConsistency(m, uint64(n), oldRoot, newRoot, append(slices.Clone(proof), newRoot)) == nil {
			t.Fatal("proof with an extra node accepted")
		}
		if len(proof) > 0 && VerifyConsistency(m, uint64(n), oldRoot, newRoot, proof[:len(proof)-1]) == nil {
			t.Fatal("truncated proof accepted")
		}
		if m > 0 && VerifyConsistency(m-1, uint64(n), oldRoot, newRoot, proof) == nil {
			t.Fatal("proof accepted for a wrong old size")
		}
	})
}

func TestInclusionProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 1100).Draw(t, "n")
		i := rapid.Uint64Range(0, uint64(n-1)).Draw(t, "index")
		leaves := testLeaves(n, rapid.Uint64().Draw(t, "salt"))
		root := Root(leaves)

		proof, err := InclusionProof(leaves, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyInclusion(leaves[i], i, uint64(n), root, proof); err != nil {
			t.Fatalf("valid proof rejected: %v", err)
		}
		if tp, _ := NewTree(leaves).InclusionProof(i); !slices.Equal(tp, proof) {
			t.Fatalf("Tree proof %v, want %v", tp, proof)
		}
		for k := range proof {
			bad := slices.Clone(proof)
			bad[k] = flip(bad[k], rapid.IntRange(0, 8*Size-1).Draw(t, "bit"))
			if VerifyInclusion(leaves[i], i, uint64(n), root, bad) == nil {
				t.Fatalf("proof with node %d flipped accepted", k)
			}
		}
		if VerifyInclusion(flip(leaves[i], 0), i, uint64(n), root, proof) == nil {
			t.Fatal("wrong leaf accepted")
		}
		if VerifyInclusion(leaves[i], i, uint64(n), flip(root, 255), proof) == nil {
			t.Fatal("wrong root accepted")
		}
		if j := rapid.Uint64Range(0, uint64(n-1)).Draw(t, "other"); j != i && VerifyInclusion(leaves[i], j, uint64(n), root, proof) == nil {
			t.Fatalf("proof of index %d accepted for index %d", i, j)
		}
		if VerifyInclusion(leaves[i], i, uint64(n), root, append(slices.Clone(proof), root)) == nil {
			t.Fatal("proof with an extra node accepted")
		}
	})
}

func TestVerifyConsistencyRejects(t *testing.T) {
	leaves := testLeaves(5, 2)
	r3, r5 := Root(leaves[:3]), Root(leaves)
	p, err := ConsistencyProof(leaves, 3)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		m, n    uint64
		old     Hash
		new     Hash
		proof   []Hash
		wantErr error
	}{
		{"old size above new", 5, 3, r5, r3, p, ErrOutOfRange},
		{"empty proof between different sizes", 3, 5, r3, r5, nil, ErrInvalidProof},
		{"from empty log with a proof", 0, 5, EmptyRoot(), r5, p, ErrInvalidProof},
		{"from empty log with a non-empty root", 0, 5, r3, r5, nil, ErrInvalidProof},
		{"equal sizes with a proof", 5, 5, r5, r5, p[:1], ErrInvalidProof},
		{"equal sizes, different roots", 5, 5, r3, r5, nil, ErrInvalidProof},
		{"swapped roots", 3, 5, r5, r3, p, ErrInvalidProof},
		{"huge sizes, short proof", math.MaxUint64 - 1, math.MaxUint64, r3, r5, p, ErrInvalidProof},
		{"huge new size", 3, math.MaxUint64, r3, r5, p, ErrInvalidProof},
		{"long proof", 3, 5, r3, r5, append(slices.Clone(p), make([]Hash, 200)...), ErrInvalidProof},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := VerifyConsistency(tt.m, tt.n, tt.old, tt.new, tt.proof)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("VerifyConsistency = %v, want %v", err, tt.wantErr)
			}
		})
	}
	for _, good := range []struct {
		m, n     uint64
		old, new Hash
	}{{0, 0, EmptyRoot(), EmptyRoot()}, {0, 5, EmptyRoot(), r5}, {5, 5, r5, r5}} {
		if err := VerifyConsistency(good.m, good.n, good.old, good.new, nil); err != nil {
			t.Errorf("VerifyConsistency(%d, %d, empty proof) = %v", good.m, good.n, err)
		}
	}
}

func TestProofErrors(t *testing.T) {
	leaves := testLeaves(4, 3)
	tree := NewTree(leaves)
	if _, err := InclusionProof(leaves, 4); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("InclusionProof(4 of 4) = %v", err)
	}
	if _, err := tree.InclusionProof(4); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Tree.InclusionProof(4 of 4) = %v", err)
	}
	if _, err := ConsistencyProof(leaves, 5); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("ConsistencyProof(5 of 4) = %v", err)
	}
	if _, err := tree.ConsistencyProof(5); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Tree.ConsistencyProof(5 of 4) = %v", err)
	}
	if _, err := tree.RootAt(5); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Tree.RootAt(5 of 4) = %v", err)
	}
	if _, err := tree.Leaf(4); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("Tree.Leaf(4 of 4) = %v", err)
	}
	if l, err := tree.Leaf(3); err != nil || l != leaves[3] {
		t.Errorf("Tree.Leaf(3) = %v, %v", l, err)
	}
	if err := VerifyInclusion(leaves[0], 4, 4, Root(leaves), nil); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("VerifyInclusion(4 of 4) = %v", err)
	}
	if err := VerifyInclusion(leaves[0], 0, 4, Root(leaves), nil); !errors.Is(err, ErrInvalidProof) {
		t.Errorf("VerifyInclusion with a short proof = %v", err)
	}
	if err := VerifyInclusion(leaves[0], 0, 1, leaves[0], nil); err != nil {
		t.Errorf("VerifyInclusion of a one-leaf log = %v", err)
	}
}
