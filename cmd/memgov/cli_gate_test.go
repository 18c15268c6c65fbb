package main

import (
	"database/sql"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// A write whose gate cannot read the store fails: exit 1, a message naming the
// gate and what it could not read, and nothing written or recorded. Here the
// candidate index the contradiction gate reads (version_index, a table derived
// from the log) was lost behind memgov's back.
func TestCLIWriteFailsWhenAGateCannotRead(t *testing.T) {
	c := newCLI(t)
	c.setup()
	req := `{"source_agent_id":"billing-agent","memory_ref":"acme/billing-agent","key":"invoice/%s","target_layer":"EPISODIC",
		"observation_type":"tool_result_verified","confidence":0.9,"content":{"text":"Invoice %s was paid in full."},
		"evidence_refs":[{"source_type":"API_RESPONSE","source_uri":"erp://invoices/%s","authority":0.95}]}`
	write := func(n string) string { return strings.ReplaceAll(req, "%s", n) }
	if out := c.ok(write("4411"), "write"); !strings.HasPrefix(out, "COMMITTED") {
		t.Fatalf("first write: %s", out)
	}

	db, err := sql.Open("sqlite", "file:"+c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(table string) int {
		t.Helper()
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := db.Exec("DROP TABLE version_index"); err != nil {
		t.Fatal(err)
	}
	logSize, outcomes := count("log"), count("write_outcomes")

	out, errOut, code := c.run(write("4412"), "write")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "gate contradiction: read candidates") || !strings.Contains(errOut, "version_index") {
		t.Fatalf("the error does not say which gate failed to read what: %q", errOut)
	}
	if out != "" {
		t.Fatalf("a failed write printed a result: %q", out)
	}
	if n := count("log"); n != logSize {
		t.Fatalf("the log grew from %d to %d entries", logSize, n)
	}
	if n := count("write_outcomes"); n != outcomes {
		t.Fatalf("%d outcomes recorded for a write that failed", n-outcomes)
	}
}
