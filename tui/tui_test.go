package tui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/review"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

const waitTime = 10 * time.Second

type session struct {
	t  *testing.T
	w  *world
	tm *teatest.TestModel
}

// open starts the program as who, at a size, on a screen.
func open(t *testing.T, w *world, who string, width, height, screen int) *session {
	t.Helper()
	m := New(Options{Service: w.service(t, who), DBName: "demo.db", Now: func() time.Time { return testNow }, Poll: 100 * time.Millisecond})
	m.Focus(screen)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	return &session{t: t, w: w, tm: tm}
}

func newWorld(t *testing.T) *world { return seedWorld(t, filepath.Join(t.TempDir(), "demo.db")) }

// see waits until the screen shows s. It returns as soon as text is
// written, and teatest's output arrives a rune at a time, so the rest of
// that frame may come after: what a test waits for next must be drawn only
// by the state it waits for (a row's own key in the detail, not a word any
// row shows), and keys that act on rows wait for the rows, not for a count
// read apart from them.
func (s *session) see(text string) {
	s.t.Helper()
	teatest.WaitFor(s.t, s.tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(waitTime), teatest.WithCheckInterval(10*time.Millisecond))
}

// press sends keys: names like "enter", "esc", "tab", or text typed rune by rune.
func (s *session) press(keys ...string) {
	for _, k := range keys {
		switch k {
		case "enter":
			s.tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			s.tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
		case "tab":
			s.tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		case "shift+tab":
			s.tm.Send(tea.KeyMsg{Type: tea.KeyShiftTab})
		default:
			for _, r := range k {
				s.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
}

// quit ends the program and returns the final model.
func (s *session) quit() *Model {
	s.t.Helper()
	if err := s.tm.Quit(); err != nil {
		s.t.Fatal(err)
	}
	return s.tm.FinalModel(s.t, teatest.WithFinalTimeout(waitTime)).(*Model)
}

var hexIDs = regexp.MustCompile(`[0-9a-f]{4}…[0-9a-f]{4}`)

// placeholders are what a screen shows while its data is on the way; a
// golden is taken after the test has seen the loaded screen, so it never
// holds one.
var placeholders = []string{"loading…", "loading more…", "reading…", "reading the queue…", "reading proposals…", "reading drift…", "reading health metrics…", "reading memory refs…", "reading items…", "reading the history…", "reading the quarantine…", "reading the log…"}

// golden compares the final screen with testdata/<test>.golden. Abbreviated
// ids and hashes (random UUIDs, salted payload hashes) are masked.
func (s *session) golden() {
	s.t.Helper()
	view := hexIDs.ReplaceAllString(settle(s.quit()).View(), "####…####")
	for _, p := range placeholders {
		if strings.Contains(view, p) {
			s.t.Fatalf("the final screen still shows %q: the test quit before the screen loaded:\n%s", p, view)
		}
	}
	golden.RequireEqual(s.t, []byte(view))
}

// toHistory opens acme/support-bot › customer-42/channel.
func (s *session) toHistory() {
	s.t.Helper()
	s.see("acme/support-bot")
	s.press("j", "enter")
	s.see("customer-42/channel")
	s.press("j", "enter")
	s.see("reactivated by ops-jane")
}

func TestGoldenMemoryRefs(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.see("initech/hr-assistant")
	s.golden()
}

func TestGoldenMemoryItems(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			s := open(t, newWorld(t), "demo-curator", size[0], size[1], MemoryScreen)
			s.see("acme/support-bot")
			s.press("j", "enter")
			s.see("session/s-88")
			s.press("j", "j", "j") // the session note with an escape sequence in it
			s.golden()
		})
	}
}

func TestGoldenMemoryHistory(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			s := open(t, newWorld(t), "demo-curator", size[0], size[1], MemoryScreen)
			s.toHistory()
			s.press("j") // v3, the retracted one: diff against v2
			s.see("RETRACT")
			s.golden()
		})
	}
}

func TestGoldenConfirmRollback(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.toHistory()
	s.press("G", "b")
	s.see("Roll back customer-42/channel to v1?")
	s.golden()
}

func TestGoldenTimeTravel(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.toHistory()
	s.press("t", "8", "enter")
	s.see("showing memory as of LSN 8") // the status comes after the crumb's AS OF
	s.golden()
}

