package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/testdata/demo"
)

// seedStep is one line of a dataset's story.jsonl.
type seedStep struct {
	Op      string          `json:"op"`
	Ago     string          `json:"ago"`
	By      string          `json:"by"`
	To      string          `json:"to"`
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Tenant  string          `json:"tenant"`
	Request json.RawMessage `json:"request"`
	Expect  string          `json:"expect"`
	Ref     string          `json:"ref"`
	Key     string          `json:"key"`
	Approve bool            `json:"approve"`
	// RejectDeferred settles a generated write that went to review by
	// rejecting it as a duplicate, as a curator working the queue would.
	RejectDeferred bool   `json:"reject_deferred"`
	Code           string `json:"code"`
	Note           string `json:"note"`
	Reason         string `json:"reason"`
	Text           string `json:"text"`
	// generate
	Kind            string `json:"kind"`
	Agent           string `json:"agent"`
	Layer           string `json:"layer"`
	ObservationType string `json:"observation_type"`
	Count           int    `json:"count"`
	Start           int    `json:"start"`
	Every           string `json:"every"`
	// proposal
	Action    string          `json:"action"`
	Title     string          `json:"title"`
	Artifact  json.RawMessage `json:"artifact"`
	Rationale string          `json:"rationale"`
	Runs      []string        `json:"runs"`
	// baseline
	Type   string `json:"type"`
	TTL    int64  `json:"ttl"`
	Policy string `json:"policy"`
	Level  int    `json:"level"`
	Owner  string `json:"owner"`
}

// template generates memory of one kind (templates.json).
type template struct {
	Text      string              `json:"text"`
	Subject   string              `json:"subject"`
	Predicate string              `json:"predicate"`
	Object    string              `json:"object"`
	Slots     map[string][]string `json:"slots"`
	Evidence  []map[string]any    `json:"evidence"`
}

// seedClock is the stepping clock a dataset is loaded on: it starts in the
// past and ends at the present, so ages and deadlines look real.
type seedClock struct{ t time.Time }

func (c *seedClock) Now() time.Time { return c.t }

func (c *seedClock) set(t time.Time) {
	if t.After(c.t) {
		c.t = t
	}
}

// seedReport counts what a load did.
type seedReport struct {
	Steps    int            `json:"steps"`
	Writes   int            `json:"writes"`
	Outcomes map[string]int `json:"outcomes"`
	Took     string         `json:"took"`
}

// loader executes a dataset's story against an engine.
type loader struct {
	a         *app
	eng       *engine.Engine
	clock     *seedClock
	templates map[string]template
	rep       seedReport
	progress  func(string)
}

