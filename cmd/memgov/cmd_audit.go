package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine"
)

func (a *app) auditCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Inspect and prove the tamper-evident log",
		Example: `  memgov audit root
  memgov audit verify
  memgov audit checkpoint --ttl 86400 > cp.json
  memgov audit prove --from 1200 --checkpoint cp.json`,
	}
	root := &cobra.Command{
		Use:     "root",
		Short:   "Print the log's Merkle root and size",
		Example: "  memgov audit root",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			r, err := eng.AuditRoot(cmd.Context())
			if err != nil {
				return err
			}
			return a.printJSON(r)
		},
	}
	var verifyJSON bool
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Recompute every leaf, payload hash and chain value, and the root",
		Long: `verify recomputes the whole log from the stored rows: each entry's leaf, its
payload hash, the keyed chain, the signed head and every recorded checkpoint. It
exits 1 naming the first bad LSN when any row was edited, removed or reordered.`,
		Example: "  memgov audit verify",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.Verify(cmd.Context())
			if err != nil {
				return err
			}
			if verifyJSON {
				out := map[string]any{"ok": rep.OK, "tree_size": rep.TreeSize, "audit_chain_root": "sha256:" + rep.Root.String(), "erased_payloads": rep.Erased}
				if !rep.OK {
					out["bad_lsn"], out["problem"] = rep.BadLSN, rep.Problem
				}
				if err := a.printJSON(out); err != nil {
					return err
				}
			} else if rep.OK {
				fmt.Fprintf(a.stdout, "ok: %d entries verify, root sha256:%s\n", rep.TreeSize, rep.Root)
			}
			if !rep.OK {
				return &exitCodeError{code: exitError, err: fmt.Errorf("%w at LSN %d: %s", engine.ErrTampered, rep.BadLSN, rep.Problem)}
			}
			return nil
		},
	}
	verify.Flags().BoolVar(&verifyJSON, "json", false, "print JSON")
	var (
		ttl int64
		by  string
	)
	checkpoint := &cobra.Command{
		Use:   "checkpoint",
		Short: "Record a signed checkpoint of the log",
		Long: `checkpoint records {audit_chain_root, tree_size, seq, observed_at, ttl_seconds},
signed with HMAC-SHA256 under the log key, and prints it. Keep the printed JSON
outside the database: ` + "`memgov audit prove --checkpoint FILE`" + ` later shows the log still
extends it (agent-manifest 3.2.7.1).`,
		Example: "  memgov audit checkpoint --ttl 86400 > checkpoint.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rec, err := eng.Checkpoint(cmd.Context(), ttl, by)
			if err != nil {
				return err
			}
			return a.printJSON(rec)
		},
	}
	checkpoint.Flags().Int64Var(&ttl, "ttl", 86400, "seconds the checkpoint stays valid (60..7776000)")
	checkpoint.Flags().StringVar(&by, "by", "memgov", "who records it")
	var (
		from   int64
		cpFile string
	)
	prove := &cobra.Command{
		Use:   "prove --from SIZE [--checkpoint FILE]",
		Short: "Print an RFC 9162 consistency proof, and check a held checkpoint",
		Long: `prove prints the consistency proof that the log at SIZE entries is a prefix of
the log now. With --checkpoint it also checks a signed checkpoint you kept, by the
3.2.7.1 rules, and exits 1 unless the verdict is ACCEPT (rollback, expired or
MISMATCH say why).`,
		Example: "  memgov audit prove --from 1200\n  memgov audit prove --checkpoint checkpoint.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			var held *engine.AuditCheckpointRecord
			if cpFile != "" {
				b, err := os.ReadFile(cpFile)
				if err != nil {
					return err
				}
				held = new(engine.AuditCheckpointRecord)
				if err := json.Unmarshal(b, held); err != nil {
					return usagef("%s is not a memgov checkpoint: %v", cpFile, err)
				}
				if from == 0 {
					from = int64(held.TreeSize)
				}
			}
			if from == 0 {
				return usagef("give --from SIZE or --checkpoint FILE")
			}
			p, err := eng.Prove(cmd.Context(), from)
			if err != nil && held == nil {
				return err
			}
			out := map[string]any{}
			if err == nil {
				out["proof"] = p
			}
			if held != nil {
				v, err := eng.AcceptCheckpoint(cmd.Context(), *held)
				if err != nil {
					return err
				}
				out["verdict"] = map[string]string{"code": string(v.Code), "detail": v.Detail}
				if err := a.printJSON(out); err != nil {
					return err
				}
				if !v.Accepted() {
					return &exitCodeError{code: exitError, err: fmt.Errorf("checkpoint not accepted: %s", v)}
				}
				return nil
			}
			return a.printJSON(p)
		},
	}
	prove.Flags().Int64Var(&from, "from", 0, "the earlier log size")
	prove.Flags().StringVar(&cpFile, "checkpoint", "", "a checkpoint JSON printed by `memgov audit checkpoint`")
	cmd.AddCommand(root, verify, checkpoint, prove)
	return cmd
}

func (a *app) adminCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "admin",
		Short:   "Maintenance of the database",
		Example: "  memgov admin rebuild",
	}
	var asJSON bool
	rebuild := &cobra.Command{
		Use:   "rebuild",
		Short: "Rebuild every derived table from the log and report differences",
		Long: `rebuild replays the append-only log into fresh derived tables (items, versions,
principals, ...) in one transaction and lists every row that differed from what
was there. The log itself is never changed.`,
		Example: "  memgov admin rebuild --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.Rebuild(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "replayed %d log entries\n", rep.Entries)
			if len(rep.Differences) == 0 {
				fmt.Fprintln(a.stdout, "no differences: the tables matched the log")
				return nil
			}
			fmt.Fprintf(a.stdout, "%d differences (the tables now match the log):\n", len(rep.Differences))
			for _, d := range rep.Differences {
				fmt.Fprintln(a.stdout, "  "+d)
			}
			return nil
		},
	}
	rebuild.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(rebuild, a.reembedCommand()) // cmd_reembed.go
	return cmd
}
