package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memgov bench write reports, besides the totals, each step of the governed
// writes with its own percentiles (one sample per write the step ran for),
// and the run's time and peak resident memory.
func TestBenchWriteReportsEachStep(t *testing.T) {
	c := newCLI(t)
	var rep struct {
		Items    int `json:"items"`
		Governed struct {
			N     int     `json:"n"`
			P50MS float64 `json:"p50_ms"`
		} `json:"governed_write"`
		Statuses map[string]int `json:"governed_statuses"`
		Stages   map[string]struct {
			N     int     `json:"n"`
			P50MS float64 `json:"p50_ms"`
			P99MS float64 `json:"p99_ms"`
		} `json:"governed_stages"`
		Seconds          float64 `json:"seconds"`
		ResidentMB       float64 `json:"peak_resident_mb"`
		WritesResidentMB float64 `json:"peak_resident_after_writes_mb"`
		HeapMB           float64 `json:"heap_in_use_after_writes_mb"`
	}
	dir := t.TempDir()
	heap := filepath.Join(dir, "heap.prof")
	out := c.ok("", "bench", "write", "--items", "200", "--writes", "30", "--lookups", "10", "--recall-queries", "5", "--dir", dir, "--memprofile", heap, "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Items != 200 || rep.Governed.N != 30 || rep.Statuses["COMMITTED"] != 30 || rep.Seconds <= 0 {
		t.Fatalf("bench write: %s", out)
	}
	// Memory when the governed writes end: the peak so far bounds the
	// heap in use, and the run's peak bounds both; the heap profile is a
	// pprof file (gzip).
	if rep.HeapMB <= 0 || rep.WritesResidentMB < rep.HeapMB || rep.ResidentMB < rep.WritesResidentMB {
		t.Errorf("memory: peak %.1f MB, %.1f MB after the writes, heap %.1f MB", rep.ResidentMB, rep.WritesResidentMB, rep.HeapMB)
	}
	if b, err := os.ReadFile(heap); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--memprofile wrote no pprof file (%v, %d bytes)", err, len(b))
	}
	// Every write that commits passes these steps once each.
	// "judge" is the time of the contradiction and dedup steps spent in the
	// rule-based judge.
	for _, step := range []string{"prepare", "idempotency", "authorization", "content_policy", "evidence", "contradiction", "dedup", "judge", "approval", "commit"} {
		s, ok := rep.Stages[step]
		if !ok || s.N != 30 || s.P50MS < 0 || s.P99MS < s.P50MS {
			t.Errorf("step %s: %+v (present %v)", step, s, ok)
		}
	}
	// A step is part of each write: its median cannot exceed the writes'.
	for _, step := range []string{"contradiction", "judge"} {
		if s := rep.Stages[step]; s.P50MS > rep.Governed.P50MS+0.001 {
			t.Errorf("the %s step's p50 %.3f ms is above the whole write's p50 %.3f ms", step, s.P50MS, rep.Governed.P50MS)
		}
	}
}

// On PostgreSQL (--db postgres://...), bench write reports the same steps
// and the statements a write sends, each a round trip to the server.
func TestBenchWriteOnPostgres(t *testing.T) {
	c := newPGCLI(t)
	var rep struct {
		Store              string         `json:"store"`
		StatementsPerPut   float64        `json:"statements_per_put"`
		StatementsPerWrite float64        `json:"statements_per_governed_write"`
		Statuses           map[string]int `json:"governed_statuses"`
		Stages             map[string]struct {
			N int `json:"n"`
		} `json:"governed_stages"`
		Recall float64 `json:"dedup_recall"`
	}
	// The URL carries the pool's settings (pool_max_conn_idle_time and
	// pool_health_check_period): every connection the benchmark makes,
	// the raw inserts' too, takes them as such.
	if u, err := url.Parse(c.db); err != nil || u.Query().Get("pool_max_conn_idle_time") == "" {
		t.Fatalf("the test database's URL carries no pool setting: %s", c.db)
	}
	out := c.ok("", "--db", c.db, "bench", "write", "--items", "200", "--writes", "20", "--lookups", "10", "--recall-queries", "5", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Statuses["COMMITTED"] != 20 || rep.StatementsPerPut <= 0 || rep.StatementsPerWrite <= rep.StatementsPerPut {
		t.Fatalf("bench write on PostgreSQL: %s", out)
	}
	for _, step := range []string{"contradiction", "dedup", "commit"} {
		if rep.Stages[step].N != 20 {
			t.Errorf("step %s: %+v", step, rep.Stages[step])
		}
	}
}

// bench write --reuse measures a corpus an earlier run seeded in --dir
// again without seeding it, its own writes under keys of their own (every
// governed write commits: none lands on an earlier run's key); a directory
// seeded with another --items is refused, and --reuse without --dir too.
func TestBenchWriteReusesASeededCorpus(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	args := []string{"bench", "write", "--items", "150", "--writes", "20", "--lookups", "5", "--recall-queries", "2", "--dir", dir}
	c.ok("", args...)
	_, stderr, code := c.run("", append(args, "--reuse")...)
	if code != 0 || !strings.Contains(stderr, "reusing the corpus of 150 items") || strings.Contains(stderr, "seeded 150/150") {
		t.Fatalf("--reuse: exit %d, %s", code, stderr)
	}
	var rep struct {
		Statuses map[string]int `json:"governed_statuses"`
	}
	out := c.ok("", append(args, "--reuse", "--json")...)
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Statuses["COMMITTED"] != 20 {
		t.Fatalf("a third run on the corpus: %v %s", err, out)
	}
	if _, stderr, code := c.run("", "bench", "write", "--items", "100", "--writes", "5", "--dir", dir, "--reuse"); code == 0 || !strings.Contains(stderr, "not a corpus of 100 items") {
		t.Errorf("--reuse with another --items: exit %d, %s", code, stderr)
	}
	if _, stderr, code := c.run("", "bench", "write", "--items", "100", "--reuse"); code != 2 || !strings.Contains(stderr, "--reuse needs --dir") {
		t.Errorf("--reuse without --dir: exit %d, %s", code, stderr)
	}
}
