package merkle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
)

func TestFrontierMatchesRoot(t *testing.T) {
	leaves := testLeaves(300, 4)
	f := &Frontier{}
	tree := &Tree{}
	for n := 0; n <= len(leaves); n++ {
		if n > 0 {
			if err := f.Append(leaves[n-1]); err != nil {
				t.Fatal(err)
			}
			tree.Append(leaves[n-1])
		}
		if f.Size() != uint64(n) {
			t.Fatalf("Size = %d, want %d", f.Size(), n)
		}
		want := Root(leaves[:n])
		if got := f.Root(); got != want {
			t.Fatalf("size %d: Frontier root %s, want %s", n, got, want)
		}
		if got := tree.Frontier(); got.Size() != f.Size() || !slices.Equal(got.Hashes(), f.Hashes()) {
			t.Fatalf("size %d: Tree.Frontier %v, want %v", n, got.Hashes(), f.Hashes())
		}

		// A store persists the frontier and resumes from it.
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var g Frontier
		if err := g.UnmarshalBinary(data); err != nil {
			t.Fatalf("size %d: UnmarshalBinary: %v", n, err)
		}
		if g.Size() != f.Size() || g.Root() != want {
			t.Fatalf("size %d: round trip gave size %d root %s", n, g.Size(), g.Root())
		}
		if n < len(leaves) {
			if err := g.Append(leaves[n]); err != nil {
				t.Fatal(err)
			}
			if g.Root() != Root(leaves[:n+1]) {
				t.Fatalf("size %d: append after round trip gave a wrong root", n)
			}
		}
	}
}

func TestFrontierUnmarshalRejects(t *testing.T) {
	var f Frontier
	for _, l := range testLeaves(5, 5) {
		if err := f.Append(l); err != nil {
			t.Fatal(err)
		}
	}
	good, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	badVersion := bytes.Clone(good)
	badVersion[0] = 2
	badSize := bytes.Clone(good)
	binary.BigEndian.PutUint64(badSize[1:9], 7) // three subtrees, two given
	tests := []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"short header", good[:5]},
		{"unknown version", badVersion},
		{"size needs more hashes", badSize},
		{"truncated hash", good[:len(good)-1]},
		{"trailing byte", append(bytes.Clone(good), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := f
			if err := g.UnmarshalBinary(tt.data); err == nil {
				t.Fatalf("UnmarshalBinary accepted %x", tt.data)
			}
			if g.Size() != 5 || g.Root() != f.Root() {
				t.Error("failed UnmarshalBinary changed the frontier")
			}
		})
	}
}

func TestFrontierFull(t *testing.T) {
	data := []byte{frontierVersion}
	data = binary.BigEndian.AppendUint64(data, math.MaxUint64)
	data = append(data, make([]byte, 64*Size)...)
	var f Frontier
	if err := f.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Append(Hash{}); !errors.Is(err, ErrFull) {
		t.Fatalf("Append to a full log = %v, want ErrFull", err)
	}
	if f.Size() != math.MaxUint64 {
		t.Fatalf("Size after a refused Append = %d", f.Size())
	}
}

func TestTreeZeroValue(t *testing.T) {
	var tree Tree
	if tree.Size() != 0 || tree.Root() != EmptyRoot() {
		t.Fatalf("zero Tree: size %d root %s", tree.Size(), tree.Root())
	}
	if p, err := tree.ConsistencyProof(0); err != nil || len(p) != 0 {
		t.Fatalf("zero Tree ConsistencyProof(0) = %v, %v", p, err)
	}
	if f := tree.Frontier(); f.Size() != 0 || f.Root() != EmptyRoot() {
		t.Fatal("zero Tree has a non-empty frontier")
	}
}

// TestTreeMemory checks the cache holds under twice as many hashes as
// leaves.
func TestTreeMemory(t *testing.T) {
	tree := NewTree(testLeaves(1000, 6))
	total := 0
	for _, l := range tree.levels {
		total += len(l)
	}
	if total >= 2*1000 {
		t.Fatalf("tree holds %d hashes for 1000 leaves", total)
	}
}
