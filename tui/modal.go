package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// confirmMsg asks the root to show a confirmation. The modal opens with its
// field focused: the person types the reason (or note) the log records, and
// confirms with enter or ctrl+y, never with the key that asked (a double
// tap of y, R or E types into the field, it does not confirm).
type confirmMsg struct {
	title string
	lines []string // what will happen, already sanitised
	// reason pre-fills the field; only for decisions that neither destroy
	// nor adopt anything (pinning, escalating, archiving).
	reason string
	// danger styles the modal as destructive or adopting.
	danger bool
	// required: an empty field cannot confirm.
	required bool
	label    string // the field's name; default "reason"
	// word, when set, is what the person must type to confirm (for a
	// decision the log records without a free-text reason).
	word string
	// noField: a question with nothing to record (quitting).
	noField bool
	onYes   func(reason string) tea.Cmd
}

func askConfirm(c confirmMsg) tea.Cmd { return func() tea.Msg { return c } }

// confirm is the modal.
type confirm struct {
	ctx   *Context
	msg   confirmMsg
	input textinput.Model
	warn  string // why the last confirm was refused
}

func newConfirm(c *Context, msg confirmMsg) *confirm {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 500
	if msg.label == "" {
		msg.label = "reason"
	}
	if msg.word != "" {
		msg.label, msg.required, msg.reason = "type "+msg.word, true, ""
	}
	in.SetValue(msg.reason)
	in.CursorEnd()
	if !msg.required {
		in.Placeholder = "optional"
	}
	in.Focus()
	return &confirm{ctx: c, msg: msg, input: in}
}

func (m *confirm) mode() Mode {
	if m.msg.noField {
		return ModeConfirm
	}
	return ModeInput
}

// ok reports whether the field lets the decision go ahead, and why not.
func (m *confirm) ok() (string, bool) {
	v := strings.TrimSpace(m.input.Value())
	switch {
	case m.msg.word != "" && !strings.EqualFold(v, m.msg.word):
		return fmt.Sprintf("type %q to confirm", m.msg.word), false
	case m.msg.required && v == "":
		return "a " + m.msg.label + " is required: type it, then enter", false
	}
	return "", true
}

// update handles a key; done reports that the modal closes.
func (m *confirm) update(msg tea.KeyMsg, act Action) (cmd tea.Cmd, done bool) {
	switch act {
	case ActSubmit, ActYes:
		why, ok := m.ok()
		if !ok {
			m.warn = why
			return nil, false
		}
		note := strings.TrimSpace(m.input.Value())
		if m.msg.word != "" {
			note = ""
		}
		return m.msg.onYes(note), true
	case ActBack, ActNo:
		return func() tea.Msg { return statusMsg{text: "cancelled: " + m.msg.title} }, true
	}
	if m.msg.noField {
		return nil, false
	}
	m.warn = ""
	m.input, cmd = m.input.Update(msg)
	return cmd, false
}

func (m *confirm) bindings() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{k.Confirm, k.Cancel}
}

func (m *confirm) view(w int) string {
	st := m.ctx.Styles
	inner := w - 4
	var b []string
	title := m.msg.title + "?"
	ts := st.ModalTitle
	box := st.Modal
	if m.msg.danger {
		ts, box = st.Bad.Bold(true), st.ModalDanger
		if st.Plain {
			title = "!! " + title
		}
	} else if st.Plain {
		title = "CONFIRM: " + title
	}
	b = append(b, ts.Render(fit(title, inner)), "")
	for _, l := range m.msg.lines {
		b = append(b, wrap(l, inner)...)
	}
	if m.msg.noField {
		for i := range b {
			b[i] = fit(b[i], inner)
		}
		return box.Render(strings.Join(b, "\n"))
	}
	b = append(b, "")
	lw := len([]rune(m.msg.label)) + 2
	m.input.Width = max(inner-lw-1, 8)
	b = append(b, st.Label.Render(m.msg.label+": ")+m.input.View())
	b = append(b, "")
	switch {
	case m.warn != "":
		b = append(b, st.Bad.Render(m.warn))
	case m.msg.word != "":
		b = append(b, st.Muted.Render(fmt.Sprintf("type %s, then enter (or ctrl+y) · esc cancels", m.msg.word)))
	case m.msg.required:
		b = append(b, st.Muted.Render("type the "+m.msg.label+", then enter (or ctrl+y) · esc cancels"))
	default:
		b = append(b, st.Muted.Render("enter (or ctrl+y) confirms · esc cancels"))
	}
	for i := range b {
		b[i] = fit(b[i], inner)
	}
	return box.Render(strings.Join(b, "\n"))
}
