package redact

import (
	"flag"
	"os"
	"testing"
)

// TestMain keeps rapid from writing fail files under testdata/rapid: tests
// never write into the source tree. A failing property prints the
// -rapid.seed that reproduces it; -rapid.nofailfile=false brings the files
// back for one run.
func TestMain(m *testing.M) {
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
