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

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "memgov",
		Short: "Govern what AI agents remember",
		Long: `memgov governs agent memory: every write passes a gated pipeline and lands in an
append-only, tamper-evident, versioned log; each agent's memory is bound to an
approved baseline; curators review what agents want to remember.

Who: a command that acts (writes, decides, pins, rolls back, acknowledges) names
the principal acting with --by; a command that reads names the principal
reading with --as (its tenant bounds the answer). Why: --reason, recorded in
the log. Output: tables for people, JSON with --json. Times are RFC 3339 UTC.
Exit codes: 0 ok, 1 error, 2 usage; write adds 3 REJECTED, 4 DEFERRED and
5 DENIED, and verify 5 when the drift policy denies.`,
		Example: `  memgov init
  memgov principal add --id support-bot --role executor --tenant acme
  memgov list acme/support-bot
  memgov audit verify`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runRoot(cmd) // cmd_tui.go
		},
	}
	root.PersistentFlags().StringVar(&a.dbPath, "db", defaultDBPath(), "database file, or a postgres:// URL for PostgreSQL (env MEMGOV_DB)")
	root.PersistentFlags().StringVar(&a.policyPath, "policy", "", "policy file overriding the defaults (default: DB.policy.yaml if present)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	// The whole command tree; each command's file is named beside it.
	root.AddCommand(
		// Setup and principals (cmd_init.go).
		a.initCommand(),
		a.principalCommand(),

		// Writing, reviewing and the policy (cmd_write.go, cmd_review.go).
		a.writeCommand(),
		a.reviewCommand(),
		a.policyCommand(),

		// Reading memory and its history (cmd_read.go).
		a.getCommand(),
		a.listCommand(),
		a.historyCommand(),
		a.atCommand(),

		// Versions (cmd_version.go).
		a.rollbackCommand(),
		a.pinCommand(true),
		a.pinCommand(false),

		// Governance of items and writers (cmd_govern.go).
		a.leaseCommand(),
		a.annotateCommand(),
		a.reclassifyCommand(),
		a.expireCommand(),
		a.promoteCommand(),

		// The lifecycle (cmd_lifecycle.go).
		a.gcCommand(),
		a.eraseCommand(),
		a.metricsCommand(),
		a.complianceCommand(),
		a.feedbackCommand(),
		a.quarantineCommand(), // cmd_quarantine.go

		// Baselines, drift and sessions (cmd_baseline.go).
		a.snapshotCommand(),
		a.baselineCommand(),
		a.verifyMemoryCommand(),
		a.sessionCommand(),
		a.memCheckpointCommand(),
		a.driftCommand(),

		// The host memory contract (cmd_contract.go, cmd_proposal.go).
		a.searchCommand(),
		a.forgetCommand(),
		a.distillCommand(),
		a.consolidateCommand(),
		a.commitmentsCommand(),
		a.proposalCommand(),
		a.capabilitiesCommand(),
		a.eventsCommand(),

		// Workspaces (cmd_workspace.go).
		a.workspaceCommand(),

		// The audit log and administration (cmd_audit.go).
		a.auditCommand(),
		a.adminCommand(),

		// The doors for agents and reviewers (cmd_serve.go).
		a.serveCommand(),
		a.mcpCommand(),
		a.tokenCommand(),
		a.webhookCommand(),
		// The conformance toolkit (cmd_conform.go).
		a.canonCommand(),
		a.merkleCommand(),

		// The review console and the demo (cmd_tui.go, cmd_seed.go).
		a.tuiCommand(),
		a.seedCommand(),
		a.demoCommand(),

		// This binary (root.go) and its benchmarks (cmd_bench*.go).
		a.versionCommand(),
		a.benchCommand(),

		// The judge's verdict on two texts, rule by rule (cmd_judge.go).
		a.judgeCommand(),
	)
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	acceptJSON(root)
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
			line := fmt.Sprintf("memgov %s (%s schema %d)", v["version"], sqlite.Type, sqlite.SchemaVersion())
			if isDatabaseURL(a.dbPath) {
				v, line = a.postgresVersion(cmd.Context(), v) // store_open.go
			}
			if asJSON {
				return a.printJSON(v)
			}
			fmt.Fprintln(a.stdout, line)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
