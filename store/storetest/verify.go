package storetest

import (
	"context"
	"testing"

	"github.com/memgov/memgov"
)

// The stores' own tests of verify share these: open a store, verify it, and
// judge a report of tampering.

// VerifyStore opens a store with open, verifies it (replay: with every
// served table replayed), closes it and returns the report.
func VerifyStore[S interface {
	memgov.Maintainer
	Close() error
}](t testing.TB, open func() (S, error), replay bool) memgov.VerifyReport {
	t.Helper()
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	verify := s.Verify
	if replay {
		verify = s.VerifyReplay
	}
	rep, err := verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TamperFound fails t unless rep reports tampering: at log entry lsn (0:
// any entry), or in the served table table ("": any), which a replay of the
// log names.
func TamperFound(t testing.TB, rep memgov.VerifyReport, lsn int64, table string) {
	t.Helper()
	if rep.OK {
		t.Fatalf("tampering not detected: %+v", rep)
	}
	if lsn != 0 && rep.BadLSN != lsn {
		t.Fatalf("bad LSN = %d (%s), want %d", rep.BadLSN, rep.Problem, lsn)
	}
	if table != "" && (rep.Table != table || rep.Served != "replay") {
		t.Fatalf("served row: %+v, want %s named by a replay", rep, table)
	}
}
