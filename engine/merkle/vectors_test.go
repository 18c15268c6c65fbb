package merkle

import (
	"fmt"
	"slices"
	"testing"
)

func mustHash(t *testing.T, s string) Hash {
	t.Helper()
	h, err := ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustPrefixed(t *testing.T, s string) Hash {
	t.Helper()
	h, err := ParsePrefixed(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Vectors of spec §3.2.6.2.
func TestMemoryVectors(t *testing.T) {
	putA := KVOp{Key: "a", Op: OpPut, Value: []byte("1")}
	putB := KVOp{Key: "b", Op: OpPut, Value: []byte("2")}

	canon, err := putA.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := TagKV+string(canon), "am-mem-kv\x00{\"key\":\"a\",\"op\":\"PUT\",\"value\":1}"; got != want {
		t.Errorf("leaf preimage = %q, want %q", got, want)
	}
	leafA, err := putA.Leaf()
	if err != nil {
		t.Fatal(err)
	}
	if want := mustPrefixed(t, "sha256:f2904e572018f088488c4fbd2e5fffaa3bc5f94488eec27ca73f4d1348595b91"); leafA != want {
		t.Errorf("leaf(PUT a=1) = %s, want %s", leafA.Prefixed(), want.Prefixed())
	}
	leafB, err := putB.Leaf()
	if err != nil {
		t.Fatal(err)
	}
	leaves := []Hash{leafA, leafB}

	wantRoot := mustPrefixed(t, "sha256:9a41dee8ec223727525f8b26685e413664190d2b82cd62d4f7c15180a9e1f5af")
	if got := Root(leaves); got != wantRoot {
		t.Errorf("memory_root = %s, want %s", got.Prefixed(), wantRoot.Prefixed())
	}
	if got := NewTree(leaves).Root(); got != wantRoot {
		t.Errorf("Tree root = %s, want %s", got.Prefixed(), wantRoot.Prefixed())
	}

	wantProof := []Hash{mustHash(t, "42effb8d6d6bf9904585248b30b039a5ede7a447a5f8fd21cc0a8b0b850c566f")}
	proof, err := ConsistencyProof(leaves, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(proof, wantProof) {
		t.Errorf("consistency proof 1->2 = %v, want %v", proof, wantProof)
	}
	if tp, _ := NewTree(leaves).ConsistencyProof(1); !slices.Equal(tp, wantProof) {
		t.Errorf("Tree consistency proof 1->2 = %v, want %v", tp, wantProof)
	}
	if err := VerifyConsistency(1, 2, leafA, wantRoot, wantProof); err != nil {
		t.Errorf("VerifyConsistency(1, 2) = %v", err)
	}
}

// Vectors of spec §3.2.7.1.
func TestAuditVectors(t *testing.T) {
	wantLeaves := []string{
		"60254cf11420c61e878667adc185b683d261a19e9c74da5d224687758db65267",
		"933612cc73106c049a8b4c4ea20103c997d26f9ff45f4eda83eac569f0c82cf5",
		"d2a1bd03e6ea0d31241263f59252f5fab5f4f9a6625c8b89c90d0d116b17d441",
	}
	var leaves []Hash
	for i, w := range wantLeaves {
		entry := fmt.Sprintf(`{"decision":"allow","seq":%d,"tool":"kyc.lookup"}`, i)
		leaf := LeafHash(TagTraceEntry, []byte(entry))
		if leaf.String() != w {
			t.Errorf("leaf %d = %s, want %s", i, leaf, w)
		}
		leaves = append(leaves, leaf)
	}

	tests := []struct {
		name string
		got  Hash
		want string
	}{
		{"hash-chained root, size 2", ChainRoot(leaves[:2]), "sha256:0d313a1b8e77e6f1c7a585f99ca9c877f75dd6876229c2164d25694df3f3f0ba"},
		{"hash-chained root, size 3", ChainRoot(leaves[:3]), "sha256:ce399e52ed691feeb4703b1b259d4ef166350b6a23363209943e2a57276990bb"},
		{"NextChain, size 3", NextChain(ChainRoot(leaves[:2]), leaves[2]), "sha256:ce399e52ed691feeb4703b1b259d4ef166350b6a23363209943e2a57276990bb"},
		{"merkle-log root, size 2", Root(leaves[:2]), "sha256:478f71a93107b464fedfb132180fe3b881ee09950aaace2aeced2e4fdb59b406"},
		{"merkle-log root, size 3", Root(leaves[:3]), "sha256:4974beaa3bbe693aa96414258aec1854551edcabd564108f4485e0bed4cc3ddb"},
		{"Tree root, size 3", NewTree(leaves).Root(), "sha256:4974beaa3bbe693aa96414258aec1854551edcabd564108f4485e0bed4cc3ddb"},
	}
	for _, tt := range tests {
		if tt.got.Prefixed() != tt.want {
			t.Errorf("%s = %s, want %s", tt.name, tt.got.Prefixed(), tt.want)
		}
	}

	wantProof := []Hash{mustHash(t, "d2a1bd03e6ea0d31241263f59252f5fab5f4f9a6625c8b89c90d0d116b17d441")}
	proof, err := ConsistencyProof(leaves, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(proof, wantProof) {
		t.Errorf("consistency proof 2->3 = %v, want %v", proof, wantProof)
	}
	if tp, _ := NewTree(leaves).ConsistencyProof(2); !slices.Equal(tp, wantProof) {
		t.Errorf("Tree consistency proof 2->3 = %v, want %v", tp, wantProof)
	}
	if err := VerifyConsistency(2, 3, Root(leaves[:2]), Root(leaves), wantProof); err != nil {
		t.Errorf("VerifyConsistency(2, 3) = %v", err)
	}
}

func TestChainEmpty(t *testing.T) {
	if got, want := ChainRoot(nil).String(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf("ChainRoot(nil) = %s, want %s", got, want)
	}
	if ChainRoot(nil) != EmptyRoot() || Root(nil) != EmptyRoot() {
		t.Error("empty chain and empty Merkle root differ from SHA-256(\"\")")
	}
}
