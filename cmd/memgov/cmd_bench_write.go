package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/similar"
	"github.com/memgov/memgov/store/sqlite"
)

// writeHeapProfile writes a pprof heap profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	return f.Close()
}

// startCPUProfile starts a CPU profile into path; stop ends it and closes the
// file (stopping twice is harmless).
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// countsOf prints outcome counts in a stable order: "COMMITTED=2000".
func countsOf(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// latencyStats summarises a sample of durations.
type latencyStats struct {
	N         int     `json:"n"`
	PerSecond float64 `json:"per_second"`
	P50MS     float64 `json:"p50_ms"`
	P99MS     float64 `json:"p99_ms"`
	// CPUMS is the process's processor time (user and system, every
	// goroutine) per operation over the measured run: on a shared machine
	// it moves less than the wall-clock percentiles. 0 where not measured.
	CPUMS float64 `json:"cpu_ms,omitempty"`
}

func statsOf(ds []time.Duration, wall time.Duration) latencyStats {
	if len(ds) == 0 {
		return latencyStats{}
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	pct := func(p float64) float64 {
		return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds()) / 1000
	}
	return latencyStats{N: len(s), PerSecond: float64(len(s)) / wall.Seconds(), P50MS: pct(0.50), P99MS: pct(0.99)}
}

type benchWriteReport struct {
	Items    int            `json:"items"`
	Raw      latencyStats   `json:"raw_insert"` // plain single-row INSERT transactions, same file and pragmas
	Put      latencyStats   `json:"engine_put"` // ungated engine puts: one log entry and its derived rows
	Governed latencyStats   `json:"governed_write"`
	Ratio    float64        `json:"governed_over_raw"`
	PutRatio float64        `json:"governed_over_put"`
	Lookup   latencyStats   `json:"near_duplicate_lookup"`
	Recall   float64        `json:"dedup_recall"`
	RecallOf int            `json:"recall_pairs"`
	SeedSecs float64        `json:"seed_seconds"`
	Statuses map[string]int `json:"governed_statuses"`
	// Store is the store measured; on PostgreSQL, the statements (each a
	// round trip to the server) the store sent per put and per governed
	// write.
	Store              string  `json:"store"`
	StatementsPerPut   float64 `json:"statements_per_put,omitempty"`
	StatementsPerWrite float64 `json:"statements_per_governed_write,omitempty"`
	// Stages are the governed writes' per-step latencies, as the write
	// path records them (one sample per write the step ran for).
	Stages map[string]stageStats `json:"governed_stages"`
	// ResidentMB is the process's peak resident memory at the end of the
	// run (Linux: VmHWM), 0 where unknown.
	ResidentMB float64 `json:"peak_resident_mb"`
	// WritesResidentMB is the peak resident memory when the governed
	// writes end, before the lookups and the brute-force recall check
	// (which embeds the whole corpus again, one text at a time); HeapMB
	// the Go heap in use then, after a collection.
	WritesResidentMB float64 `json:"peak_resident_after_writes_mb"`
	HeapMB           float64 `json:"heap_in_use_after_writes_mb"`
	Seconds          float64 `json:"seconds"`
}

// stageStats summarises one step of the governed writes.
type stageStats struct {
	N     int     `json:"n"`
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
}

func (a *app) benchWriteCommand() *cobra.Command {
	var (
		items, writes, lookups, recallQueries int
		asJSON, reuse                         bool
		dir, cpuProfile, memProfile           string
	)
	cmd := &cobra.Command{
		Use:   "write",
		Short: "Measure governed writes against raw inserts, and near-duplicate lookups",
		Long: `bench write builds a scratch database with a corpus of --items entries in one
memoryRef, then measures in this one process: raw single-row INSERT transactions
on a plain table of the same database file with the same pragmas (the storage
ceiling), ungated engine puts (one log entry and its derived rows each), governed
writes through every gate on the auto-approve path, and near-duplicate lookups
(SimHash bands + exact cosine), with their recall against a brute-force scan.
Burst and rate limits are lifted for the run; everything else is the default
policy. Each step of the governed writes (prepare, each gate, commit) is
reported with its own p50 and p99, as the write path records them (step
"judge" is the part of the contradiction and dedup steps spent in the
rule-based judge, reading texts and their stored sketches and comparing them),
and the run with its time and peak resident memory. --cpuprofile writes a
pprof CPU profile of the governed writes alone (read it with go tool pprof),
--memprofile a heap profile when they end. With --db
postgres://... it runs on that PostgreSQL database instead, which must be
empty (the raw inserts go to a plain table there), and reports the statements
per write (each a round trip to the server). With --reuse and --dir, a database
that an earlier run with the same --items seeded in that directory (and kept, as
runs with --dir do) is measured again without seeding: seeding a million items
takes most of an hour. The run's own writes then go under keys of their own.`,
		Example: "  memgov bench write --items 100000 --json\n  memgov bench write --items 1000000 --writes 1000 --cpuprofile write.prof\n  memgov --db postgres:///memgov_bench bench write --items 10000\n  memgov bench write --items 1000000 --dir /var/tmp/bench --reuse",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if items < 1 || writes < 1 || lookups < 0 || recallQueries < 0 {
				return usagef("--items and --writes must be 1 or more, --lookups and --recall-queries 0 or more")
			}
			if reuse && (dir == "" || isDatabaseURL(a.benchTarget(cmd, dir))) {
				return usagef("--reuse needs --dir, the directory of a SQLite database an earlier run seeded")
			}
			rep, err := benchWrite(cmd.Context(), a.benchTarget(cmd, dir), cpuProfile, memProfile, items, writes, lookups, recallQueries, reuse, func(s string) {
				if !asJSON {
					fmt.Fprintln(a.stderr, s)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			t := a.table("MEASURE", "N", "PER SECOND", "P50 MS", "P99 MS", "CPU MS/OP")
			for _, r := range []struct {
				name string
				s    latencyStats
			}{{"raw insert tx", rep.Raw}, {"engine put", rep.Put}, {"governed write", rep.Governed}, {"near-duplicate lookup", rep.Lookup}} {
				t.row(r.name, fmt.Sprint(r.s.N), fmt.Sprintf("%.0f", r.s.PerSecond), fmt.Sprintf("%.3f", r.s.P50MS), fmt.Sprintf("%.3f", r.s.P99MS), fmt.Sprintf("%.3f", r.s.CPUMS))
			}
			t.flush()
			names := make([]string, 0, len(rep.Stages))
			for k := range rep.Stages {
				names = append(names, k)
			}
			sort.Slice(names, func(i, j int) bool { return rep.Stages[names[i]].P50MS > rep.Stages[names[j]].P50MS })
			fmt.Fprintln(a.stdout)
			st := a.table("GOVERNED WRITE STEP", "N", "P50 MS", "P99 MS")
			for _, k := range names {
				g := rep.Stages[k]
				st.row(k, fmt.Sprint(g.N), fmt.Sprintf("%.3f", g.P50MS), fmt.Sprintf("%.3f", g.P99MS))
			}
			st.flush()
			fmt.Fprintf(a.stdout, "\nrun %.0f s (seeding %.0f s) · peak resident %.0f MB (%.0f MB when the governed writes ended, Go heap in use then %.0f MB)\n", rep.Seconds, rep.SeedSecs, rep.ResidentMB, rep.WritesResidentMB, rep.HeapMB)
			fmt.Fprintf(a.stdout, "corpus %d items · governed/raw %.3fx · governed/put %.2fx · dedup recall %.3f over %d pairs · outcomes %s\n",
				rep.Items, rep.Ratio, rep.PutRatio, rep.Recall, rep.RecallOf, countsOf(rep.Statuses))
			if rep.StatementsPerWrite > 0 {
				fmt.Fprintf(a.stdout, "%s: %.1f statements per engine put, %.1f per governed write\n", rep.Store, rep.StatementsPerPut, rep.StatementsPerWrite)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&items, "items", 100_000, "corpus size")
	cmd.Flags().IntVar(&writes, "writes", 2000, "measured writes of each kind")
	cmd.Flags().IntVar(&lookups, "lookups", 1000, "measured near-duplicate lookups")
	cmd.Flags().IntVar(&recallQueries, "recall-queries", 100, "lookups also checked against a brute-force scan")
	cmd.Flags().StringVar(&dir, "dir", "", "where to put the scratch database (default: a temporary directory)")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the governed writes to `FILE`")
	cmd.Flags().StringVar(&memProfile, "memprofile", "", "write a heap profile to `FILE` when the governed writes end")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&reuse, "reuse", false, "measure the database an earlier run seeded in --dir again, without seeding")
	return cmd
}

// corpus generates varied synthetic notes from a seeded vocabulary.
type corpus struct {
	rng   *rand.Rand
	words []string
}

func newCorpus(seed uint64) *corpus {
	c := &corpus{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "pi", "da", "zu", "re", "fa", "go", "hi", "ju", "ba", "ce", "do", "xi"}
	for len(c.words) < 4000 {
		n := 2 + c.rng.IntN(3)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(syll[c.rng.IntN(len(syll))])
		}
		c.words = append(c.words, b.String())
	}
	return c
}

func (c *corpus) sentence() string {
	n := 12 + c.rng.IntN(14)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = c.words[c.rng.IntN(len(c.words))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + fmt.Sprintf(" (ref %d).", c.rng.IntN(1_000_000))
}

// nearCopy changes one character of a word: a retry loop's near-duplicate.
func (c *corpus) nearCopy(s string) string {
	ws := strings.Fields(s)
	i := 1 + c.rng.IntN(len(ws)-2)
	w := []byte(ws[i])
	w[c.rng.IntN(len(w))] = "aeiou"[c.rng.IntN(5)]
	ws[i] = string(w)
	return strings.Join(ws, " ")
}

func benchWrite(ctx context.Context, dir, cpuProfile, memProfile string, items, writes, lookups, recallQueries int, reuse bool, progress func(string)) (benchWriteReport, error) {
	rep := benchWriteReport{Items: items, Statuses: map[string]int{}, Stages: map[string]stageStats{}}
	began := time.Now()
	s, done, err := openBenchStore(ctx, dir) // cmd_bench_pg.go: dir may be a PostgreSQL URL
	if err != nil {
		return rep, err
	}
	defer done()
	rep.Store = s.Info().Type
	key := benchKey
	pol := policy.Default()
	pol.Reputation.BurstLimit = 0
	for _, lim := range []*policy.RateLimit{&pol.RateLimits.Layers.Working, &pol.RateLimits.Layers.Session,
		&pol.RateLimits.Layers.Episodic, &pol.RateLimits.Layers.Semantic, &pol.RateLimits.Layers.Procedural} {
		lim.Writes = 0
	}
	e := engine.New(s, key, engine.WithPolicy(pol))
	const ref = "bench/bench-agent"
	gen := newCorpus(42)
	// run prefixes the keys of the run's own writes: "" on a new corpus, a
	// prefix of its own on a reused one, whose earlier runs wrote theirs.
	run := ""
	seeded := false
	if reuse {
		if seeded, err = benchSeeded(ctx, s, e, ref, items); err != nil {
			return rep, err
		}
		if seeded {
			run = fmt.Sprintf("r%d-", time.Now().UnixNano())
			for range items { // the corpus generator continues where seeding left it
				gen.sentence()
			}
			progress(fmt.Sprintf("reusing the corpus of %d items in %s", items, s.Info().Path))
		}
	}
	if !seeded {
		for _, p := range []memgov.Principal{{ID: "bench-agent", Role: memgov.Orchestrator, Tenant: "bench"}} {
			if _, err := e.AddPrincipal(ctx, p, "bench"); err != nil {
				return rep, err
			}
		}
	}
	start := time.Now()
	const batch = 2000
	for done := 0; done < items && !seeded; {
		rs := make([]memgov.PutRequest, 0, batch)
		for j := 0; j < batch && done < items; j, done = j+1, done+1 {
			t := gen.sentence()
			c, _ := json.Marshal(map[string]string{"text": t})
			rs = append(rs, memgov.PutRequest{MemoryRef: ref, Key: fmt.Sprintf("c%08d", done), Layer: memgov.Episodic, Content: c, Actor: "bench-agent", Confidence: 0.9})
		}
		if err := e.Writes().PutBatch(ctx, rs); err != nil {
			return rep, err
		}
		if done%(batch*25) == 0 {
			progress(fmt.Sprintf("seeded %d/%d in %.0f s (peak resident %.0f MB)", done, items, time.Since(start).Seconds(), peakResidentMB()))
		}
	}
	rep.SeedSecs = time.Since(start).Seconds()

	// Raw single-row INSERT transactions on a plain table of the same file.
	bodies := make([][]byte, writes)
	for i := range bodies {
		bodies[i], _ = json.Marshal(map[string]string{"text": gen.sentence()})
	}
	t0 := time.Now()
	rawInserts := func() ([]time.Duration, error) {
		return sqlite.RawInserts(ctx, s.Info().Path, writes, func(i int) []byte { return bodies[i] })
	}
	if isDatabaseURL(dir) {
		rawInserts = func() ([]time.Duration, error) {
			return rawInsertsPG(ctx, dir, writes, func(i int) []byte { return bodies[i] })
		}
	}
	raw, err := rawInserts()
	if err != nil {
		return rep, err
	}
	rep.Raw = statsOf(raw, time.Since(t0))
	progress(fmt.Sprintf("raw: %.0f tx/s", rep.Raw.PerSecond))

	// Ungated engine puts: one log entry and its derived rows each.
	var put []time.Duration
	counter, counted := s.(interface{ Statements() int64 })
	stmts := func() int64 {
		if counted {
			return counter.Statements()
		}
		return 0
	}
	stmts0 := stmts()
	t0 = time.Now()
	cpu0 := processCPU()
	for i := 0; i < writes; i++ {
		c, _ := json.Marshal(map[string]string{"text": gen.sentence()})
		w0 := time.Now()
		if _, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: fmt.Sprintf("%sraw%06d", run, i), Layer: memgov.Episodic, Content: c, Actor: "bench-agent"}); err != nil {
			return rep, err
		}
		put = append(put, time.Since(w0))
	}
	rep.Put = statsOf(put, time.Since(t0))
	rep.Put.CPUMS = perOp(processCPU()-cpu0, writes)
	if counted {
		stmts1 := stmts()
		rep.StatementsPerPut = float64(stmts1-stmts0) / float64(writes)
		stmts0 = stmts1
	}
	progress(fmt.Sprintf("engine put: %.0f tx/s", rep.Put.PerSecond))

	// Governed writes through every gate, on the auto-approve path.
	var gov []time.Duration
	if cpuProfile != "" {
		stop, err := startCPUProfile(cpuProfile)
		if err != nil {
			return rep, err
		}
		defer stop()
	}
	t0 = time.Now()
	govSince := e.Now().Add(-time.Millisecond) // outcomes carry milliseconds
	cpu0 = processCPU()
	for i := 0; i < writes; i++ {
		conf := 0.95
		auth := 0.95
		c, _ := json.Marshal(map[string]string{"text": gen.sentence()})
		req := memgov.WriteRequest{SourceAgentID: "bench-agent", MemoryRef: ref, Key: fmt.Sprintf("%sgov%06d", run, i), TargetLayer: memgov.Episodic,
			ObservationType: "tool_result_verified", Confidence: &conf, Content: c,
			EvidenceRefs: []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: "bench://source", Authority: &auth}}}
		w0 := time.Now()
		res, err := e.Writes().Write(ctx, req)
		if err != nil {
			return rep, err
		}
		gov = append(gov, time.Since(w0))
		rep.Statuses[res.Status]++
	}
	rep.Governed = statsOf(gov, time.Since(t0))
	rep.Governed.CPUMS = perOp(processCPU()-cpu0, writes)
	if counted {
		rep.StatementsPerWrite = float64(stmts()-stmts0) / float64(writes)
	}
	if cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	rep.WritesResidentMB = peakResidentMB()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rep.HeapMB = float64(ms.HeapInuse) / (1 << 20)
	if memProfile != "" {
		if err := writeHeapProfile(memProfile); err != nil {
			return rep, err
		}
	}
	if rep.Raw.PerSecond > 0 {
		rep.Ratio = rep.Governed.PerSecond / rep.Raw.PerSecond
	}
	if rep.Put.PerSecond > 0 {
		rep.PutRatio = rep.Governed.PerSecond / rep.Put.PerSecond
	}
	m, err := e.Audit().MetricsSince(ctx, govSince)
	if err != nil {
		return rep, err
	}
	for k, p := range m.StageLatencyUS {
		rep.Stages[k] = stageStats{N: p.N, P50MS: p.P50 / 1000, P99MS: p.P99 / 1000}
	}
	progress(fmt.Sprintf("governed: %.0f writes/s (%.3fx raw, %.2fx put)", rep.Governed.PerSecond, rep.Ratio, rep.PutRatio))

	// Near-duplicate lookups of edited copies of corpus items. The corpus
	// is not kept in memory (at 1,000,000 items it would dwarf the store's
	// own footprint): the items asked about are generated again from the
	// corpus's seed, and so is the whole corpus once for the brute-force
	// recall check.
	picks := make([]int, lookups)
	picked := map[int]string{}
	for i := range picks {
		picks[i] = gen.rng.IntN(items)
		picked[picks[i]] = ""
	}
	again := newCorpus(42)
	for j := 0; j < items; j++ {
		t := again.sentence()
		if _, ok := picked[j]; ok {
			picked[j] = t
		}
	}
	queries := make([]string, lookups)
	for i, p := range picks {
		queries[i] = gen.nearCopy(picked[p])
	}
	var look []time.Duration
	var lookCPU0 time.Duration
	hits := make([]map[string]bool, min(recallQueries, lookups))
	for i, q := range queries {
		w0, c0 := time.Now(), processCPU()
		got, err := e.Writes().NearDuplicates(ctx, ref, memgov.Episodic, q, pol.Dedup.Semantic)
		if err != nil {
			return rep, err
		}
		look = append(look, time.Since(w0))
		lookCPU0 += processCPU() - c0
		if i < len(hits) {
			hits[i] = map[string]bool{}
			for _, g := range got {
				hits[i][g.Key] = true
			}
		}
	}
	found, want := 0, 0
	if len(hits) > 0 {
		progress("embedding the corpus for the brute-force recall check")
		qvs := make([]similar.Vector, len(hits))
		for i := range qvs {
			qvs[i] = similar.Embed(queries[i])
		}
		again = newCorpus(42)
		for j := 0; j < items; j++ {
			v := similar.Embed(again.sentence())
			for i, qv := range qvs {
				if similar.Cosine(qv, v) >= pol.Dedup.Semantic {
					want++
					if hits[i][fmt.Sprintf("c%08d", j)] {
						found++
					}
				}
			}
		}
	}
	var spent time.Duration
	for _, d := range look {
		spent += d
	}
	rep.Lookup = statsOf(look, spent) // the recall check's brute force is not lookup time
	rep.Lookup.CPUMS = perOp(lookCPU0, lookups)
	rep.RecallOf = want
	if want > 0 {
		rep.Recall = float64(found) / float64(want)
	}
	rep.Seconds, rep.ResidentMB = time.Since(began).Seconds(), peakResidentMB()
	return rep, nil
}

