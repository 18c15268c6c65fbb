package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
)

// benchAuditPoint is `audit verify` measured at one log size.
type benchAuditPoint struct {
	Entries     int64   `json:"log_entries"`
	SeedSeconds float64 `json:"seed_seconds"` // cumulative
	// ReplayVerifyMS is `audit verify` with a replay: the log check and a
	// replay of the whole log compared row by row with every served table.
	ReplayVerifyMS float64 `json:"replay_verify_ms"`
	// UnchangedVerifyMS is `audit verify` of the same, unchanged log: the log
	// check and the served tables' digest compared with the recorded one.
	UnchangedVerifyMS float64 `json:"unchanged_verify_ms"`
	// AppendedVerifyMS is `audit verify` after --appends more entries were
	// appended to the verified log (Served says how the served tables were
	// checked: "incremental" replays only the new entries).
	AppendedVerifyMS float64 `json:"appended_verify_ms"`
	// AppendedVerifyCPUMS is the processor time (user and system) of that
	// verify: on a shared machine the wall time also counts waiting for it.
	AppendedVerifyCPUMS float64          `json:"appended_verify_cpu_ms"`
	Appends             int              `json:"appends"`
	AppendedServed      string           `json:"appended_served"`
	Rows                map[string]int64 `json:"served_rows"`
}

func (a *app) benchAuditCommand() *cobra.Command {
	var (
		sizes            []int
		refs, valueBytes int
		appends          int
		dir, cpuProfile  string
		asJSON           bool
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Measure `audit verify` over logs of the given sizes",
		Long: `audit seeds a scratch database with INSERT entries spread over --refs memoryRefs
(batched appends in large transactions) and, each time the log reaches one of
the --entries sizes, measures ` + "`memgov audit verify`" + `: first with a replay of the
whole log compared row by row with every served table, then again on the
unchanged log (the served tables compared with the digest the replay recorded),
then after --appends more entries (what a verify after new writes costs).
--cpuprofile writes a pprof CPU profile of the verify after appends (the
last size's, when several are given). With --db postgres://... it runs on
that PostgreSQL database instead, which must be empty.`,
		Example: "  memgov bench audit --entries 100000 --json\n  memgov bench audit --entries 100000,1000000\n  memgov bench audit --entries 100000 --cpuprofile verify.prof\n  memgov --db postgres:///memgov_bench bench audit --entries 20000",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(sizes) == 0 || refs < 1 || valueBytes < 8 || !slices.IsSorted(sizes) || sizes[0] < 2 || appends < 1 {
				return usagef("--entries must be ascending sizes of at least 2, --refs and --appends positive and --value-bytes at least 8")
			}
			if !asJSON {
				fmt.Fprintf(a.stdout, "%-10s %-10s %-18s %-20s %s\n", "ENTRIES", "SEED", "VERIFY (REPLAY)", "VERIFY (UNCHANGED)", "VERIFY (AFTER APPENDS)")
			}
			err := runBenchAudit(cmd.Context(), a.benchTarget(cmd, dir), sizes, refs, valueBytes, appends, cpuProfile, func(s string) {
				if !asJSON {
					fmt.Fprintln(a.stderr, s)
				}
			}, func(p benchAuditPoint) error {
				if asJSON {
					return a.printJSONLine(p)
				}
				_, err := fmt.Fprintf(a.stdout, "%-10d %-10s %-18s %-20s %s\n", p.Entries, fmt.Sprintf("%.1f s", p.SeedSeconds),
					fmt.Sprintf("%.0f ms", p.ReplayVerifyMS), fmt.Sprintf("%.0f ms", p.UnchangedVerifyMS),
					fmt.Sprintf("%.0f ms, cpu %.0f ms (%d appends, %s)", p.AppendedVerifyMS, p.AppendedVerifyCPUMS, p.Appends, p.AppendedServed))
				return err
			})
			return err
		},
	}
	cmd.Flags().IntSliceVar(&sizes, "entries", []int{100000}, "log sizes to measure at, ascending")
	cmd.Flags().IntVar(&refs, "refs", 100, "memoryRefs the entries are spread over")
	cmd.Flags().IntVar(&valueBytes, "value-bytes", 64, "bytes of each item's text")
	cmd.Flags().IntVar(&appends, "appends", 100, "entries appended to the verified log before the last verify")
	cmd.Flags().StringVar(&dir, "dir", "", "keep the scratch database in this directory")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the verifies after appends to `FILE`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON line per size")
	return cmd
}

