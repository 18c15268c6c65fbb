package judge

import (
	"regexp"
	"testing"
)

// Version names the rules revision, the lexicon and the word classes: it is
// stable within a build and changes with the rules revision.
func TestVersion(t *testing.T) {
	v := Version()
	if !regexp.MustCompile(`^j1-[0-9a-f]{16}$`).MatchString(v) {
		t.Fatalf("Version() = %q, want j1- and 16 hex digits", v)
	}
	if Version() != v || versionOf(rulesRevision) != v {
		t.Fatal("Version is not stable")
	}
	if versionOf(rulesRevision+"-next") == v {
		t.Fatal("another rules revision gives the same Version")
	}
}
