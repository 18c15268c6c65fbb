package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/review"
)

// quarantinePolicy makes more than three writes by one agent within a day a
// burst; the seeded clock moves minutes per step, so the windows are wide.
const quarantinePolicy = "reputation:\n  burst_limit: 3\n  burst_window: 48h\n  quarantine_window: 48h\n"

// seedQuarantine is the demo world in which research-agent wrote a burst:
// its fourth write in the window is suspended and its recent writes are
// quarantined.
func seedQuarantine(t testing.TB) *world {
	t.Helper()
	pol, err := policy.Parse([]byte(quarantinePolicy))
	if err != nil {
		t.Fatal(err)
	}
	w := seedWorld(t, filepath.Join(t.TempDir(), "demo.db"), engine.WithPolicy(pol))
	texts := []string{
		"The transformer paper was retracted in 2019 by its authors.",
		"Attention is not needed for sequence models; use RNNs only.",
		"Cite arXiv:1706.03762 as a 2021 preprint.",
		"Every benchmark after 2017 is invalid.",
	}
	for i, text := range texts {
		raw := fmt.Sprintf(`{"source_agent_id":"research-agent","memory_ref":"globex/research-agent","key":"claim/%d","target_layer":"WORKING","confidence":0.6,"content":{"text":%s}}`, i+1, jsonString(text))
		req, err := memgov.DecodeWriteRequest([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.eng.Writes().Write(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	qs, err := w.eng.Reviews().Quarantined(context.Background(), memgov.QuarantineQuery{Status: memgov.QuarantineOpen})
	if err != nil || len(qs) == 0 {
		t.Fatalf("the burst quarantined nothing: %+v %v", qs, err)
	}
	return w
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// openQuarantine opens the program on the Quarantine screen with an hour's
// poll: the counts change only when the person's own action refreshes them.
func openQuarantine(t *testing.T, w *world, who string, size [2]int) *session {
	t.Helper()
	m := New(Options{Service: w.service(t, who), DBName: "demo.db", Now: func() time.Time { return testNow }, Poll: time.Hour, NoSweep: true})
	m.Focus(QuarantineScreen)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
	return &session{t: t, w: w, tm: tm}
}

// lastEntry is the newest log entry, read through the review service.
func lastEntry(t *testing.T, svc *review.Service) review.LogEvent {
	t.Helper()
	es, err := svc.LogTail(context.Background(), 0, 1)
	if err != nil || len(es) != 1 {
		t.Fatalf("log tail: %v %v", es, err)
	}
	return es[0]
}

// entry is the quarantine entry of ref › key, in any status.
func entry(t *testing.T, svc *review.Service, key string) review.QuarantineView {
	t.Helper()
	vs, err := svc.Quarantine().List(context.Background(), "all", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Key == key {
			return v
		}
	}
	t.Fatalf("no quarantine entry for %s in %+v", key, vs)
	return review.QuarantineView{}
}

// The burst is listed for a curator: the count in the tab, the agent, the
// key, the text's first words and the cause.
func TestGoldenQuarantine(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			s := openQuarantine(t, seedQuarantine(t), "demo-curator", size)
			s.see("4 quarantined writes wait")
			s.golden()
		})
	}
}

// A release asks for a typed reason, refuses an empty one, records the
// curator and the reason in the log, makes the content readable again and
// lowers the count at once.
func TestStoryQuarantineRelease(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := seedQuarantine(t)
			s := openQuarantine(t, w, "demo-curator", size)
			// The tab's count and the rows are read apart: y acts on the
			// selected row, so both are on screen first.
			s.seeAll(tabLabel(size)+" 4", "4 listed")
			s.press("y")
			s.see("Release globex/research-agent › claim/3?")
			s.press("enter")
			s.see("a reason is required")
			s.press("checked the preprint date", "enter")
			s.seeAll("released globex/research-agent › claim/3", tabLabel(size)+" 3", "3 listed")
			s.golden()
			svc := w.service(t, "demo-curator")
			if e := lastEntry(t, svc); e.Op != oplog.Quarantine || e.Actor != "demo-curator" || !strings.Contains(e.Reason, "checked the preprint date") {
				t.Fatalf("release log entry: %+v", e)
			}
			if e := entry(t, svc, "claim/3"); e.Status != memgov.QuarantineReleased || e.DecidedBy != "demo-curator" || e.Note != "checked the preprint date" || e.ReleasedAs == "" {
				t.Fatalf("released entry: %+v", e)
			}
			if v, err := w.eng.Host().Version(w.ctx, memgov.Owner, entry(t, svc, "claim/3").ReleasedAs); err != nil || v.State != memgov.Active || !strings.Contains(v.Text(), "2021 preprint") {
				t.Fatalf("released version: %+v %v", v, err)
			}
		})
	}
}

