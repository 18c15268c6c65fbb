package main

import (
	"strings"
	"testing"
)

func TestTUIOutsideATerminal(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	_, errOut, code := c.run("", "tui", "--as", "someone")
	if code != exitError || !strings.Contains(errOut, "needs a terminal") || !strings.Contains(errOut, "memgov list") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out := c.ok("", "tui", "--help")
	for _, want := range []string{"--as", "read-only", "memgov tui --as demo-curator"} {
		if !strings.Contains(out, want) {
			t.Errorf("tui --help lacks %q:\n%s", want, out)
		}
	}
	if _, errOut, code := c.run("", "tui", "extra"); code != exitUsage {
		t.Fatalf("tui extra: exit %d %s", code, errOut)
	}
}
