package tui

import (
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// drive runs a command and everything it leads to synchronously, the way the
// bubbletea runtime would, feeding every message back into the model.
func drive(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case nil:
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// BenchmarkMemoryScreen measures the Memory screen on a memoryRef of 100,000
// items: the first render of the items list (one page read from SQLite), each
// key press (Update+View, no I/O), and the read of one further page.
func BenchmarkMemoryScreen(b *testing.B) {
	w := seedWorld(b, filepath.Join(b.TempDir(), "bench.db"))
	seedBulk(b, w.eng, "acme/aaa-bulk-agent", 100_000) // sorts first among the refs
	svc := w.service(b, "demo-curator")
	newModel := func() *Model {
		m := New(Options{Service: svc, Now: func() time.Time { return testNow }, Poll: time.Hour})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.started[MemoryScreen] = true
		drive(m, m.screens[MemoryScreen].Init())
		return m
	}
	enter := tea.KeyMsg{Type: tea.KeyEnter}
	down := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'j'}}
	top := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'g'}}

	b.Run("first-render", func(b *testing.B) {
		for b.Loop() {
			m := newModel()
			_, cmd := m.Update(enter)
			drive(m, cmd)
			if v := m.View(); len(v) == 0 {
				b.Fatal("empty view")
			}
		}
	})
	b.Run("refs-query", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.Refs(w.ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("keypress", func(b *testing.B) {
		m := newModel()
		_, cmd := m.Update(enter)
		drive(m, cmd)
		mem := m.screens[MemoryScreen].(*memory)
		if len(mem.items) == 0 || mem.ref.Items != 100_000 {
			b.Fatalf("ref %s with %d items loaded", mem.ref.MemoryRef, len(mem.items))
		}
		b.ResetTimer()
		for b.Loop() {
			key := down
			if mem.itemCur.pos >= len(mem.items)-1 {
				key = top
			}
			m.Update(key) // a next-page command, if any, is I/O: not run here
			_ = m.View()
		}
	})
	b.Run("next-page", func(b *testing.B) {
		m := newModel()
		_, cmd := m.Update(enter)
		drive(m, cmd)
		mem := m.screens[MemoryScreen].(*memory)
		for b.Loop() {
			mem.itemsReq = 0
			c := mem.loadItems(mem.items[len(mem.items)-1].Key)
			if msg := c().(itemsMsg); msg.err != nil || len(msg.page.Versions) == 0 {
				b.Fatalf("page: %v", msg.err)
			}
		}
	})
}
