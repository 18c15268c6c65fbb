package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine"
)

// benchAuditResult is what `memgov bench audit` prints.
type benchAuditResult struct {
	Entries     int64   `json:"log_entries"`
	Refs        int     `json:"memory_refs"`
	SeedSeconds float64 `json:"seed_seconds"`
	// ReplayVerifyMS is `audit verify` when no replay was recorded: the log
	// check and a replay of the whole log compared with every served table.
	ReplayVerifyMS float64 `json:"replay_verify_ms"`
	// DigestVerifyMS is `audit verify` of the same, unchanged log: the log
	// check and the served tables' digest compared with the recorded one.
	DigestVerifyMS float64 `json:"unchanged_verify_ms"`
	// AfterAppendMS is `audit verify` after one more entry (a replay again).
	AfterAppendMS float64          `json:"verify_after_append_ms"`
	Rows          map[string]int64 `json:"served_rows"`
}

func (a *app) benchAuditCommand() *cobra.Command {
	var (
		entries, refs, valueBytes int
		dir                       string
		asJSON                    bool
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Measure `audit verify` over a log of --entries entries",
		Long: `audit seeds a scratch database with --entries INSERT entries spread over --refs
memoryRefs (batched appends in large transactions) and measures ` + "`memgov audit verify`" + `:
first with a full replay of the log compared row by row with every served table,
then again on the unchanged log (served tables compared with the recorded
digest), then after one more entry.`,
		Example: "  memgov bench audit --entries 100000 --json\n  memgov bench audit --entries 1000000",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if entries < 1 || refs < 1 || valueBytes < 8 {
				return usagef("--entries and --refs must be positive and --value-bytes at least 8")
			}
			res, err := runBenchAudit(cmd.Context(), dir, entries, refs, valueBytes, func(s string) {
				if !asJSON {
					fmt.Fprintln(a.stderr, s)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(res)
			}
			t := a.table("MEASURE", "VALUE")
			t.row("log entries", fmt.Sprint(res.Entries))
			t.row("seed", fmt.Sprintf("%.1f s", res.SeedSeconds))
			t.row("verify with replay", fmt.Sprintf("%.0f ms", res.ReplayVerifyMS))
			t.row("verify, log unchanged", fmt.Sprintf("%.0f ms", res.DigestVerifyMS))
			t.row("verify after one append", fmt.Sprintf("%.0f ms", res.AfterAppendMS))
			t.flush()
			return nil
		},
	}
	cmd.Flags().IntVar(&entries, "entries", 100000, "log entries to seed")
	cmd.Flags().IntVar(&refs, "refs", 100, "memoryRefs the entries are spread over")
	cmd.Flags().IntVar(&valueBytes, "value-bytes", 64, "bytes of each item's text")
	cmd.Flags().StringVar(&dir, "dir", "", "keep the scratch database in this directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runBenchAudit(ctx context.Context, dir string, entries, refs, valueBytes int, progress func(string)) (benchAuditResult, error) {
	res := benchAuditResult{Refs: refs}
	s, done, err := openScratch(ctx, dir)
	if err != nil {
		return res, err
	}
	defer done()
	e := engine.New(s, benchKey)
	if _, err := e.AddPrincipal(ctx, engine.Principal{ID: "bench-agent", Role: engine.Executor, Tenant: "bench"}, "bench"); err != nil {
		return res, err
	}
	filler := strings.Repeat("x", valueBytes)
	conf := 0.9
	appendOne := func(tx engine.Tx, i int) error {
		content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact %d %s", i, filler[:valueBytes-8])})
		entry := &engine.LogEntry{Time: e.Now(), Op: engine.OpInsert, MemoryRef: fmt.Sprintf("bench/agent-%03d", i%refs), ItemID: engine.NewID(),
			VersionID: engine.NewID(), Actor: "bench-agent"}
		if err := entry.Seal(engine.Payload{Key: fmt.Sprintf("k%08d", i), Layer: string(engine.Semantic), Content: content,
			ContentHash: engine.HashPayload(content), Confidence: &conf, Reason: "bench seed"}); err != nil {
			return err
		}
		return tx.Append(ctx, entry)
	}
	start := time.Now()
	const batch = 20000
	n := entries - 1 // the principal is the first entry
	for from := 0; from < n; from += batch {
		if err := s.Update(ctx, func(tx engine.Tx) error {
			for i := from; i < min(from+batch, n); i++ {
				if err := appendOne(tx, i); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return res, err
		}
		progress(fmt.Sprintf("seeded %d/%d", min(from+batch, n)+1, entries))
	}
	res.SeedSeconds = time.Since(start).Seconds()
	verify := func(want string) (float64, error) {
		t := time.Now()
		rep, err := e.Verify(ctx)
		if err != nil {
			return 0, err
		}
		if !rep.OK || rep.Served != want {
			return 0, fmt.Errorf("bench: verify: %+v, want ok by %s", rep, want)
		}
		if rep.Rows != nil {
			res.Rows = rep.Rows
		}
		res.Entries = rep.TreeSize
		return msSince(t), nil
	}
	if res.ReplayVerifyMS, err = verify("replay"); err != nil {
		return res, err
	}
	progress(fmt.Sprintf("verify with replay: %.0f ms", res.ReplayVerifyMS))
	if res.DigestVerifyMS, err = verify("digest"); err != nil {
		return res, err
	}
	if err := s.Update(ctx, func(tx engine.Tx) error { return appendOne(tx, n) }); err != nil {
		return res, err
	}
	if res.AfterAppendMS, err = verify("replay"); err != nil {
		return res, err
	}
	return res, nil
}
