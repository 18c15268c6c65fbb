package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// M1: the README's flow on a fresh log. The checkpoint's own entry follows the
// entries it covers, and the log holding it is a later observation: ACCEPT.
func TestCLIM1CheckpointOnFreshLog(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "a", "--role", "executor", "--tenant", "acme")
	for i := 0; i < 2; i++ { // a second checkpoint right after the first as well
		cp := filepath.Join(t.TempDir(), "cp.json")
		if err := os.WriteFile(cp, []byte(c.ok("", "audit", "checkpoint")), 0o600); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := c.run("", "audit", "prove", "--checkpoint", cp)
		if code != 0 || !strings.Contains(out, `"ACCEPT"`) {
			t.Fatalf("checkpoint %d: exit %d %s %s", i+1, code, out, errOut)
		}
	}
}

// M3: a policy file may tighten the normative baseline bounds, never loosen
// them; approval applies them whatever the policy says.
func TestCLIM3NormativeBounds(t *testing.T) {
	for _, tc := range []struct{ name, policy, want string }{
		{"ttl 60 s", "baseline:\n  ttl_min: 60s\n", "normative minimum"},
		{"ttl above 90 days", "baseline:\n  ttl_max: 2400h\n", "normative maximum"},
		{"alert-on-drift at level 2", "baseline:\n  drift_policies:\n    \"2\": [deny-on-drift, alert-on-drift]\n", "alert-on-drift is not allowed at compliance level 2"},
		{"log-only at level 3", "baseline:\n  drift_policies:\n    \"3\": [log-only]\n", "log-only is not allowed at compliance level 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.ok("", "init")
			if err := os.WriteFile(c.db+".policy.yaml", []byte(tc.policy), 0o600); err != nil {
				t.Fatal(err)
			}
			_, errOut, code := c.run("", "policy", "show")
			if code == 0 || !strings.Contains(errOut, tc.want) {
				t.Fatalf("loosening policy: exit %d %q, want an error naming %q", code, errOut, tc.want)
			}
		})
	}
	// Tightening is allowed and applies.
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	seedMemory(t, c, "acme/bot", map[string]string{"k": "v"})
	if err := os.WriteFile(c.db+".policy.yaml", []byte("baseline:\n  ttl_min: 2h\n  drift_policies:\n    \"1\": [deny-on-drift]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	approve := []string{"baseline", "approve", "acme/bot", "--by", "oncall", "--type", "persistent"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ttl", "3600", "--policy", "deny-on-drift", "--level", "1"}, "3600 is outside 7200..7776000"},
		{[]string{"--ttl", "7200", "--policy", "log-only", "--level", "1"}, "does not allow log-only"},
		{[]string{"--ttl", "7200", "--policy", "alert-on-drift", "--level", "2"}, "alert-on-drift is not allowed at compliance level 2"},
	} {
		if _, errOut, code := c.run("", append(append([]string{}, approve...), tc.args...)...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("approve %v: exit %d %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
	c.ok("", append(approve, "--ttl", "7200", "--policy", "deny-on-drift", "--level", "1")...)
}

// Minor points: --level is required on baseline approve; checkpoint prove
// refuses --from 0 and proves from the baseline's size by default.
func TestCLILevelRequiredAndProveFromZero(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	seedMemory(t, c, "acme/bot", map[string]string{"a": "1"})
	_, errOut, code := c.run("", "baseline", "approve", "acme/bot", "--by", "oncall", "--type", "persistent", "--ttl", "3600", "--policy", "log-only")
	if code != 2 || !strings.Contains(errOut, `"level"`) {
		t.Fatalf("approve without --level: exit %d %q", code, errOut)
	}
	c.ok("", "baseline", "approve", "acme/bot", "--by", "oncall", "--type", "persistent", "--ttl", "3600", "--policy", "alert-on-drift", "--level", "1")
	seedMemory(t, c, "acme/bot", map[string]string{"b": "2"})
	if _, errOut, code := c.run("", "checkpoint", "prove", "acme/bot", "--from", "0"); code != 2 || !strings.Contains(errOut, "proves nothing") {
		t.Fatalf("--from 0: exit %d %q", code, errOut)
	}
	p := decode[map[string]any](t, c.ok("", "checkpoint", "prove", "acme/bot", "--json"))
	if p["from_size"] != float64(1) || p["to_size"] != float64(2) || len(p["proof"].([]any)) != 1 {
		t.Fatalf("prove from the baseline's size: %v", p)
	}
}
