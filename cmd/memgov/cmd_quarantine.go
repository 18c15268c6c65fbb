package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) quarantineCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "quarantine",
		Short: "List, release and retract quarantined memory (12.11.5)",
		Long: `An agent whose write burst or contradiction rate crosses the policy's threshold
(reputation.burst_limit, reputation.quarantine_contradiction_rate) has its recent
writes QUARANTINED: gone from every read, kept for investigation. A curator releases
a quarantined version (it becomes visible again, as a new version) or retracts it.`,
		Example: "  memgov quarantine list --json\n" +
			"  memgov quarantine release 019a6c1e-... --by jane --reason \"checked with the customer\"\n" +
			"  memgov quarantine retract 019a6c1e-... --by jane --reason \"poisoned\"",
	}
	var (
		by, note, status, agent string
		asJSON                  bool
	)
	list := &cobra.Command{
		Use:     "list",
		Short:   "List quarantined versions",
		Example: "  memgov quarantine list\n  memgov quarantine list --status all --agent research-agent --json",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			svc, err := a.reviewer(c, reader(by))
			if err != nil {
				return err
			}
			rs, err := svc.Quarantine().List(c.Context(), status, agent)
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(rs)
			}
			if len(rs) == 0 {
				fmt.Fprintln(a.stdout, "nothing is quarantined")
				return nil
			}
			t := a.table("VERSION", "STATUS", "AGENT", "REF", "KEY", "CAUSE", "CONTENT")
			for _, r := range rs {
				t.row(r.VersionID, r.Status, r.Agent, r.MemoryRef, clip(r.Key, 32), clip(r.Cause, 48), clip(r.Text, 48))
			}
			t.flush()
			return nil
		},
	}
	list.Flags().StringVar(&by, "as", "", asHelp)
	list.Flags().StringVar(&by, "by", "", "the same as --as")
	_ = list.Flags().MarkHidden("by")
	list.Flags().StringVar(&status, "status", "", "quarantined (default), released, retracted or all")
	list.Flags().StringVar(&agent, "agent", "", "only this agent's writes")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	decide := func(use, short, example string, do func(c *cobra.Command, id string) error) *cobra.Command {
		d := &cobra.Command{Use: use + " VERSION_ID", Short: short, Example: example, Args: cobra.ExactArgs(1),
			RunE: func(c *cobra.Command, args []string) error {
				if by == "" {
					return usagef("give --by CURATOR")
				}
				return do(c, args[0])
			}}
		d.Flags().StringVar(&by, "by", "", "the curator deciding (required)")
		reasonFlag(d.Flags(), &note, "why (required)")
		d.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		return d
	}
	cmd.AddCommand(list,
		decide("release", "Release a quarantined version: it becomes visible again",
			"  memgov quarantine release 019a6c1e-... --by jane --reason \"checked\"", func(c *cobra.Command, id string) error {
				svc, err := a.reviewer(c, by)
				if err != nil {
					return err
				}
				v, err := svc.Quarantine().Release(c.Context(), id, note)
				if err != nil {
					return denied(decisionErr(err))
				}
				if asJSON {
					return a.printJSON(map[string]any{"version_id": id, "status": "released", "version": v})
				}
				fmt.Fprintf(a.stdout, "released %s: %s is ACTIVE again as version %s\n", id, v.Key, v.ID)
				return nil
			}),
		decide("retract", "Retract a quarantined version for good",
			"  memgov quarantine retract 019a6c1e-... --by jane --reason \"poisoned\"", func(c *cobra.Command, id string) error {
				svc, err := a.reviewer(c, by)
				if err != nil {
					return err
				}
				if err := svc.Quarantine().Retract(c.Context(), id, note); err != nil {
					return denied(decisionErr(err))
				}
				if asJSON {
					return a.printJSON(map[string]any{"version_id": id, "status": "retracted"})
				}
				fmt.Fprintf(a.stdout, "retracted %s\n", id)
				return nil
			}))
	return cmd
}
