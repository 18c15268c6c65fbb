package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

type row struct{ id, text string }

func testList(t *testing.T) (*Context, *list[row]) {
	t.Helper()
	c := &Context{Now: func() time.Time { return testNow }, Styles: NewStyles(DefaultTheme()), Keys: DefaultKeyMap()}
	l := newList(c, "rows", func(r row) string { return r.id }, "words")
	l.resize(3)
	return c, l
}

func rows(ids ...string) []row {
	out := make([]row, len(ids))
	for i, id := range ids {
		out[i] = row{id, "text of " + id}
	}
	return out
}

// A read's answer is taken only while it is the read the list waits for;
// the cursor stays on its row when rows come or go above it, and a new
// filter starts at the top.
func TestListReadsAndSelection(t *testing.T) {
	_, l := testList(t)
	stale := l.ask()
	fresh := l.ask()
	if l.answered(stale, nil) {
		t.Fatal("a stale answer was taken")
	}
	if !l.answered(fresh, nil) || !l.loaded || l.req != 0 {
		t.Fatalf("the awaited answer was not taken: loaded %v req %d", l.loaded, l.req)
	}
	l.setAll(rows("a", "b", "c", "d"))
	l.move(ActDown)
	l.move(ActDown) // on c
	l.setAll(rows("z", "a", "b", "c", "d"))
	if r, _ := l.selected(); r.id != "c" || l.cur.pos != 3 {
		t.Fatalf("after a row came above: on %q at %d", r.id, l.cur.pos)
	}
	l.setAll(rows("a", "d"))
	if r, _ := l.selected(); r.id != "d" {
		t.Fatalf("the selected row went: on %q, want the row now at its place, d", r.id)
	}
	l.top()
	l.setAll(rows("x", "a", "d"))
	if l.cur.pos != 0 {
		t.Fatalf("after top the rows read put the cursor at %d", l.cur.pos)
	}
	l.setAll(rows("y", "x", "a", "d"))
	if r, _ := l.selected(); r.id != "x" {
		t.Fatalf("top kept the cursor at the top for good: on %q", r.id)
	}
	_, err := l.ask(), errors.New("disk gone")
	l.answered(l.req, err)
	if n := strings.Join(l.notice(false, nil, nil), "\n"); !strings.Contains(n, "cannot read rows: disk gone") || !strings.Contains(n, "ctrl+r retries") {
		t.Fatalf("a failed read shows %q", n)
	}
}

// A window of a longer list: rows outside it are not loaded, and the cursor
// moves over the whole list.
func TestListWindow(t *testing.T) {
	_, l := testList(t)
	l.set(rows("r10", "r11", "r12"), 10, 50)
	if _, ok := l.row(9); ok {
		t.Fatal("row 9 is outside the window")
	}
	if r, ok := l.row(11); !ok || r.id != "r11" {
		t.Fatalf("row 11: %+v %v", r, ok)
	}
	l.move(ActBottom)
	if l.cur.pos != 49 {
		t.Fatalf("G went to %d of 50", l.cur.pos)
	}
}

// One decision at a time; its answer reloads, recounts and reports, and
// only the list that made it takes it.
func TestListDecisions(t *testing.T) {
	c, l := testList(t)
	other := newList(c, "others", func(r row) string { return r.id }, "")
	ran := 0
	cmd := l.decide(func() doneMsg { ran++; return doneMsg{text: "approved a"} })
	if !l.busy {
		t.Fatal("a decision under way does not mark the list busy")
	}
	if msg := l.decide(func() doneMsg { ran++; return doneMsg{} })(); msg != (statusMsg{text: "a decision is still being recorded", err: true}) {
		t.Fatalf("a second decision while one runs: %+v", msg)
	}
	d := cmd().(doneMsg)
	if ran != 1 || !l.mine(d) || other.mine(d) {
		t.Fatalf("ran %d, mine %v, the other list's %v", ran, l.mine(d), other.mine(d))
	}
	reloaded := false
	batch := l.done(d, func() tea.Msg { reloaded = true; return nil })
	if l.busy {
		t.Fatal("still busy after the answer")
	}
	var msgs []tea.Msg
	for _, c := range batch().(tea.BatchMsg) {
		msgs = append(msgs, c())
	}
	if !reloaded || !contains(msgs, countsMsg{}) || !contains(msgs, statusMsg{text: "approved a"}) {
		t.Fatalf("done: reloaded %v, messages %+v", reloaded, msgs)
	}
}

