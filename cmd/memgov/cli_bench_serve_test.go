package main

import (
	"encoding/json"
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
		HTTP8 float64 `json:"http8_over_in_process8"`
		MCP8  float64 `json:"mcp8_over_in_process8"`
	}
	out := c.ok("", "bench", "serve", "--items", "50", "--writes", "16", "--dir", t.TempDir(), "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
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
}
