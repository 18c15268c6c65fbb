package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/store/sqlite"
)

func (a *app) benchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure memgov on this machine",
		Long: `bench runs memgov's own benchmarks in one process on a scratch database and prints
the figures. Compare ratios measured in one run, not absolute numbers across runs.`,
		Example: "  memgov bench write --items 100000 --json\n  memgov bench verify --items 100000 --json\n  memgov bench serve --items 100000 --json",
	}
	cmd.AddCommand(
		a.benchWriteCommand(),  // cmd_bench_write.go
		a.benchVerifyCommand(), // cmd_bench_verify.go
		a.benchServeCommand(),  // cmd_bench_serve.go
		a.benchGatesCommand(),  // cmd_bench_gates.go
		a.benchAuditCommand(),  // cmd_bench_audit.go
		a.benchQueueCommand(),  // cmd_bench_queue.go
	)
	return cmd
}

// benchKey chains the log of a scratch benchmark database.
var benchKey = []byte("memgov-bench-key-0123456789abcdef")

// openScratch opens a fresh benchmark database in dir, or in a temporary
// directory that done removes.
func openScratch(ctx context.Context, dir string) (s *sqlite.Store, done func(), err error) {
	cleanup := func() {}
	if dir == "" {
		d, err := os.MkdirTemp("", "memgov-bench-*")
		if err != nil {
			return nil, nil, err
		}
		dir, cleanup = d, func() { os.RemoveAll(d) }
	}
	s, err = sqlite.Open(ctx, filepath.Join(dir, "bench.db"), sqlite.Options{Key: benchKey, Create: true})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return s, func() { s.Close(); cleanup() }, nil
}