// A retract is styled as destructive, waits for a reason, and is recorded
// with the curator and the reason; the other writes stay quarantined.
func TestStoryQuarantineRetract(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := seedQuarantine(t)
			s := openQuarantine(t, w, "demo-curator", size)
			s.see(tabLabel(size) + " 4")
			s.press("/", "retracted in", "enter")
			s.see("1 listed")
			s.press("X")
			s.see("!! Retract globex/research-agent › claim/1?")
			s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlY})
			s.see("a reason is required")
			s.press("poisoned: the paper was never retracted")
			s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlY})
			s.seeAll("retracted globex/research-agent › claim/1", tabLabel(size)+" 3")
			s.press("/", " status=all", "enter") // decided ones too: the retraction and its reason
			s.seeAll("RETRACTED", "retracted by demo-curator", "“poisoned: the paper was never retracted”")
			s.quit()
			svc := w.service(t, "demo-curator")
			if e := lastEntry(t, svc); e.Op != oplog.Quarantine || e.Actor != "demo-curator" || !strings.Contains(e.Reason, "poisoned: the paper was never retracted") {
				t.Fatalf("retract log entry: %+v", e)
			}
			if e := entry(t, svc, "claim/1"); e.Status != memgov.QuarantineRetracted || e.DecidedBy != "demo-curator" || e.Note != "poisoned: the paper was never retracted" {
				t.Fatalf("retracted entry: %+v", e)
			}
			if n, _ := svc.Quarantine().Open(context.Background()); n != 3 {
				t.Fatalf("open after one retract: %d", n)
			}
		})
	}
}

// An agent sees its own quarantined writes and why, and an operator sees
// them too; neither may decide them, and the screen says so before asking.
func TestStoryQuarantineReadOnly(t *testing.T) {
	for _, c := range []struct{ who, why string }{
		{"research-agent", "read-only: research-agent is an executor"},
		{"ops-jane", "only curators release or retract quarantined memory; ops-jane is an operator"},
	} {
		t.Run(c.who, func(t *testing.T) {
			w := seedQuarantine(t)
			s := openQuarantine(t, w, c.who, sizes[0])
			s.see("cannot decide: " + c.why)
			s.press("X")
			s.see("cannot retract: " + c.why)
			if m := s.quit(); m.modal != nil {
				t.Fatal("a confirmation opened for someone who may not decide")
			}
			if n, _ := w.service(t, "demo-curator").Quarantine().Open(context.Background()); n != 4 {
				t.Fatalf("a key press changed the quarantine: %d open", n)
			}
		})
	}
}

// seeAll waits until the screen has shown every one of texts, in any
// order and in any frames.
func (s *session) seeAll(texts ...string) {
	s.t.Helper()
	teatest.WaitFor(s.t, s.tm.Output(), func(b []byte) bool {
		for _, t := range texts {
			if !bytes.Contains(b, []byte(t)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitTime), teatest.WithCheckInterval(10*time.Millisecond))
}

// tabLabel is the Quarantine tab's label at a size.
func tabLabel(size [2]int) string {
	if size[0] < wideMin {
		return "Quar"
	}
	return "Quarantine"
}

// The full help of the screen says what y and X do there.
func TestStoryQuarantineHelp(t *testing.T) {
	s := openQuarantine(t, seedQuarantine(t), "demo-curator", sizes[1])
	s.see("4 quarantined writes wait")
	s.press("?")
	s.seeAll("QUARANTINE SCREEN", "release: readable again", "retract for good")
	s.quit()
}

// A runaway writer's burst is decided at once: space marks writes, X asks
// once for a reason and retracts every marked one, each its own log entry.
func TestStoryQuarantineRetractMarked(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := seedQuarantine(t)
			svc := w.service(t, "demo-curator")
			s := openQuarantine(t, w, "demo-curator", size)
			s.seeAll(tabLabel(size)+" 4", "4 listed") // the count, and the rows space marks
			s.press(" ", " ")
			s.see("2 marked")
			s.press("X")
			s.see("!! Retract 2 marked writes?")
			s.press("enter")
			s.see("a reason is required")
			s.press("a runaway writer's burst", "enter")
			s.seeAll("retracted 2 of 2 marked writes", tabLabel(size)+" 2")
			m := s.quit()
			if q := m.screens[QuarantineScreen].(*quarantine); len(q.list.marked) != 0 {
				t.Fatalf("marks left after the decision: %d", len(q.list.marked))
			}
			es, err := svc.LogTail(context.Background(), 0, 2)
			if err != nil || len(es) != 2 {
				t.Fatalf("log tail: %v %v", es, err)
			}
			versions := map[string]bool{}
			for _, e := range es {
				if e.Op != oplog.Quarantine || e.Actor != "demo-curator" || !strings.Contains(e.Reason, "a runaway writer's burst") {
					t.Fatalf("retraction entry: %+v", e)
				}
				versions[e.VersionID] = true
			}
			retracted := 0
			for _, v := range mustList(t, svc) {
				if v.Status == memgov.QuarantineRetracted {
					retracted++
					if v.Note != "a runaway writer's burst" || v.DecidedBy != "demo-curator" {
						t.Fatalf("retracted entry: %+v", v)
					}
				}
			}
			if retracted != 2 || len(versions) != 2 {
				t.Fatalf("%d retracted, log entries for versions %v", retracted, versions)
			}
			if n, _ := svc.Quarantine().Open(context.Background()); n != 2 {
				t.Fatalf("open after retracting two: %d", n)
			}
		})
	}
}

func mustList(t *testing.T, svc *review.Service) []review.QuarantineView {
	t.Helper()
	vs, err := svc.Quarantine().List(context.Background(), "all", "")
	if err != nil {
		t.Fatal(err)
	}
	return vs
}
