package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
)

// Step is one line of a dataset's story.jsonl.
type Step struct {
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
	// live.jsonl: a scene and the condition under which it is still live
	Name       string `json:"name"`
	Unless     string `json:"unless"`
	Resolution string `json:"resolution"`
	// Tier is the review tier a write's DEFERRED answer must carry.
	Tier string `json:"tier"`
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

// Report counts what a load did.
type Report struct {
	Steps    int            `json:"steps"`
	Writes   int            `json:"writes"`
	Outcomes map[string]int `json:"outcomes"`
	Took     string         `json:"took"`
}

// Options configure a load.
type Options struct {
	// Open returns the engine to load through, reading time from now: the
	// story's stepping clock. It is called once.
	Open func(now func() time.Time) (*engine.Engine, error)
	// Now is the present the story ends at; nil means time.Now.
	Now func() time.Time
	// Scale multiplies the count of every generate step (at least one write
	// each); 0 means 1. Tests play the whole story small.
	Scale float64
	// Progress, if set, hears of every write the story makes, with the total
	// it will make.
	Progress func(done, total int)
	// Trace, if set, hears every step with the story's clock.
	Trace func(line int, op string, at time.Time)
	// Rehearse, if set, returns an engine on a scratch copy of the database
	// Open's engine works on, reading time from now, and a function that
	// discards the copy. Reenact plays its scenes there first and touches the
	// real database only when the rehearsal succeeded.
	Rehearse func(now func() time.Time) (*engine.Engine, func(), error)
}

// clock is the stepping clock a dataset is loaded on: it starts in the past
// and ends at the present, so ages and deadlines look real.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func (c *clock) set(t time.Time) {
	if t.After(c.t) {
		c.t = t
	}
}

// loader plays a dataset's story against an engine.
type loader struct {
	o         Options
	eng       *engine.Engine
	clock     *clock
	templates map[string]template
	rep       Report
	people    map[string]*review.Service
	total     int               // writes the story will make
	last      map[string]string // the last key a generate step committed, by ref
}