func contains(msgs []tea.Msg, want tea.Msg) bool {
	for _, m := range msgs {
		if fmt.Sprint(m) == fmt.Sprint(want) {
			return true
		}
	}
	return false
}

// The zoomed page scrolls within itself: G shows its last screenful, and
// scrolling past either end stays at it.
func TestListPage(t *testing.T) {
	_, l := testList(t)
	l.setAll(rows("a"))
	l.openZoom()
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	l.zoomKey(ActBottom, 10)
	if v := l.page(lines, 20, 10); !strings.HasPrefix(v, "line 20") || !strings.Contains(v, "line 29") {
		t.Fatalf("G shows:\n%s", v)
	}
	l.zoomKey(ActDown, 10)
	if v := l.page(lines, 20, 10); !strings.HasPrefix(v, "line 20") {
		t.Fatalf("past the end:\n%s", v)
	}
	l.zoomKey(ActPageUp, 10)
	if v := l.page(lines, 20, 10); !strings.HasPrefix(v, "line 12") {
		t.Fatalf("a page up from the end:\n%s", v)
	}
	l.zoomKey(ActTop, 10)
	l.zoomKey(ActUp, 10)
	if v := l.page(lines, 20, 10); !strings.HasPrefix(v, "line 00") {
		t.Fatalf("before the top:\n%s", v)
	}
	l.zoomKey(ActBack, 10)
	if l.zoom {
		t.Fatal("esc does not close the page")
	}
}

// A version's detail longer than the stacked pane opens whole with enter
// and scrolls; esc goes back to the history.
func TestStoryVersionWhole(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 80, 24, MemoryScreen)
	s.toHistory()
	s.press("enter")
	s.see("j/k scroll")
	s.press("G")
	m := settle(s.quit())
	mem := m.screens[MemoryScreen].(*memory)
	if !mem.versions.zoom {
		t.Fatal("enter did not open the version whole")
	}
	view := m.View()
	for _, want := range []string{"version    ", "log        LSN", "esc back"} {
		if !strings.Contains(view, want) {
			t.Errorf("the version's page at its end lacks %q:\n%s", want, view)
		}
	}
	mem.Update(tea.KeyMsg{Type: tea.KeyEsc}, ActBack)
	if mem.versions.zoom || mem.level != levelHistory {
		t.Fatalf("esc: zoom %v level %v", mem.versions.zoom, mem.level)
	}
}

// A filter that keeps no memory ref says so, rather than that the database
// holds no memory.
func TestStoryRefsFilterKeepsNothing(t *testing.T) {
	s := open(t, newWorld(t), "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("/", "nosuchref", "enter")
	s.see("No memory ref matches nosuchref.")
	s.press("esc")
	s.see("acme/support-bot")
	s.quit()
}

// The drift diff opened whole scrolls to its end when it is longer than
// the terminal (it was cut off at the foot of the screen).
func TestStoryDriftDiffScrolls(t *testing.T) {
	w := newQueueWorld(t)
	w.tamper(t)
	s := openQ(t, w, "ops-jane", 80, 14, DriftScreen)
	s.see("DENYING")
	s.press("enter")
	s.see("j/k scroll")
	m := settle(s.quit())
	d := m.screens[DriftScreen].(*drift)
	const end, top = "R re-approve current state", "DENYING all writes"
	if v := m.View(); !strings.Contains(v, top) || strings.Contains(v, end) {
		t.Fatalf("the diff opened whole does not start at its top:\n%s", v)
	}
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")}, ActBottom)
	if v := m.View(); strings.Contains(v, top) || !strings.Contains(v, end) {
		t.Fatalf("G does not show the diff's end:\n%s", v)
	}
	d.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")}, ActTop)
	if v := m.View(); !strings.Contains(v, top) {
		t.Fatalf("g does not go back to the top:\n%s", v)
	}
}
