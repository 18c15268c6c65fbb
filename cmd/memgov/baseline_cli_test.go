package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// seedMemory writes items straight into the CLI's database (the ungated loader).
func seedMemory(t *testing.T, c *cli, ref string, kv map[string]string) {
	t.Helper()
	key, err := os.ReadFile(c.db + ".key")
	if err != nil {
		t.Fatal(err)
	}
	k := []byte(strings.TrimSpace(string(key)))
	s, err := sqlite.Open(context.Background(), c.db, sqlite.Options{Key: k})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := engine.New(s, k)
	for key, text := range kv {
		body, _ := json.Marshal(map[string]string{"text": text})
		if _, err := e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
			t.Fatal(err)
		}
	}
}

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return v
}

func TestCLIBaselineVerifyAndDrift(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	c.ok("", "principal", "add", "--id", "bot", "--role", "executor", "--tenant", "acme")
	ref := "acme/billing-agent"
	seedMemory(t, c, ref, map[string]string{"refund/limit": "Refunds up to $1,000 need no second signature.", "tone": "formal"})

	approve := []string{"baseline", "approve", ref, "--by", "oncall", "--type", "persistent", "--ttl", "2592000", "--policy", "deny-on-drift", "--level", "2"}
	for _, tc := range []struct {
		args []string
		code int
		rule string
	}{
		{[]string{"--ttl", "10"}, 2, "ttl_seconds"},
		{[]string{"--ttl", "0"}, 2, "required for persistent"},
		{[]string{"--type", "shared"}, 2, "shared_memory_owner"},
		{[]string{"--type", "none"}, 2, "omitted for memory_type none"},
		{[]string{"--policy", "log-only"}, 2, "log-only is not allowed at compliance level 2"},
		{[]string{"--by", "bot"}, 1, "only an operator or a curator"},
	} {
		_, errOut, code := c.run("", append(append([]string{}, approve...), tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.rule) {
			t.Errorf("approve %v: exit %d %q, want exit %d naming %q", tc.args, code, errOut, tc.code, tc.rule)
		}
	}
	c.ok("", approve...)
	b := decode[map[string]any](t, c.ok("", "baseline", "show", ref, "--json"))
	for _, f := range []string{"baseline_id", "snapshot_hash", "memory_type", "store", "approved_at", "bound_at", "ttl_seconds", "drift_policy", "compliance_level", "approved_by"} {
		if _, ok := b[f]; !ok {
			t.Errorf("baseline show lacks %s: %v", f, b)
		}
	}
	if !strings.HasPrefix(b["store"].(string), "memgov-sqlite/") || b["memory_type"] != "persistent" {
		t.Fatalf("baseline %v", b)
	}
	approved := b["snapshot_hash"].(string)
	export := c.ok("", "snapshot", "export", ref)
	sum := sha256.Sum256([]byte(export))
	if "sha256:"+hex.EncodeToString(sum[:]) != approved || strings.TrimSpace(c.ok("", "snapshot", "hash", ref)) != approved {
		t.Fatalf("export %q does not hash to %s", export, approved)
	}

	v := decode[map[string]any](t, c.ok("", "verify", ref, "--json"))
	if v["valid"] != true || v["action"] != "allow" || v["current_hash"] != approved {
		t.Fatalf("verify %v", v)
	}
	state := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(state, []byte(export), 0o600)
	c.ok("", "verify", ref, "--state", state)

	// An edit behind memgov's back, through another SQLite client.
	db, err := sql.Open("sqlite", c.db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE versions SET content = ? WHERE key = 'refund/limit' AND state = 'ACTIVE'`,
		[]byte(`{"text":"Refunds up to $50,000 need no second signature."}`)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := c.run("", "verify", ref, "--json")
	if code != exitDenied {
		t.Fatalf("verify after tamper: exit %d %s", code, out)
	}
	v = decode[map[string]any](t, out)
	id, _ := v["drift_id"].(string)
	if v["drift"] != true || v["action"] != "deny" || id == "" {
		t.Fatalf("verify after tamper: %v", v)
	}
	list := decode[[]map[string]any](t, c.ok("", "drift", "list", "--json"))
	if len(list) != 1 || list[0]["drift_id"] != id || list[0]["event"] != "MEMORY_DRIFT_DETECTED" {
		t.Fatalf("drift list %v", list)
	}
	if out := c.ok("", "drift", "list"); !strings.Contains(out, id) {
		t.Fatalf("drift list table %q", out)
	}
	show := c.ok("", "drift", "show", id)
	for _, want := range []string{"CHANGED  refund/limit", "- {\"text\":\"Refunds up to $1,000", "+ {\"text\":\"Refunds up to $50,000", "changed outside memgov"} {
		if !strings.Contains(show, want) {
			t.Errorf("drift show lacks %q:\n%s", want, show)
		}
	}
	if _, errOut, code := c.run("", "drift", "ack", id, "--by", "bot", "--resolve", "rollback"); code != 1 || !strings.Contains(errOut, "operator or a curator") {
		t.Fatalf("ack by an executor: exit %d %s", code, errOut)
	}
	if _, _, code := c.run("", "drift", "ack", id, "--by", "oncall", "--resolve", "sideways"); code != 2 {
		t.Fatalf("ack with a bad resolution: exit %d", code)
	}
	c.ok("", "drift", "ack", id, "--by", "oncall", "--resolve", "rollback", "--note", "edited by hand")
	c.ok("", "verify", ref)
	if h := strings.TrimSpace(c.ok("", "snapshot", "hash", ref)); h != approved {
		t.Fatalf("hash after rollback %s, want %s", h, approved)
	}
	c.ok("", "audit", "verify")
	if out := c.ok("", "drift", "list"); !strings.Contains(out, "no drift") {
		t.Fatalf("open drift after ack: %s", out)
	}

	cp := decode[map[string]any](t, c.ok("", "checkpoint", "show", ref, "--json"))
	for _, f := range []string{"memory_root", "tree_size", "seq", "approved_at", "ttl_seconds"} {
		if _, ok := cp[f]; !ok {
			t.Errorf("checkpoint show lacks %s", f)
		}
	}
	ops := decode[[]map[string]any](t, c.ok("", "checkpoint", "ops", ref, "--json"))
	if len(ops) != 2 || ops[0]["op"] != "PUT" { // the rollback rebuilt the edited row; the log needed no compensation
		t.Fatalf("ops %v", ops)
	}
	if out := c.ok("", "checkpoint", "prove", ref, "--from", "1"); !strings.Contains(out, "old root sha256:") {
		t.Fatalf("prove %s", out)
	}

	// A host checking an agent's exported map that differs: deny, exit 5.
	other := "acme/research-agent"
	seedMemory(t, c, other, map[string]string{"k": "v"})
	c.ok("", "baseline", "approve", other, "--by", "oncall", "--type", "persistent", "--ttl", "3600", "--policy", "alert-on-drift", "--level", "1")
	os.WriteFile(state, []byte(`{"k":{"text":"something else"}}`), 0o600)
	out, _, code = c.run("", "verify", other, "--state", state, "--json")
	if v := decode[map[string]any](t, out); code != 0 || v["drift"] != true || len(v["alerts"].([]any)) != 1 {
		t.Fatalf("alert-on-drift with a differing state: exit %d %v", code, v)
	}
}

func TestCLIBaselineCommandsHaveHelpWithExample(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"snapshot", "export"}, {"snapshot", "hash"}, {"baseline", "approve"}, {"baseline", "show"}, {"verify"},
		{"session", "start"}, {"session", "end"}, {"checkpoint", "show"}, {"checkpoint", "ops"}, {"checkpoint", "prove"},
		{"drift", "list"}, {"drift", "show"}, {"drift", "ack"}, {"bench", "verify"}} {
		if out := c.ok("", append(args, "--help")...); !strings.Contains(out, "Examples:") {
			t.Errorf("memgov %s --help has no example", strings.Join(args, " "))
		}
	}
}
