package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/host"
)

func (a *app) workspaceCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Copy-on-write workspaces and their merge requests (12.8.4)",
		Long: `An agent opens a workspace over a shared memoryRef, writes into the workspace's
ref (TENANT/AGENT/ws/NAME) through the normal write path, and submits a merge
request. Reads of the workspace ref see the base as it was when the workspace
opened, overlaid by the workspace's own writes. submit stages every change as a
DRAFT on the base with one review per change; each review lists the request's
conflicts (base keys changed since the workspace opened). Approving a review
applies its change (memgov review approve).`,
		Example: "  memgov workspace create acme/shared --agent billing-agent --name q3-prices\n" +
			"  memgov write < change.json   # memory_ref: acme/billing-agent/ws/q3-prices\n" +
			"  memgov workspace submit WORKSPACE_ID --agent billing-agent\n" +
			"  memgov review list",
	}
	var (
		agent, name, tenant string
		asJSON              bool
	)
	printWS := func(w memgov.Workspace) error {
		if asJSON {
			return a.printJSON(w)
		}
		t := a.table()
		t.row("id", w.ID)
		t.row("name", w.Name)
		t.row("ref", w.Ref)
		t.row("base", fmt.Sprintf("%s at LSN %d", w.BaseRef, w.BaseLSN))
		t.row("owner", w.Owner)
		t.row("status", w.Status)
		if w.DecidedBy != "" {
			t.row("decided by", w.DecidedBy)
		}
		t.flush()
		return nil
	}
	printMR := func(mr memgov.MergeRequest) {
		t := a.table("KEY", "CHANGE", "CONFLICT", "REVIEW", "TEXT")
		for _, c := range mr.Changes {
			conflict := ""
			if c.Conflict {
				conflict = "yes"
			}
			text := c.Text
			if c.Kind == host.ChangeRemoved {
				text = c.BaseText
			}
			t.row(clip(c.Key, 32), c.Kind, conflict, short(c.ReviewID), clip(text, 50))
		}
		t.flush()
		for _, c := range mr.Conflicts {
			fmt.Fprintf(a.stdout, "conflict %s: was %q when the workspace opened, is %q now\n", c.Key, clip(c.OldText, 60), clip(c.Text, 60))
		}
	}
	create := &cobra.Command{
		Use:     "create BASE_REF --agent AGENT --name NAME",
		Short:   "Open a workspace over a shared memoryRef",
		Example: "  memgov workspace create acme/shared --agent billing-agent --name q3-prices --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if agent == "" || name == "" {
				return usagef("give --agent AGENT and --name NAME")
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			w, err := eng.Host().CreateWorkspace(c.Context(), agent, args[0], name)
			if err != nil {
				return denied(err)
			}
			if err := printWS(w); err != nil || asJSON {
				return err
			}
			fmt.Fprintf(a.stdout, "write into %s; submit with: memgov workspace submit %s --agent %s\n", w.Ref, w.ID, agent)
			return nil
		},
	}
	create.Flags().StringVar(&agent, "agent", "", "the agent that owns the workspace")
	create.Flags().StringVar(&name, "name", "", "the workspace name (1-64 of [A-Za-z0-9._-])")
	create.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	list := &cobra.Command{
		Use:     "list",
		Short:   "List workspaces",
		Example: "  memgov workspace list --tenant acme --json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			ws, err := eng.Host().Workspaces(c.Context(), tenant)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(ws)
			}
			if len(ws) == 0 {
				fmt.Fprintln(a.stdout, "no workspaces (open one with memgov workspace create)")
				return nil
			}
			t := a.table("ID", "NAME", "OWNER", "BASE", "STATUS", "REF")
			for _, w := range ws {
				t.row(w.ID, w.Name, w.Owner, w.BaseRef, w.Status, w.Ref)
			}
			t.flush()
			return nil
		},
	}
	list.Flags().StringVar(&tenant, "tenant", "", "only this tenant's workspaces")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	var wsAs string
	show := &cobra.Command{
		Use:     "show WORKSPACE_ID",
		Short:   "Show a workspace and its changes against the base",
		Example: "  memgov workspace show 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			w, err := eng.Host().Workspace(c.Context(), args[0])
			if err != nil {
				return err
			}
			if err := a.bindReader(c, eng, wsAs, w.BaseRef); err != nil {
				return err
			}
			mr, err := eng.Host().WorkspaceDiff(c.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(map[string]any{"workspace": w, "merge_request": mr})
			}
			_ = printWS(w)
			fmt.Fprintln(a.stdout)
			printMR(mr)
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	show.Flags().StringVar(&wsAs, "as", "", asHelp)

	submit := &cobra.Command{
		Use:   "submit WORKSPACE_ID --agent AGENT",
		Short: "Submit the workspace's changes as a merge request (one review per change)",
		Example: "  memgov workspace submit 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --agent billing-agent\n" +
			"  memgov review list --json",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if agent == "" {
				return usagef("give --agent AGENT (the workspace's owner)")
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			mr, err := eng.Host().SubmitWorkspace(c.Context(), args[0], agent)
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(mr)
			}
			printMR(mr)
			fmt.Fprintf(a.stdout, "%d changes, %d conflicts in the review queue (memgov review list)\n", len(mr.Changes), len(mr.Conflicts))
			return nil
		},
	}
	submit.Flags().StringVar(&agent, "agent", "", "the workspace's owner")
	submit.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(create, list, show, submit)
	return cmd
}