func (a *app) loadDataset(ctx context.Context, fsys fs.FS, progress func(string)) (seedReport, error) {
	start := time.Now()
	// A dataset may carry its policy; it is installed beside the database,
	// where every later memgov command finds it (memgov policy show).
	if b, err := fs.ReadFile(fsys, "policy.yaml"); err == nil && a.policyPath == "" {
		beside := a.dbPath + ".policy.yaml"
		if _, err := os.Stat(beside); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(beside), 0o700); err != nil {
				return seedReport{}, err
			}
			if err := os.WriteFile(beside, b, 0o600); err != nil {
				return seedReport{}, err
			}
			progress("installed the dataset's policy at " + beside)
		}
	}
	if _, err := a.open(ctx, true); err != nil {
		return seedReport{}, err
	}
	key, err := loadKey(a.dbPath, false)
	if err != nil {
		return seedReport{}, err
	}
	pol, _, err := a.loadPolicy()
	if err != nil {
		return seedReport{}, err
	}
	clock := &seedClock{t: time.Now().UTC()}
	l := &loader{a: a, clock: clock, templates: map[string]template{}, rep: seedReport{Outcomes: map[string]int{}}, progress: progress}
	l.eng = engine.New(a.store, key, engine.WithClock(clock.Now), engine.WithPolicy(pol))
	if b, err := fs.ReadFile(fsys, "templates.json"); err == nil {
		if err := json.Unmarshal(b, &l.templates); err != nil {
			return l.rep, fmt.Errorf("templates.json: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return l.rep, err
	}
	f, err := fsys.Open("story.jsonl")
	if err != nil {
		return l.rep, fmt.Errorf("the dataset has no story.jsonl: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), engine.MaxRequestBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		var st seedStep
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&st); err != nil {
			return l.rep, fmt.Errorf("story.jsonl line %d: %w", line, err)
		}
		if os.Getenv("MEMGOV_SEED_TRACE") != "" {
			fmt.Fprintf(os.Stderr, "line %d %s: clock %s (%s before now)\n", line, st.Op, l.clock.t.Format(time.RFC3339), time.Until(l.clock.t).Round(time.Second)*-1)
		}
		if err := l.step(ctx, st); err != nil {
			return l.rep, fmt.Errorf("story.jsonl line %d (%s): %w", line, st.Op, err)
		}
		l.rep.Steps++
	}
	if err := sc.Err(); err != nil {
		return l.rep, err
	}
	l.rep.Took = time.Since(start).Round(time.Millisecond).String()
	return l.rep, nil
}

func parseDur(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		if _, err := fmt.Sscan(d, &n); err != nil {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

func (l *loader) step(ctx context.Context, st seedStep) error {
	switch st.Op {
	case "start":
		d, err := parseDur(st.Ago)
		if err != nil {
			return err
		}
		l.clock.t = time.Now().UTC().Add(-d)
	case "advance":
		d, err := parseDur(st.By)
		if err != nil {
			return err
		}
		l.clock.t = l.clock.t.Add(d)
	case "clock":
		target := time.Now().UTC()
		if rest, ok := strings.CutPrefix(st.To, "end"); ok && rest != "" {
			d, err := parseDur(strings.TrimPrefix(rest, "-"))
			if err != nil {
				return err
			}
			target = target.Add(-d)
		}
		l.clock.set(target)
	case "principal":
		role, err := engine.ParseRole(st.Role)
		if err != nil {
			return err
		}
		_, err = l.eng.AddPrincipal(ctx, engine.Principal{ID: st.ID, Role: role, Tenant: st.Tenant}, "memgov-seed")
		return err
	case "write":
		res, err := l.write(ctx, st.Request)
		if err != nil {
			return err
		}
		if st.Expect != "" && res.Status != st.Expect {
			return fmt.Errorf("expected %s, got %s %s: %s", st.Expect, res.Status, res.Reason, res.Detail)
		}
	case "generate":
		return l.generate(ctx, st)
	case "decide":
		return l.decide(ctx, st.Ref, st.Key, st.By, st.Approve, st.Code, st.Note)
	case "rollback":
		v, err := l.eng.Get(ctx, st.Ref, st.Key)
		if err != nil {
			return err
		}
		_, err = l.eng.Rollback(ctx, v.ID, st.By, st.Reason)
		return err
	case "pin":
		it, err := l.item(ctx, st.Ref, st.Key)
		if err != nil {
			return err
		}
		_, err = l.eng.Pin(ctx, it.ID, st.By, st.Reason)
		return err
	default:
		if h, ok := seedOps[st.Op]; ok {
			return h(ctx, l, st)
		}
		return fmt.Errorf("unknown step %q", st.Op)
	}
	return nil
}

func (l *loader) item(ctx context.Context, ref, key string) (engine.Item, error) {
	var it engine.Item
	err := l.eng.Store().View(ctx, func(tx engine.ReadTx) (err error) {
		it, err = tx.ItemByKey(ctx, ref, key)
		return err
	})
	return it, err
}

func (l *loader) write(ctx context.Context, raw json.RawMessage) (engine.WriteResult, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return engine.WriteResult{}, err
	}
	if d, ok := m["deadline_in"].(string); ok {
		dd, err := parseDur(d)
		if err != nil {
			return engine.WriteResult{}, err
		}
		m["deadline"] = l.clock.t.Add(dd).Format(time.RFC3339Nano)
		delete(m, "deadline_in")
	}
	for _, ev := range asSlice(m["evidence_refs"]) {
		if e, ok := ev.(map[string]any); ok {
			if _, has := e["accessed_at"]; !has {
				e["accessed_at"] = l.clock.t.Add(-time.Hour).Format(time.RFC3339Nano)
			}
		}
	}
	b, _ := json.Marshal(m)
	req, err := engine.DecodeWriteRequest(b)
	if err != nil {
		return engine.WriteResult{}, err
	}
	res, err := l.eng.Write(ctx, req)
	if err != nil {
		return res, err
	}
	l.rep.Writes++
	l.rep.Outcomes[res.Status]++
	return res, nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func (l *loader) generate(ctx context.Context, st seedStep) error {
	tpl, ok := l.templates[st.Kind]
	if !ok {
		return fmt.Errorf("no template %q in templates.json", st.Kind)
	}
	every, err := parseDur(st.Every)
	if err != nil {
		return err
	}
	h := fnv.New64a()
	fmt.Fprint(h, st.Kind, st.Agent, st.Ref, st.Layer)
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	start := max(st.Start, 1)
	names := make([]string, 0, len(tpl.Slots))
	for k := range tpl.Slots {
		names = append(names, k)
	}
	sort.Strings(names)
	for n := start; n < start+st.Count; n++ {
		vals := map[string]string{"n": fmt.Sprint(n)}
		for _, k := range names {
			vals[k] = tpl.Slots[k][rng.IntN(len(tpl.Slots[k]))]
		}
		fill := func(s string) string {
			for k, v := range vals {
				s = strings.ReplaceAll(s, "{"+k+"}", v)
			}
			return s
		}
		content := map[string]any{"text": fill(tpl.Text)}
		if tpl.Subject != "" {
			content["subject"], content["predicate"], content["object"] = fill(tpl.Subject), fill(tpl.Predicate), fill(tpl.Object)
		}
		var ev []any
		for _, e := range tpl.Evidence {
			c := map[string]any{}
			for k, v := range e {
				if s, ok := v.(string); ok {
					v = fill(s)
				}
				c[k] = v
			}
			ev = append(ev, c)
		}
		req := map[string]any{"source_agent_id": st.Agent, "memory_ref": st.Ref, "target_layer": st.Layer, "observation_type": st.ObservationType,
			"confidence": 0.8 + float64(rng.IntN(20))/100, "content": content, "evidence_refs": ev}
		if st.Key != "" {
			keyVals := map[string]string{"n": fmt.Sprintf("%04d", n)}
			k := st.Key
			for name, v := range vals {
				if name != "n" {
					k = strings.ReplaceAll(k, "{"+name+"}", strings.ReplaceAll(strings.ToLower(v), " ", "-"))
				}
			}
			req["key"] = strings.ReplaceAll(k, "{n}", keyVals["n"])
		}
		if st.TTL > 0 {
			req["ttl_seconds"] = st.TTL
		}
		if st.Layer == "WORKING" {
			delete(req, "evidence_refs")
		}
		b, _ := json.Marshal(req)
		res, err := l.write(ctx, b)
		if err != nil {
			return err
		}
		if (st.Approve || st.RejectDeferred) && res.Status == engine.StatusDeferred && res.ReviewID != "" {
			l.clock.t = l.clock.t.Add(every / 2)
			d := engine.Decision{ReviewID: res.ReviewID, Reviewer: st.By, Approve: true, Note: "reviewed in bulk"}
			if !st.Approve {
				d = engine.Decision{ReviewID: res.ReviewID, Reviewer: st.By, Code: "DUPLICATE", Note: "repeats an existing entry"}
			}
			if _, err := l.eng.Decide(ctx, d); err != nil {
				return err
			}
		}
		l.clock.t = l.clock.t.Add(every)
		if l.rep.Writes%500 == 0 && l.progress != nil {
			l.progress(fmt.Sprintf("seeded %d writes", l.rep.Writes))
		}
	}
	return nil
}

func (l *loader) decide(ctx context.Context, ref, key, by string, approve bool, code, note string) error {
	it, err := l.item(ctx, ref, key)
	if err != nil {
		return err
	}
	rs, _, err := l.eng.Reviews(ctx, engine.ReviewQuery{})
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.ItemID == it.ID {
			_, err := l.eng.Decide(ctx, engine.Decision{ReviewID: r.ID, Reviewer: by, Approve: approve, Code: code, Note: note})
			return err
		}
	}
	return fmt.Errorf("no open review for %s %s", ref, key)
}

func (a *app) seedCommand() *cobra.Command {
	var asJSON bool
	return &cobra.Command{
		Use:   "seed DIR",
		Short: "Load a dataset (story.jsonl and templates.json) through the governed pipeline",
		Long: `seed loads a dataset into the database (creating it if needed). DIR holds
story.jsonl, one step per line (principal, write, generate, decide, rollback, pin,
baseline, tamper, verify, proposal, advance, clock), and templates.json for
generated memory. Every write goes through the real pipeline on a clock that starts
in the past and ends now. Use "-" for the embedded demo dataset.`,
		Example: "  memgov --db /tmp/demo.db seed -\n  memgov --db team.db seed ./my-dataset",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var fsys fs.FS = demo.FS
			if args[0] != "-" {
				if st, err := os.Stat(args[0]); err != nil || !st.IsDir() {
					return usagef("%s is not a dataset directory", args[0])
				}
				fsys = os.DirFS(args[0])
			}
			rep, err := a.loadDataset(cmd.Context(), fsys, func(s string) { fmt.Fprintln(a.stderr, s) })
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "loaded %d steps, %d writes in %s: %v\n", rep.Steps, rep.Writes, rep.Took, rep.Outcomes)
			return nil
		},
	}
}

