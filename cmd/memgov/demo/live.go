package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
)

// LiveFile is the dataset file with the time-bound parts of the story.
const LiveFile = "live.jsonl"

// Principal is the demo's own principal (a curator of every tenant): the live
// scenes act as it, so what the demo does is never logged as the person who
// watches it.
const Principal = "memgov-demo"

// Scene conditions: a scene is skipped while what it shows is still live.
const (
	// UnlessSyncPending skips the scene while the ref has an open SYNC_BLOCK
	// review whose deadline has not passed.
	UnlessSyncPending = "sync_pending"
	// UnlessDriftOpen skips the scene while the ref has an open drift episode.
	UnlessDriftOpen = "drift_open"
	// UnlessEscalated skips the scene while the ref has an escalated review
	// (of an item whose key starts with the scene's key, when it names one).
	UnlessEscalated = "escalated"
	// UnlessQuarantined skips the scene while the scene's agent has a write
	// in quarantine.
	UnlessQuarantined = "quarantined"
)

// LiveReport says which scenes of the live story were played.
type LiveReport struct {
	Played   []string       `json:"played"`
	Skipped  []string       `json:"skipped"` // still live from an earlier opening
	Writes   int            `json:"writes"`
	Outcomes map[string]int `json:"outcomes"`
}

// liveStep is one line of live.jsonl with where it stands.
type liveStep struct {
	line  int
	scene int // index in plan.scenes; -1 before the first scene
	st    Step
}

// livePlan is live.jsonl read whole before anything is played.
type livePlan struct {
	steps  []liveStep
	scenes []Step
}

// Reenact plays the time-bound parts of the story (live.jsonl) at the present:
// SYNC_BLOCK arrivals with fresh deadlines, a new drift of a deny-on-drift
// agent, an escalation, a quarantined writer. It runs each time the demo
// opens an existing database, so a demo opened a week after seeding, and
// after a curator and an operator settled everything in it, shows the same
// story as the first time. Every step goes through the governed pipeline and
// the review service, as the demo's own principal. A scene whose state is
// still live (a SYNC_BLOCK review not yet due, an open drift, an escalated
// review, a quarantined write) is skipped, so opening the demo twice in a row
// changes nothing the second time.
//
// Reenact is all or nothing: it reads and checks the whole file first, decides
// which scenes play from the state before any of them acts, and, when
// Options.Rehearse is set, plays them on a scratch copy of the database
// before the real one, so a scene that cannot be played leaves the database
// as it was.
//
// "{stamp}" in a line becomes the present as yyyymmdd-hhmmss and "{seq}" the
// size of the log, which keep the keys and the texts of each re-enactment
// apart from every earlier one (each opening that plays a scene appends more
// entries than a scene generates), and "{last}" as a key the last one a
// scene's generated writes committed.
func Reenact(ctx context.Context, fsys fs.FS, o Options) (LiveReport, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Scale = 1
	now := o.Now().UTC()
	if o.Rehearse != nil {
		c := &clock{t: now}
		eng, done, err := o.Rehearse(c.now)
		if err != nil {
			return LiveReport{}, fmt.Errorf("preparing a rehearsal: %w", err)
		}
		_, err = reenact(ctx, fsys, o, eng, c)
		done()
		if err != nil {
			return LiveReport{}, fmt.Errorf("%w (a rehearsal on a copy of the database failed, so nothing was changed)", err)
		}
	}
	c := &clock{t: now}
	eng, err := o.Open(c.now)
	if err != nil {
		return LiveReport{}, err
	}
	return reenact(ctx, fsys, o, eng, c)
}

