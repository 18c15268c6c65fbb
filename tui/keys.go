package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is every key the program answers to. The help bar and the full help
// (`?`) are built from these bindings, so what the screen says is what the
// keys do.
type KeyMap struct {
	NextTab, PrevTab, Screen    key.Binding
	Up, Down, PageUp, PageDown  key.Binding
	Top, Bottom                 key.Binding
	Enter, Back                 key.Binding
	RollBack, Pin, Expire       key.Binding
	Approve, Reject, Escalate   key.Binding
	Mark, ApproveMarked, Filter key.Binding
	Reapprove, RollBaseline     key.Binding
	Apply, Archive, Retract     key.Binding
	TimeTravel, Refresh         key.Binding
	Sort                        key.Binding
	Confirm, Cancel, Submit     key.Binding
	Help, Quit                  key.Binding
}

// DefaultKeyMap returns the standard bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		NextTab:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next screen")),
		PrevTab:       key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "prev screen")),
		Screen:        key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "go to screen")),
		Up:            key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:          key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:        key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:      key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:           key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "first")),
		Bottom:        key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "last")),
		Enter:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:          key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		RollBack:      key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "roll back to version")),
		Pin:           key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pin/unpin")),
		Expire:        key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "force-expire")),
		Approve:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:        key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reject")),
		Escalate:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "escalate")),
		Mark:          key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark")),
		ApproveMarked: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "approve marked")),
		Filter:        key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Reapprove:     key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "re-approve")),
		RollBaseline:  key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "roll back to baseline")),
		Apply:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "apply")),
		Archive:       key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "archive")),
		Retract:       key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "retract")),
		TimeTravel:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "time-travel")),
		Refresh:       key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "refresh")),
		Sort:          key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort: risk/age/SLA")),
		Confirm:       key.NewBinding(key.WithKeys("enter", "ctrl+y"), key.WithHelp("enter", "confirm")),
		Cancel:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Submit:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		Help:          key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:          key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the global part of the help bar.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.NextTab, k.Help, k.Quit} }

// FullHelp is every binding, in groups: moving, opening, deciding,
// confirming, screens.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Enter, k.Back, k.Filter, k.Sort, k.TimeTravel, k.Refresh},
		{k.NextTab, k.PrevTab, k.Screen, k.Help, k.Quit},
		{k.Approve, k.Reject, k.Escalate, k.Mark, k.ApproveMarked, k.Reapprove, k.RollBaseline, k.RollBack, k.Pin, k.Expire},
		{k.Confirm, k.Cancel},
		{k.Apply, k.Reject, k.Archive},
		{k.Retract},
	}
}

// ScreenHelp is every key of one screen (QueueScreen...ActivityScreen), for
// the full help of the screen in focus.
func (k KeyMap) ScreenHelp(screen int) []key.Binding {
	with := func(b key.Binding, keys, desc string) key.Binding { b.SetHelp(keys, desc); return b }
	switch screen {
	case QueueScreen:
		return []key.Binding{with(k.Enter, "enter", "open: claim the review (renewed while open)"), k.Approve, k.Reject, k.Escalate,
			k.Mark, k.ApproveMarked, with(k.Filter, "/", "filter: words or layer= tier= agent= reason= age= breached"),
			k.Sort, with(k.Back, "esc", "close, release the claim, clear the filter"), k.Refresh}
	case DriftScreen:
		return []key.Binding{with(k.Enter, "enter", "the whole diff"), with(k.Reapprove, "R", "adopt the current memory as baseline"),
			k.RollBaseline, with(k.Filter, "/", "filter: words in ref, policy, keys"), k.Back, k.Refresh}
	case ProposalsScreen:
		return []key.Binding{with(k.Enter, "enter", "the whole artifact"), k.Apply, with(k.Reject, "r", "reject (a note is required)"), k.Archive,
			with(k.Filter, "/", "filter: words or state= kind="), k.Back, k.Refresh}
	case MemoryScreen:
		return []key.Binding{with(k.Enter, "enter", "items, an item's history, then the whole version"), k.RollBack, k.Pin, k.Expire, k.TimeTravel,
			with(k.Filter, "/", "filter refs or items by words"), k.Back, k.Refresh}
	case ActivityScreen:
		return []key.Binding{with(k.Enter, "enter", "the whole entry"), with(k.Top, "g", "newest entry"), with(k.Bottom, "G", "oldest entry (LSN 1)"),
			with(k.Filter, "/", "filter: words or op= actor="), with(k.Back, "esc", "clear the filter"), k.Refresh}
	case QuarantineScreen:
		return []key.Binding{with(k.Enter, "enter", "the whole text"), with(k.Apply, "y", "release: readable again, as a new version"),
			with(k.Retract, "X", "retract for good (a reason is required)"), with(k.Mark, "space", "mark several for y or X"),
			with(k.Filter, "/", "filter: words, status= agent="),
			with(k.Back, "esc", "back, clear the filter"), k.Refresh}
	}
	return nil
}