func runBenchAudit(ctx context.Context, dir string, sizes []int, refs, valueBytes, appends int, cpuProfile string, progress func(string), report func(benchAuditPoint) error) error {
	s, done, err := openBenchStore(ctx, dir) // cmd_bench_pg.go: dir may be a PostgreSQL URL
	if err != nil {
		return err
	}
	defer done()
	e := engine.New(s, benchKey)
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "bench-agent", Role: memgov.Executor, Tenant: "bench"}, "bench"); err != nil {
		return err
	}
	filler := strings.Repeat("x", valueBytes)
	conf := 0.9
	appendOne := func(tx memgov.Tx, i int) error {
		content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact %d %s", i, filler[:valueBytes-8])})
		entry := &oplog.Entry{Time: e.Now(), Op: oplog.Insert, MemoryRef: fmt.Sprintf("bench/agent-%03d", i%refs), ItemID: oplog.NewID(),
			VersionID: oplog.NewID(), Actor: "bench-agent"}
		if err := entry.Seal(oplog.Payload{Key: fmt.Sprintf("k%08d", i), Layer: string(memgov.Semantic), Content: content,
			ContentHash: oplog.HashPayload(content), Confidence: &conf, Reason: "bench seed"}); err != nil {
			return err
		}
		return tx.Append(ctx, entry)
	}
	var seeding time.Duration
	next := 0 // items seeded; the principal is entry 1
	for _, size := range sizes {
		start := time.Now()
		const batch = 5000 // PostgreSQL plans a long transaction's statements on the statistics from before it
		for next < size-1 {
			if err := s.Update(ctx, func(tx memgov.Tx) error {
				for end := min(next+batch, size-1); next < end; next++ {
					if err := appendOne(tx, next); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				return err
			}
			progress(fmt.Sprintf("%s seeded %d/%d", time.Now().UTC().Format(time.TimeOnly), next+1, sizes[len(sizes)-1]))
		}
		seeding += time.Since(start)
		p := benchAuditPoint{SeedSeconds: seeding.Seconds()}
		verify := func(want string) (float64, error) {
			t := time.Now()
			rep, err := e.Audit().Verify(ctx)
			if err != nil {
				return 0, err
			}
			if want == "" {
				want, p.AppendedServed = rep.Served, rep.Served
			}
			if !rep.OK || rep.Served != want {
				return 0, fmt.Errorf("bench: verify: %+v, want ok by %s", rep, want)
			}
			if rep.Rows != nil {
				p.Rows = rep.Rows
			}
			p.Entries = rep.TreeSize
			return msSince(t), nil
		}
		if p.ReplayVerifyMS, err = verify("replay"); err != nil {
			return err
		}
		progress(fmt.Sprintf("%s verify with replay at %d entries: %.0f ms", time.Now().UTC().Format(time.TimeOnly), p.Entries, p.ReplayVerifyMS))
		if p.UnchangedVerifyMS, err = verify("digest"); err != nil {
			return err
		}
		// More writes after the verify: the next verify checks them.
		if err := s.Update(ctx, func(tx memgov.Tx) error {
			for end := next + appends; next < end; next++ {
				if err := appendOne(tx, next); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		p.Appends = appends
		stop := func() {}
		if cpuProfile != "" {
			if stop, err = startCPUProfile(cpuProfile); err != nil {
				return err
			}
		}
		cpu := processCPU()
		p.AppendedVerifyMS, err = verify("")
		stop()
		if err != nil {
			return err
		}
		p.AppendedVerifyCPUMS = float64((processCPU() - cpu).Microseconds()) / 1000
		if err := report(p); err != nil {
			return err
		}
	}
	return nil
}
