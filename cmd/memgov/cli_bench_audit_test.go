package main

import (
	"encoding/json"
	"testing"
)

// benchAuditRun is one line of `memgov bench audit --json`.
type benchAuditRun struct {
	Entries        int64            `json:"log_entries"`
	ReplayMS       float64          `json:"replay_verify_ms"`
	UnchangedMS    float64          `json:"unchanged_verify_ms"`
	AppendedMS     float64          `json:"appended_verify_ms"`
	Appends        int              `json:"appends"`
	AppendedServed string           `json:"appended_served"`
	Rows           map[string]int64 `json:"served_rows"`
}

func checkBenchAudit(t *testing.T, out string) {
	t.Helper()
	var rep benchAuditRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// 199 seeded items and the principal (the rows the replay counted), then
	// 10 appends, verified by applying only those 10 to the verified snapshot.
	if rep.Entries != 210 || rep.Appends != 10 || rep.AppendedServed != "incremental" || rep.Rows["items"] != 199 {
		t.Fatalf("bench audit: %s, want 210 entries verified incrementally after 10 appends", out)
	}
	if rep.ReplayMS <= 0 || rep.UnchangedMS <= 0 || rep.AppendedMS <= 0 {
		t.Fatalf("bench audit: a verify took no time: %s", out)
	}
}

// memgov bench audit measures verify with a replay, on the unchanged log and
// after appends; the last is an incremental verify.
func TestBenchAuditVerifiesAppendsIncrementally(t *testing.T) {
	c := newCLI(t)
	checkBenchAudit(t, c.ok("", "bench", "audit", "--entries", "200", "--appends", "10", "--dir", t.TempDir(), "--json"))
}

// On PostgreSQL (--db postgres://...) bench audit measures the same, and the
// verify after appends is incremental there too.
func TestBenchAuditOnPostgres(t *testing.T) {
	c := newPGCLI(t)
	checkBenchAudit(t, c.ok("", "--db", c.db, "bench", "audit", "--entries", "200", "--appends", "10", "--json"))
}
