package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/review"
)

// Commands for the lifecycle operations the engine has had without a CLI:
// leases, annotations, reclassification, soft expiry, and promotion.

func (a *app) leaseCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lease",
		Short: "Acquire, renew and release write leases with fencing tokens (12.8.3)",
		Long: `A write lease locks one entry (REF KEY) for its holder for a bounded time. A
grant carries a fencing token, strictly greater than any earlier token of the
entry; writes under the lease must carry it, and a write with an older token is
refused. acquire by the holder of a live lease renews it. Grants and releases
are log entries.`,
		Example: "  memgov lease acquire acme/shared deploy-window --by billing-agent --ttl 60s\n" +
			"  memgov lease renew acme/shared deploy-window --by billing-agent --token 3\n" +
			"  memgov lease release acme/shared deploy-window --by billing-agent --token 3",
	}
	var (
		by     string
		ttl    time.Duration
		token  int64
		asJSON bool
	)
	flags := func(c *cobra.Command, withTTL, withToken bool) *cobra.Command {
		c.Flags().StringVar(&by, "by", "", "the principal holding the lease")
		if withTTL {
			c.Flags().DurationVar(&ttl, "ttl", 0, "lease duration (default: the policy's lease TTL, capped by its maximum)")
		}
		if withToken {
			c.Flags().Int64Var(&token, "token", 0, "the fencing token of the held lease")
		}
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		return c
	}
	need := func(withToken bool) error {
		if by == "" {
			return usagef("give --by PRINCIPAL")
		}
		if withToken && token <= 0 {
			return usagef("give --token N, the fencing token acquire printed")
		}
		return nil
	}
	printLease := func(status string, l memgov.Lease) error {
		if asJSON {
			return a.printJSON(map[string]any{"status": status, "lease": l})
		}
		fmt.Fprintf(a.stdout, "%s: %s holds %s#%s with fencing token %d until %s\n", status, l.Holder, l.MemoryRef, l.Key, l.Token, l.ExpiresAt.Format(time.RFC3339))
		return nil
	}
	cmd.AddCommand(flags(&cobra.Command{
		Use:     "acquire REF KEY",
		Short:   "Acquire (or renew, for its holder) the write lease on an entry",
		Example: "  memgov lease acquire acme/shared deploy-window --by billing-agent --ttl 60s --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if err := need(false); err != nil {
				return err
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			res, err := eng.Lifecycle().AcquireLease(c.Context(), args[0], args[1], by, ttl)
			if err != nil {
				return denied(err)
			}
			if res.Status == lifecycle.LeaseDenied {
				if asJSON {
					_ = a.printJSON(res)
				}
				return &exitCodeError{code: exitDeferred, err: fmt.Errorf("%s holds the lease on %s until %s; retry then", res.Holder, args[1], res.RetryAfter.Format(time.RFC3339))}
			}
			if asJSON {
				return a.printJSON(res)
			}
			return printLease(res.Status, res.Lease)
		},
	}, true, false), flags(&cobra.Command{
		Use:     "renew REF KEY",
		Short:   "Extend a held lease (fails when it was lost)",
		Example: "  memgov lease renew acme/shared deploy-window --by billing-agent --token 3 --ttl 60s",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if err := need(true); err != nil {
				return err
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			l, err := eng.Lifecycle().RenewLease(c.Context(), args[0], args[1], by, token, ttl)
			if err != nil {
				return fmt.Errorf("%w (acquire it again with memgov lease acquire)", err)
			}
			return printLease(lifecycle.LeaseRenewed, l)
		},
	}, true, true), flags(&cobra.Command{
		Use:     "release REF KEY",
		Short:   "Give a held lease up",
		Example: "  memgov lease release acme/shared deploy-window --by billing-agent --token 3",
		Args:    cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if err := need(true); err != nil {
				return err
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			if err := eng.Lifecycle().ReleaseLease(c.Context(), args[0], args[1], by, token); err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(map[string]any{"status": "RELEASED", "memory_ref": args[0], "key": args[1], "fencing_token": token})
			}
			fmt.Fprintf(a.stdout, "released lease %d on %s#%s\n", token, args[0], args[1])
			return nil
		},
	}, false, true))
	return cmd
}

