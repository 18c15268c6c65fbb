package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
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
		Use:   "root",
		Short: "Print the log's Merkle root and size, and its unkeyed hash-chained root",
		Long: `root prints the RFC 9162 Merkle root over every entry leaf (chain_mode
merkle-log, hash_alg sha256) and, beside it, the 3.2.7.1 hash-chained root over
the same leaves, which needs no key: anyone holding ` + "`memgov audit export`" + ` can
recompute both.`,
		Example: "  memgov audit root",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			r, err := eng.Audit().AuditRoot(cmd.Context())
			if err != nil {
				return err
			}
			return a.printJSON(r)
		},
	}
	var verifyJSON, verifyReplay bool
	verify := &cobra.Command{
		Use:   "verify",
		Short: "Check the log, and every table readers are served from, against the log",
		Long: `verify checks the whole log from the stored rows: each entry's leaf, its
payload hash, the keyed chain, the signed head, every recorded checkpoint and
every erasure (an erased payload must be listed by its ERASE entry, and the
skeleton it leaves for replay must match the hash that entry bound). The
entries an earlier verify checked are stood for by the mark it kept (a digest
of their stored rows under the log key): their rows are digested again and
compared with it, and only the later entries are recomputed; a difference
recomputes every entry, which names the first bad one. It then
checks every served table (items, versions, reviews, principals, baselines,
drift, leases, audit checkpoints, memory maps, ...) against a replay of the log
into scratch tables, row by row; while the log is unchanged since the last
matching replay, the tables are compared with that replay's keyed digest
instead; after new appends only the new entries are replayed, on the tables
the last matching replay kept (beside the database as <file>-verified; on
PostgreSQL in the schema <schema>_verified), and the result is compared with
every row of the served tables by digest (--replay recomputes every entry and
replays the whole log). Cached snapshot hashes are recomputed. It exits 1 naming the first bad LSN, and for a served
row its table and row, when anything was edited, removed or reordered.

What the judge derives from text (fingerprints, subjects, bands) is a cache,
not evidence, and is never compared. When it was computed by another judge
version (a memgov upgrade changed the rules) verify still passes and warns
"index stale: run ` + "`memgov admin reindex`" + `" (JSON: index_stale, with the counts in
index).`,
		Example: "  memgov audit verify\n  memgov audit verify --replay --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			verify := eng.Audit().Verify
			if verifyReplay {
				verify = eng.Audit().VerifyReplay
			}
			rep, err := verify(cmd.Context())
			if err != nil {
				return err
			}
			if verifyJSON {
				out := map[string]any{"ok": rep.OK, "tree_size": rep.TreeSize, "audit_chain_root": "sha256:" + rep.Root.String(),
					"erased_payloads": rep.Erased, "served_tables": rep.Served}
				if !rep.OK {
					out["bad_lsn"], out["problem"] = rep.BadLSN, rep.Problem
				}
				if rep.Table != "" {
					out["table"], out["row"], out["differences"] = rep.Table, rep.Row, rep.Differences
				}
				if rep.Index != nil {
					out["index"] = rep.Index
					if !rep.Index.Fresh() {
						out["index_stale"] = indexStaleWarning + ": " + indexStaleDetail(*rep.Index)
					}
				}
				if err := a.printJSON(out); err != nil {
					return err
				}
			} else if rep.OK {
				how := "a replay of the log matches every served table"
				switch rep.Served {
				case "digest":
					how = "the served tables still match the last replay"
				case "incremental":
					how = "the served tables match the last replay with the new entries replayed on it"
				}
				fmt.Fprintf(a.stdout, "ok: %d entries verify, root sha256:%s; %s\n", rep.TreeSize, rep.Root, how)
				if rep.Index != nil && !rep.Index.Fresh() {
					// A warning, not a failure: the judge's index is a cache.
					fmt.Fprintf(a.stderr, "warning: %s (%s)\n", indexStaleWarning, indexStaleDetail(*rep.Index))
				}
			} else {
				for _, d := range rep.Differences {
					fmt.Fprintf(a.stdout, "%s\t%s\tlog entry %d\t%s\n", d.Table, d.Row, d.LSN, d.Problem)
				}
			}
			if !rep.OK {
				if rep.Table != "" {
					return &exitCodeError{code: exitError, err: fmt.Errorf("%w: table %s row %s (log entry %d): %s", memgov.ErrTampered, rep.Table, rep.Row, rep.BadLSN, rep.Problem)}
				}
				return &exitCodeError{code: exitError, err: fmt.Errorf("%w at LSN %d: %s", memgov.ErrTampered, rep.BadLSN, rep.Problem)}
			}
			return nil
		},
	}
	verify.Flags().BoolVar(&verifyJSON, "json", false, "print JSON")
	verify.Flags().BoolVar(&verifyReplay, "replay", false, "recompute every entry and replay the whole log, even when the last verify's mark and digest still match")
	var (
		ttl int64
		by  string
	)
	checkpoint := &cobra.Command{
		Use:   "checkpoint",
		Short: "Record a signed checkpoint of the log",
		Long: `checkpoint records {audit_chain_root, tree_size, seq, observed_at, ttl_seconds},
signed with HMAC-SHA256 under the log key, and prints it with the algorithms it
was taken with (hash_alg sha256, chain_mode merkle-log). Keep the printed JSON
outside the database: ` + "`memgov audit prove --checkpoint FILE`" + ` later shows the log still
extends it (agent-manifest 3.2.7.1).`,
		Example: "  memgov audit checkpoint --ttl 86400 > checkpoint.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rec, err := eng.Audit().Checkpoint(cmd.Context(), ttl, by)
			if err != nil {
				return err
			}
			return a.printJSON(audit.Held(rec))
		},
	}
	checkpoint.Flags().Int64Var(&ttl, "ttl", 86400, "seconds the checkpoint stays valid (60..7776000)")
	checkpoint.Flags().StringVar(&by, "by", "memgov", "who records it")
	var (
		from, to, lsn int64
		cpFile        string
	)
	prove := &cobra.Command{
		Use:   "prove (--from SIZE [--to SIZE] | --lsn N) [--checkpoint FILE]",
		Short: "Print RFC 9162 consistency and inclusion proofs, and check a held checkpoint",
		Long: `prove prints the consistency proof that the log at --from entries is a prefix of
the log at --to entries (default: now), checked before it is printed. With --lsn
it prints the inclusion proof (audit path) of that entry's leaf in the log of
--to entries (default: now) instead. With --checkpoint it also checks a signed
checkpoint you kept, by the 3.2.7.1 rules, and exits 1 unless the verdict is
ACCEPT (rollback, expired or MISMATCH say why).`,
		Example: "  memgov audit prove --from 1200\n  memgov audit prove --from 2 --to 3 --json\n  memgov audit prove --lsn 17\n  memgov audit prove --checkpoint checkpoint.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("lsn") {
				if cmd.Flags().Changed("from") || cpFile != "" {
					return usagef("--lsn prints an inclusion proof; give it without --from or --checkpoint")
				}
				p, err := eng.Audit().ProveInclusion(cmd.Context(), lsn, to)
				if err != nil {
					return err
				}
				return a.printJSON(p)
			}
			var held *audit.HeldCheckpoint
			if cpFile != "" {
				b, err := os.ReadFile(cpFile)
				if err != nil {
					return err
				}
				held = new(audit.HeldCheckpoint)
				if err := json.Unmarshal(b, held); err != nil {
					return usagef("%s is not a memgov checkpoint: %v", cpFile, err)
				}
				if from == 0 {
					from = int64(held.TreeSize)
				}
			}
			if from == 0 {
				return usagef("give --from SIZE, --lsn N or --checkpoint FILE")
			}
			p, err := eng.Audit().ProveRange(cmd.Context(), from, to)
			if err != nil && held == nil {
				return err
			}
			out := map[string]any{}
			if err == nil {
				out["proof"] = p
			}
			if held != nil {
				v, err := eng.Audit().AcceptHeld(cmd.Context(), *held)
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
	prove.Flags().Int64Var(&to, "to", 0, "the later log size (default: the log now)")
	prove.Flags().Int64Var(&lsn, "lsn", 0, "print the inclusion proof of this log entry")
	prove.Flags().StringVar(&cpFile, "checkpoint", "", "a checkpoint JSON printed by `memgov audit checkpoint`")
	var exFrom, exTo int64
	export := &cobra.Command{
		Use:   "export [--from LSN] [--to LSN]",
		Short: "Print log entries as canonical JSON with their leaf hashes, one a line",
		Long: `export prints, one JSON object a line, each log entry as the canonical JSON its
leaf commits to (spec §3.2.7.1), its leaf hash, and the unkeyed hash-chained value
up to it. A verifier without the log key recomputes every leaf with any RFC 8785
library and SHA-256, the Merkle root with ` + "`memgov merkle root --tag trace`" + ` over the
entries, and the hash chain; ` + "`memgov audit root`" + ` prints both roots. Payloads
(content, reasons) are not exported: entries commit to them by payload_hash.`,
		Example: "  memgov audit export > entries.jsonl\n  memgov audit export --from 100 --to 200",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			return eng.Audit().ExportAudit(cmd.Context(), exFrom, exTo, func(e audit.ExportedEntry) error {
				return a.printJSONLine(e)
			})
		},
	}
	export.Flags().Int64Var(&exFrom, "from", 1, "the first LSN")
	export.Flags().Int64Var(&exTo, "to", 0, "the last LSN (default: the last entry)")
	cmd.AddCommand(root, verify, checkpoint, prove, export)
	return cmd
}

