package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine"
)

func (a *app) gcCommand() *cobra.Command {
	var (
		o      engine.GCOptions
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Collect expired and decayed memory (TTL, relevance, retention, grace)",
		Long: `gc runs one batch of garbage collection: it expires items past their TTL,
past their classification's retention, or whose relevance decayed below the
layer's threshold while idle; after the grace period it hard-deletes expired
WORKING and SESSION items. Persistent memory is never hard-deleted by gc;
pinned items and items load-bearing for an action are never collected.`,
		Example: "  memgov gc --by jane --dry-run\n  memgov gc --by jane --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.By == "" {
				return usagef("gc needs --by PRINCIPAL (a curator, or an orchestrator for soft deletes only)")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.GC(cmd.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			t := a.table("ACTION", "MODE", "LAYER", "MEMORY REF", "KEY", "DETAIL")
			for _, x := range rep.Expired {
				t.row("expire", x.Mode, string(x.Layer), x.MemoryRef, x.Key, x.Detail)
			}
			for _, x := range rep.HardDeleted {
				t.row("hard delete", x.Mode, string(x.Layer), x.MemoryRef, x.Key, x.Detail)
			}
			for _, x := range rep.Protected {
				t.row("protect", x.Mode, string(x.Layer), x.MemoryRef, x.Key, x.Detail)
			}
			t.flush()
			fmt.Fprintf(a.stdout, "scanned %d, expired %d, hard deleted %d, protected %d (dry run: %v)\n", rep.Scanned, len(rep.Expired), len(rep.HardDeleted), len(rep.Protected), rep.DryRun)
			return nil
		},
	}
	cmd.Flags().StringVar(&o.By, "by", "", "principal running GC")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "decide without changing anything")
	cmd.Flags().IntVar(&o.Batch, "batch", 500, "items scanned per layer")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) eraseCommand() *cobra.Command {
	var (
		r      engine.EraseRequest
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "erase",
		Short: "Erase a data subject from memory (right to erasure)",
		Long: `erase finds every item containing the subject's identifiers, follows merges and
MEMORY_ITEM citations to everything derived from them, and removes their content,
embeddings and fingerprints. The log keeps its hashes, so memgov audit verify
still succeeds; an ERASE entry records the salted hash of the subject, never the
subject. Only curators may erase, and an erasure reaches only the tenants its
curator governs. A memoryRef or key that contains the subject's identifiers is
covered by the log's chain and cannot be rewritten: the erasure then reports
INCOMPLETE with the places left, and memgov compliance report counts it.`,
		Example: "  memgov erase --subject 'Jane Roe' --by jane --dry-run\n  memgov erase --subject jane.roe@example.com --id 'Jane Roe' --by jane --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if r.Subject == "" || r.By == "" {
				return usagef("erase needs --subject S and --by CURATOR")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.Erase(cmd.Context(), r)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "%s: %d items (%d derived), %d payloads erased, request %s, subject %s\n", rep.Status, rep.Items, len(rep.Derived), rep.Payloads, rep.RequestID, rep.SubjectHash)
			for _, l := range rep.Left {
				fmt.Fprintf(a.stdout, "not reached: %s\n", l)
			}
			t := a.table("LAYER", "ITEMS")
			for l, n := range rep.ByLayer {
				t.row(l, fmt.Sprint(n))
			}
			t.flush()
			return nil
		},
	}
	cmd.Flags().StringVar(&r.Subject, "subject", "", "the subject's identifier as it appears in memory")
	cmd.Flags().StringSliceVar(&r.Identifiers, "id", nil, "further identifiers of the same subject")
	cmd.Flags().StringVar(&r.By, "by", "", "the curator executing the request")
	cmd.Flags().BoolVar(&r.DryRun, "dry-run", false, "report what would be erased")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) metricsCommand() *cobra.Command {
	var (
		asJSON     bool
		revalidate int
	)
	cmd := &cobra.Command{
		Use:     "metrics",
		Short:   "Memory quality metrics and the health score (12.12)",
		Example: "  memgov metrics\n  memgov metrics --revalidate 200 --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if revalidate > 0 {
				if _, err := eng.Revalidate(cmd.Context(), revalidate); err != nil {
					return err
				}
			}
			m, err := eng.Metrics(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(m)
			}
			t := a.table("METRIC", "VALUE")
			t.row("writes", fmt.Sprint(m.Writes))
			t.row("write acceptance rate", fmt.Sprintf("%.3f", m.WriteAcceptance))
			t.row("dedup hit rate", fmt.Sprintf("%.3f", m.DedupHitRate))
			t.row("latency p50/p95/p99 (us)", fmt.Sprintf("%.0f/%.0f/%.0f", m.LatencyUS.P50, m.LatencyUS.P95, m.LatencyUS.P99))
			if m.RetrievalPrecision != nil {
				t.row("retrieval precision", fmt.Sprintf("%.3f", *m.RetrievalPrecision))
			}
			if m.HallucinationLeak != nil {
				t.row("hallucination leakage", fmt.Sprintf("%.3f", *m.HallucinationLeak))
			}
			t.row("health", fmt.Sprintf("%.3f %s", m.Health, m.Band))
			t.row("unmeasured", strings.Join(m.Unmeasured, ", "))
			t.flush()
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&revalidate, "revalidate", 0, "first re-validate up to N durable items (hallucination leakage)")
	return cmd
}

func (a *app) complianceCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "compliance", Short: "Compliance reports (12.10.5)", Example: "  memgov compliance report --json", Args: cobra.NoArgs}
	var asJSON bool
	report := &cobra.Command{
		Use:     "report",
		Short:   "Retention breaches, erasures, residency violations, items past TTL",
		Example: "  memgov compliance report\n  memgov compliance report --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.ComplianceReport(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "ok: %v\nretention breaches: %d\nerasures: %d (%d incomplete)\nresidency violations: %d (%d refused writes)\npast TTL still present: %d\n",
				rep.OK, len(rep.RetentionBreaches), len(rep.Erasures), rep.ErasuresIncomplete, len(rep.ResidencyViolations), rep.ResidencyRejections, len(rep.PastTTL))
			return nil
		},
	}
	report.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(report)
	return cmd
}

func (a *app) feedbackCommand() *cobra.Command {
	var used []string
	cmd := &cobra.Command{
		Use:     "feedback RETRIEVAL_ID",
		Short:   "Record which retrieved items were used (retrieval precision)",
		Example: "  memgov feedback 01a2... --used ITEM_ID --used ITEM_ID",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			n, err := eng.Feedback(cmd.Context(), args[0], used)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "recorded: %d of %d used items were in the retrieval\n", n, len(used))
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&used, "used", nil, "item id of a used entry (repeatable)")
	return cmd
}
