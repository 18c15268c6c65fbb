package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/writes"
)

// benchQueueReport is the review queue measured at one size.
type benchQueueReport struct {
	Reviews     int     `json:"reviews"`
	SeedSeconds float64 `json:"seed_seconds"`
	Samples     int     `json:"samples"`
	// Each measure is the first page (50 rows) of the queue as a curator who
	// just typed the filter or changed the order sees it: a new session each
	// time, so nothing read before serves it.
	Filter  benchQueueStats `json:"filter"`   // one free-text word matching 1 review in 1,000
	Filter2 benchQueueStats `json:"filter_2"` // two words, both must match
	SortAge benchQueueStats `json:"sort_age"`
	SortSLA benchQueueStats `json:"sort_sla"`
}

type benchQueueStats struct {
	P50MS float64 `json:"p50_ms"`
	P95MS float64 `json:"p95_ms"`
	// CPUP50MS and CPUP95MS are the processor time of the same pages: on a
	// shared machine the wall time also counts waiting for a processor.
	CPUP50MS float64 `json:"cpu_p50_ms"`
	CPUP95MS float64 `json:"cpu_p95_ms"`
	Matched  int     `json:"matched"` // open reviews the last sample matched
}

func quantileMS(ds []time.Duration, q float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return float64(s[max(0, min(i, len(s)-1))].Microseconds()) / 1000
}

func (a *app) benchQueueCommand() *cobra.Command {
	var (
		reviews, samples int
		dir              string
		asJSON           bool
	)
	cmd := &cobra.Command{
		Use:   "queue",
		Short: "Measure the review queue's free-text filter and its age and SLA sorts",
		Long: `queue seeds a scratch database with --reviews open reviews (STAGE entries appended
in large transactions) and measures the first page of the review queue as a
curator sees it: filtered by one free-text word, by two words, sorted by age
and sorted by SLA. Each is measured --samples times in a new session, with a
different word each time, and reported as p50 and p95.`,
		Example: "  memgov bench queue --reviews 100000\n  memgov bench queue --reviews 100000 --samples 20 --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if reviews < 1000 || samples < 1 {
				return usagef("--reviews must be at least 1000 and --samples positive")
			}
			rep, err := runBenchQueue(cmd.Context(), dir, reviews, samples, func(s string) {
				if !asJSON {
					fmt.Fprintln(a.stderr, s)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSONLine(rep)
			}
			fmt.Fprintf(a.stdout, "%d open reviews, seeded in %.1f s, %d samples each\n", rep.Reviews, rep.SeedSeconds, rep.Samples)
			t := a.table("MEASURE", "P50 MS", "P95 MS", "CPU P50 MS", "CPU P95 MS", "MATCHED")
			for _, r := range []struct {
				name string
				s    benchQueueStats
			}{{"filter (1 word)", rep.Filter}, {"filter (2 words)", rep.Filter2}, {"sort by age", rep.SortAge}, {"sort by SLA", rep.SortSLA}} {
				t.row(r.name, fmt.Sprintf("%.1f", r.s.P50MS), fmt.Sprintf("%.1f", r.s.P95MS), fmt.Sprintf("%.1f", r.s.CPUP50MS),
					fmt.Sprintf("%.1f", r.s.CPUP95MS), fmt.Sprint(r.s.Matched))
			}
			t.flush()
			return nil
		},
	}
	cmd.Flags().IntVar(&reviews, "reviews", 100000, "open reviews to seed")
	cmd.Flags().IntVar(&samples, "samples", 20, "measurements of each query")
	cmd.Flags().StringVar(&dir, "dir", "", "keep the scratch database in this directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON line")
	return cmd
}