func (a *app) adminCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "admin",
		Short:   "Maintenance of the database",
		Example: "  memgov admin rebuild",
	}
	var asJSON, dryRun bool
	rebuild := &cobra.Command{
		Use:   "rebuild",
		Short: "Rebuild every derived table from the log and report differences",
		Long: `rebuild replays the append-only log into fresh derived tables (items, versions,
principals, ...) in one transaction and lists every row that differed from what
was there. The log itself is never changed. A log that does not verify (see
` + "`memgov audit verify`" + `) is refused: nothing is replayed and rebuild exits 1.
With --dry-run it replays into scratch tables and lists the differences without
changing anything.`,
		Example: "  memgov admin rebuild --dry-run\n  memgov admin rebuild --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rebuild := eng.Audit().Rebuild
			if dryRun {
				rebuild = eng.Audit().RebuildDryRun
			}
			rep, err := rebuild(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(map[string]any{"entries": rep.Entries, "rows": rep.Tables, "differences": rep.Differences, "dry_run": dryRun})
			}
			fmt.Fprintf(a.stdout, "replayed %d log entries\n", rep.Entries)
			if len(rep.Differences) == 0 {
				fmt.Fprintln(a.stdout, "no differences: the tables matched the log")
				return nil
			}
			if dryRun {
				fmt.Fprintf(a.stdout, "%d differences (dry run: nothing was changed):\n", len(rep.Differences))
			} else {
				fmt.Fprintf(a.stdout, "%d differences (the tables now match the log):\n", len(rep.Differences))
			}
			for _, d := range rep.Differences {
				fmt.Fprintln(a.stdout, "  "+d)
			}
			return nil
		},
	}
	rebuild.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	rebuild.Flags().BoolVar(&dryRun, "dry-run", false, "replay into scratch tables and report, changing nothing")
	cmd.AddCommand(rebuild, a.reembedCommand(), a.reindexCommand()) // cmd_reembed.go, cmd_reindex.go
	cmd.AddCommand(a.migrateCommand())                              // cmd_migrate.go
	return cmd
}
