package main

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/spf13/cobra"

	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/tui"
)

func init() { extraCommands = append(extraCommands, (*app).tuiCommand) }

func (a *app) tuiCommand() *cobra.Command {
	var as string
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Open the review console (terminal UI)",
		Long: `Open the terminal UI: browse memory and its history, roll back, pin and expire
items, travel to any past log position, and follow the audit log as it grows.

You act as --as (default: your OS user name). A principal that is not registered,
or whose role is not curator or operator, gets the read-only console, which says so
in its header. Register a reviewer with:
  memgov principal add --id NAME --role curator --tenant '*'`,
		Example: `  memgov tui
  memgov tui --as demo-curator
  memgov --db demo.db tui --as ops-jane`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if as == "" {
				as = osUserName()
			}
			if as == "" {
				return usagef("cannot tell who you are: pass --as NAME")
			}
			if fi, err := os.Stdout.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				return errors.New("memgov tui needs a terminal; for scripts use `memgov list`, `memgov history` and `memgov audit`")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			who, err := review.Identify(cmd.Context(), eng, as)
			if err != nil {
				return fmt.Errorf("look up principal %s: %w", as, err)
			}
			m := tui.New(tui.Options{Service: review.New(eng, who), DBName: filepath.Base(a.dbPath)})
			_, err = tea.NewProgram(m, tea.WithAltScreen(), tea.WithContext(cmd.Context())).Run()
			if errors.Is(err, tea.ErrProgramKilled) && cmd.Context().Err() != nil {
				return nil
			}
			return err
		},
	}
	cmd.Flags().StringVar(&as, "as", "", "act as this principal (default: your OS user name)")
	return cmd
}

func osUserName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}
