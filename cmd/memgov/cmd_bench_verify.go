package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
)

// benchVerifyResult is what `memgov bench verify` prints.
type benchVerifyResult struct {
	Items             int     `json:"items"`
	ValueBytes        int     `json:"value_bytes"`
	SeedSeconds       float64 `json:"seed_seconds"`
	ApproveMS         float64 `json:"approve_ms"`
	UnchangedVerifyMS float64 `json:"unchanged_verify_ms"` // median
	GovernedWriteMS   float64 `json:"governed_write_ms"`   // median: DriftGate + commit + op log + checkpoint advance
	VerifyAfterMS     float64 `json:"verify_after_write_ms"`
	CheckpointSeq     uint64  `json:"checkpoint_seq"`
	RehashMS          float64 `json:"full_rehash_ms"`
	CanonicalBytes    int64   `json:"canonical_bytes"`
	RehashMBps        float64 `json:"full_rehash_mb_per_s"`
	DeepVerifyMS      float64 `json:"deep_verify_ms"`
	Targets           struct {
		UnchangedUnder1ms      bool `json:"unchanged_verify_under_1ms"`
		WriteUnder5ms          bool `json:"governed_write_under_5ms"`
		RehashAtLeast200MBps   bool `json:"rehash_at_least_200mb_s"`
		VerifyAfterWriteUnder5 bool `json:"verify_after_write_under_5ms"`
	} `json:"targets"`
}

