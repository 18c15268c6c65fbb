package main

import (
	"strings"
	"testing"
)

// TestCLISessionDriftAfterTheSession: `memgov session start` on session
// memory that a previous session changed and left behind is refused (exit
// 5) under deny-on-drift; inside a session the change is exempt; `session
// end` reports the drift.
func TestCLISessionDriftAfterTheSession(t *testing.T) {
	c := newCLI(t)
	const ref = "acme/chat-agent"
	c.governedSetup(ref, map[string]string{"greeting": "Greet customers by their first name."})
	c.ok("", "baseline", "approve", ref, "--by", "oncall", "--type", "session", "--ttl", "86400", "--policy", "deny-on-drift", "--level", "1")
	c.ok("", "session", "start", ref, "--by", "bot")
	seedMemory(t, c, ref, map[string]string{"greeting": "Greet customers by their surname."})
	if out, _, code := c.run("", "verify", ref, "--json"); code != 0 || !strings.Contains(out, `"session_exempt": true`) {
		t.Fatalf("inside the session: exit %d %s", code, out)
	}
	out := c.ok("", "session", "end", ref, "--by", "bot")
	if !strings.Contains(out, "drift ") || !strings.Contains(out, "session-state") || !strings.Contains(out, "refused") {
		t.Fatalf("session end does not report the drift: %s", out)
	}
	if out, _, code := c.run("", "verify", ref, "--json"); code != exitDenied || !strings.Contains(out, "session-state") {
		t.Fatalf("after the session: exit %d %s", code, out)
	}
	if out, errOut, code := c.run("", "session", "start", ref, "--by", "bot"); code != exitDenied || !strings.Contains(errOut, "session refused") {
		t.Fatalf("a session on drifted memory: exit %d %s %s", code, out, errOut)
	}
}