func defaultDemoPath() string {
	return filepath.Join(filepath.Dir(defaultDBPath()), "demo.db")
}

func (a *app) demoCommand() *cobra.Command {
	var noTUI bool
	cmd := &cobra.Command{
		Use:   "demo [--db PATH] [--no-tui]",
		Short: "Open memgov on a seeded demo database",
		Long: `demo creates (or reuses) a demo database, seeds it through the real governed
pipeline with the embedded dataset (3 tenants, 8 agents, a few thousand memories,
a review queue, drifted agents, long histories) and opens the TUI as demo-curator.
Without --db it uses demo.db in memgov's data directory and says where.`,
		Example: "  memgov demo\n  memgov demo --db /tmp/demo.db --no-tui",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("db") && os.Getenv("MEMGOV_DB") == "" {
				a.dbPath = defaultDemoPath()
			}
			fresh := false
			if _, err := os.Stat(a.dbPath); errors.Is(err, fs.ErrNotExist) {
				fresh = true
			}
			if fresh {
				fmt.Fprintf(a.stderr, "seeding a demo database at %s (once; later runs reuse it)...\n", a.dbPath)
				rep, err := a.loadDataset(cmd.Context(), demo.FS, func(s string) { fmt.Fprintln(a.stderr, "  "+s) })
				if err != nil {
					return fmt.Errorf("seeding the demo: %w (remove %s and retry)", err, a.dbPath)
				}
				fmt.Fprintf(a.stderr, "seeded %d writes in %s: %v\n", rep.Writes, rep.Took, rep.Outcomes)
			} else {
				fmt.Fprintf(a.stderr, "reusing the demo database at %s (delete it for a fresh one)\n", a.dbPath)
			}
			if noTUI {
				fmt.Fprintf(a.stdout, "demo database: %s\nreopen it with: memgov --db %s tui --as demo-curator\n", a.dbPath, a.dbPath)
				return nil
			}
			return a.runTUI(cmd, "demo-curator")
		},
	}
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "seed and print where the database is, without opening the TUI")
	return cmd
}

