package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// confirmMsg asks the root to show a y/n confirmation. Every decision is
// recorded with a reason: the modal offers a default the person can edit.
type confirmMsg struct {
	title  string
	lines  []string // what will happen, already sanitised
	reason string   // default reason
	danger bool
	// edit opens the modal with the reason field focused (a note to type).
	edit  bool
	label string // the field's name; default "reason"
	// noField is for decisions the log records without a typed reason.
	noField bool
	onYes   func(reason string) tea.Cmd
}

func askConfirm(c confirmMsg) tea.Cmd { return func() tea.Msg { return c } }

// confirm is the modal.
type confirm struct {
	ctx     *Context
	msg     confirmMsg
	editing bool
	input   textinput.Model
}

func newConfirm(c *Context, msg confirmMsg) *confirm {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 500
	in.SetValue(msg.reason)
	if msg.label == "" {
		msg.label = "reason"
	}
	m := &confirm{ctx: c, msg: msg, input: in}
	if msg.edit {
		m.editing = true
		m.input.Focus()
	}
	return m
}

func (m *confirm) mode() Mode {
	if m.editing {
		return ModeInput
	}
	return ModeConfirm
}

// update handles a key; done reports that the modal closes.
func (m *confirm) update(msg tea.KeyMsg, act Action) (cmd tea.Cmd, done bool) {
	if m.editing {
		switch act {
		case ActSubmit, ActBack:
			m.editing = false
			m.input.Blur()
			return nil, false
		}
		m.input, cmd = m.input.Update(msg)
		return cmd, false
	}
	switch act {
	case ActYes:
		reason := strings.TrimSpace(m.input.Value())
		if reason == "" && !m.msg.noField {
			m.editing = true
			return m.input.Focus(), false
		}
		return m.msg.onYes(reason), true
	case ActNo:
		return func() tea.Msg { return statusMsg{text: "cancelled: " + m.msg.title} }, true
	case ActEditReason:
		if m.msg.noField {
			return nil, false
		}
		m.editing = true
		return m.input.Focus(), false
	}
	return nil, false
}

func (m *confirm) bindings() []key.Binding {
	k := m.ctx.Keys
	if m.editing {
		return []key.Binding{k.Submit, key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "done"))}
	}
	if m.msg.noField {
		return []key.Binding{k.Yes, k.No}
	}
	return []key.Binding{k.Yes, k.No, k.EditReason}
}

func (m *confirm) view(w int) string {
	st := m.ctx.Styles
	inner := w - 4
	var b []string
	title := m.msg.title + "?"
	if st.Plain {
		title = "CONFIRM: " + title
	}
	ts := st.ModalTitle
	if m.msg.danger {
		ts = st.Bad.Bold(true)
	}
	b = append(b, ts.Render(fit(title, inner)), "")
	for _, l := range m.msg.lines {
		b = append(b, wrap(l, inner)...)
	}
	b = append(b, "")
	m.input.Width = inner - 9
	if m.msg.noField {
		b = append(b, st.Bold.Render("y")+" confirm   "+st.Bold.Render("n")+" cancel")
		for i := range b {
			b[i] = fit(b[i], inner)
		}
		return st.Modal.Render(strings.Join(b, "\n"))
	}
	if m.editing {
		b = append(b, st.Label.Render(fmt.Sprintf("%-9s", m.msg.label+":"))+m.input.View())
	} else {
		reason := m.input.Value()
		if strings.TrimSpace(reason) == "" {
			reason = st.Bad.Render("(a " + m.msg.label + " is required: press e)")
		}
		b = append(b, wrap(st.Label.Render(fmt.Sprintf("%-9s", m.msg.label+":"))+reason, inner)...)
	}
	b = append(b, "")
	if m.editing {
		b = append(b, st.Muted.Render("type the "+m.msg.label+" · enter or esc when done"))
	} else {
		b = append(b, st.Bold.Render("y")+" confirm   "+st.Bold.Render("n")+" cancel   "+st.Bold.Render("e")+" edit reason")
	}
	for i := range b {
		b[i] = fit(b[i], inner)
	}
	return st.Modal.Render(strings.Join(b, "\n"))
}
