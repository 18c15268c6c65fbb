package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const vectorDir = "testdata/vectors"

func readVector(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorDir, path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lines splits command output into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestCLIRFC8785Vectors: every published input of the RFC 8785 suite, fed to
// `memgov canon`, gives the published output byte for byte, and the published
// hex form; `--hash` prints the SHA-256 of those bytes.
func TestCLIRFC8785Vectors(t *testing.T) {
	c := newCLI(t)
	ents, err := os.ReadDir(filepath.Join(vectorDir, "rfc8785", "input"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) < 6 {
		t.Fatalf("only %d RFC 8785 vectors", len(ents))
	}
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".json")
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(vectorDir, "rfc8785", "input", e.Name())
			want := readVector(t, filepath.Join("rfc8785", "output", e.Name()))
			got := c.ok("", "canon", in)
			if got != string(want) {
				t.Fatalf("canon %s:\n got %q\nwant %q", name, got, want)
			}
			wantHex := strings.Join(strings.Fields(string(readVector(t, filepath.Join("rfc8785", "outhex", name+".txt")))), "")
			if gotHex := hex.EncodeToString([]byte(got)); gotHex != strings.ToLower(wantHex) {
				t.Fatalf("outhex %s:\n got %s\nwant %s", name, gotHex, wantHex)
			}
			// The same bytes through standard input, and their digest.
			if got := c.ok(string(readVector(t, filepath.Join("rfc8785", "input", e.Name()))), "canon"); got != string(want) {
				t.Fatalf("canon from stdin %s: %q", name, got)
			}
			sum := sha256.Sum256(want)
			if got := strings.TrimSpace(c.ok("", "canon", "--hash", "sha256", in)); got != "sha256:"+hex.EncodeToString(sum[:]) {
				t.Fatalf("--hash sha256 %s = %s", name, got)
			}
			if got := strings.TrimSpace(c.ok("", "canon", "--hash", "shake256", in)); !strings.HasPrefix(got, "shake256:") || len(got) != len("shake256:")+64 {
				t.Fatalf("--hash shake256 %s = %s", name, got)
			}
		})
	}
	// The ES6 number samples: the double of each hex-ieee value, written with
	// 17 significant digits, is canonicalised to the expected form.
	var in, want []string
	for _, l := range lines(string(readVector(t, "rfc8785/es6-numbers.txt"))) {
		h, exp, _ := strings.Cut(l, ",")
		bits, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, strconv.FormatFloat(math.Float64frombits(bits), 'e', 16, 64))
		want = append(want, exp)
	}
	if got := c.ok("["+strings.Join(in, ",")+"]", "canon"); got != "["+strings.Join(want, ",")+"]" {
		t.Fatalf("ES6 numbers:\n got %s\nwant [%s]", got, strings.Join(want, ","))
	}
	// Bad input is refused with a usage error, never canonicalised.
	for _, bad := range []string{`{"a":1,"a":2}`, `[1e400]`, "{\"a\":\"\xff\"}", `{`} {
		if _, errOut, code := c.run(bad, "canon"); code != 2 || errOut == "" {
			t.Errorf("canon %q: exit %d %q", bad, code, errOut)
		}
	}
	if _, _, code := c.run("{}", "canon", "--hash", "md5"); code != 2 {
		t.Errorf("--hash md5: exit %d", code)
	}
}

type amVectors struct {
	Memory struct {
		Ops           string
		LeafPreimage0 string   `json:"leaf_preimage_0"`
		Leaf0         string   `json:"leaf_0"`
		MemoryRoot2   string   `json:"memory_root_2"`
		Consistency12 []string `json:"consistency_1_2"`
	}
	Trace struct {
		Entries          string
		Leaves           []string
		HashChainedRoot2 string   `json:"hash_chained_root_2"`
		HashChainedRoot3 string   `json:"hash_chained_root_3"`
		MerkleLogRoot2   string   `json:"merkle_log_root_2"`
		MerkleLogRoot3   string   `json:"merkle_log_root_3"`
		Consistency23    []string `json:"consistency_2_3"`
		EmptyRoot        string   `json:"empty_root"`
	}
}

