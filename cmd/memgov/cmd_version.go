package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) rollbackCommand() *cobra.Command {
	var (
		by, reason string
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "rollback VERSION_ID --by WHO --reason TEXT",
		Short: "Retract a bad version and reactivate its predecessor",
		Long: `rollback retracts an ACTIVE version and, when it superseded an earlier version,
reactivates that version's content as a new version (seed 12.5.6). Both steps are
log entries with the actor and the reason; nothing is edited in place.`,
		Example: `  memgov rollback 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --by ops-jane --reason "limit raised without approval"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, by)
			if err != nil {
				return err
			}
			res, err := svc.Rollback(cmd.Context(), args[0], reason)
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "retracted %s (LSN %d)\n", res.RetractedID, res.RetractLSN)
			if res.NewVersionID != "" {
				fmt.Fprintf(a.stdout, "reactivated %s as %s (LSN %d)\n", res.RestoredFrom, res.NewVersionID, res.ReactivationLSN)
			} else {
				fmt.Fprintln(a.stdout, "no predecessor to reactivate: the entry is no longer visible")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", "", "who rolls back: a curator or operator of the tenant (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (required)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.MarkFlagRequired("by")
	cmd.MarkFlagRequired("reason")
	return cmd
}

func (a *app) pinCommand(pin bool) *cobra.Command {
	name, short := "unpin", "Remove an item's protection from garbage collection"
	if pin {
		name, short = "pin", "Protect an item from garbage collection"
	}
	var by, reason string
	var asJSON bool
	cmd := &cobra.Command{
		Use:     name + " ITEM_ID --by WHO",
		Short:   short,
		Example: fmt.Sprintf("  memgov %s 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --by ops-jane", name),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, by)
			if err != nil {
				return err
			}
			lsn, err := svc.SetPinned(cmd.Context(), args[0], pin, reason)
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(map[string]any{"item_id": args[0], "pinned": pin, "lsn": lsn})
			}
			fmt.Fprintf(a.stdout, "%sned %s (LSN %d)\n", name, args[0], lsn)
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", "", "who: a curator or operator of the tenant (required)")
	cmd.Flags().StringVar(&reason, "reason", "", "why (optional)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON {item_id, pinned, lsn}")
	cmd.MarkFlagRequired("by")
	return cmd
}
