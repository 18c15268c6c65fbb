package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
)

// LiveFile is the dataset file with the time-bound parts of the story.
const LiveFile = "live.jsonl"

// Scene conditions: a scene is skipped while what it shows is still live.
const (
	// UnlessSyncPending skips the scene while the ref has an open SYNC_BLOCK
	// review whose deadline has not passed.
	UnlessSyncPending = "sync_pending"
	// UnlessDriftOpen skips the scene while the ref has an open drift episode.
	UnlessDriftOpen = "drift_open"
	// UnlessEscalated skips the scene while the ref has an escalated review.
	UnlessEscalated = "escalated"
)

// LiveReport says which scenes of the live story were played.
type LiveReport struct {
	Played   []string       `json:"played"`
	Skipped  []string       `json:"skipped"` // still live from an earlier opening
	Writes   int            `json:"writes"`
	Outcomes map[string]int `json:"outcomes"`
}

// Reenact plays the time-bound parts of the story (live.jsonl) at the present:
// SYNC_BLOCK arrivals with fresh deadlines, a new drift of a deny-on-drift
// agent, an escalation. It runs each time the demo opens an existing database,
// so a demo opened a week after seeding shows the same story as the first
// time. Every step goes through the governed pipeline and the review service,
// like the rest of the story. A scene whose state is still live (a SYNC_BLOCK
// review not yet due, an open drift, an escalated review) is skipped, so
// opening the demo twice in a row changes nothing the second time.
//
// "{stamp}" in a line becomes the present as yyyymmdd-hhmmss and "{seq}" a
// number that grows by one a minute, which keep the keys and the generated
// facts of each re-enactment apart from the earlier ones.
func Reenact(ctx context.Context, fsys fs.FS, o Options) (LiveReport, error) {
	var out LiveReport
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Scale = 1
	l := &loader{o: o, clock: &clock{t: o.Now().UTC()}, templates: map[string]template{},
		rep: Report{Outcomes: map[string]int{}}, people: map[string]*review.Service{}}
	eng, err := o.Open(l.clock.now)
	if err != nil {
		return out, err
	}
	l.eng = eng
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
	stamp := l.clock.t.Format("20060102-150405")
	b = bytes.ReplaceAll(b, []byte("{stamp}"), []byte(stamp))
	// {seq} numbers generated memory apart from every earlier opening: the
	// minutes since 2026 (an opening within the same minute finds its scenes
	// still live and plays none).
	seq := int64(l.clock.t.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) / time.Minute)
	b = bytes.ReplaceAll(b, []byte("{seq}"), []byte(fmt.Sprint(10000+max(seq, 0))))
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), engine.MaxRequestBytes)
	line, skipping, scene := 0, false, ""
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		st, err := decodeStep(raw)
		if err != nil {
			return out, fmt.Errorf("%s line %d: %w", LiveFile, line, err)
		}
		if st.Op == "scene" {
			scene = st.Name
			live, err := l.stillLive(ctx, st)
			if err != nil {
				return out, fmt.Errorf("%s line %d (scene %s): %w", LiveFile, line, scene, err)
			}
			skipping = live
			if live {
				out.Skipped = append(out.Skipped, scene)
			} else {
				out.Played = append(out.Played, scene)
			}
			continue
		}
		if skipping {
			continue
		}
		if err := l.step(ctx, st); err != nil {
			return out, fmt.Errorf("%s line %d (scene %s, %s): %w", LiveFile, line, scene, st.Op, err)
		}
	}
	if err := sc.Err(); err != nil {
		return out, err
	}
	out.Writes, out.Outcomes = l.rep.Writes, l.rep.Outcomes
	return out, nil
}

// stillLive evaluates a scene's "unless" condition.
func (l *loader) stillLive(ctx context.Context, st Step) (bool, error) {
	now := l.clock.t
	switch st.Unless {
	case "":
		return false, nil
	case UnlessSyncPending:
		rs, _, err := l.eng.Reviews(ctx, engine.ReviewQuery{Tier: engine.TierSync, Now: now})
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
		ds, err := l.eng.ListDrift(ctx, engine.DriftQuery{MemoryRef: st.Ref, OpenOnly: true})
		if err != nil {
			return false, err
		}
		return len(ds) > 0, nil
	case UnlessEscalated:
		rs, _, err := l.eng.Reviews(ctx, engine.ReviewQuery{Statuses: []string{engine.ReviewEscalated}, Now: now})
		if err != nil {
			return false, err
		}
		for _, r := range rs {
			if r.MemoryRef == st.Ref {
				return true, nil
			}
		}
		return false, nil
	}
	return false, fmt.Errorf("unknown condition %q (want %s, %s or %s)", st.Unless, UnlessSyncPending, UnlessDriftOpen, UnlessEscalated)
}

// escalate escalates the oldest open review of a ref, as a curator sending it
// to a more senior reviewer.
func (l *loader) escalate(ctx context.Context, st Step) error {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	rs, _, err := l.eng.Reviews(ctx, engine.ReviewQuery{Statuses: []string{engine.ReviewPending}, Now: l.clock.t})
	if err != nil {
		return err
	}
	var oldest *engine.Review
	for i, r := range rs {
		if r.MemoryRef != st.Ref || r.Tier == engine.TierSync {
			continue
		}
		if oldest == nil || r.CreatedAt.Before(oldest.CreatedAt) {
			oldest = &rs[i]
		}
	}
	if oldest == nil {
		return fmt.Errorf("no open review of %s to escalate", st.Ref)
	}
	_, err = svc.Queue().Escalate(ctx, oldest.ID, st.Note)
	return err
}

// ack acknowledges the open drift episode of a ref, if there is one, as the
// on-call operator would (resolution reapprove or rollback).
func (l *loader) ack(ctx context.Context, st Step) error {
	svc, err := l.person(ctx, st.By)
	if err != nil {
		return err
	}
	ds, err := l.eng.ListDrift(ctx, engine.DriftQuery{MemoryRef: st.Ref, OpenOnly: true})
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