// perOp is d per operation in milliseconds.
func perOp(d time.Duration, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(n)
}

// peakResidentMB is the process's peak resident set (VmHWM of
// /proc/self/status) in megabytes, or 0 where the file is missing.
func peakResidentMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%f kB", &kb); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// benchSeeded reports whether the store holds the corpus of items entries an
// earlier run seeded under ref: its last item and no item after it. A store
// with a log and no such corpus is an error: the run would measure a corpus
// of another size.
func benchSeeded(ctx context.Context, s memgov.Store, e *engine.Engine, ref string, items int) (bool, error) {
	has := func(i int) (bool, error) {
		_, err := e.Host().ItemByKey(ctx, memgov.Owner, ref, fmt.Sprintf("c%08d", i))
		if errors.Is(err, memgov.ErrNotFound) {
			return false, nil
		}
		return err == nil, err
	}
	last, err := has(items - 1)
	if err != nil {
		return false, err
	}
	next, err := has(items)
	if err != nil {
		return false, err
	}
	if last && !next {
		return true, nil
	}
	n, err := logSize(ctx, s)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, fmt.Errorf("%w: the database in --dir holds a log of %d entries but not a corpus of %d items; run without --reuse in an empty directory, or with the --items it was seeded with", memgov.ErrConflict, n, items)
	}
	return false, nil
}