// TestCLIAgentManifestVectors: every vector of spec §3.2.6.2 and
// spec §3.2.7.1 (leaf encodings, leaves, roots of both continuity modes, proofs)
// reproduced by `memgov merkle` over the copied inputs.
func TestCLIAgentManifestVectors(t *testing.T) {
	c := newCLI(t)
	var v amVectors
	if err := json.Unmarshal(readVector(t, "agent-manifest/vectors.json"), &v); err != nil {
		t.Fatal(err)
	}
	ops := filepath.Join(vectorDir, "agent-manifest", v.Memory.Ops)
	entries := filepath.Join(vectorDir, "agent-manifest", v.Trace.Entries)
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %s, want %s", what, got, want)
		}
	}
	// spec §3.2.6.2
	pre, err := strconv.Unquote(lines(c.ok("", "merkle", "leaf", "--tag", "kv", "--preimage", ops))[0])
	if err != nil {
		t.Fatal(err)
	}
	check("leaf preimage of PUT a=1", pre, v.Memory.LeafPreimage0)
	check("leaf of PUT a=1", "sha256:"+lines(c.ok("", "merkle", "leaf", "--tag", "kv", ops))[0], v.Memory.Leaf0)
	check("memory_root", strings.TrimSpace(c.ok("", "merkle", "root", "--tag", "kv", ops)), v.Memory.MemoryRoot2)
	check("consistency 1 -> 2", strings.Join(lines(c.ok("", "merkle", "consistency", "--tag", "kv", "--from", "1", ops)), ","), strings.Join(v.Memory.Consistency12, ","))
	// spec §3.2.7.1
	check("entry leaves", strings.Join(lines(c.ok("", "merkle", "leaf", "--tag", "trace", entries)), ","), strings.Join(v.Trace.Leaves, ","))
	check("hash-chained root, size 2", strings.TrimSpace(c.ok("", "merkle", "root", "--mode", "hash-chained", "--size", "2", entries)), v.Trace.HashChainedRoot2)
	check("hash-chained root, size 3", strings.TrimSpace(c.ok("", "merkle", "root", "--mode", "hash-chained", entries)), v.Trace.HashChainedRoot3)
	check("merkle-log root, size 2", strings.TrimSpace(c.ok("", "merkle", "root", "--size", "2", entries)), v.Trace.MerkleLogRoot2)
	check("merkle-log root, size 3", strings.TrimSpace(c.ok("", "merkle", "root", entries)), v.Trace.MerkleLogRoot3)
	check("consistency 2 -> 3", strings.Join(lines(c.ok("", "merkle", "consistency", "--from", "2", "--to", "3", entries)), ","), strings.Join(v.Trace.Consistency23, ","))
	check("empty hash chain", strings.TrimSpace(c.ok("", "merkle", "root", "--mode", "hash-chained")), v.Trace.EmptyRoot)
	check("empty merkle log", strings.TrimSpace(c.ok("", "merkle", "root")), v.Trace.EmptyRoot)
	// Inclusion: the audit path of leaf 2 in size 3 is [root of leaves 0..1].
	check("inclusion of entry 2", strings.Join(lines(c.ok("", "merkle", "inclusion", "--index", "2", entries)), ","), strings.TrimPrefix(v.Trace.MerkleLogRoot2, "sha256:"))
	for _, args := range [][]string{{"merkle", "leaf", "--tag", "nope", entries}, {"merkle", "root", "--mode", "sideways", entries},
		{"merkle", "consistency", "--from", "4", entries}, {"merkle", "inclusion", "--index", "3", entries}} {
		if _, _, code := c.run("", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestCLIAuditToolkit: a verifier without the key recomputes what memgov
// proves from `memgov audit export` alone: every leaf from its canonical
// entry, both roots, inclusion and consistency proofs between any sizes; a
// held checkpoint names its algorithms; a held spec §3.2.6.2 checkpoint is checked.
func TestCLIAuditToolkit(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	seedMemory(t, c, "acme/bot", map[string]string{"a": "1", "b": "2", "c": "3"})
	c.ok("", "baseline", "approve", "acme/bot", "--by", "oncall", "--type", "persistent", "--ttl", "3600", "--policy", "deny-on-drift", "--level", "2")
	held := c.ok("", "checkpoint", "show", "acme/bot", "--json")
	seedMemory(t, c, "acme/bot", map[string]string{"d": "4"})
	cp := c.ok("", "audit", "checkpoint", "--ttl", "3600")
	for _, f := range []string{`"hash_alg": "sha256"`, `"chain_mode": "merkle-log"`} {
		if !strings.Contains(cp, f) || !strings.Contains(held, f) {
			t.Errorf("checkpoint does not name %s:\n%s\n%s", f, cp, held)
		}
	}

	// Export, then recompute everything from the export alone.
	var docs bytes.Buffer
	var last struct {
		HashChained string `json:"hash_chained"`
	}
	n := 0
	for _, l := range lines(c.ok("", "audit", "export")) {
		var e struct {
			LSN         int64
			Entry       json.RawMessage
			Leaf        string
			HashChained string `json:"hash_chained"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if got := c.ok(string(e.Entry), "canon"); got != string(e.Entry) {
			t.Fatalf("entry %d is not canonical: %s", e.LSN, e.Entry)
		}
		if got := strings.TrimSpace(c.ok(string(e.Entry), "merkle", "leaf", "--tag", "trace")); got != e.Leaf {
			t.Fatalf("entry %d: leaf %s, exported %s", e.LSN, got, e.Leaf)
		}
		docs.Write(e.Entry)
		docs.WriteByte('\n')
		last.HashChained = e.HashChained
		n++
	}
	file := filepath.Join(t.TempDir(), "entries.jsonl")
	if err := os.WriteFile(file, docs.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	root := decode[map[string]any](t, c.ok("", "audit", "root"))
	if root["tree_size"] != float64(n) || root["audit_chain_root"] != strings.TrimSpace(c.ok("", "merkle", "root", file)) ||
		root["hash_chained_root"] != strings.TrimSpace(c.ok("", "merkle", "root", "--mode", "hash-chained", file)) || root["hash_chained_root"] != last.HashChained {
		t.Fatalf("audit root %v does not match the export", root)
	}
	for lsn := 1; lsn <= n; lsn++ {
		p := decode[InclusionOut](t, c.ok("", "audit", "prove", "--lsn", strconv.Itoa(lsn)))
		if got := lines(c.ok("", "merkle", "inclusion", "--index", strconv.Itoa(lsn-1), file)); strings.Join(got, ",") != strings.Join(p.Proof, ",") || p.Root != root["audit_chain_root"] {
			t.Fatalf("inclusion of %d: memgov %v, recomputed %v", lsn, p, got)
		}
	}
	for from := 1; from < n; from++ {
		for to := from; to <= n; to += 2 {
			p := decode[ConsistencyOut](t, c.ok("", "audit", "prove", "--from", strconv.Itoa(from), "--to", strconv.Itoa(to)))
			got := lines(c.ok("", "merkle", "consistency", "--from", strconv.Itoa(from), "--to", strconv.Itoa(to), file))
			if strings.Join(got, ",") != strings.Join(p.Proof, ",") || p.ToRoot != strings.TrimSpace(c.ok("", "merkle", "root", "--size", strconv.Itoa(to), file)) {
				t.Fatalf("consistency %d -> %d: memgov %v, recomputed %v", from, to, p, got)
			}
		}
	}
	if _, _, code := c.run("", "audit", "prove", "--lsn", strconv.Itoa(n+1)); code == 0 {
		t.Error("--lsn beyond the log succeeded")
	}
	if _, _, code := c.run("", "audit", "prove", "--from", "3", "--to", "2"); code == 0 {
		t.Error("--from above --to succeeded")
	}
	// A held checkpoint naming another algorithm is MISMATCH.
	other := filepath.Join(t.TempDir(), "cp.json")
	os.WriteFile(other, []byte(strings.Replace(cp, `"chain_mode": "merkle-log"`, `"chain_mode": "hash-chained"`, 1)), 0o600)
	if out, _, code := c.run("", "audit", "prove", "--checkpoint", other); code != 1 || !strings.Contains(out, "MISMATCH") {
		t.Fatalf("held checkpoint of another mode: exit %d %s", code, out)
	}

	// The memory op log: inclusion by --seq, consistency between two sizes,
	// and a held spec §3.2.6.2 checkpoint.
	ops := lines(c.ok("", "checkpoint", "ops", "acme/bot"))
	if len(ops) != 5 { // header and four operations
		t.Fatalf("ops: %v", ops)
	}
	inc := decode[map[string]any](t, c.ok("", "checkpoint", "prove", "acme/bot", "--seq", "3", "--json"))
	if inc["seq"] != float64(3) || inc["tree_size"] != float64(4) || len(inc["proof"].([]any)) != 2 {
		t.Fatalf("inclusion of op 3: %v", inc)
	}
	cons := decode[map[string]any](t, c.ok("", "checkpoint", "prove", "acme/bot", "--from", "1", "--to", "3", "--json"))
	if cons["from_size"] != float64(1) || cons["to_size"] != float64(3) || len(cons["proof"].([]any)) == 0 {
		t.Fatalf("consistency 1 -> 3: %v", cons)
	}
	heldFile := filepath.Join(t.TempDir(), "mem.json")
	os.WriteFile(heldFile, []byte(held), 0o600)
	if out, errOut, code := c.run("", "checkpoint", "prove", "acme/bot", "--checkpoint", heldFile); code != 0 || !strings.Contains(out, `"ACCEPT"`) {
		t.Fatalf("held 3.2.6.2 checkpoint: exit %d %s %s", code, out, errOut)
	}
	var h map[string]any
	json.Unmarshal([]byte(held), &h)
	h["memory_root"] = "sha256:" + strings.Repeat("0", 64)
	b, _ := json.Marshal(h)
	os.WriteFile(heldFile, b, 0o600)
	if out, _, code := c.run("", "checkpoint", "prove", "acme/bot", "--checkpoint", heldFile); code != 1 || !strings.Contains(out, `"drift"`) {
		t.Fatalf("forged held checkpoint: exit %d %s", code, out)
	}
}

// InclusionOut and ConsistencyOut are the JSON of `audit prove`.
type InclusionOut struct {
	Proof []string
	Root  string
}

type ConsistencyOut struct {
	Proof  []string
	ToRoot string `json:"to_root"`
}