// itemCommand builds annotate, reclassify and expire: one item, an actor,
// a text, one log entry, decided by the review service.
func (a *app) itemCommand(use, short, long, example, textFlag, textHelp string, extra func(*cobra.Command) func() error,
	do func(c *cobra.Command, svc *review.Service, item, text string) (int64, error)) *cobra.Command {
	var by, text string
	var asJSON bool
	var check func() error
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Example: example, Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if by == "" {
				return usagef("give --by PRINCIPAL and --%s TEXT", textFlag)
			}
			if check != nil {
				if err := check(); err != nil {
					return err
				}
			}
			svc, err := a.reviewer(c, by)
			if err != nil {
				return err
			}
			lsn, err := do(c, svc, args[0], text)
			if err != nil {
				if errors.Is(err, memgov.ErrInvalid) {
					return &usageError{fmt.Errorf("%w (--%s)", err, textFlag)}
				}
				return denied(err)
			}
			if asJSON {
				return a.printJSON(map[string]any{"item_id": args[0], "lsn": lsn})
			}
			fmt.Fprintf(a.stdout, "%s: log entry %d (see memgov history %s)\n", strings.Fields(use)[0], lsn, args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", "", "the principal acting")
	cmd.Flags().StringVar(&text, textFlag, "", textHelp)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	if extra != nil {
		check = extra(cmd)
	}
	return cmd
}

func (a *app) annotateCommand() *cobra.Command {
	return a.itemCommand("annotate ITEM_ID", "Attach a curation note or verifier annotation to an item",
		`annotate records a note on an item as an ANNOTATE log entry (12.7.4 mode 3,
12.8.2: verifiers annotate, they do not write). The note changes no content.`,
		"  memgov annotate 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --by policy-verifier --note \"checked against the ERP\"",
		"note", "the annotation", nil,
		func(c *cobra.Command, svc *review.Service, item, text string) (int64, error) {
			return svc.Annotate(c.Context(), item, "note", text)
		})
}

func (a *app) reclassifyCommand() *cobra.Command {
	var layer string
	return a.itemCommand("reclassify ITEM_ID --layer LAYER", "Move an item to another memory layer",
		`reclassify moves an item and its versions to another layer (a RECLASSIFY log
entry with the actor and the reason); the RBAC matrix decides who may.`,
		"  memgov reclassify 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --layer SEMANTIC --by jane --reason \"a confirmed fact, not an episode\"",
		"reason", "why the item moves",
		func(c *cobra.Command) func() error {
			c.Flags().StringVar(&layer, "layer", "", "the target layer: WORKING, SESSION, EPISODIC, SEMANTIC or PROCEDURAL")
			return func() error {
				if _, err := memgov.ParseLayer(strings.ToUpper(layer)); err != nil {
					return usagef("--layer must be WORKING, SESSION, EPISODIC, SEMANTIC or PROCEDURAL")
				}
				return nil
			}
		},
		func(c *cobra.Command, svc *review.Service, item, text string) (int64, error) {
			return svc.Reclassify(c.Context(), item, memgov.Layer(strings.ToUpper(layer)), text)
		})
}

func (a *app) expireCommand() *cobra.Command {
	return a.itemCommand("expire ITEM_ID", "Soft-delete an item (EXPIRE; history kept)",
		`expire ends the ACTIVE version of an item with an EXPIRE log entry: it leaves
every read and index, its history stays for audit (spec §13: no hard delete of
persistent memory). The actor needs the delete right on the item's layer.`,
		"  memgov expire 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --by jane --reason \"customer closed the account\"",
		"reason", "why the item expires", nil,
		func(c *cobra.Command, svc *review.Service, item, text string) (int64, error) {
			return svc.ForceExpire(c.Context(), item, text)
		})
}

func (a *app) promoteCommand() *cobra.Command {
	var (
		by          string
		dry, asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "promote REF --by WHO",
		Short: "Promote corroborated episodes to semantic memory",
		Long: `promote groups the ACTIVE episodes of REF that say the same thing (the same
subject, predicate and object, or near-duplicate text) and promotes each group
with at least policy promotion.corroborations independent observations
(distinct agents or distinct external evidence URIs) by a governed write to
SEMANTIC memory, citing the episodes and their evidence. Every gate applies:
a promotion may commit, wait for a curator, or be refused. --dry-run writes
nothing. Register the promoter first, e.g.
  memgov principal add --id ` + lifecycle.PromoterPrincipal + ` --role orchestrator --tenant acme`,
		Example: "  memgov promote acme/shared --by " + lifecycle.PromoterPrincipal + " --dry-run\n  memgov promote acme/shared --by " + lifecycle.PromoterPrincipal + " --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if by == "" {
				return usagef("give --by PRINCIPAL (e.g. %s)", lifecycle.PromoterPrincipal)
			}
			eng, err := a.engine(c)
			if err != nil {
				return err
			}
			run := eng.Lifecycle().Promote
			if dry {
				run = eng.Lifecycle().PlanPromotion
			}
			rep, err := run(c.Context(), args[0], by)
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(rep)
			}
			t := a.table("KEY", "CORROBORATIONS", "STATUS", "RESULT", "TEXT")
			for _, x := range rep.Candidates {
				res := ""
				if x.Result != nil {
					res = x.Result.Status
					if x.Result.Reason != "" {
						res += " " + x.Result.Reason
					}
				}
				t.row(x.Key, fmt.Sprintf("%d/%d", x.Corroborations, rep.Required), x.Status, res, clip(x.Text, 50))
			}
			t.flush()
			fmt.Fprintf(a.stdout, "scanned %d episodes: %d promoted, %d waiting for a curator (dry run: %v)\n", rep.Scanned, rep.Promoted, rep.Deferred, rep.DryRun)
			return nil
		},
	}
	cmd.Flags().StringVar(&by, "by", "", "the principal writing the promoted facts")
	cmd.Flags().BoolVar(&dry, "dry-run", false, "decide without writing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
