package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSeedProgressIsOneLine: on a terminal a load draws one bar, redrawn in
// place on a single line; elsewhere it prints nothing while it runs (the
// caller's summary is the one line left).
func TestSeedProgressIsOneLine(t *testing.T) {
	var tty, plain bytes.Buffer
	bar, quiet := newSeedProgressFor(&tty, "seeding", true), newSeedProgressFor(&plain, "seeding", false)
	for i := 1; i <= 2495; i++ {
		bar.update(i, 2495)
		quiet.update(i, 2495)
	}
	bar.finish()
	quiet.finish()
	if plain.Len() != 0 {
		t.Fatalf("not a terminal: %q", plain.String())
	}
	out := tty.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") || !strings.HasPrefix(out, "\rseeding ") ||
		!strings.Contains(out, "2495/2495 writes") {
		t.Fatalf("terminal: %q", out)
	}
}
