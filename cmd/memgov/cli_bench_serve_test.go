package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// memgov bench serve writes through the in-process engine and through the
// HTTP door and MCP as memgov serve opens them, and every write commits.
func TestBenchServeWritesThroughEveryDoor(t *testing.T) {
	c := newCLI(t)
	var rep struct {
		Items int `json:"items"`
		Runs  []struct {
			Door     string         `json:"door"`
			Clients  int            `json:"clients"`
			Statuses map[string]int `json:"statuses"`
			Stats    struct {
				N         int     `json:"n"`
				PerSecond float64 `json:"per_second"`
			} `json:"stats"`
		} `json:"runs"`
		HTTP8   float64 `json:"http8_over_in_process8"`
		MCP8    float64 `json:"mcp8_over_in_process8"`
		HTTP8x1 float64 `json:"http8_over_http1"`
		MCP8x1  float64 `json:"mcp8_over_mcp1"`
		Same    bool    `json:"same_memory"`
		Snap    bool    `json:"snapshot_gates"`
		Commits struct {
			Transactions int64 `json:"transactions"`
			Writes       int64 `json:"writes"`
			FromSnapshot int64 `json:"from_snapshot"`
			Rejudged     int64 `json:"rejudged"`
			InCommit     int64 `json:"in_commit"`
			LargestBatch int   `json:"largest_batch"`
		} `json:"commits"`
	}
	for _, same := range []bool{false, true} {
		args := []string{"bench", "serve", "--items", "50", "--writes", "16", "--dir", t.TempDir(), "--json"}
		if same {
			args = append(args, "--same-memory")
		} else {
			args = append(args, "--snapshot-gates")
		}
		out := c.ok("", args...)
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		// 16 warm-up writes and 16 in each of six runs, every one through
		// the commit path.
		cm := rep.Commits
		if rep.Same != same || rep.Snap == same || rep.HTTP8x1 <= 0 || rep.MCP8x1 <= 0 || cm.Writes != 7*16 || cm.FromSnapshot+cm.Rejudged+cm.InCommit != cm.Writes ||
			cm.Transactions < 1 || cm.Transactions > cm.Writes || cm.LargestBatch < 1 {
			t.Fatalf("bench serve (same memory %v): %+v", same, rep)
		}
	}
	var doors []string
	for _, r := range rep.Runs {
		doors = append(doors, r.Door)
		if r.Statuses["COMMITTED"] != 16 || r.Stats.N != 16 || r.Stats.PerSecond <= 0 {
			t.Errorf("%s with %d clients: %+v", r.Door, r.Clients, r)
		}
	}
	if rep.Items != 50 || strings.Join(doors, ",") != "in-process,in-process,http,http,mcp,mcp" || rep.HTTP8 <= 0 || rep.MCP8 <= 0 {
		t.Fatalf("bench serve: %+v", rep)
	}
	if _, errOut, code := c.run("", "bench", "serve", "--writes", "0"); code != exitUsage || !strings.Contains(errOut, "--writes") {
		t.Fatalf("--writes 0: exit %d %s", code, errOut)
	}

	// --doors, --clients and --rounds: the client counts take turns, and
	// each count's run holds every one of its writes.
	out := c.ok("", "bench", "serve", "--items", "20", "--writes", "9", "--rounds", "3", "--doors", "http", "--clients", "2,1",
		"--dir", t.TempDir(), "--json")
	rep.Runs = nil
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	for _, r := range rep.Runs {
		got = append(got, fmt.Sprintf("%s/%d/%d/%d", r.Door, r.Clients, r.Stats.N, r.Statuses["COMMITTED"]))
	}
	if strings.Join(got, ",") != "http/2/9/9,http/1/9/9" || rep.Commits.Writes != 9+2*9 {
		t.Fatalf("bench serve --doors http --clients 2,1 --rounds 3: runs %v, %d writes committed (9 to warm up)", got, rep.Commits.Writes)
	}
	for _, bad := range [][]string{{"--rounds", "0"}, {"--clients", "9"}, {"--doors", "ssh"}} {
		if _, errOut, code := c.run("", append([]string{"bench", "serve", "--writes", "4"}, bad...)...); code != exitUsage || !strings.Contains(errOut, bad[0]) {
			t.Errorf("bench serve %v: exit %d %s", bad, code, errOut)
		}
	}
}