func TestGoldenReadOnly(t *testing.T) {
	s := open(t, newWorld(t), "support-bot", 80, 24, MemoryScreen)
	s.toHistory()
	s.press("b")
	s.see("read-only: support-bot is")
	s.golden()
}

func TestGoldenActivity(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			s := open(t, newWorld(t), "demo-curator", size[0], size[1], ActivityScreen)
			// The root and the log load apart: wait for both, the log by the
			// detail of its newest entry, before the cursor moves.
			seeAll(s, "audit root", "LSN 19  INSERT")
			s.press("j", "j")
			s.see("LSN 17  UPDATE")
			s.golden()
		})
	}
}

func TestGoldenHelp(t *testing.T) {
	s := open(t, newWorld(t), "nobody", 80, 24, MemoryScreen)
	s.see("acme/support-bot")
	s.press("?")
	s.see("time-travel")
	s.golden()
}

func sizeName(s [2]int) string { return fmt.Sprintf("%dx%d", s[0], s[1]) }

func histWithKey(k string) review.History { return review.History{Item: memgov.Item{Key: k}} }

// The flows below read like a curator's story and check the result through
// the engine, not the screen.

func TestFlowRollBackToOlderVersion(t *testing.T) {
	w := newWorld(t)
	s := open(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.toHistory()
	s.press("G", "b") // v1
	s.see("Make the content of v1 ACTIVE again as v5")
	s.press("enter") // an empty reason cannot confirm
	s.see("a reason is required")
	s.press("the phone note was wrong", "enter")
	s.see("v5 ACTIVE") // the status says "ACTIVE again" in the same frame
	if mem := s.quit().screens[MemoryScreen].(*memory); mem.versions.cur.pos != 0 || mem.hist.Versions[0].Seq != 5 {
		t.Fatalf("after the rollback the cursor is on row %d of %d versions", mem.versions.cur.pos, len(mem.hist.Versions))
	}
	v, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "customer-42/channel")
	if err != nil || v.Seq != 5 || v.Text() != "Customer 42 prefers email." || v.State != memgov.Active {
		t.Fatalf("after rollback: v%d %s %q %v", v.Seq, v.State, v.Text(), err)
	}
	es, _ := w.eng.Audit().LogTail(w.ctx, 0, 2)
	if es[0].Actor != "demo-curator" || es[1].Op != oplog.Retract {
		t.Fatalf("log: %+v", es)
	}
	if p, _ := es[1].DecodePayload(); p.Reason != "the phone note was wrong" {
		t.Fatalf("reason %q", p.Reason)
	}
}

func TestFlowPinWithEditedReason(t *testing.T) {
	w := newWorld(t)
	s := open(t, w, "demo-curator", 80, 24, MemoryScreen)
	s.toHistory()
	s.press("p")
	s.see("Pin customer-42/channel?")
	s.press(" (VIP)", "enter")
	s.see("pinned (LSN")
	m := s.quit()
	it, err := w.eng.Host().Item(w.ctx, memgov.Owner, w.channel)
	if err != nil || !it.Pinned {
		t.Fatalf("not pinned: %+v %v", it, err)
	}
	es, _ := w.eng.Audit().LogTail(w.ctx, 0, 1)
	if p, _ := es[0].DecodePayload(); es[0].Op != oplog.Pin || p.Reason != "pinned from the review console (VIP)" {
		t.Fatalf("pin entry %s %q", es[0].Op, p.Reason)
	}
	if !strings.Contains(m.View(), "pinned") {
		t.Fatal("header does not say pinned")
	}
}

