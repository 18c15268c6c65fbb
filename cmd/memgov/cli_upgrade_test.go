package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// upgradeRoot is the log root of testdata/upgrade/memgov.db as the build that
// wrote it printed it (see testdata/upgrade/README.md).
const upgradeRoot = "sha256:763cb56be8cba8b8394855d03b4738ecf289d00ee1cd577769bf2a00dde8b542"

// openUpgradeDB copies the database written before the judge cache (and its
// key) into a temporary directory and returns a CLI over the copy.
func openUpgradeDB(t *testing.T) *cli {
	t.Helper()
	c := newCLI(t)
	f, err := os.Open(filepath.Join("testdata", "upgrade", "memgov.db.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var db bytes.Buffer
	if _, err := io.Copy(&db, zr); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.db, db.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(filepath.Join("testdata", "upgrade", "memgov.db.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.db+".key", key, 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// A database written by the build before the judge cache opens with today's
// binary: audit verify and audit verify --replay pass with no tamper report
// and warn that the index is stale; admin reindex rebuilds the judge cache
// without touching the log (the same root and exported entries, the root the
// old build printed), after which verify is clean and fresh.
func TestCLIUpgradeFromBeforeJudgeCache(t *testing.T) {
	c := openUpgradeDB(t)
	type verifyOut struct {
		OK         bool   `json:"ok"`
		TreeSize   int64  `json:"tree_size"`
		Root       string `json:"audit_chain_root"`
		Problem    string `json:"problem"`
		Table      string `json:"table"`
		Served     string `json:"served_tables"`
		IndexStale string `json:"index_stale"`
		Index      struct {
			Current int64 `json:"current"`
			Stale   int64 `json:"stale"`
			Missing int64 `json:"missing"`
		} `json:"index"`
	}
	verify := func(args ...string) verifyOut {
		t.Helper()
		out, errOut, code := c.run("", append([]string{"audit", "verify", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("audit verify %v: exit %d\n%s%s", args, code, out, errOut)
		}
		var v verifyOut
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("audit verify %v output %q: %v", args, out, err)
		}
		if !v.OK || v.Problem != "" || v.Table != "" || v.TreeSize != 14 || v.Root != upgradeRoot {
			t.Fatalf("audit verify %v = %+v, want ok over the 14 entries the old build wrote, root %s", args, v, upgradeRoot)
		}
		return v
	}
	for _, args := range [][]string{nil, {"--replay"}} {
		v := verify(args...)
		if !strings.HasPrefix(v.IndexStale, "index stale: run `memgov admin reindex`") || v.Index.Stale != 5 || v.Index.Current != 0 {
			t.Fatalf("audit verify %v before reindex: index_stale %q, index %+v; want the stale warning over 5 versions", args, v.IndexStale, v.Index)
		}
	}
	_, errOut, code := c.run("", "audit", "verify")
	if code != 0 || !strings.Contains(errOut, "warning: index stale: run `memgov admin reindex`") || strings.Contains(errOut, "tamper") {
		t.Fatalf("audit verify (text) before reindex: exit %d, stderr %q; want exit 0 and the stale warning", code, errOut)
	}
	exportBefore := c.ok("", "audit", "export")

	out := c.ok("", "admin", "reindex", "--json")
	var rep struct {
		Reindexed int64 `json:"reindexed"`
		After     struct {
			Current, Stale, Missing int64
		} `json:"after"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("admin reindex output %q: %v", out, err)
	}
	if rep.Reindexed != 5 || rep.After.Current != 5 || rep.After.Stale != 0 || rep.After.Missing != 0 {
		t.Fatalf("admin reindex = %s, want 5 versions reindexed and all current", out)
	}
	if exportAfter := c.ok("", "audit", "export"); exportAfter != exportBefore {
		t.Fatal("admin reindex changed the exported log entries")
	}
	for _, args := range [][]string{nil, {"--replay"}} {
		v := verify(args...)
		if v.IndexStale != "" || v.Index.Current != 5 || v.Index.Stale != 0 {
			t.Fatalf("audit verify %v after reindex: index_stale %q, index %+v; want a fresh index", args, v.IndexStale, v.Index)
		}
	}
	if _, errOut, code := c.run("", "audit", "verify"); code != 0 || strings.Contains(errOut, "warning") {
		t.Fatalf("audit verify (text) after reindex: exit %d, stderr %q", code, errOut)
	}
	// The items the old build stored are still found by a near-duplicate
	// write: the same episode again is linked to the one the old build
	// stored (in EPISODIC memory a repeat is another episode, kept).
	res, _ := c.writeJSON(writeReqTo("support-bot", "acme/support-bot", "dana/manager-copy", "EPISODIC", "Dana's manager is Tomas"))
	if res.Status != "DEFERRED" || len(res.Links) != 1 || res.Links[0].Rule != "repeats-event" || res.Links[0].Key == "dana/manager-copy" {
		t.Fatalf("a repeat of an upgraded item: %+v, want it linked to that item by repeats-event (and held for the executor's curator)", res)
	}
	if again := c.ok("", "admin", "reindex", "--json"); !strings.Contains(again, `"reindexed": 0`) {
		t.Fatalf("a second reindex = %s, want nothing to do", again)
	}
}

func writeReqTo(agent, ref, key, layer, text string) string {
	b, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": layer,
		"observation_type": "tool_result_verified", "confidence": 0.9, "content": map[string]any{"text": text},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://x", "authority": 0.95}}})
	return string(b)
}
