package main

import (
	"errors"
	"fmt"
	"os"
	"os/user"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/tui"
)

// runRoot runs memgov with no subcommand: it opens the TUI as the OS user
// (`memgov demo` opens it as demo-curator).
func (a *app) runRoot(cmd *cobra.Command) error {
	if !isTerminal(os.Stdout) || !isTerminal(os.Stdin) {
		return cmd.Help() // scripts and pipes get the command list
	}
	return a.runTUI(cmd, "")
}

func (a *app) tuiCommand() *cobra.Command {
	var as string
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Open the review console (terminal UI)",
		Long: `Open the terminal UI: work the review queue (claim, approve, reject with a reason
code, escalate, approve in bulk), acknowledge memory drift (re-approve or roll back
to the baseline), browse memory and its history, roll back, pin and expire items,
travel to any past log position, and follow the audit log as it grows. memgov with
no subcommand opens it too.

You act as --as (default: your OS user name). A principal that is not registered,
or whose role is not curator or operator, gets the read-only console, which says so
in its header. Register a reviewer with:
  memgov principal add --id NAME --role curator --tenant '*'`,
		Example: `  memgov tui
  memgov tui --as demo-curator
  memgov --db demo.db tui --as ops-jane`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runTUI(cmd, as) },
	}
	cmd.Flags().StringVar(&as, "as", "", "act as this principal (default: your OS user name)")
	return cmd
}

// runTUI opens the TUI as the principal as (default: the OS user).
func (a *app) runTUI(cmd *cobra.Command, as string) error {
	if as == "" {
		as = osUserName()
	}
	if as == "" {
		return usagef("cannot tell who you are: pass --as NAME")
	}
	if !isTerminal(os.Stdout) {
		return errors.New("memgov tui needs a terminal; for scripts use `memgov review list`, `memgov drift list`, `memgov list` and `memgov audit`")
	}
	eng, err := a.engine(cmd)
	if err != nil {
		return err
	}
	who, err := review.Identify(cmd.Context(), eng, as)
	if err != nil {
		return fmt.Errorf("look up principal %s: %w", as, err)
	}
	m := tui.New(tui.Options{Service: review.New(eng, who), DBName: dbName(a.dbPath)})
	_, err = tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(cmd.Context())).Run()
	if errors.Is(err, tea.ErrProgramKilled) && cmd.Context().Err() != nil {
		return nil
	}
	return err
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func osUserName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