// seedOps are the dataset steps beyond the core ones of loader.step:
// baselines, tampering, proposals, reads and verification.
var seedOps = map[string]func(context.Context, *loader, seedStep) error{
	"baseline": func(ctx context.Context, l *loader, st seedStep) error {
		_, err := l.eng.ApproveBaseline(ctx, engine.ApproveRequest{MemoryRef: st.Ref, By: st.By, MemoryType: engine.MemoryType(st.Type),
			TTLSeconds: st.TTL, DriftPolicy: st.Policy, Level: st.Level, Owner: st.Owner, Reason: "demo baseline"})
		return err
	},
	// tamper edits an item's content in the materialised tables with plain
	// SQL, as someone with database access would behind memgov's back: no log
	// entry, no review. The demo's drift story starts here.
	"tamper": func(ctx context.Context, l *loader, st seedStep) error {
		res, err := l.a.store.DB().ExecContext(ctx, `UPDATE versions SET content = CAST(json_set(content, '$.text', ?) AS BLOB)
			WHERE id = (SELECT head_version_id FROM items WHERE memory_ref = ? AND key = ?)`, st.Text, st.Ref, st.Key)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("no visible item %s in %s to edit", st.Key, st.Ref)
		}
		return nil
	},
	// proposal creates a reviewable-learning proposal or moves one, found by
	// its title, through revise, apply, reject or archive.
	"proposal": func(ctx context.Context, l *loader, st seedStep) error {
		in := engine.ProposalInput{Kind: st.Kind, Title: st.Title, Artifact: st.Artifact, Rationale: st.Rationale, SourceRunIDs: st.Runs}
		if st.Action == "create" {
			_, err := l.eng.CreateProposal(ctx, in, st.By)
			return err
		}
		ps, err := l.eng.ListProposals(ctx, engine.ProposalQuery{})
		if err != nil {
			return err
		}
		id := ""
		for _, p := range ps {
			if p.Title == st.Title {
				id = p.ID
			}
		}
		if id == "" {
			return fmt.Errorf("no proposal titled %q", st.Title)
		}
		switch st.Action {
		case "revise":
			_, err = l.eng.ReviseProposal(ctx, id, in, st.By)
		case "apply":
			_, err = l.eng.ApplyProposal(ctx, id, st.By)
		case "reject":
			_, err = l.eng.RejectProposal(ctx, id, st.By, st.Note)
		case "archive":
			_, err = l.eng.ArchiveProposal(ctx, id, st.By, st.Note)
		default:
			err = fmt.Errorf("unknown proposal action %q", st.Action)
		}
		return err
	},
	// read is an agent reading a page of its memory; with used > 0 it reports
	// which of the returned entries it used (retrieval precision, 12.12.4).
	"read": func(ctx context.Context, l *loader, st seedStep) error {
		snap, err := l.eng.ReadAs(ctx, st.Agent, engine.ReadQuery{MemoryRef: st.Ref, Limit: max(st.Count, 1), AfterKey: st.Key})
		if err != nil {
			return err
		}
		var used []string
		for i, v := range snap.Versions {
			if i < st.Start {
				used = append(used, v.ItemID)
			}
		}
		if snap.RetrievalID != "" && len(used) > 0 {
			_, err = l.eng.Feedback(ctx, snap.RetrievalID, used)
		}
		return err
	},
	"revalidate": func(ctx context.Context, l *loader, st seedStep) error {
		_, err := l.eng.Revalidate(ctx, st.Count)
		return err
	},
	"verify": func(ctx context.Context, l *loader, st seedStep) error {
		_, err := l.eng.VerifyMemory(ctx, engine.VerifyRequest{MemoryRef: st.Ref, Actor: "memgov-seed"})
		return err
	},
}
