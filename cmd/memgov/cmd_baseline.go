package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/merkle"
)

func (a *app) snapshotCommand() *cobra.Command {
	var alg, as string
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Export or hash a memoryRef's memory map (agent-manifest 3.2.6.1)",
		Long: `The memory map of a memoryRef is {key: content} over its ACTIVE, unexpired items.
export prints exactly the RFC 8785 bytes that hash hashes, so any RFC 8785 library
can recompute the snapshot_hash.`,
		Example: "  memgov snapshot export acme/billing-agent > map.json\n  memgov snapshot hash acme/billing-agent",
	}
	export := &cobra.Command{
		Use:     "export REF",
		Short:   "Print the canonical memory map that is hashed",
		Example: "  memgov snapshot export acme/billing-agent | sha256sum",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := a.bindReader(cmd, eng, as, args[0]); err != nil {
				return err
			}
			// The export is byte-exact: anyone recomputes the hash from it.
			_, err = eng.Baselines().ExportSnapshot(cmd.Context(), args[0], canon.Algorithm(alg), a.exactOut())
			return err
		},
	}
	var asJSON bool
	hash := &cobra.Command{
		Use:     "hash REF",
		Short:   "Print the snapshot_hash of a memoryRef",
		Example: "  memgov snapshot hash acme/billing-agent\n  memgov snapshot hash acme/billing-agent --alg shake256 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := a.bindReader(cmd, eng, as, args[0]); err != nil {
				return err
			}
			info, err := eng.Baselines().SnapshotHash(cmd.Context(), args[0], canon.Algorithm(alg))
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(info)
			}
			fmt.Fprintln(a.stdout, info.Hash)
			return nil
		},
	}
	hash.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.PersistentFlags().StringVar(&alg, "alg", "sha256", "hash algorithm: sha256 or shake256")
	cmd.PersistentFlags().StringVar(&as, "as", "", asHelp)
	cmd.AddCommand(export, hash)
	return cmd
}

// engineErr turns invalid-input errors of the engine into usage errors (exit 2).
func engineErr(err error) error {
	if errors.Is(err, memgov.ErrInvalid) {
		return &usageError{err}
	}
	return err
}