// Load plays the dataset in fsys (story.jsonl, and templates.json when the
// story generates memory) through the engine Options.Open returns.
func Load(ctx context.Context, fsys fs.FS, o Options) (Report, error) {
	start := time.Now()
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Scale <= 0 {
		o.Scale = 1
	}
	l := &loader{o: o, clock: &clock{t: o.Now().UTC()}, templates: map[string]template{},
		rep: Report{Outcomes: map[string]int{}}, people: map[string]*review.Service{}}
	eng, err := o.Open(l.clock.now)
	if err != nil {
		return l.rep, err
	}
	l.eng = eng
	if err := l.readTemplates(fsys); err != nil {
		return l.rep, err
	}
	total, err := plannedWrites(fsys, o.Scale)
	if err != nil {
		return l.rep, err
	}
	l.total = total
	f, err := fsys.Open("story.jsonl")
	if err != nil {
		return l.rep, fmt.Errorf("the dataset has no story.jsonl: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), memgov.MaxRequestBytes)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		st, err := decodeStep(b)
		if err != nil {
			return l.rep, fmt.Errorf("story.jsonl line %d: %w", line, err)
		}
		if o.Trace != nil {
			o.Trace(line, st.Op, l.clock.t)
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

// readTemplates reads templates.json when the dataset has one.
func (l *loader) readTemplates(fsys fs.FS) error {
	b, err := fs.ReadFile(fsys, "templates.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &l.templates); err != nil {
		return fmt.Errorf("templates.json: %w", err)
	}
	return nil
}

// plannedWrites counts the writes a story will make (write steps and the
// scaled counts of generate steps): the total that progress is shown against.
func plannedWrites(fsys fs.FS, scale float64) (int, error) {
	b, err := fs.ReadFile(fsys, "story.jsonl")
	if err != nil {
		return 0, fmt.Errorf("the dataset has no story.jsonl: %w", err)
	}
	n := 0
	for i, raw := range bytes.Split(b, []byte("\n")) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		st, err := decodeStep(raw)
		if err != nil {
			return 0, fmt.Errorf("story.jsonl line %d: %w", i+1, err)
		}
		switch st.Op {
		case "write":
			n++
		case "generate":
			c := st.Count
			if scale != 1 {
				c = max(1, int(math.Ceil(float64(c)*scale)))
			}
			n += c
		}
	}
	return n, nil
}

// ParseDuration reads a Go duration or a number of days ("30d").
func ParseDuration(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		if _, err := fmt.Sscan(d, &n); err != nil {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

// person is the review service acting as id: every human decision of the
// story goes through it, under the rules the CLI and the TUI follow.
func (l *loader) person(ctx context.Context, id string) (*review.Service, error) {
	if s, ok := l.people[id]; ok {
		return s, nil
	}
	p, err := review.Identify(ctx, l.eng, id)
	if err != nil {
		return nil, err
	}
	s := review.New(l.eng, p)
	if authz.Known(p) {
		l.people[id] = s
	}
	return s, nil
}

// itemStep is the review service of the step's person and the item its ref
// and key name.
func (l *loader) itemStep(ctx context.Context, st Step) (*review.Service, string, error) {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return nil, "", err
	}
	it, err := l.eng.Host().ItemByKey(ctx, memgov.Owner, st.Ref, st.Key)
	if err != nil {
		return nil, "", err
	}
	return svc, it.ID, nil
}

func (l *loader) step(ctx context.Context, st Step) error {
	switch st.Op {
	case "start":
		d, err := ParseDuration(st.Ago)
		if err != nil {
			return err
		}
		l.clock.t = l.o.Now().UTC().Add(-d)
	case "advance":
		d, err := ParseDuration(st.By)
		if err != nil {
			return err
		}
		l.clock.t = l.clock.t.Add(d)
	case "clock":
		target := l.o.Now().UTC()
		if rest, ok := strings.CutPrefix(st.To, "end"); ok && rest != "" {
			d, err := ParseDuration(strings.TrimPrefix(rest, "-"))
			if err != nil {
				return err
			}
			target = target.Add(-d)
		}
		l.clock.set(target)
	case "principal":
		role, err := memgov.ParseRole(st.Role)
		if err != nil {
			return err
		}
		_, err = l.eng.AddPrincipal(ctx, memgov.Principal{ID: st.ID, Role: role, Tenant: st.Tenant}, "memgov-seed")
		return err
	case "write":
		res, err := l.write(ctx, st.Request)
		if err != nil {
			return err
		}
		if st.Expect != "" && res.Status != st.Expect {
			return fmt.Errorf("expected %s, got %s %s: %s", st.Expect, res.Status, res.Reason, res.Detail)
		}
		if st.Tier != "" && res.Tier != st.Tier {
			return fmt.Errorf("expected a %s review, got %s %q (%s): %s", st.Tier, res.Status, res.Tier, res.Reason, res.Detail)
		}
		if st.Approve && res.Status == memgov.StatusDeferred && res.ReviewID != "" {
			// A fact a person has vouched for: approved as the step's person.
			svc, err := l.person(ctx, st.By)
			if err != nil {
				return err
			}
			if _, err := svc.Queue().Approve(ctx, res.ReviewID, 0, "recorded from the source of record"); err != nil {
				return err
			}
		}
	case "generate":
		return l.generate(ctx, st)
	case "decide":
		return l.decide(ctx, st)
	case "rollback":
		svc, err := l.person(ctx, st.By)
		if err != nil {
			return err
		}
		key := st.Key
		if key == "{last}" {
			if key = l.last[st.Ref]; key == "" {
				return fmt.Errorf("no write of this scene to %s was committed, so there is none to roll back", st.Ref)
			}
		}
		v, err := l.eng.Host().Get(ctx, memgov.Owner, st.Ref, key)
		if err != nil {
			return err
		}
		_, err = svc.Rollback(ctx, v.ID, st.Reason)
		return err
	case "pin":
		svc, id, err := l.itemStep(ctx, st)
		if err != nil {
			return err
		}
		_, err = svc.SetPinned(ctx, id, true, st.Reason)
		return err
	case "expire":
		svc, id, err := l.itemStep(ctx, st)
		if err != nil {
			return err
		}
		_, err = svc.ForceExpire(ctx, id, st.Reason)
		return err
	case "baseline":
		svc, err := l.person(ctx, st.By)
		if err != nil {
			return err
		}
		_, err = svc.Drift().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: st.Ref, MemoryType: memgov.MemoryType(st.Type),
			TTLSeconds: st.TTL, DriftPolicy: st.Policy, Level: st.Level, Owner: st.Owner, Reason: "demo baseline"})
		return err
	case "proposal":
		return l.proposal(ctx, st)
	case "read":
		return l.read(ctx, st)
	case "revalidate":
		_, err := l.eng.Writes().Revalidate(ctx, st.Count)
		return err
	case "escalate":
		return l.escalate(ctx, st)
	case "ack":
		return l.ack(ctx, st)
	case "sweep":
		svc, err := l.person(ctx, st.By)
		if err != nil {
			return err
		}
		_, err = svc.Queue().Sweep(ctx)
		return err
	case "verify":
		actor := "memgov-seed"
		if st.By != "" {
			actor = st.By
		}
		res, err := l.eng.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: st.Ref, Actor: actor})
		if err != nil {
			return err
		}
		if st.Expect == "drift" && res.DriftID == "" {
			return fmt.Errorf("expected verify to find drift of %s, got %s (%s)", st.Ref, res.Code, res.Cause)
		}
	case "reinstate":
		return l.reinstate(ctx, st)
	default:
		return fmt.Errorf("unknown step %q", st.Op)
	}
	return nil
}

