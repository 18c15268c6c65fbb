package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func dbBytes(t *testing.T, db string) []byte {
	t.Helper()
	var all []byte
	for _, f := range []string{db, db + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

func TestCLIEraseRemovesSubjectFromDisk(t *testing.T) {
	c := newCLI(t)
	c.setup()
	subject := "Quentin Zabriskie-Oyelaran"
	r := c.write(writeReq("billing-agent", "acme/billing-agent", "cust/77", "Customer "+subject+" disputes invoice 7731."))
	if r.Status != "COMMITTED" {
		t.Fatalf("%+v", r)
	}
	c.write(writeReq("billing-agent", "acme/billing-agent", "cust/78", "Customer Ann Other pays on time."))
	c.ok("", "audit", "verify")
	if !bytes.Contains(dbBytes(t, c.db), []byte(subject)) {
		t.Fatal("the subject is not in the database before erasure: the test cannot fail")
	}
	if _, _, code := c.run("", "erase", "--subject", subject, "--by", "billing-agent"); code == 0 {
		t.Fatal("an orchestrator erased")
	}
	out := c.ok("", "erase", "--subject", subject, "--by", "jane", "--json")
	if jsonField(out, "status") != "COMPLETED" || !strings.Contains(out, `"EPISODIC": 1`) {
		t.Fatalf("erase: %s", out)
	}
	if b := dbBytes(t, c.db); bytes.Contains(b, []byte(subject)) || bytes.Contains(b, []byte("Zabriskie")) {
		t.Fatal("the subject's text is still in the database file or WAL")
	}
	c.ok("", "audit", "verify")
	if out := c.ok("", "get", "acme/billing-agent", "cust/78"); !strings.Contains(out, "Ann Other") {
		t.Fatalf("unrelated entry: %s", out)
	}
	if out := c.ok("", "compliance", "report", "--json"); !strings.Contains(out, `"kind": "subject"`) {
		t.Fatalf("compliance: %s", out)
	}
	c.ok("", "gc", "--by", "jane", "--dry-run")
	c.ok("", "metrics", "--json")
}
