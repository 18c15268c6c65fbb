package merkle

import "testing"

func BenchmarkRoot100k(b *testing.B) {
	leaves := testLeaves(100_000, 12)
	for b.Loop() {
		Root(leaves)
	}
}

// BenchmarkTreeAppend appends one leaf to a log of 1,000,000 leaves and
// takes the new root.
func BenchmarkTreeAppend(b *testing.B) {
	tree := NewTree(testLeaves(1_000_000, 13))
	leaf := LeafHash(TagKV, []byte("next"))
	for b.Loop() {
		tree.Append(leaf)
		tree.Root()
	}
}

func BenchmarkConsistencyProof1M(b *testing.B) {
	const n = 1_000_000
	tree := NewTree(testLeaves(n, 14))
	m := uint64(1)
	for b.Loop() {
		if _, err := tree.ConsistencyProof(m); err != nil {
			b.Fatal(err)
		}
		m = (m*7919)%(n-1) + 1
	}
}

func BenchmarkVerifyConsistency1M(b *testing.B) {
	const n, m = 1_000_000, 654_321
	tree := NewTree(testLeaves(n, 15))
	proof, err := tree.ConsistencyProof(m)
	if err != nil {
		b.Fatal(err)
	}
	oldRoot, _ := tree.RootAt(m)
	newRoot := tree.Root()
	for b.Loop() {
		if err := VerifyConsistency(m, n, oldRoot, newRoot, proof); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrontierAppend appends one leaf to a frontier and takes the new
// root, as a store does on each write.
func BenchmarkFrontierAppend(b *testing.B) {
	f := NewTree(testLeaves(1_000_000, 16)).Frontier()
	leaf := LeafHash(TagKV, []byte("next"))
	for b.Loop() {
		if err := f.Append(leaf); err != nil {
			b.Fatal(err)
		}
		f.Root()
	}
}