// ModeHelp is the keys of the modes that take the keyboard: a field, a
// confirmation, a picker.
func (k KeyMap) ModeHelp() (field, question, picker []key.Binding) {
	submit := k.Submit
	submit.SetHelp("enter", "apply or confirm")
	ctrlY := key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "confirm"))
	field = []key.Binding{submit, ctrlY, k.Cancel, key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit at once"))}
	question = []key.Binding{k.Confirm, k.Cancel}
	pick := k.Enter
	pick.SetHelp("enter", "choose")
	picker = []key.Binding{k.Up, k.Down, pick, k.Cancel}
	return field, question, picker
}

// Mode is what the keyboard is doing: moving around, answering a
// confirmation, or typing into a field.
type Mode int

// Modes.
const (
	ModeNormal Mode = iota
	ModeConfirm
	ModeInput
	// ModePick is choosing one entry of a short list (a reason code).
	ModePick
)

// Action is what a key press asks for.
type Action int

// Actions.
const (
	ActNone Action = iota
	ActQuit
	ActHelp
	ActNextTab
	ActPrevTab
	ActScreen1
	ActScreen2
	ActScreen3
	ActScreen4
	ActScreen5
	ActScreen6
	ActUp
	ActDown
	ActPageUp
	ActPageDown
	ActTop
	ActBottom
	ActEnter
	ActBack
	ActRollBack
	ActPin
	ActExpire
	ActTimeTravel
	ActRefresh
	ActYes
	ActNo
	ActEditReason
	ActSubmit
	ActApprove
	ActReject
	ActEscalate
	ActMark
	ActApproveMarked
	ActFilter
	ActReapprove
	ActRollBaseline
	ActApply
	ActArchive
	ActSort
	ActRetract
)

var actionNames = [...]string{"none", "quit", "help", "next-tab", "prev-tab", "screen-1", "screen-2", "screen-3",
	"screen-4", "screen-5", "screen-6", "up", "down", "page-up", "page-down", "top", "bottom", "enter", "back", "roll-back",
	"pin", "expire", "time-travel", "refresh", "yes", "no", "edit-reason", "submit",
	"approve", "reject", "escalate", "mark", "approve-marked", "filter", "reapprove", "roll-back-baseline", "apply", "archive", "sort", "retract"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action?"
}

// MsgToAction maps a key press to an action in a mode. It is pure: the same
// key in the same mode always means the same thing. In ModeInput only ctrl+c,
// esc, enter and ctrl+y mean anything; every other key is text for the field
// (ActNone). No decision is ever confirmed by the letter that asked for it.
func MsgToAction(k KeyMap, mode Mode, msg tea.KeyMsg) Action {
	switch mode {
	case ModeInput:
		switch msg.String() {
		case "ctrl+c":
			return ActQuit
		case "esc":
			return ActBack
		case "enter":
			return ActSubmit
		case "ctrl+y":
			return ActYes
		}
		return ActNone
	case ModePick:
		switch {
		case msg.String() == "ctrl+c":
			return ActQuit
		case key.Matches(msg, k.Up):
			return ActUp
		case key.Matches(msg, k.Down):
			return ActDown
		case msg.String() == "enter":
			return ActSubmit
		case key.Matches(msg, k.Back), key.Matches(msg, k.Quit):
			return ActBack
		}
		return ActNone
	case ModeConfirm:
		switch {
		case msg.String() == "ctrl+c":
			return ActQuit
		case key.Matches(msg, k.Confirm):
			return ActYes
		case key.Matches(msg, k.Cancel), key.Matches(msg, k.Quit):
			return ActNo
		}
		return ActNone
	}
	if key.Matches(msg, k.Screen) {
		return ActScreen1 + Action(msg.String()[0]-'1')
	}
	for _, m := range []struct {
		b key.Binding
		a Action
	}{
		{k.Quit, ActQuit}, {k.Help, ActHelp}, {k.NextTab, ActNextTab}, {k.PrevTab, ActPrevTab},
		{k.Up, ActUp}, {k.Down, ActDown}, {k.PageUp, ActPageUp}, {k.PageDown, ActPageDown},
		{k.Top, ActTop}, {k.Bottom, ActBottom}, {k.Enter, ActEnter}, {k.Back, ActBack},
		{k.RollBack, ActRollBack}, {k.Pin, ActPin}, {k.Expire, ActExpire},
		{k.TimeTravel, ActTimeTravel}, {k.Refresh, ActRefresh},
		{k.Approve, ActApprove}, {k.Reject, ActReject}, {k.Escalate, ActEscalate}, {k.Mark, ActMark},
		{k.ApproveMarked, ActApproveMarked}, {k.Filter, ActFilter}, {k.Reapprove, ActReapprove},
		{k.RollBaseline, ActRollBaseline}, {k.Apply, ActApply}, {k.Archive, ActArchive}, {k.Sort, ActSort}, {k.Retract, ActRetract},
	} {
		if key.Matches(msg, m.b) {
			return m.a
		}
	}
	return ActNone
}
