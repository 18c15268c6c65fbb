package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	case "ctrl+y":
		return tea.KeyMsg{Type: tea.KeyCtrlY}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestMsgToAction(t *testing.T) {
	km := DefaultKeyMap()
	for _, tc := range []struct {
		mode Mode
		key  string
		want Action
	}{
		{ModeNormal, "q", ActQuit},
		{ModeNormal, "ctrl+c", ActQuit},
		{ModeNormal, "?", ActHelp},
		{ModeNormal, "tab", ActNextTab},
		{ModeNormal, "shift+tab", ActPrevTab},
		{ModeNormal, "1", ActScreen1},
		{ModeNormal, "4", ActScreen4},
		{ModeNormal, "5", ActScreen5},
		{ModeNormal, "6", ActScreen6},
		{ModeNormal, "7", ActNone},
		{ModeNormal, "X", ActRetract},
		{ModeNormal, "x", ActNone}, // lower-case x is not retract
		{ModeInput, "X", ActNone},  // in a field, X is text
		{ModeNormal, "j", ActDown},
		{ModeNormal, "up", ActUp},
		{ModeNormal, "pgdown", ActPageDown},
		{ModeNormal, "g", ActTop},
		{ModeNormal, "G", ActBottom},
		{ModeNormal, "enter", ActEnter},
		{ModeNormal, "esc", ActBack},
		{ModeNormal, "b", ActRollBack},
		{ModeNormal, "p", ActPin},
		{ModeNormal, "E", ActExpire},
		{ModeNormal, "e", ActEscalate}, // lower-case e is not expire
		{ModeNormal, "a", ActApprove},
		{ModeNormal, "r", ActReject},
		{ModeNormal, " ", ActMark},
		{ModeNormal, "A", ActApproveMarked},
		{ModeNormal, "/", ActFilter},
		{ModeNormal, "R", ActReapprove},
		{ModeNormal, "B", ActRollBaseline},
		{ModeConfirm, "a", ActNone}, // no decision keys inside a question
		{ModeConfirm, "R", ActNone},
		{ModePick, "j", ActDown},
		{ModePick, "up", ActUp},
		{ModePick, "enter", ActSubmit},
		{ModePick, "esc", ActBack},
		{ModePick, "q", ActBack}, // q closes the list, never quits mid-choice
		{ModePick, "a", ActNone},
		{ModePick, "ctrl+c", ActQuit},
		{ModeInput, "a", ActNone}, // typing a note or a filter
		{ModeInput, "/", ActNone},
		{ModeNormal, "t", ActTimeTravel},
		{ModeNormal, "ctrl+r", ActRefresh},
		{ModeNormal, "y", ActApply}, // y outside a confirmation applies a proposal
		{ModeNormal, "z", ActArchive},
		{ModeNormal, "Y", ActNone}, // Y confirms in a modal, nothing outside one
		{ModeInput, "y", ActNone},  // a note typed while rejecting a proposal
		{ModeInput, "z", ActNone},
		{ModeConfirm, "z", ActNone},
		{ModeConfirm, "y", ActNone}, // no letter confirms: not y, nor the R, E or y that asked
		{ModeConfirm, "Y", ActNone},
		{ModeConfirm, "R", ActNone},
		{ModeConfirm, "E", ActNone},
		{ModeConfirm, "enter", ActYes},
		{ModeConfirm, "ctrl+y", ActYes},
		{ModeConfirm, "esc", ActNo},
		{ModeConfirm, "q", ActNo}, // q in a modal cancels, never quits with a question open
		{ModeConfirm, "ctrl+c", ActQuit},
		{ModeConfirm, "b", ActNone},
		{ModeInput, "ctrl+y", ActYes}, // confirms a typed reason
		{ModeInput, "R", ActNone},
		{ModeInput, "E", ActNone},
		{ModeNormal, "s", ActSort},
		{ModeInput, "q", ActNone}, // text for the field
		{ModeInput, "1", ActNone},
		{ModeInput, "enter", ActSubmit},
		{ModeInput, "esc", ActBack},
		{ModeInput, "ctrl+c", ActQuit},
	} {
		if got := MsgToAction(km, tc.mode, keyMsg(tc.key)); got != tc.want {
			t.Errorf("mode %d key %q = %s, want %s", tc.mode, tc.key, got, tc.want)
		}
	}
}

// Every binding has help text, and the full help lists every binding the
// screens use, so `?` never hides a key.
func TestHelpComesFromTheKeyMap(t *testing.T) {
	km := DefaultKeyMap()
	seen := map[string]bool{}
	for _, col := range km.FullHelp() {
		for _, b := range col {
			if b.Help().Key == "" || b.Help().Desc == "" {
				t.Errorf("binding %v has no help", b.Keys())
			}
			seen[b.Help().Key] = true
		}
	}
	for _, b := range []string{"b", "p", "E", "t", "enter", "esc", "tab", "1-6", "?", "q",
		"a", "r", "e", "space", "A", "/", "R", "B", "y", "z", "s"} {
		if !seen[b] {
			t.Errorf("full help lacks %q", b)
		}
	}
}