func TestFlowTimeTravel(t *testing.T) {
	w := newWorld(t)
	s := open(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("j", "enter")
	s.see("session/s-88")
	s.press("t", "2026-11-20T10:00:00Z", "enter")
	s.see("showing memory as of LSN 8") // after the items of that time are read
	m := s.quit()
	mem := m.screens[MemoryScreen].(*memory)
	if mem.items.total != 1 || mem.items.rows[0].Text() != "Customer 42 prefers email, after 6pm." {
		t.Fatalf("as of 10:00 the ref held %d items: %+v", mem.items.total, mem.items)
	}
}

func TestFlowTimeTravelRejectsNonsense(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("t", "last tuesday", "enter")
	s.see("is not an LSN")
	if m := s.quit(); !m.screens[MemoryScreen].(*memory).asOf.Now() {
		t.Fatal("a bad time changed the view")
	}
}

func TestFlowForceExpireAsksFirst(t *testing.T) {
	w := newWorld(t)
	s := open(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.toHistory()
	s.press("E")
	s.see("Force-expire customer-42/channel?")
	s.press("esc")
	s.see("cancelled")
	if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "customer-42/channel"); err != nil {
		t.Fatalf("cancel expired it: %v", err)
	}
	s.press("E")
	s.see("Force-expire customer-42/channel?")
	s.press("E", "y", "y") // a double tap types into the reason: nothing is confirmed
	s.see("reason: Eyy")
	if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "customer-42/channel"); err != nil {
		t.Fatalf("a double tap expired it: %v", err)
	}
	s.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlY})
	s.see("expired (LSN")
	s.quit()
	if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "customer-42/channel"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("after expire: %v", err)
	}
	_, hist, _ := w.eng.Host().History(w.ctx, memgov.Owner, w.channel)
	if hist[0].State != memgov.Expired {
		t.Fatalf("head is %s", hist[0].State)
	}
}

func TestFlowReadOnlyCannotAct(t *testing.T) {
	for _, who := range []string{"support-bot", "stranger"} {
		t.Run(who, func(t *testing.T) {
			w := newWorld(t)
			before, _ := w.eng.Audit().LogSize(w.ctx)
			s := open(t, w, who, 120, 40, MemoryScreen)
			s.toHistory()
			for _, k := range []struct{ key, verb string }{{"b", "roll back"}, {"p", "pin or unpin"}, {"E", "expire"}} {
				s.press(k.key)
				s.see("cannot " + k.verb + ": read-only: " + who)
			}
			m := s.quit()
			if m.modal != nil || !strings.Contains(m.status.text, "read-only: "+who) {
				t.Fatalf("modal %v, status %q", m.modal, m.status.text)
			}
			if after, _ := w.eng.Audit().LogSize(w.ctx); after != before {
				t.Fatalf("log grew from %d to %d", before, after)
			}
		})
	}
}

func TestActivityFollowsTheLog(t *testing.T) {
	w := newWorld(t)
	s := open(t, w, "demo-curator", 120, 40, ActivityScreen)
	s.see("audit root")
	if _, err := w.eng.Lifecycle().Pin(w.ctx, w.channel, "ops-jane", "fresh decision"); err != nil {
		t.Fatal(err)
	}
	s.see("fresh decision")
	m := s.quit()
	a := m.screens[ActivityScreen].(*activity)
	size, _ := w.eng.Audit().LogSize(w.ctx)
	if a.newest != size || a.list.rows[0].Op != oplog.Pin || int64(len(a.list.rows)) != size {
		t.Fatalf("activity newest %d rows %d top %s; log %d", a.newest, len(a.list.rows), a.list.rows[0].Op, size)
	}
}

func TestTabsAndScreens(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("tab") // Memory -> Activity
	s.see("audit root")
	s.press("tab", "shift+tab", "shift+tab", "1")
	s.see("The queue is empty")
	if m := s.quit(); m.active != QueueScreen {
		t.Fatalf("active screen %d", m.active)
	}
}

// A late answer for a view already left is dropped.
func TestLateAnswersAreDropped(t *testing.T) {
	w := newWorld(t)
	c := &Context{Svc: w.service(t, "demo-curator"), Now: func() time.Time { return testNow }, Styles: NewStyles(DefaultTheme()), Keys: DefaultKeyMap()}
	m := newMemory(c)
	m.SetSize(120, 34)
	m.level = levelItems
	m.hist.Item.Key = "kept"
	m.Update(tea.KeyMsg{Type: tea.KeyEnter}, ActBack) // leave nothing open
	stale := c.nextID()
	m.versions.ask()
	m.Update(historyMsg{id: stale, h: histWithKey("late")}, ActNone)
	if m.hist.Item.Key != "kept" {
		t.Fatal("a stale history answer was applied")
	}
	m.Update(historyMsg{id: m.versions.req, h: histWithKey("fresh")}, ActNone)
	if m.hist.Item.Key != "fresh" {
		t.Fatal("the current answer was dropped")
	}
}