func (a *app) baselineCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "baseline",
		Short: "Approve and show memory baselines (agent-manifest 3.2.6)",
		Example: `  memgov baseline approve acme/billing-agent --by oncall --type persistent --ttl 2592000 --policy deny-on-drift --level 2
  memgov baseline show acme/billing-agent --json`,
	}
	var (
		r   memgov.ApproveRequest
		typ string
		alg string
	)
	var approveJSON bool
	approve := &cobra.Command{
		Use:   "approve REF",
		Short: "Approve the memoryRef's current memory as its baseline",
		Long: `approve records a 3.2.6 memory_baseline of REF's current memory map as a
BASELINE_APPROVE log entry. Only operators and curators approve. The rules:
ttl 3600..7776000, required for persistent and shared, omitted for none;
log-only only below compliance level 2; an owner for shared memory (the owner
agent of REF, whose instances are refs below it, e.g. REF/instance-2).`,
		Example: `  memgov baseline approve acme/billing-agent --by oncall --type persistent --ttl 2592000 --policy deny-on-drift --level 2
  memgov baseline approve initech/policy-agent --by oncall --type shared --owner policy-agent --ttl 86400 --policy deny-on-drift --level 2
  memgov baseline approve acme/stateless-agent --by oncall --type none --policy deny-on-drift --level 1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r.MemoryRef, r.MemoryType, r.Algorithm = args[0], memgov.MemoryType(typ), canon.Algorithm(alg)
			svc, err := a.reviewer(cmd, r.By)
			if err != nil {
				return err
			}
			b, err := svc.Drift().ApproveBaseline(cmd.Context(), r)
			if err != nil {
				return engineErr(err)
			}
			if approveJSON {
				return a.printJSON(b)
			}
			fmt.Fprintf(a.stdout, "baseline %s approved for %s: %s, %s, level %d, hash %s\n", b.ID, b.MemoryRef, b.MemoryType, b.DriftPolicy,
				b.ComplianceLevel, nullable(b.Hash()))
			return nil
		},
	}
	f := approve.Flags()
	f.StringVar(&r.By, "by", "", "the approving operator or curator (required)")
	f.StringVar(&typ, "type", "", "memory_type: none, session, persistent or shared (required)")
	f.Int64Var(&r.TTLSeconds, "ttl", 0, "ttl_seconds, 3600..7776000")
	f.StringVar(&r.DriftPolicy, "policy", "", "drift_policy: deny-on-drift, alert-on-drift or log-only (required)")
	f.IntVar(&r.Level, "level", 0, "compliance level 0..3 (required)")
	f.StringVar(&r.Owner, "owner", "", "shared_memory_owner (shared memory)")
	f.Int64Var(&r.CheckIntervalSeconds, "check-interval", 0, "check_interval_seconds")
	f.StringVar(&alg, "alg", "sha256", "snapshot hash algorithm: sha256 or shake256")
	f.StringVar(&r.Reason, "reason", "", "why the baseline is approved")
	f.BoolVar(&approveJSON, "json", false, "print the approved baseline as JSON (as baseline show --json)")
	// The compliance level decides which drift policies are allowed: it is
	// stated, never assumed to be 0.
	for _, n := range []string{"by", "type", "policy", "level"} {
		approve.MarkFlagRequired(n)
	}
	var asJSON bool
	show := &cobra.Command{
		Use:     "show REF",
		Short:   "Show the baseline that governs a memoryRef",
		Long:    "show prints the memory_baseline record in the spec's field names; an instance of shared memory shows its owner's.",
		Example: "  memgov baseline show acme/billing-agent --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			b, err := eng.Baselines().ResolveBaseline(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(b)
			}
			t := a.table()
			t.row("baseline_id", b.ID)
			t.row("memory_ref", b.MemoryRef)
			t.row("snapshot_hash", nullable(b.Hash()))
			t.row("memory_type", string(b.MemoryType))
			t.row("store", b.Store)
			t.row("approved_at", b.ApprovedAt.Format(time.RFC3339)+" by "+b.ApprovedBy)
			if b.TTLSeconds > 0 {
				t.row("ttl_seconds", fmt.Sprintf("%d (expires %s)", b.TTLSeconds, b.ExpiresAt().Format(time.RFC3339)))
			}
			t.row("drift_policy", b.DriftPolicy)
			t.row("compliance level", strconv.Itoa(b.ComplianceLevel))
			if b.SharedMemoryOwner != "" {
				t.row("shared_memory_owner", b.SharedMemoryOwner)
			}
			t.row("log position", strconv.FormatInt(b.LogPosition, 10))
			t.flush()
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON")
	cmd.AddCommand(approve, show)
	return cmd
}

func nullable(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

func (a *app) verifyMemoryCommand() *cobra.Command {
	var (
		state  string
		deep   bool
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "verify REF",
		Short: "Check a memoryRef's memory against its baseline (exit 5 on deny)",
		Long: `verify checks REF's memory against the baseline that governs it and applies its
drift policy. Without --state it checks memgov's own materialised memory (which
also catches rows edited behind memgov's back); with --state it checks a running
agent's exported memory map, a JSON object {key: content}, as a host does at
agent start-up. It exits 0 when the action is allow and 5 when it is deny.`,
		Example: "  memgov verify acme/billing-agent --json\n  memgov verify initech/policy-agent/instance-2 --state memory.json --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := memgov.VerifyRequest{MemoryRef: args[0], Deep: deep}
			if state != "" {
				b, err := os.ReadFile(state)
				if err != nil {
					return &usageError{fmt.Errorf("read --state: %w", err)}
				}
				req.State = b
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			res, err := eng.Baselines().VerifyMemory(cmd.Context(), req)
			if err != nil {
				return engineErr(err)
			}
			if asJSON {
				if err := a.printJSON(res); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(a.stdout, "%s: %s (valid=%t drift=%t expired=%t, %s, basis %s)\n", res.MemoryRef, strings.ToUpper(res.Action),
					res.Valid, res.Drift, res.Expired, res.Policy, res.Basis)
				for _, al := range res.Alerts {
					fmt.Fprintln(a.stdout, "  alert:", al)
				}
			}
			if res.Action == "deny" {
				return &exitCodeError{code: exitDenied}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&state, "state", "", "a running agent's exported memory map (JSON object file)")
	cmd.Flags().BoolVar(&deep, "deep", false, "re-hash the materialised memory even when nothing suggests a change")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return cmd
}

func (a *app) sessionCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Open and close session boundaries of session memory",
		Long: `Session memory is checked against its baseline when a session starts and is exempt
from drift only while a session is active: a change a session leaves behind
(anything but its WORKING memory, which ends with it) is drift once the session
ends, and under deny-on-drift the next session is refused (exit 5) until an
operator acknowledges the drift.`,
		Example: "  memgov session start acme/chat-agent --by chat-agent\n  memgov session end acme/chat-agent --by chat-agent",
	}
	mk := func(use, short, example string, start bool) *cobra.Command {
		var by string
		var asJSON bool
		c := &cobra.Command{
			Use: use, Short: short, Example: example, Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				eng, err := a.engine(cmd)
				if err != nil {
					return err
				}
				if start {
					s, res, err := eng.Baselines().StartSession(cmd.Context(), args[0], by)
					if errors.Is(err, memgov.ErrForbidden) && res.Action == "deny" {
						if asJSON {
							a.printJSON(res)
						}
						return &exitCodeError{code: exitDenied, err: fmt.Errorf("session refused: %s; see memgov drift list", strings.Join(res.Alerts, "; "))}
					}
					if err != nil {
						return engineErr(err)
					}
					if asJSON {
						return a.printJSON(s)
					}
					fmt.Fprintf(a.stdout, "session %s started on %s\n", s.ID, s.MemoryRef)
					return nil
				}
				s, err := eng.Baselines().EndSession(cmd.Context(), args[0], by)
				if err != nil {
					return engineErr(err)
				}
				if asJSON {
					return a.printJSON(s)
				}
				fmt.Fprintf(a.stdout, "session %s ended on %s\n", s.ID, s.MemoryRef)
				// What the session left behind is drift from now on.
				if res, err := eng.Baselines().VerifyMemory(cmd.Context(), memgov.VerifyRequest{MemoryRef: args[0], Actor: by}); err == nil && res.Drift {
					fmt.Fprintf(a.stdout, "drift %s: %s; the next session is %s (memgov drift ack %s --by OPERATOR --resolve reapprove|rollback)\n",
						res.DriftID, res.Cause, map[string]string{"deny": "refused", "allow": "allowed with an alert"}[res.Action], res.DriftID)
				}
				return nil
			},
		}
		c.Flags().StringVar(&by, "by", "", "the agent or host (a registered principal)")
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		c.MarkFlagRequired("by")
		return c
	}
	cmd.AddCommand(
		mk("start REF", "Verify session memory and open a session (exit 5 on deny)", "  memgov session start acme/chat-agent --by chat-agent", true),
		mk("end REF", "Close the open session", "  memgov session end acme/chat-agent --by chat-agent", false),
	)
	return cmd
}

func (a *app) memCheckpointCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "checkpoint",
		Short: "Inspect a memoryRef's PUT/DEL operation log and checkpoints (3.2.6.2)",
		Example: `  memgov checkpoint show acme/billing-agent --json
  memgov checkpoint ops acme/billing-agent --json
  memgov checkpoint prove acme/billing-agent --from 2`,
	}
	var asJSON bool
	var cpAs string
	show := &cobra.Command{
		Use:     "show REF",
		Short:   "Print the latest accepted checkpoint {memory_root, tree_size, seq, approved_at, ttl_seconds}",
		Example: "  memgov checkpoint show acme/billing-agent --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := a.bindReader(cmd, eng, cpAs, args[0]); err != nil {
				return err
			}
			cp, err := eng.Baselines().MemoryCheckpoint(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(cp)
			}
			fmt.Fprintf(a.stdout, "seq %d: %s over %d operations (log has %d), approved %s, ttl %ds\n", cp.Seq, cp.MemoryRoot, cp.TreeSize,
				cp.LogSize, cp.ApprovedAt.Format(time.RFC3339), cp.TTLSeconds)
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	var opsJSON bool
	ops := &cobra.Command{
		Use:     "ops REF",
		Short:   "Print the operation log in order",
		Example: "  memgov checkpoint ops acme/billing-agent --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := a.bindReader(cmd, eng, cpAs, args[0]); err != nil {
				return err
			}
			var list []memgov.MemOp
			t := a.table("INDEX", "OP", "KEY", "LSN", "LEAF")
			err = eng.Baselines().MemoryOps(cmd.Context(), args[0], func(o memgov.MemOp) error {
				if opsJSON {
					list = append(list, o)
				} else {
					t.row(strconv.FormatUint(o.Index, 10), o.Op, clip(o.Key, 40), strconv.FormatInt(o.LSN, 10), o.Leaf.String()[:16])
				}
				return nil
			})
			if err != nil {
				return err
			}
			if opsJSON {
				if list == nil {
					list = []memgov.MemOp{}
				}
				return a.printJSON(list)
			}
			t.flush()
			return nil
		},
	}
	ops.Flags().BoolVar(&opsJSON, "json", false, "print JSON")
	var (
		from, to, seq uint64
		proveJSON     bool
		heldFile      string
	)
	prove := &cobra.Command{
		Use:   "prove REF [--from SIZE] [--to SIZE] | REF --seq N | REF --checkpoint FILE",
		Short: "Print RFC 9162 consistency and inclusion proofs of the op log, and check a held checkpoint",
		Long: `prove prints the consistency proof that REF's operation log at --from operations
is a prefix of the log at --to operations (default: now). Without --from it proves
from the size the baseline bound. A proof from size 0 is empty (every log extends
the empty one) and proves nothing, so --from 0 is refused.

With --seq N it prints the inclusion proof of operation N (numbered from 0, as
` + "`memgov checkpoint ops`" + ` numbers them) in the log of --to operations (default: now).

With --checkpoint FILE it checks a 3.2.6.2 checkpoint you kept ({memory_root,
tree_size, seq, approved_at, ttl_seconds}, as ` + "`memgov checkpoint show --json`" + `
prints it) against REF's latest checkpoint: the same one, or an advance from it
accepted by the 3.2.6.2 rules in order (drift, rollback, expired, budget). It
exits 1 unless the verdict is ACCEPT.`,
		Example: "  memgov checkpoint prove acme/billing-agent\n  memgov checkpoint prove acme/billing-agent --from 1 --to 2 --json\n  memgov checkpoint prove acme/billing-agent --seq 0\n  memgov checkpoint prove acme/billing-agent --checkpoint cp.json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := a.bindReader(cmd, eng, cpAs, args[0]); err != nil {
				return err
			}
			if heldFile != "" {
				b, err := os.ReadFile(heldFile)
				if err != nil {
					return usagef("%v", err)
				}
				var held merkle.MemoryCheckpoint
				if err := json.Unmarshal(b, &held); err != nil {
					return usagef("%s is not a 3.2.6.2 checkpoint: %v", heldFile, err)
				}
				v, p, err := eng.Baselines().AcceptMemoryCheckpoint(cmd.Context(), args[0], held)
				if err != nil {
					return engineErr(err)
				}
				if err := a.printJSON(map[string]any{"verdict": map[string]string{"code": string(v.Code), "detail": v.Detail}, "proof": p}); err != nil {
					return err
				}
				if !v.Accepted() {
					return &exitCodeError{code: exitError, err: fmt.Errorf("checkpoint not accepted: %s", v)}
				}
				return nil
			}
			if cmd.Flags().Changed("seq") {
				p, err := eng.Baselines().ProveMemoryInclusion(cmd.Context(), args[0], seq, to)
				if err != nil {
					return engineErr(err)
				}
				if proveJSON {
					return a.printJSON(p)
				}
				fmt.Fprintf(a.stdout, "operation %d of %d, leaf %s\nroot %s\n", p.Index, p.TreeSize, p.Leaf, p.Root)
				for _, h := range p.Proof {
					fmt.Fprintln(a.stdout, h)
				}
				return nil
			}
			if cmd.Flags().Changed("from") && from == 0 {
				return usagef("--from 0: a consistency proof from the empty log is empty and proves nothing (RFC 9162); give --from 1 or more, or omit --from to prove from the baseline's size")
			}
			if !cmd.Flags().Changed("from") {
				b, err := eng.Baselines().ResolveBaseline(cmd.Context(), args[0])
				if err != nil {
					return engineErr(err)
				}
				if from = b.BaseTreeSize; from == 0 {
					return usagef("the baseline of %s bound an empty operation log; give --from 1 or more", args[0])
				}
			}
			p, err := eng.Baselines().ProveMemoryRange(cmd.Context(), args[0], from, to)
			if err != nil {
				return engineErr(err)
			}
			if proveJSON {
				return a.printJSON(p)
			}
			fmt.Fprintf(a.stdout, "%d -> %d\nold root %s\nnew root %s\n", p.From, p.To, p.OldRoot, p.NewRoot)
			for _, h := range p.Proof {
				fmt.Fprintln(a.stdout, h)
			}
			return nil
		},
	}
	prove.Flags().Uint64Var(&from, "from", 0, "the earlier tree size (default: the baseline's)")
	prove.Flags().Uint64Var(&to, "to", 0, "the later tree size (default: the whole op log)")
	prove.Flags().Uint64Var(&seq, "seq", 0, "print the inclusion proof of the operation at this position (from 0)")
	prove.Flags().StringVar(&heldFile, "checkpoint", "", "check a held 3.2.6.2 checkpoint file")
	prove.Flags().BoolVar(&proveJSON, "json", false, "print JSON")
	cmd.PersistentFlags().StringVar(&cpAs, "as", "", asHelp)
	cmd.AddCommand(show, ops, prove)
	return cmd
}

func (a *app) driftCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "drift",
		Short: "List, inspect and acknowledge memory drift (MEMORY_DRIFT_DETECTED)",
		Example: `  memgov drift list
  memgov drift show 0195…
  memgov drift ack 0195… --by oncall --resolve rollback --reason "edited outside memgov"`,
	}
	var (
		all     bool
		ref     string
		asJSON  bool
		driftAs string
	)
	list := &cobra.Command{
		Use:     "list",
		Short:   "List open drift episodes (--all for acknowledged ones too)",
		Example: "  memgov drift list\n  memgov drift list --all --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			evs, err := eng.Baselines().ListDrift(cmd.Context(), memgov.DriftQuery{MemoryRef: ref, OpenOnly: !all})
			if err != nil {
				return err
			}
			if p := reader(driftAs); p != "" {
				kept := evs[:0]
				for _, d := range evs {
					if eng.ReadRef(cmd.Context(), p, d.MemoryRef) == nil {
						kept = append(kept, d)
					}
				}
				evs = kept
			} else {
				a.readerNote("")
			}
			if asJSON {
				return a.printJSON(evs)
			}
			if len(evs) == 0 {
				fmt.Fprintln(a.stdout, "no drift")
				return nil
			}
			t := a.table("ID", "POLICY", "MEMORY REF", "SINCE", "CAUSE", "APPROVED HASH", "CURRENT HASH", "STATE")
			for _, d := range evs {
				state := "open"
				if !d.Open() {
					state = d.Resolution + " by " + d.AckedBy
				}
				t.row(d.ID, d.Policy, d.MemoryRef, d.DetectedAt.Format(time.RFC3339), d.Cause, clip(d.ApprovedHash, 20), clip(d.CurrentHash, 20), state)
			}
			t.flush()
			return nil
		},
	}
	list.Flags().BoolVar(&all, "all", false, "include acknowledged episodes")
	list.Flags().StringVar(&ref, "ref", "", "only this memoryRef")
	list.Flags().StringVar(&driftAs, "as", "", asHelp)
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	var showJSON bool
	show := &cobra.Command{
		Use:     "show ID",
		Short:   "Show what changed since the baseline, key by key",
		Example: "  memgov drift show 0195… --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if p := reader(driftAs); p != "" {
				ev, err := eng.Baselines().DriftEvent(cmd.Context(), args[0])
				if err != nil {
					return engineErr(err)
				}
				if err := a.bindReader(cmd, eng, p, ev.MemoryRef); err != nil {
					return err
				}
			} else {
				a.readerNote("")
			}
			rep, err := eng.Baselines().DriftDiff(cmd.Context(), args[0])
			if err != nil {
				return engineErr(err)
			}
			if showJSON {
				return a.printJSON(rep)
			}
			d := rep.Event
			t := a.table()
			t.row("drift", d.ID+" ("+d.Cause+")")
			t.row("memory ref", d.MemoryRef)
			t.row("policy", d.Policy)
			t.row("detected", d.DetectedAt.Format(time.RFC3339))
			t.row("baseline", rep.Baseline.ID+" by "+rep.Baseline.ApprovedBy+", level "+strconv.Itoa(rep.Baseline.ComplianceLevel))
			t.row("approved hash", d.ApprovedHash)
			t.row("current hash", d.CurrentHash)
			t.row("changes", rep.Summary())
			t.flush()
			for _, c := range rep.Changes {
				fmt.Fprintf(a.stdout, "\n%s  %s\n", strings.ToUpper(c.Kind), guard.SanitizeLine(c.Key))
				if c.Old != nil {
					fmt.Fprintf(a.stdout, " - %s\n", guard.SanitizeLine(string(c.Old)))
				}
				if c.New != nil {
					fmt.Fprintf(a.stdout, " + %s\n", guard.SanitizeLine(string(c.New)))
				}
				if c.Outside {
					fmt.Fprintln(a.stdout, " changed outside memgov: no log entry, no review")
				}
			}
			if d.Open() {
				fmt.Fprintf(a.stdout, "\nresolve with: memgov drift ack %s --by OPERATOR --resolve reapprove|rollback\n", d.ID)
			}
			return nil
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print JSON")
	show.Flags().StringVar(&driftAs, "as", "", asHelp)
	var (
		ack     memgov.AckRequest
		ackJSON bool
	)
	ackCmd := &cobra.Command{
		Use:   "ack ID --by OPERATOR --resolve reapprove|rollback",
		Short: "Acknowledge a drift episode: re-approve the current memory or roll back to the baseline",
		Long: `ack closes a drift episode. reapprove approves the memory as it is now as a new
baseline (edits made outside memgov are first written into the log); rollback
restores the baseline's memory with compensating log entries (rows edited
outside memgov are rebuilt from the log first). Only operators and curators.`,
		Example: "  memgov drift ack 0195… --by oncall --resolve rollback --reason \"limit edited by hand\"",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ack.DriftID = args[0]
			if ack.Resolution != memgov.ResolveReapprove && ack.Resolution != memgov.ResolveRollback {
				return usagef("--resolve must be reapprove or rollback")
			}
			svc, err := a.reviewer(cmd, ack.By)
			if err != nil {
				return err
			}
			res, err := svc.Drift().AckID(cmd.Context(), ack.DriftID, ack.Resolution, ack.Note)
			if err != nil {
				return engineErr(err)
			}
			if ackJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "drift %s acknowledged by %s: %s with %d compensating entries; %s now %s (baseline %s)\n",
				res.Drift.ID, res.Drift.AckedBy, res.Resolution, res.Compensations, res.Drift.MemoryRef, res.SnapshotHash, res.Baseline.ID)
			return nil
		},
	}
	ackCmd.Flags().StringVar(&ack.By, "by", "", "the acknowledging operator or curator (required)")
	ackCmd.Flags().StringVar(&ack.Resolution, "resolve", "", "reapprove or rollback (required)")
	reasonFlag(ackCmd.Flags(), &ack.Note, "why, for the audit log")
	ackCmd.Flags().BoolVar(&ackJSON, "json", false, "print JSON")
	ackCmd.MarkFlagRequired("by")
	ackCmd.MarkFlagRequired("resolve")
	cmd.AddCommand(list, show, ackCmd)
	return cmd
}
