package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/store/sqlite"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// rootRun runs when memgov is called with no subcommand (the TUI sets it).
var rootRun func(a *app, cmd *cobra.Command, args []string) error

// extraCommands are top-level commands that other files register in init, so
// each feature's commands live beside each other.
var extraCommands []func(*app) *cobra.Command

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "memgov",
		Short: "Govern what AI agents remember",
		Long: `memgov governs agent memory: every write passes a gated pipeline and lands in an
append-only, tamper-evident, versioned log; each agent's memory is bound to an
approved baseline; curators review what agents want to remember.`,
		Example: `  memgov init
  memgov principal add --id support-bot --role executor --tenant acme
  memgov list acme/support-bot
  memgov audit verify`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if rootRun == nil {
				return cmd.Help()
			}
			return rootRun(a, cmd, args)
		},
	}
	root.PersistentFlags().StringVar(&a.dbPath, "db", defaultDBPath(), "database file (env MEMGOV_DB)")
	root.PersistentFlags().StringVar(&a.policyPath, "policy", "", "policy file overriding the defaults (default: DB.policy.yaml if present)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(
		a.initCommand(),
		a.principalCommand(),
		a.getCommand(),
		a.listCommand(),
		a.historyCommand(),
		a.atCommand(),
		a.rollbackCommand(),
		a.pinCommand(true),
		a.pinCommand(false),
		a.auditCommand(),
		a.adminCommand(),
		a.versionCommand(),
		a.benchCommand(),
	)
	for _, f := range extraCommands {
		root.AddCommand(f(a))
	}
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	return root
}

// wrapArgs turns argument-count errors into usage errors (exit 2).
func wrapArgs(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return &usageError{fmt.Errorf("%s: %v (see `%s --help`)", cmd.CommandPath(), err, cmd.CommandPath())}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		wrapArgs(sub)
	}
}

func (a *app) versionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print memgov's version and schema version",
		Example: "  memgov version --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]any{"version": buildVersion(), "store": sqlite.Type, "schema": sqlite.SchemaVersion()}
			if asJSON {
				return a.printJSON(v)
			}
			fmt.Fprintf(a.stdout, "memgov %s (%s schema %d)\n", v["version"], sqlite.Type, sqlite.SchemaVersion())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
