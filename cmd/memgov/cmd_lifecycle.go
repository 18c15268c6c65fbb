package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/writes"
)

func (a *app) gcCommand() *cobra.Command {
	var (
		o      lifecycle.GCOptions
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
			rep, err := eng.Lifecycle().GC(cmd.Context(), o)
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
		r      memgov.EraseRequest
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
			rep, err := eng.Lifecycle().Erase(cmd.Context(), r)
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
		gateAt     float64
		deployGate bool
	)
	cmd := &cobra.Command{
		Use:   "metrics",
		Short: "Memory quality metrics and the health score (12.12)",
		Long: `metrics reports the quality metrics of the last 30 days and the health score
H_memory (12.12.7). It first re-validates a sample of durable memory against today's
state (--revalidate N, 0 to skip): evidence that no longer passes, contradictions by
ACTIVE memory and refuted sources count toward the hallucination leakage rate.

The health score names what it measured ("measured") and what it could not
("unmeasured", with what would measure each in "unmeasured_why"): MCI and MIER
need task outcomes reported with memgov feedback (with memory, and with memory
withheld for MCI), retrieval precision needs usage feedback. With a metric
unmeasured the score is PARTIAL: the band says PARTIAL, health_measured_share is
the share of the weight measured, and health_lower_bound counts every unmeasured
metric at its worst.

--gate T (or --deploy-gate, the policy's health.deploy_gate) is the deployment gate
for CI/CD: exit 3 when the lower bound is below T.`,
		Example: "  memgov metrics\n  memgov metrics --revalidate 500 --json\n  memgov metrics --gate 0.7\n  memgov metrics --deploy-gate",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if revalidate < 0 {
				return usagef("--revalidate takes N >= 0")
			}
			gating := cmd.Flags().Changed("gate") || deployGate
			if cmd.Flags().Changed("gate") && (gateAt <= 0 || gateAt > 1) {
				return usagef("--gate takes a threshold in (0, 1], such as 0.7")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if deployGate && !cmd.Flags().Changed("gate") {
				gateAt = eng.Policy().Health.DeployGate
			}
			if revalidate > 0 {
				if _, err := eng.Writes().Revalidate(cmd.Context(), revalidate); err != nil {
					return err
				}
			}
			m, err := eng.Audit().Metrics(cmd.Context())
			if err != nil {
				return err
			}
			gateErr := func() error {
				if !gating || m.Gate(gateAt) {
					return nil
				}
				return &exitCodeError{code: exitRejected, err: fmt.Errorf("health gate %.2f not met: score %.3f %s, lower bound %.3f with %.0f%% of the weight measured (unmeasured: %s)",
					gateAt, m.Health, m.Status, m.HealthLowerBound, 100*m.MeasuredShare, strings.Join(m.Unmeasured, ", "))}
			}
			if asJSON {
				if err := a.printJSON(m); err != nil {
					return err
				}
				return gateErr()
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
			if m.CorrectnessImpact != nil {
				t.row("memory correctness impact (MCI)", fmt.Sprintf("%+.3f (%d tasks with memory, %d without)", *m.CorrectnessImpact, m.TasksWithMemory, m.TasksWithheld))
			}
			if m.InducedErrors != nil {
				t.row("memory-induced error rate (MIER)", fmt.Sprintf("%.3f of %d tasks", *m.InducedErrors, m.TasksWithMemory+m.TasksWithheld))
			}
			if m.Status == audit.HealthPartial {
				t.row("health", fmt.Sprintf("%.3f PARTIAL: %.0f%% of the weight measured (measured band %s, lower bound %.3f)",
					m.Health, 100*m.MeasuredShare, m.MeasuredBand, m.HealthLowerBound))
			} else {
				t.row("health", fmt.Sprintf("%.3f %s", m.Health, m.Band))
			}
			t.row("measured", strings.Join(m.Measured, ", "))
			for _, u := range m.Unmeasured {
				t.row("unmeasured: "+u, "needs "+m.UnmeasuredWhy[u])
			}
			t.flush()
			if gating {
				if err := gateErr(); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "health gate %.2f met\n", gateAt)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&revalidate, "revalidate", 200, "first re-validate a sample of up to N durable items against today's state (0: skip)")
	cmd.Flags().Float64Var(&gateAt, "gate", 0, "deployment gate: exit 3 when the health score's lower bound is below this threshold")
	cmd.Flags().BoolVar(&deployGate, "deploy-gate", false, "gate at the policy's health.deploy_gate")
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
			rep, err := eng.Audit().ComplianceReport(cmd.Context())
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
	var (
		used         []string
		outcome      string
		note         string
		by           string
		ablated      bool
		memoryCaused bool
		asJSON       bool
	)
	cmd := &cobra.Command{
		Use:   "feedback RETRIEVAL_ID [--outcome success|failure] [--used KEY...]",
		Short: "Report a retrieval's task outcome and the entries it used (MCI, MIER, retrieval precision)",
		Long: `Every get, list and search returns a retrieval_id. feedback tells memgov what
became of the task that retrieval served:

  --outcome success|failure   the task's outcome (MCI and MIER, spec 12.12.5)
  --memory-caused             a failure whose root cause was retrieved memory (MIER)
  --used KEY                  an entry the task used, by key or item id (retrieval
                              precision and impact(m) of relevance decay)
  --reason TEXT               why the task ended so, kept with the outcome (secrets
                              redacted; --note is the same)

A task run with memory withheld is reported with --ablated and no retrieval id:
MCI is the success rate of tasks with memory minus that of tasks without it, so
it is measured once both kinds are reported. Reporting again for a retrieval
replaces its outcome. memgov metrics shows MCI and MIER, and names the health
figures still unmeasured and what would measure them.`,
		Example: `  memgov feedback 019a6c1e-... --outcome success --used customer-42/channel
  memgov feedback 019a6c1e-... --outcome failure --memory-caused --reason "the address was stale" --by support-bot
  memgov feedback --ablated --outcome failure --by support-bot
  memgov feedback 019a6c1e-... --used customer-42/channel --used customer-42/plan`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rid := ""
			if len(args) == 1 {
				rid = args[0]
			}
			switch {
			case ablated && rid != "":
				return usagef("--ablated reports a task run without memory: give no retrieval id")
			case !ablated && rid == "":
				return usagef("name the retrieval (memgov feedback RETRIEVAL_ID ...), or report a task run without memory with --ablated")
			case outcome == "" && (ablated || memoryCaused || note != ""):
				return usagef("--outcome success|failure is needed with --ablated, --memory-caused and --reason")
			case outcome == "" && len(used) == 0:
				return usagef("say what happened: --outcome success|failure, --used KEY, or both")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if outcome == "" {
				// Usage feedback alone, as before outcomes were reported.
				n, err := eng.Host().Feedback(cmd.Context(), rid, used)
				if err != nil {
					return engineErr(err)
				}
				if asJSON {
					return a.printJSON(writes.FeedbackResult{RetrievalID: rid, Used: n, At: eng.Now()})
				}
				fmt.Fprintf(a.stdout, "recorded: %d of %d used items were in the retrieval\n", n, len(used))
				return nil
			}
			res, err := eng.Writes().ReportOutcome(cmd.Context(), writes.TaskFeedback{RetrievalID: rid, Ablated: ablated, Outcome: outcome,
				MemoryCaused: memoryCaused, Used: used, Note: note, By: by})
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return engineErr(err)
			}
			if asJSON {
				return a.printJSON(res)
			}
			what := "task " + res.ID
			if !res.Ablated {
				what = "retrieval " + res.RetrievalID
			} else {
				what += " (memory withheld)"
			}
			fmt.Fprintf(a.stdout, "recorded: %s %s", what, res.Outcome)
			if res.MemoryCaused {
				fmt.Fprint(a.stdout, ", caused by memory")
			}
			if len(used) > 0 {
				fmt.Fprintf(a.stdout, "; %d of %d used items were in the retrieval", res.Used, len(used))
			}
			fmt.Fprintln(a.stdout)
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&used, "used", nil, "key (or item id) of a used entry (repeatable, or comma-separated)")
	cmd.Flags().StringVar(&outcome, "outcome", "", "the task's outcome: success or failure")
	cmd.Flags().BoolVar(&memoryCaused, "memory-caused", false, "the failure's root cause was retrieved memory")
	cmd.Flags().BoolVar(&ablated, "ablated", false, "the task ran with memory withheld (no retrieval id)")
	reasonFlag(cmd.Flags(), &note, "why the task ended as it did, kept with the outcome (secrets redacted)")
	cmd.Flags().StringVar(&by, "by", "", "the reporting principal (default: the database's local owner)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was recorded as JSON")
	return cmd
}
