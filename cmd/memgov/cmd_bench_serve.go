package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/door"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/writes"
)

// benchServeRun is one measured configuration.
type benchServeRun struct {
	Door     string         `json:"door"` // in-process, http, mcp
	Clients  int            `json:"clients"`
	Stats    latencyStats   `json:"stats"`
	Statuses map[string]int `json:"statuses"`
	// CPUMSPerWrite is the processor time the process used per write
	// (server and clients alike), and Cores the processor time over the
	// wall time: how many cores the run kept busy.
	CPUMSPerWrite float64 `json:"cpu_ms_per_write"`
	Cores         float64 `json:"cores"`
}

type benchServeReport struct {
	Items    int             `json:"items"`
	SeedSecs float64         `json:"seed_seconds"`
	Runs     []benchServeRun `json:"runs"`
	// HTTP8OverInProcess is the rate of 8 HTTP clients over the in-process
	// engine's with 8 goroutines (the target is 0.7 or more).
	HTTP8OverInProcess float64 `json:"http8_over_in_process8"`
	MCP8OverInProcess  float64 `json:"mcp8_over_in_process8"`
	Store              string  `json:"store"`
	// HTTP8OverHTTP1 is the rate of 8 HTTP clients over one client's (the
	// target is 1.5 or more); MCP8OverMCP1 the same through MCP.
	HTTP8OverHTTP1 float64 `json:"http8_over_http1"`
	MCP8OverMCP1   float64 `json:"mcp8_over_mcp1"`
	// SameMemory: every client wrote as one agent into one memoryRef
	// (--same-memory); otherwise each client is an agent of its own.
	SameMemory bool `json:"same_memory"`
	// SnapshotGates: concurrent writes were judged on read snapshots in
	// parallel (--snapshot-gates); otherwise in the commit, one after the
	// other, sharing commit transactions.
	SnapshotGates bool `json:"snapshot_gates"`
	// Commits is what the engine's commit path did over every run: commit
	// transactions, writes, the largest batch, and the writes judged on a
	// snapshot or judged again in the commit.
	Commits writes.CommitStats `json:"commits"`
}

