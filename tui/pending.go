package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// pending is the screen of a service that has not landed yet. It says
// plainly what is missing and where to go meanwhile; it never shows invented
// data.
type pending struct {
	ctx     *Context
	title   string
	missing string
	wired   bool
	w, h    int
}

func newPending(c *Context, title, missing string, wired bool) *pending {
	return &pending{ctx: c, title: title, missing: missing, wired: wired}
}

func (p *pending) Title() string                  { return p.title }
func (p *pending) Init() tea.Cmd                  { return nil }
func (p *pending) Update(tea.Msg, Action) tea.Cmd { return nil }
func (p *pending) SetSize(w, h int)               { p.w, p.h = w, h }
func (p *pending) Mode() Mode                     { return ModeNormal }
func (p *pending) Bindings() []key.Binding        { return nil }

func (p *pending) Crumb() string {
	st := p.ctx.Styles
	return st.Crumb.Render(p.title) + st.Muted.Render("  not available yet")
}

func (p *pending) View() string {
	st := p.ctx.Styles
	msg := p.missing
	if p.wired {
		msg = "The " + strings.ToLower(p.title) + " service is connected, but this screen has not been built yet."
	}
	w := min(max(p.w-8, 20), 76)
	body := []string{
		st.Bold.Render(p.title),
		"",
		msg,
		"Nothing is shown here until it exists; this screen will never show sample data.",
		"",
		st.Muted.Render("Meanwhile: 4 Memory browses, rolls back, pins and expires items; 5 Activity follows the audit log."),
	}
	return lipgloss.NewStyle().Padding(1, 4).Width(w + 8).Render(strings.Join(body, "\n"))
}