// reenact plays the live scenes on eng, whose clock is c.
func reenact(ctx context.Context, fsys fs.FS, o Options, eng *engine.Engine, c *clock) (LiveReport, error) {
	var out LiveReport
	now := c.t
	l := &loader{o: o, clock: c, templates: map[string]template{}, eng: eng,
		rep: Report{Outcomes: map[string]int{}}, people: map[string]*review.Service{}, last: map[string]string{}}
	if err := l.readTemplates(fsys); err != nil {
		return out, err
	}
	b, err := fs.ReadFile(fsys, LiveFile)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	size, err := eng.Audit().LogSize(ctx)
	if err != nil {
		return out, err
	}
	b = bytes.ReplaceAll(b, []byte("{stamp}"), []byte(now.Format("20060102-150405")))
	b = bytes.ReplaceAll(b, []byte("{seq}"), []byte(fmt.Sprint(10000+size)))
	plan, err := l.readPlan(b)
	if err != nil {
		return out, err
	}
	// Which scenes play is decided on the state before any of them acts.
	play := make([]bool, len(plan.scenes))
	for i, sc := range plan.scenes {
		live, err := l.stillLive(ctx, sc)
		if err != nil {
			return out, fmt.Errorf("%s (scene %s): %w", LiveFile, sc.Name, err)
		}
		play[i] = !live
		if live {
			out.Skipped = append(out.Skipped, sc.Name)
		} else {
			out.Played = append(out.Played, sc.Name)
		}
	}
	// The scenes take time on the story's clock (advances, the spacing of
	// generated writes): they start that long before now, and no earlier
	// than the log's last entry, so they end at the present rather than in
	// the future.
	span, err := plan.span(play)
	if err != nil {
		return out, err
	}
	start := now.Add(-span)
	if size > 0 {
		last, err := eng.Audit().LogTail(ctx, size-1, 1)
		if err != nil {
			return out, err
		}
		if len(last) == 1 && last[0].Time.After(start) {
			start = last[0].Time
		}
	}
	if start.Before(now) {
		c.t = start
	}
	for _, ls := range plan.steps {
		if ls.scene >= 0 && !play[ls.scene] {
			continue
		}
		scene := "opening"
		if ls.scene >= 0 {
			scene = plan.scenes[ls.scene].Name
		}
		if err := l.step(ctx, ls.st); err != nil {
			return out, fmt.Errorf("%s line %d (scene %s, %s): %w", LiveFile, ls.line, scene, ls.st.Op, err)
		}
	}
	out.Writes, out.Outcomes = l.rep.Writes, l.rep.Outcomes
	return out, nil
}

// readPlan reads live.jsonl whole and checks what can be checked before
// anything acts: every line decodes, every op and condition is known, every
// generate step has its template.
func (l *loader) readPlan(b []byte) (livePlan, error) {
	var p livePlan
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), memgov.MaxRequestBytes)
	line, scene := 0, -1
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		st, err := decodeStep(raw)
		if err != nil {
			return p, fmt.Errorf("%s line %d: %w", LiveFile, line, err)
		}
		switch st.Op {
		case "scene":
			switch st.Unless {
			case "", UnlessSyncPending, UnlessDriftOpen, UnlessEscalated, UnlessQuarantined:
			default:
				return p, fmt.Errorf("%s line %d: unknown condition %q (want %s, %s, %s or %s)", LiveFile, line, st.Unless,
					UnlessSyncPending, UnlessDriftOpen, UnlessEscalated, UnlessQuarantined)
			}
			p.scenes = append(p.scenes, st)
			scene = len(p.scenes) - 1
			continue
		case "generate":
			if _, ok := l.templates[st.Kind]; !ok {
				return p, fmt.Errorf("%s line %d: no template %q in templates.json", LiveFile, line, st.Kind)
			}
		case "principal", "sweep", "write", "ack", "baseline", "rollback", "verify", "escalate", "reinstate", "pin", "advance":
		default:
			return p, fmt.Errorf("%s line %d: %q is not a live step", LiveFile, line, st.Op)
		}
		p.steps = append(p.steps, liveStep{line: line, scene: scene, st: st})
	}
	return p, sc.Err()
}

// span is how far the steps of the played scenes move the story's clock, at
// most: advances, and the spacing of generated writes (with the half step a
// decision on one of them takes).
func (p livePlan) span(play []bool) (time.Duration, error) {
	var d time.Duration
	for _, ls := range p.steps {
		if ls.scene >= 0 && !play[ls.scene] {
			continue
		}
		switch ls.st.Op {
		case "advance":
			a, err := ParseDuration(ls.st.By)
			if err != nil {
				return 0, fmt.Errorf("%s line %d: %w", LiveFile, ls.line, err)
			}
			d += a
		case "generate":
			every, err := ParseDuration(ls.st.Every)
			if err != nil {
				return 0, fmt.Errorf("%s line %d: %w", LiveFile, ls.line, err)
			}
			d += time.Duration(ls.st.Count) * (every + every/2)
		}
	}
	return d, nil
}