func (a *app) benchVerifyCommand() *cobra.Command {
	var (
		items, valueBytes, reps int
		dir                     string
		asJSON                  bool
	)
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Measure baseline verification: unchanged, after a governed write, and a full re-hash",
		Long: `verify seeds a scratch database with --items memory items in one memoryRef (batched
appends in large transactions), approves a deny-on-drift baseline and measures:
verification when nothing changed (served from the cached state hash), one governed
write (DriftGate, commit, PUT op and checkpoint advance) and the verification after
it (bound by the checkpoint), and a full snapshot re-hash with its throughput in MB/s
of canonical bytes. Targets at 1,000,000 items: < 1 ms, < 5 ms, >= 200 MB/s.`,
		Example: "  memgov bench verify --items 100000 --json\n  memgov bench verify --items 1000000 --value-bytes 200",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if items < 1 || valueBytes < 8 || reps < 1 {
				return usagef("--items and --reps must be positive and --value-bytes at least 8")
			}
			res, err := runBenchVerify(cmd.Context(), dir, items, valueBytes, reps, func(s string) {
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
			t.row("items", fmt.Sprint(res.Items))
			t.row("seed", fmt.Sprintf("%.1f s", res.SeedSeconds))
			t.row("unchanged verify (median)", fmt.Sprintf("%.3f ms", res.UnchangedVerifyMS))
			t.row("one governed write (median)", fmt.Sprintf("%.3f ms", res.GovernedWriteMS))
			t.row("verify after the write", fmt.Sprintf("%.3f ms", res.VerifyAfterMS))
			t.row("full re-hash", fmt.Sprintf("%.1f ms, %d bytes, %.1f MB/s", res.RehashMS, res.CanonicalBytes, res.RehashMBps))
			t.row("deep verify", fmt.Sprintf("%.1f ms", res.DeepVerifyMS))
			t.flush()
			return nil
		},
	}
	cmd.Flags().IntVar(&items, "items", 100000, "memory items to seed")
	cmd.Flags().IntVar(&valueBytes, "value-bytes", 200, "approximate bytes of each item's text")
	cmd.Flags().IntVar(&reps, "reps", 50, "repetitions of the fast measurements")
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the scratch database (default: a temporary one, removed after)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func median(d []time.Duration) float64 {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return float64(d[len(d)/2].Microseconds()) / 1000
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func runBenchVerify(ctx context.Context, dir string, items, valueBytes, reps int, progress func(string)) (benchVerifyResult, error) {
	res := benchVerifyResult{Items: items, ValueBytes: valueBytes}
	s, done, err := openScratch(ctx, dir)
	if err != nil {
		return res, err
	}
	defer done()
	key := benchKey
	e := engine.New(s, key)
	for _, p := range []memgov.Principal{{ID: "bench-agent", Role: memgov.Executor, Tenant: "bench"}, {ID: "bench-operator", Role: memgov.Operator, Tenant: "bench"}} {
		if _, err := e.AddPrincipal(ctx, p, "bench"); err != nil {
			return res, err
		}
	}
	const ref = "bench/agent"
	filler := strings.Repeat("x", valueBytes)
	start := time.Now()
	const batch = 20000
	conf := 0.9
	for from := 0; from < items; from += batch {
		err := s.Update(ctx, func(tx memgov.Tx) error {
			for i := from; i < min(from+batch, items); i++ {
				content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("fact %d %s", i, filler[:valueBytes-8])})
				entry := &oplog.Entry{Time: e.Now(), Op: oplog.Insert, MemoryRef: ref, ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bench-agent"}
				if err := entry.Seal(oplog.Payload{Key: fmt.Sprintf("k%08d", i), Layer: string(memgov.Semantic), Content: content,
					ContentHash: oplog.HashPayload(content), Confidence: &conf, Reason: "bench seed"}); err != nil {
					return err
				}
				if err := tx.Append(ctx, entry); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return res, err
		}
		progress(fmt.Sprintf("seeded %d/%d", min(from+batch, items), items))
	}
	res.SeedSeconds = time.Since(start).Seconds()

	t := time.Now()
	if _, err := e.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: ref, By: "bench-operator", MemoryType: memgov.MemoryPersistent,
		TTLSeconds: 86400, DriftPolicy: policy.DenyOnDrift, Level: 2}); err != nil {
		return res, err
	}
	res.ApproveMS = msSince(t)

	verify := func() (memgov.VerifyResult, time.Duration, error) {
		t := time.Now()
		r, err := e.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref})
		return r, time.Since(t), err
	}
	var ds []time.Duration
	for i := 0; i < reps; i++ {
		r, d, err := verify()
		if err != nil {
			return res, err
		}
		if !r.Valid {
			return res, fmt.Errorf("bench: unchanged memory did not verify: %+v", r)
		}
		ds = append(ds, d)
	}
	res.UnchangedVerifyMS = median(ds)

	ds = ds[:0]
	var after []time.Duration
	budget := e.Policy().Baseline.DeltaBudget
	for i := 0; i < reps && i < budget; i++ {
		content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("governed change %d", i)})
		t := time.Now()
		err := s.Update(ctx, func(tx memgov.Tx) error {
			g, err := e.DriftGate(ctx, tx, ref)
			if err != nil {
				return err
			}
			if g.Deny {
				return fmt.Errorf("bench: drift gate denied: %+v", g)
			}
			entry := &oplog.Entry{Time: e.Now(), Op: oplog.Insert, MemoryRef: ref, ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bench-agent"}
			if err := entry.Seal(oplog.Payload{Key: fmt.Sprintf("new-%04d", i), Layer: string(memgov.Semantic), Content: content,
				ContentHash: oplog.HashPayload(content), Confidence: &conf}); err != nil {
				return err
			}
			return tx.Append(ctx, entry)
		})
		if err != nil {
			return res, err
		}
		ds = append(ds, time.Since(t))
		r, d, err := verify()
		if err != nil {
			return res, err
		}
		if !r.Valid || r.Checkpoint == nil {
			return res, fmt.Errorf("bench: governed write did not verify: %+v", r)
		}
		res.CheckpointSeq = r.Checkpoint.Seq
		after = append(after, d)
	}
	res.GovernedWriteMS, res.VerifyAfterMS = median(ds), median(after)

	t = time.Now()
	info, err := e.Baselines().SnapshotHash(ctx, ref, "")
	if err != nil {
		return res, err
	}
	el := time.Since(t)
	res.RehashMS, res.CanonicalBytes = float64(el.Microseconds())/1000, info.Bytes
	res.RehashMBps = float64(info.Bytes) / 1e6 / el.Seconds()

	t = time.Now()
	if r, err := e.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref, Deep: true}); err != nil || !r.Valid {
		return res, fmt.Errorf("bench: deep verify: %+v %v", r, err)
	}
	res.DeepVerifyMS = msSince(t)
	res.Targets.UnchangedUnder1ms = res.UnchangedVerifyMS < 1
	res.Targets.WriteUnder5ms = res.GovernedWriteMS < 5
	res.Targets.VerifyAfterWriteUnder5 = res.VerifyAfterMS < 5
	res.Targets.RehashAtLeast200MBps = res.RehashMBps >= 200
	return res, nil
}