func (a *app) benchServeCommand() *cobra.Command {
	var (
		items, writes int
		dir           string
		asJSON, same  bool
		snapshots     bool
		cpuProfile    string
		prof          benchProfiles
		doorNames     []string
		clientCounts  []int
		rounds        int
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Governed writes through memgov serve's doors (HTTP, MCP) against the in-process engine",
		Long: `serve seeds a scratch database with --items entries, starts memgov serve's HTTP
handler on a loopback port, and measures governed writes per second and their p50
and p99 latency on the auto-approve path (an orchestrator's EPISODIC writes with
rate limits off): through the in-process engine, through the JSON API and through
MCP (streamable HTTP, the Go SDK's client), each with 1 and 8 concurrent clients.

Each client is an agent of its own writing its own memoryRef, and the seeded
entries are shared among the eight memoryRefs, so one client and eight write
into memories of the same size. With --same-memory every client writes as one
agent into one memoryRef holding every seeded entry: such writes are judged one
after the other, each against the ones before it. With --db postgres://... it
runs on that PostgreSQL database, which must be empty.`,
		Example: "  memgov bench serve --items 100000 --writes 2000 --json\n  memgov --db postgres:///memgov_bench bench serve --items 10000",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if items < 0 || writes <= 0 {
				return usagef("--items must be 0 or more and --writes more than 0")
			}
			if rounds < 1 || rounds > writes {
				return usagef("--rounds must be from 1 to --writes (%d)", writes)
			}
			for _, d := range doorNames {
				if d != "in-process" && d != "http" && d != "mcp" {
					return usagef("--doors takes in-process, http and mcp, not %q", d)
				}
			}
			for _, c := range clientCounts {
				if c < 1 || c > benchClients {
					return usagef("--clients takes counts from 1 to %d, not %d", benchClients, c)
				}
			}
			prof.cpu = cpuProfile
			rep, err := benchServe(cmd.Context(), a.benchTarget(cmd, dir), items, writes, same, snapshots, doorNames, clientCounts, rounds, prof, func(s string) {
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
			t := a.table("DOOR", "CLIENTS", "N", "WRITES/S", "P50 MS", "P99 MS", "CPU MS/WRITE", "CORES", "OUTCOMES")
			for _, r := range rep.Runs {
				t.row(r.Door, fmt.Sprint(r.Clients), fmt.Sprint(r.Stats.N), fmt.Sprintf("%.0f", r.Stats.PerSecond),
					fmt.Sprintf("%.2f", r.Stats.P50MS), fmt.Sprintf("%.2f", r.Stats.P99MS), fmt.Sprintf("%.2f", r.CPUMSPerWrite),
					fmt.Sprintf("%.2f", r.Cores), countsOf(r.Statuses))
			}
			t.flush()
			fmt.Fprintf(a.stdout, "8 HTTP clients: %.2fx the in-process engine; 8 MCP clients: %.2fx (at %d items)\n", rep.HTTP8OverInProcess, rep.MCP8OverInProcess, rep.Items)
			fmt.Fprintf(a.stdout, "8 HTTP clients: %.2fx one HTTP client; 8 MCP clients: %.2fx one MCP client\n", rep.HTTP8OverHTTP1, rep.MCP8OverMCP1)
			c := rep.Commits
			fmt.Fprintf(a.stdout, "commits: %d writes in %d transactions (largest %d); %d judged on a snapshot, %d judged again in the commit, %d in the commit only\n",
				c.Writes, c.Transactions, c.LargestBatch, c.FromSnapshot, c.Rejudged, c.InCommit)
			return nil
		},
	}
	cmd.Flags().IntVar(&items, "items", 100000, "entries to seed first")
	cmd.Flags().IntVar(&writes, "writes", 2000, "governed writes per measured configuration")
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the scratch database (default: a temporary one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&same, "same-memory", false, "every client writes as one agent into one memoryRef")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the measured runs to `FILE`")
	cmd.Flags().StringVar(&prof.block, "blockprofile", "", "write a profile of where goroutines waited (channels, locks, selects) during the measured runs to `FILE`")
	cmd.Flags().StringVar(&prof.mutex, "mutexprofile", "", "write a profile of contended locks during the measured runs to `FILE`")
	cmd.Flags().StringVar(&prof.trace, "trace", "", "write an execution trace of the measured runs to `FILE` (go tool trace)")
	cmd.Flags().IntVar(&rounds, "rounds", 1, "split each door's writes into this many rounds in which the client counts take turns (ratios that a changing machine load does not skew)")
	cmd.Flags().IntSliceVar(&clientCounts, "clients", []int{1, benchClients}, "the numbers of concurrent clients to measure each door with, in order")
	cmd.Flags().StringSliceVar(&doorNames, "doors", []string{"in-process", "http", "mcp"}, "the doors to measure: in-process, http, mcp")
	cmd.Flags().BoolVar(&snapshots, "snapshot-gates", false, "judge concurrent writes on read snapshots in parallel before their commit")
	return cmd
}

// benchClients is the most clients a run has: one agent and memoryRef each.
const benchClients = 8

// benchProfiles names the files the measured runs are profiled to.
type benchProfiles struct{ cpu, block, mutex, trace string }

// start begins every profile asked for; stop writes them.
func (p benchProfiles) start() (stop func() error, err error) {
	var stops []func() error
	stop = func() error {
		var errs []error
		for i := len(stops) - 1; i >= 0; i-- {
			errs = append(errs, stops[i]())
		}
		return errors.Join(errs...)
	}
	if p.cpu != "" {
		s, err := startCPUProfile(p.cpu)
		if err != nil {
			return nil, err
		}
		stops = append(stops, func() error { s(); return nil })
	}
	if p.trace != "" {
		f, err := os.Create(p.trace)
		if err != nil {
			stop()
			return nil, fmt.Errorf("trace: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			stop()
			return nil, fmt.Errorf("trace: %w", err)
		}
		stops = append(stops, func() error { trace.Stop(); return f.Close() })
	}
	for _, lp := range []struct {
		path, name string
		on, off    func()
	}{{p.block, "block", func() { runtime.SetBlockProfileRate(int(10 * time.Microsecond)) }, func() { runtime.SetBlockProfileRate(0) }},
		{p.mutex, "mutex", func() { runtime.SetMutexProfileFraction(5) }, func() { runtime.SetMutexProfileFraction(0) }}} {
		if lp.path == "" {
			continue
		}
		lp.on()
		stops = append(stops, func() error {
			defer lp.off()
			f, err := os.Create(lp.path)
			if err != nil {
				return fmt.Errorf("%s profile: %w", lp.name, err)
			}
			if err := pprof.Lookup(lp.name).WriteTo(f, 0); err != nil {
				f.Close()
				return fmt.Errorf("%s profile: %w", lp.name, err)
			}
			return f.Close()
		})
	}
	return stop, nil
}

func benchServe(ctx context.Context, dir string, items, writes int, same, snapshots bool, doorNames []string, clientCounts []int, rounds int, prof benchProfiles, progress func(string)) (rep benchServeReport, err error) {
	rep = benchServeReport{Items: items, SameMemory: same, SnapshotGates: snapshots}
	s, done, err := openBenchStore(ctx, dir) // cmd_bench_pg.go: dir may be a PostgreSQL URL
	if err != nil {
		return rep, err
	}
	defer done()
	rep.Store = s.Info().Type
	pol := policy.Default()
	pol.Reputation.BurstLimit = 0
	for _, lim := range []*policy.RateLimit{&pol.RateLimits.Layers.Working, &pol.RateLimits.Layers.Session,
		&pol.RateLimits.Layers.Episodic, &pol.RateLimits.Layers.Semantic, &pol.RateLimits.Layers.Procedural} {
		lim.Writes = 0
	}
	e := engine.New(s, benchKey, engine.WithPolicy(pol), engine.WithSnapshotGates(snapshots))
	// Client c writes as agents[c] into refs[c].
	var agents, refs, tokens []string
	for c := range benchClients {
		agent := fmt.Sprintf("bench-agent-%d", c)
		if same {
			agent = "bench-agent"
		}
		if c == 0 || !same {
			if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: agent, Role: memgov.Orchestrator, Tenant: "bench"}, "bench"); err != nil {
				return rep, err
			}
			token, _, err := e.CreateToken(ctx, agent, 0, "bench", "")
			if err != nil {
				return rep, err
			}
			tokens = append(tokens, token)
		} else {
			tokens = append(tokens, tokens[0])
		}
		agents, refs = append(agents, agent), append(refs, "bench/"+agent)
	}
	gen := newCorpus(42)
	start := time.Now()
	const batch = 2000
	for n := 0; n < items; {
		rs := make([]memgov.PutRequest, 0, batch)
		for j := 0; j < batch && n < items; j, n = j+1, n+1 {
			c, _ := json.Marshal(map[string]string{"text": gen.sentence()})
			rs = append(rs, memgov.PutRequest{MemoryRef: refs[n%benchClients], Key: fmt.Sprintf("c%08d", n), Layer: memgov.Episodic, Content: c,
				Actor: agents[n%benchClients], Confidence: 0.9})
		}
		if err := e.Writes().PutBatch(ctx, rs); err != nil {
			return rep, err
		}
		if n%(batch*10) == 0 {
			progress(fmt.Sprintf("seeded %d/%d", n, items))
		}
	}
	rep.SeedSecs = time.Since(start).Seconds()

	// memgov serve's HTTP door as `memgov serve` opens it, rate limits off.
	doors, err := door.Open(ctx, door.ServeOptions{HTTP: door.Config{Engine: e, Rate: 1e9, Burst: 1 << 30, Version: buildVersion()},
		Listen: "127.0.0.1:0", Grace: 10 * time.Second})
	if err != nil {
		return rep, err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- doors.Run(sctx) }()
	defer func() { stop(); <-served }()
	base := "http://" + doors.HTTPAddr.String()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}

	type writer func(ctx context.Context, key, text string) (string, error)
	inProcess := func(c int) (writer, func(), error) {
		return func(ctx context.Context, key, text string) (string, error) {
			res, err := e.Writes().Write(ctx, benchRequest(agents[c], refs[c], key, text))
			return res.Status, err
		}, func() {}, nil
	}
	overHTTP := func(c int) (writer, func(), error) {
		return func(ctx context.Context, key, text string) (string, error) {
			body, _ := json.Marshal(benchRequest(agents[c], refs[c], key, text))
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/memories?wait=false", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tokens[c])
			req.Header.Set("Content-Type", "application/json")
			resp, err := hc.Do(req)
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			var res memgov.WriteResult
			if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
				return "", err
			}
			io.Copy(io.Discard, resp.Body)
			if res.Status == "" {
				return "", fmt.Errorf("HTTP %d", resp.StatusCode)
			}
			return res.Status, nil
		}, func() {}, nil
	}
	overMCP := func(cl int) (writer, func(), error) {
		c := mcp.NewClient(&mcp.Implementation{Name: "memgov-bench", Version: buildVersion()}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1,
			HTTPClient: &http.Client{Transport: bearerRT{token: tokens[cl], next: hc.Transport}}}, nil)
		if err != nil {
			return nil, nil, err
		}
		return func(ctx context.Context, key, text string) (string, error) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_memory", Arguments: map[string]any{
				"memory_ref": refs[cl], "key": key, "text": text, "layer": "EPISODIC", "observation_type": "tool_result_verified", "confidence": 0.95,
				"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "bench://source", "authority": 0.95}}}})
			if err != nil {
				return "", err
			}
			if res.IsError {
				return "", fmt.Errorf("add_memory failed: %v", res.Content)
			}
			var out memgov.WriteResult
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &out); err != nil {
				return "", err
			}
			return out.Status, nil
		}, func() { cs.Close() }, nil
	}

	// Warm the engine's caches and the page cache before the first measured run.
	for i := 0; i < min(200, writes); i++ {
		if _, err := e.Writes().Write(ctx, benchRequest(agents[i%benchClients], refs[i%benchClients], fmt.Sprintf("warm-%06d", i), gen.sentence())); err != nil {
			return rep, err
		}
	}
	stopProfiles, err := prof.start()
	if err != nil {
		return rep, err
	}
	defer func() {
		if perr := stopProfiles(); perr != nil && err == nil {
			err = perr
		}
	}()
	// measure runs n writes with the given clients and adds them to run.
	round := 0
	measure := func(mk func(int) (writer, func(), error), run *benchServeRun, n int, lat *[]time.Duration, wall, cpu *time.Duration) error {
		round++
		clients := run.Clients
		texts := make([]string, n)
		for i := range texts {
			texts[i] = gen.sentence()
		}
		ws := make([]writer, clients)
		var closers []func()
		defer func() {
			for _, cl := range closers {
				cl()
			}
		}()
		for i := range ws {
			w, cl, err := mk(i)
			if err != nil {
				return err
			}
			ws[i], closers = w, append(closers, cl)
		}
		ds := make([]time.Duration, n)
		var mu sync.Mutex
		var firstErr error
		var wg sync.WaitGroup
		t0, cpu0 := time.Now(), processCPU()
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				for i := c; i < n; i += clients {
					w0 := time.Now()
					st, err := ws[c](ctx, fmt.Sprintf("r%d-%06d", round, i), texts[i])
					ds[i] = time.Since(w0)
					mu.Lock()
					if err != nil && firstErr == nil {
						firstErr = err
					}
					run.Statuses[st]++
					mu.Unlock()
				}
			}(c)
		}
		wg.Wait()
		*wall += time.Since(t0)
		*cpu += processCPU() - cpu0
		*lat = append(*lat, ds...)
		return firstErr
	}
	for _, d := range []struct {
		name string
		mk   func(int) (writer, func(), error)
	}{{"in-process", inProcess}, {"http", overHTTP}, {"mcp", overMCP}} {
		if !slices.Contains(doorNames, d.name) {
			continue
		}
		// With several rounds the client counts take turns, writes/rounds
		// writes at a time, so that a change in the machine's load falls on
		// each of them alike.
		runs := make([]benchServeRun, len(clientCounts))
		lats := make([][]time.Duration, len(clientCounts))
		walls := make([]time.Duration, len(clientCounts))
		cpus := make([]time.Duration, len(clientCounts))
		for i, clients := range clientCounts {
			runs[i] = benchServeRun{Door: d.name, Clients: clients, Statuses: map[string]int{}}
		}
		for r := range rounds {
			n := writes / rounds
			if r == rounds-1 {
				n = writes - n*(rounds-1)
			}
			for i := range clientCounts {
				if err := measure(d.mk, &runs[i], n, &lats[i], &walls[i], &cpus[i]); err != nil {
					return rep, fmt.Errorf("%s with %d clients: %w", d.name, runs[i].Clients, err)
				}
			}
		}
		for i := range runs {
			run := &runs[i]
			run.CPUMSPerWrite = float64(cpus[i]) / float64(time.Millisecond) / float64(writes)
			run.Cores = cpus[i].Seconds() / walls[i].Seconds()
			run.Stats = statsOf(lats[i], walls[i])
			rep.Runs = append(rep.Runs, *run)
			progress(fmt.Sprintf("%s, %d clients: %.0f writes/s, p50 %.2f ms, p99 %.2f ms (%s)", d.name, run.Clients, run.Stats.PerSecond, run.Stats.P50MS, run.Stats.P99MS, countsOf(run.Statuses)))
		}
	}
	rate := func(door string, clients int) float64 {
		for _, r := range rep.Runs {
			if r.Door == door && r.Clients == clients {
				return r.Stats.PerSecond
			}
		}
		return 0
	}
	if in := rate("in-process", 8); in > 0 {
		rep.HTTP8OverInProcess = rate("http", 8) / in
		rep.MCP8OverInProcess = rate("mcp", 8) / in
	}
	if one := rate("http", 1); one > 0 {
		rep.HTTP8OverHTTP1 = rate("http", 8) / one
	}
	if one := rate("mcp", 1); one > 0 {
		rep.MCP8OverMCP1 = rate("mcp", 8) / one
	}
	rep.Commits = e.Writes().CommitStats()
	return rep, nil
}

// benchRequest is an auto-approved governed write: an orchestrator's
// EPISODIC note with strong external evidence.
func benchRequest(agent, ref, key, text string) memgov.WriteRequest {
	conf, auth := 0.95, 0.95
	c, _ := json.Marshal(map[string]string{"text": text})
	return memgov.WriteRequest{SourceAgentID: agent, MemoryRef: ref, Key: key, TargetLayer: memgov.Episodic,
		ObservationType: "tool_result_verified", Confidence: &conf, Content: c,
		EvidenceRefs: []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: "bench://source", Authority: &auth}}}
}

// bearerRT adds a bearer token to every request.
type bearerRT struct {
	token string
	next  http.RoundTripper
}

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