func runBenchQueue(ctx context.Context, dir string, reviews, samples int, progress func(string)) (benchQueueReport, error) {
	rep := benchQueueReport{Reviews: reviews, Samples: samples}
	s, done, err := openScratch(ctx, dir)
	if err != nil {
		return rep, err
	}
	defer done()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := base.Add(time.Duration(reviews+1) * time.Second)
	e := engine.New(s, benchKey, engine.WithClock(func() time.Time { return now }))
	curator := memgov.Principal{ID: "bench-curator", Role: memgov.Curator, Tenant: memgov.AllTenants}
	if _, err := e.AddPrincipal(ctx, curator, "bench"); err != nil {
		return rep, err
	}
	c := newCorpus(26)
	reasons := []string{"CONTRADICTION", "HIGH_RISK", "LOW_FACTUAL_SCORE", "SEMANTIC_CONFLICT"}
	conf := 0.8
	start := time.Now()
	const batch = 10000
	for next := 0; next < reviews; {
		if err := s.Update(ctx, func(tx memgov.Tx) error {
			for end := min(next+batch, reviews); next < end; next++ {
				i := next
				at := base.Add(time.Duration(i) * time.Second)
				tier, due := writes.TierAsync, at.Add(time.Duration(48+(i*7919)%240)*time.Hour)
				if i%10 == 0 {
					tier, due = memgov.TierSync, at.Add(30*time.Hour+time.Duration((i*31)%600)*time.Minute) // none past due while measured
				}
				reason := reasons[i%len(reasons)]
				detail, _ := json.Marshal(writes.ReviewDetail{Reasons: []string{reason}})
				content, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("%s topic%04d", c.sentence(), i%1000)})
				data, _ := json.Marshal(oplog.VersionData{Review: &oplog.StagedReview{ID: fmt.Sprintf("rv%07d", i), Tier: tier,
					Risk: float64((i*37)%100) / 100, Reason: reason, DueAt: due.Format(oplog.TimeFormat), Detail: detail}})
				entry := &oplog.Entry{Time: at, Op: oplog.Stage, MemoryRef: fmt.Sprintf("bench/agent-%02d", i%50), ItemID: oplog.NewID(),
					VersionID: oplog.NewID(), Actor: fmt.Sprintf("agent-%02d", i%50)}
				if err := entry.Seal(oplog.Payload{Key: fmt.Sprintf("k%07d", i), Layer: string(memgov.Semantic), Content: content,
					ContentHash: oplog.HashPayload(content), Confidence: &conf, Reason: "staged for review: " + reason, Data: data}); err != nil {
					return err
				}
				if err := tx.Append(ctx, entry); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return rep, err
		}
	}
	rep.SeedSeconds = time.Since(start).Seconds()
	progress(fmt.Sprintf("seeded %d reviews in %.1f s", reviews, rep.SeedSeconds))
	measure := func(name string, f func(i int) review.QueueFilter) (benchQueueStats, error) {
		var ds, cpus []time.Duration
		var st benchQueueStats
		for i := range samples {
			q := review.New(e, curator).Queue()
			t, cpu := time.Now(), processCPU()
			p, err := q.Page(ctx, f(i), 0, 50)
			if err != nil {
				return st, fmt.Errorf("bench: %s: %w", name, err)
			}
			ds, cpus = append(ds, time.Since(t)), append(cpus, processCPU()-cpu)
			st.Matched = p.Total
			if len(p.Rows) == 0 {
				return st, fmt.Errorf("bench: %s matched nothing", name)
			}
		}
		st.P50MS, st.P95MS = quantileMS(ds, 0.50), quantileMS(ds, 0.95)
		st.CPUP50MS, st.CPUP95MS = quantileMS(cpus, 0.50), quantileMS(cpus, 0.95)
		progress(fmt.Sprintf("%s: p50 %.1f ms, p95 %.1f ms (cpu p50 %.1f ms, p95 %.1f ms)", name, st.P50MS, st.P95MS, st.CPUP50MS, st.CPUP95MS))
		return st, nil
	}
	if rep.Filter, err = measure("filter", func(i int) review.QueueFilter {
		return review.QueueFilter{Text: fmt.Sprintf("topic%04d", (i*97)%1000)}
	}); err != nil {
		return rep, err
	}
	if rep.Filter2, err = measure("filter 2 words", func(i int) review.QueueFilter {
		return review.QueueFilter{Text: fmt.Sprintf("topic%04d k%07d", (i*89)%1000, (i*89)%1000+1000*(i%(reviews/1000)))}
	}); err != nil {
		return rep, err
	}
	if rep.SortAge, err = measure("sort by age", func(int) review.QueueFilter { return review.QueueFilter{Sort: review.SortAge} }); err != nil {
		return rep, err
	}
	if rep.SortSLA, err = measure("sort by SLA", func(int) review.QueueFilter { return review.QueueFilter{Sort: review.SortSLA} }); err != nil {
		return rep, err
	}
	return rep, nil
}
