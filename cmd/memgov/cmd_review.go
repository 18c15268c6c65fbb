package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/reviews"
)

// reviewer opens the review service acting as by: every human decision the
// CLI records goes through it, under the rules the TUI's decisions follow.
func (a *app) reviewer(cmd *cobra.Command, by string) (*review.Service, error) {
	eng, err := a.engine(cmd)
	if err != nil {
		return nil, err
	}
	who, err := review.Identify(cmd.Context(), eng, by)
	if err != nil {
		return nil, err
	}
	return review.New(eng, who), nil
}

// decisionErr makes a decision the review service refuses as incomplete (a
// reject without a note, a rollback without a reason) a usage error: exit 2,
// with the message saying what is missing.
func decisionErr(err error) error {
	if errors.Is(err, memgov.ErrInvalid) {
		return &usageError{err}
	}
	return err
}

func (a *app) reviewCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "review",
		Short: "Work the human-in-the-loop review queue",
		Long: `review lists deferred writes and records curators' decisions. Each decision is a
log entry with the curator, the time, a reason code and a note. The TUI (memgov tui)
is the comfortable way to work the queue.`,
		Example: `  memgov review list
  memgov review approve 019a6c1e-... --by jane
  memgov review reject 019a6c1e-... --by jane --code FACTUAL_ERROR --reason "the limit is $1,000"`,
	}
	var (
		q      memgov.ReviewQuery
		layer  string
		asJSON bool
		listAs string
	)
	list := &cobra.Command{
		Use:     "list",
		Short:   "List open reviews: SYNC_BLOCK first, then by risk and age",
		Example: "  memgov review list --tier SYNC_BLOCK\n  memgov review list --agent support-bot --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if layer != "" {
				l, err := memgov.ParseLayer(layer)
				if err != nil {
					return &usageError{err}
				}
				q.Layer = l
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if p := reader(listAs); p != "" {
				pr, err := eng.Principal(cmd.Context(), p)
				if err != nil {
					return denied(fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, p))
				}
				if t, ok := authz.Confined(pr); ok {
					q.Tenant = t
				}
			} else {
				a.readerNote("")
			}
			rs, total, err := eng.Reviews().List(cmd.Context(), q)
			if err != nil {
				return err
			}
			if p := reader(listAs); p != "" {
				kept := rs[:0]
				for _, r := range rs {
					if eng.Permit(cmd.Context(), p, authz.ActRead, reviews.Target(r)) == nil {
						kept = append(kept, r)
					}
				}
				total -= len(rs) - len(kept)
				rs = kept
			}
			if asJSON {
				return a.printJSON(map[string]any{"total": total, "reviews": rs})
			}
			if total == 0 {
				fmt.Fprintln(a.stdout, "the review queue is empty")
				return nil
			}
			now := eng.Now()
			t := a.table("REVIEW", "RISK", "TIER", "LAYER", "AGENT", "MEMORY REF", "REASON", "AGE", "DUE")
			for _, r := range rs {
				t.row(r.ID, fmt.Sprintf("%.2f", r.Risk), r.Tier, string(r.Layer), r.Agent, r.MemoryRef, r.Reason,
					age(now.Sub(r.CreatedAt)), due(r.DueAt.Sub(now)))
			}
			t.flush()
			if len(rs) < total {
				fmt.Fprintf(a.stdout, "%d of %d shown (--limit, --offset)\n", len(rs), total)
			}
			return nil
		},
	}
	list.Flags().StringVar(&layer, "layer", "", "only this layer")
	list.Flags().StringVar(&q.Tier, "tier", "", "ASYNC_REVIEW or SYNC_BLOCK")
	list.Flags().StringVar(&q.Agent, "agent", "", "only writes by this agent")
	list.Flags().StringVar(&q.Tenant, "tenant", "", "only this tenant")
	list.Flags().StringVar(&q.Reason, "reason", "", "only this reason code")
	list.Flags().BoolVar(&q.Breached, "breached", false, "only reviews past their SLA or deadline")
	list.Flags().IntVar(&q.Limit, "limit", 50, "page size")
	list.Flags().IntVar(&q.Offset, "offset", 0, "page offset")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	list.Flags().StringVar(&listAs, "as", "", asHelp)
	var by, note string
	claim := &cobra.Command{
		Use:   "claim REVIEW_ID --by CURATOR",
		Short: "Take a lease on a review; prints the fencing token to decide with",
		Long: `claim gives you the review for the policy's lease time. Others see that you hold
it and cannot decide it meanwhile; decide with --token so that a decision after
your lease passed to someone else is refused.`,
		Example: "  memgov review claim 019a6c1e-... --by jane --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, by)
			if err != nil {
				return err
			}
			r, err := svc.Queue().Claim(cmd.Context(), args[0])
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(r)
			}
			fmt.Fprintf(a.stdout, "claimed review %s until %s; decide with --token %d\n", r.ID, stamp(r.ClaimExpires), r.ClaimToken)
			return nil
		},
	}
	escalate := &cobra.Command{
		Use:     "escalate REVIEW_ID --by CURATOR",
		Short:   "Escalate a review for a more senior decision",
		Example: `  memgov review escalate 019a6c1e-... --by jane --reason "needs finance sign-off"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, by)
			if err != nil {
				return err
			}
			r, err := svc.Queue().Escalate(cmd.Context(), args[0], note)
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(r)
			}
			fmt.Fprintf(a.stdout, "escalated review %s\n", r.ID)
			return nil
		},
	}
	release := &cobra.Command{
		Use:   "release REVIEW_ID --by CURATOR",
		Short: "Give back your claim on a review, leaving it undecided",
		Long: `release ends your lease on a review before it expires (a RELEASE log entry), so
another curator can claim it. Without a live claim of yours nothing is logged.`,
		Example: "  memgov review release 019a6c1e-... --by jane",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, by)
			if err != nil {
				return err
			}
			released, err := svc.Queue().Release(cmd.Context(), args[0])
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(map[string]any{"review_id": args[0], "released": released})
			}
			if released {
				fmt.Fprintf(a.stdout, "released your claim on review %s\n", args[0])
			} else {
				fmt.Fprintf(a.stdout, "%s holds no live claim on review %s; nothing to release\n", by, args[0])
			}
			return nil
		},
	}
	for _, c := range []*cobra.Command{claim, escalate, release} {
		c.Flags().StringVar(&by, "by", "", "the curator (required)")
		c.MarkFlagRequired("by")
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	}
	reasonFlag(escalate.Flags(), &note, "why")
	sweep := &cobra.Command{
		Use:   "sweep",
		Short: "Escalate reviews past their SLA and fail closed on sync reviews past their deadline",
		Long: `sweep escalates async reviews past their SLA (a review.escalated event) and rejects
sync reviews past their deadline with APPROVAL_TIMEOUT. The TUI sweeps as it polls;
run this from cron where no one has the TUI open.`,
		Example: "  memgov review sweep --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			res, err := eng.Reviews().Sweep(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "escalated %d, timed out %d\n", res.Escalated, res.TimedOut)
			return nil
		},
	}
	sweep.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(list, a.decideCommand(true), a.decideCommand(false), claim, escalate, release, sweep)
	return cmd
}

func (a *app) decideCommand(approve bool) *cobra.Command {
	var d memgov.Decision
	var asJSON bool
	name, short := "reject", "Reject a deferred write with a reason code"
	example := `  memgov review reject 019a6c1e-... --by jane --code CONTRADICTION --reason "customer switched to SMS"`
	if approve {
		name, short = "approve", "Approve a deferred write: it becomes visible memory"
		example = "  memgov review approve 019a6c1e-... --by jane --reason \"checked against the ERP\""
	}
	cmd := &cobra.Command{
		Use:     name + " REVIEW_ID --by CURATOR",
		Short:   short,
		Example: example,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d.ReviewID, d.Approve = args[0], approve
			if !approve {
				d.Code = strings.ToUpper(d.Code)
			}
			svc, err := a.reviewer(cmd, d.Reviewer)
			if err != nil {
				return err
			}
			var r memgov.Review
			if approve {
				r, err = svc.Queue().Approve(cmd.Context(), d.ReviewID, d.Token, d.Note)
			} else {
				r, err = svc.Queue().Reject(cmd.Context(), d.ReviewID, d.Token, d.Code, d.Note)
			}
			if err != nil {
				return decisionErr(err)
			}
			if asJSON {
				return a.printJSON(r)
			}
			fmt.Fprintf(a.stdout, "%s review %s (%s in %s)\n", strings.ToLower(r.Status), r.ID, r.Layer, r.MemoryRef)
			return nil
		},
	}
	cmd.Flags().StringVar(&d.Reviewer, "by", "", "the curator deciding (required)")
	noteHelp := "a note for the agent and the audit log"
	if !approve {
		noteHelp += " (required)"
	}
	reasonFlag(cmd.Flags(), &d.Note, noteHelp)
	cmd.Flags().Int64Var(&d.Token, "token", 0, "the fencing token of your claim, if you claimed the review")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decided review as JSON")
	cmd.MarkFlagRequired("by")
	if !approve {
		cmd.Flags().StringVar(&d.Code, "code", "", "reason code: "+strings.Join(reviews.RejectCodes, ", ")+" (required)")
		cmd.MarkFlagRequired("code")
	}
	return cmd
}

func age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func due(d time.Duration) string {
	if d <= 0 {
		return "overdue " + age(-d)
	}
	return "in " + age(d)
}

func (a *app) policyCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Show the effective governance policy",
		Long: `The policy holds every formula weight, threshold and table memgov applies: the
defaults of docs/spec.md, overridden by DB.policy.yaml beside the database or --policy FILE.`,
		Example: "  memgov policy show > my-policy.yaml",
	}
	var showJSON bool
	show := &cobra.Command{
		Use:     "show",
		Short:   "Print the effective policy as YAML",
		Example: "  memgov policy show\n  memgov --policy strict.yaml policy show",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, src, err := a.loadPolicy()
			if err != nil {
				return err
			}
			b, err := p.YAML()
			if err != nil {
				return err
			}
			if showJSON {
				// the same document as the YAML, as JSON
				var doc map[string]any
				if err := yaml.Unmarshal(b, &doc); err != nil {
					return err
				}
				return a.printJSON(map[string]any{"source": src, "policy": doc, "authority": authz.Actions})
			}
			fmt.Fprintf(a.stdout, "# effective policy: %s\n", src)
			if _, err = a.stdout.Write(b); err != nil {
				return err
			}
			a.printAuthority()
			return nil
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print JSON {source, policy, authority} instead of YAML")
	cmd.AddCommand(show)
	return cmd
}
