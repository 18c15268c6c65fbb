package merkle

import "testing"

func TestChainRoot(t *testing.T) {
	leaves := testLeaves(4, 7)
	tests := []struct {
		name string
		in   []Hash
		want Hash
	}{
		{"empty", nil, EmptyRoot()},
		{"one leaf is its own chain", leaves[:1], leaves[0]},
		{"two", leaves[:2], NextChain(leaves[0], leaves[1])},
		{"four", leaves, NextChain(NextChain(NextChain(leaves[0], leaves[1]), leaves[2]), leaves[3])},
	}
	for _, tt := range tests {
		if got := ChainRoot(tt.in); got != tt.want {
			t.Errorf("%s: ChainRoot = %s, want %s", tt.name, got, tt.want)
		}
	}
	// The chain is order-sensitive and separated from interior nodes.
	if NextChain(leaves[0], leaves[1]) == NextChain(leaves[1], leaves[0]) {
		t.Error("NextChain ignores order")
	}
	if NextChain(leaves[0], leaves[1]) == NodeHash(leaves[0], leaves[1]) {
		t.Error("NextChain equals NodeHash: domain separation lost")
	}
}
