package main

import "github.com/spf13/cobra"

// benchCommands are the `memgov bench` subcommands; each file that measures
// something adds its own in init.
var benchCommands []func(*app) *cobra.Command

func (a *app) benchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure memgov on this machine",
		Long: `bench runs memgov's own benchmarks in one process on a scratch database and prints
the figures. Compare ratios measured in one run, not absolute numbers across runs.`,
		Example: "  memgov bench write --items 100000 --json\n  memgov bench verify --items 100000 --json",
	}
	for _, f := range benchCommands {
		cmd.AddCommand(f(a))
	}
	return cmd
}