// stillLive evaluates a scene's "unless" condition.
func (l *loader) stillLive(ctx context.Context, st Step) (bool, error) {
	now := l.clock.t
	switch st.Unless {
	case "":
		return false, nil
	case UnlessSyncPending:
		rs, _, err := l.eng.Reviews().List(ctx, memgov.ReviewQuery{Tier: memgov.TierSync, Now: now})
		if err != nil {
			return false, err
		}
		for _, r := range rs {
			if r.MemoryRef == st.Ref && r.Open() && r.DueAt.After(now) {
				return true, nil
			}
		}
		return false, nil
	case UnlessDriftOpen:
		ds, err := l.eng.Baselines().ListDrift(ctx, memgov.DriftQuery{MemoryRef: st.Ref, OpenOnly: true})
		if err != nil {
			return false, err
		}
		return len(ds) > 0, nil
	case UnlessEscalated:
		r, err := l.escalated(ctx, st)
		return r != nil, err
	case UnlessQuarantined:
		qs, err := l.eng.Reviews().Quarantined(ctx, memgov.QuarantineQuery{Status: memgov.QuarantineOpen, Agent: st.Agent, Limit: 1})
		if err != nil {
			return false, err
		}
		return len(qs) > 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", st.Unless)
}

// escalated is an escalated review of the step's ref, of an item whose key
// starts with the step's key; nil if there is none.
func (l *loader) escalated(ctx context.Context, st Step) (*memgov.Review, error) {
	rs, _, err := l.eng.Reviews().List(ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewEscalated}, Now: l.clock.t, Limit: 100000})
	if err != nil {
		return nil, err
	}
	for i, r := range rs {
		if r.MemoryRef != st.Ref {
			continue
		}
		if ok, err := l.keyHas(ctx, r.ItemID, st.Key); err != nil {
			return nil, err
		} else if ok {
			return &rs[i], nil
		}
	}
	return nil, nil
}

// keyHas reports whether the key of item id starts with prefix.
func (l *loader) keyHas(ctx context.Context, id, prefix string) (bool, error) {
	if prefix == "" {
		return true, nil
	}
	it, err := l.eng.Host().Item(ctx, memgov.Owner, id)
	if errors.Is(err, memgov.ErrNotFound) {
		return false, nil // erased since
	}
	if err != nil {
		return false, err
	}
	return strings.HasPrefix(it.Key, prefix), nil
}

// escalate escalates the newest open asynchronous review of a ref (of an
// item whose key starts with the step's key), as a curator sending it to a
// more senior reviewer.
func (l *loader) escalate(ctx context.Context, st Step) error {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	rs, _, err := l.eng.Reviews().List(ctx, memgov.ReviewQuery{Statuses: []string{memgov.ReviewPending}, Now: l.clock.t, Limit: 100000})
	if err != nil {
		return err
	}
	var newest *memgov.Review
	for i, r := range rs {
		if r.MemoryRef != st.Ref || r.Tier == memgov.TierSync {
			continue
		}
		if newest != nil && !r.CreatedAt.After(newest.CreatedAt) {
			continue
		}
		if ok, err := l.keyHas(ctx, r.ItemID, st.Key); err != nil {
			return err
		} else if ok {
			newest = &rs[i]
		}
	}
	if newest == nil {
		return fmt.Errorf("no open review of %s %s* to escalate", st.Ref, st.Key)
	}
	_, err = svc.Queue().Escalate(ctx, newest.ID, st.Note)
	return err
}

// ack acknowledges the open drift episode of a ref, if there is one, as the
// on-call operator would (resolution reapprove or rollback).
func (l *loader) ack(ctx context.Context, st Step) error {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	ds, err := l.eng.Baselines().ListDrift(ctx, memgov.DriftQuery{MemoryRef: st.Ref, OpenOnly: true})
	if err != nil {
		return err
	}
	for _, d := range ds {
		if _, err := svc.Drift().AckID(ctx, d.ID, st.Resolution, st.Note); err != nil {
			return err
		}
	}
	return nil
}

// reinstate lifts the suspension of an agent, if it is suspended.
func (l *loader) reinstate(ctx context.Context, st Step) error {
	p, err := l.eng.Principal(ctx, st.Agent)
	if err != nil {
		return err
	}
	if !p.Suspended {
		return nil
	}
	return l.eng.Writes().Reinstate(ctx, st.Agent, st.By, st.Reason)
}

// decodeStep decodes one line of a story file, refusing unknown fields.
func decodeStep(raw []byte) (Step, error) {
	var st Step
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return st, err
	}
	st.Op = strings.TrimSpace(st.Op)
	return st, nil
}

// CopyDatabase copies the SQLite database at src, with its write-ahead log
// when it has one, to dst: a consistent copy while no write is under way,
// for a rehearsal (Options.Rehearse).
func CopyDatabase(src, dst string) error {
	for _, suffix := range []string{"", "-wal"} {
		in, err := os.Open(src + suffix)
		if suffix != "" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		out, err := os.OpenFile(dst+suffix, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err == nil {
			_, err = io.Copy(out, in)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		in.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