func (l *loader) write(ctx context.Context, raw json.RawMessage) (memgov.WriteResult, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return memgov.WriteResult{}, err
	}
	if d, ok := m["deadline_in"].(string); ok {
		dd, err := ParseDuration(d)
		if err != nil {
			return memgov.WriteResult{}, err
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
	req, err := memgov.DecodeWriteRequest(b)
	if err != nil {
		return memgov.WriteResult{}, err
	}
	res, err := l.eng.Writes().Write(ctx, req)
	if err != nil {
		return res, err
	}
	l.rep.Writes++
	if l.o.Progress != nil {
		l.o.Progress(l.rep.Writes, max(l.total, l.rep.Writes))
	}
	l.rep.Outcomes[res.Status]++
	return res, nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func (l *loader) generate(ctx context.Context, st Step) error {
	tpl, ok := l.templates[st.Kind]
	if !ok {
		return fmt.Errorf("no template %q in templates.json", st.Kind)
	}
	every, err := ParseDuration(st.Every)
	if err != nil {
		return err
	}
	h := fnv.New64a()
	fmt.Fprint(h, st.Kind, st.Agent, st.Ref, st.Layer)
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	start := max(st.Start, 1)
	count := st.Count
	if l.o.Scale != 1 {
		count = max(1, int(math.Ceil(float64(count)*l.o.Scale)))
	}
	names := make([]string, 0, len(tpl.Slots))
	for k := range tpl.Slots {
		names = append(names, k)
	}
	sort.Strings(names)
	for n := start; n < start+count; n++ {
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
			k := st.Key
			for name, v := range vals {
				if name != "n" {
					k = strings.ReplaceAll(k, "{"+name+"}", strings.ReplaceAll(strings.ToLower(v), " ", "-"))
				}
			}
			req["key"] = strings.ReplaceAll(k, "{n}", fmt.Sprintf("%04d", n))
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
		if res.Status == memgov.StatusCommitted && l.last != nil {
			l.last[st.Ref], _ = req["key"].(string)
		}
		if (st.Approve || st.RejectDeferred) && res.Status == memgov.StatusDeferred && res.ReviewID != "" {
			l.clock.t = l.clock.t.Add(every / 2)
			svc, err := l.person(ctx, st.By)
			if err != nil {
				return err
			}
			if st.Approve {
				_, err = svc.Queue().Approve(ctx, res.ReviewID, 0, "reviewed in bulk")
			} else {
				_, err = svc.Queue().Reject(ctx, res.ReviewID, 0, "DUPLICATE", "repeats an existing entry")
			}
			if err != nil {
				return err
			}
		}
		l.clock.t = l.clock.t.Add(every)
	}
	return nil
}

// decide decides the open review of a key, as a curator working the queue.
func (l *loader) decide(ctx context.Context, st Step) error {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	it, err := l.eng.Host().ItemByKey(ctx, memgov.Owner, st.Ref, st.Key)
	if err != nil {
		return err
	}
	rs, _, err := l.eng.Reviews().List(ctx, memgov.ReviewQuery{})
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.ItemID != it.ID {
			continue
		}
		if st.Approve {
			_, err = svc.Queue().Approve(ctx, r.ID, 0, st.Note)
		} else {
			_, err = svc.Queue().Reject(ctx, r.ID, 0, st.Code, st.Note)
		}
		return err
	}
	return fmt.Errorf("no open review for %s %s", st.Ref, st.Key)
}

// proposal creates a reviewable-learning proposal, or moves one, found by its
// title, through revise (its owner) or apply, reject or archive (a person).
func (l *loader) proposal(ctx context.Context, st Step) error {
	in := memgov.ProposalInput{Kind: st.Kind, Title: st.Title, Artifact: st.Artifact, Rationale: st.Rationale, SourceRunIDs: st.Runs}
	if st.Action == "create" {
		_, err := l.eng.Host().CreateProposal(ctx, in, st.By)
		return err
	}
	ps, err := l.eng.Host().ListProposals(ctx, memgov.ProposalQuery{})
	if err != nil {
		return err
	}
	var pr memgov.Proposal
	for _, p := range ps {
		if p.Title == st.Title {
			pr = p
		}
	}
	if pr.ID == "" {
		return fmt.Errorf("no proposal titled %q", st.Title)
	}
	if st.Action == "revise" {
		_, err = l.eng.Host().ReviseProposal(ctx, pr.ID, in, st.By)
		return err
	}
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	switch st.Action {
	case "apply":
		_, err = svc.Proposals().Apply(ctx, pr)
	case "reject":
		_, err = svc.Proposals().Reject(ctx, pr, st.Note)
	case "archive":
		_, err = svc.Proposals().Archive(ctx, pr, st.Note)
	default:
		err = fmt.Errorf("unknown proposal action %q", st.Action)
	}
	return err
}

// read is an agent reading a page of its memory; with start > 0 it reports
// which of the returned entries it used (retrieval precision, spec §12.12.4).
func (l *loader) read(ctx context.Context, st Step) error {
	snap, err := l.eng.Host().Read(ctx, memgov.As(st.Agent), memgov.ReadQuery{MemoryRef: st.Ref, Limit: max(st.Count, 1), AfterKey: st.Key})
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
		_, err = l.eng.Host().Feedback(ctx, snap.RetrievalID, used)
	}
	return err
}
