package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// clicker is a screen whose list rows can be selected with the mouse: x and
// y are relative to the screen's body (its first line is y 0).
type clicker interface {
	Click(x, y int) tea.Cmd
}

// wheelLines is how many rows one notch of the wheel moves.
const wheelLines = 3

// mouse handles the wheel (scrolls the list in focus), a click on a tab
// (switches to it) and a click on a row (selects it). Nothing happens under
// a modal, a picker or a field: those take the keyboard only.
func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	if m.modal != nil || m.fullHelp || m.mode() != ModeNormal {
		return nil
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp, tea.MouseButtonWheelDown:
		if msg.Action != tea.MouseActionPress {
			return nil
		}
		act, k := ActUp, tea.KeyMsg{Type: tea.KeyUp}
		if msg.Button == tea.MouseButtonWheelDown {
			act, k = ActDown, tea.KeyMsg{Type: tea.KeyDown}
		}
		var cmds []tea.Cmd
		for range wheelLines {
			cmds = append(cmds, m.screens[m.active].Update(k, act))
		}
		return tea.Batch(cmds...)
	case tea.MouseButtonLeft:
		if msg.Action != tea.MouseActionPress {
			return nil
		}
		if msg.Y == 0 {
			for i, span := range m.tabSpans {
				if msg.X >= span[0] && msg.X < span[1] {
					return m.switchTo(i)
				}
			}
			return nil
		}
		if y := msg.Y - headerLines; y >= 0 && y < m.bodyHeight() {
			if c, ok := m.screens[m.active].(clicker); ok {
				return c.Click(msg.X, y)
			}
		}
	}
	return nil
}

// clickRow selects the row under a click in a table drawn in the list part
// of s (a column header on its first line); it reports whether it did.
func clickRow(c *cursor, n int, s split, x, y int) bool {
	if s.wide && x >= s.listW {
		return false
	}
	if y < 1 || y >= s.listH {
		return false
	}
	i := c.offset + y - 1
	if i >= n || i >= c.offset+c.height {
		return false
	}
	c.pos = i
	c.clamp(n)
	return true
}

// spans measures where each tab's label sits on the tabs line.
func spans(line string, labels []string) [][2]int {
	plain := ansi.Strip(line)
	out := make([][2]int, len(labels))
	from := 0
	for i, l := range labels {
		at := indexFrom(plain, l, from)
		if at < 0 {
			out[i] = [2]int{-1, -1}
			continue
		}
		x := ansi.StringWidth(plain[:at])
		out[i] = [2]int{x, x + ansi.StringWidth(l)}
		from = at + len(l)
	}
	return out
}

func indexFrom(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
