package tui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is the palette, each colour adapted to light and dark terminals.
type Theme struct {
	Fg, Muted, Accent, Border lipgloss.AdaptiveColor
	Good, Warn, Bad           lipgloss.AdaptiveColor
	SelBg, SelFg              lipgloss.AdaptiveColor
}

// DefaultTheme is memgov's palette.
func DefaultTheme() Theme {
	return Theme{
		Fg:     lipgloss.AdaptiveColor{Light: "#1f2328", Dark: "#e6edf3"},
		Muted:  lipgloss.AdaptiveColor{Light: "#6e7781", Dark: "#8b949e"},
		Accent: lipgloss.AdaptiveColor{Light: "#0969da", Dark: "#58a6ff"},
		Border: lipgloss.AdaptiveColor{Light: "#d0d7de", Dark: "#30363d"},
		Good:   lipgloss.AdaptiveColor{Light: "#1a7f37", Dark: "#3fb950"},
		Warn:   lipgloss.AdaptiveColor{Light: "#9a6700", Dark: "#d29922"},
		Bad:    lipgloss.AdaptiveColor{Light: "#cf222e", Dark: "#f85149"},
		SelBg:  lipgloss.AdaptiveColor{Light: "#ddf4ff", Dark: "#1f3a5f"},
		SelFg:  lipgloss.AdaptiveColor{Light: "#0a3069", Dark: "#ffffff"},
	}
}

// Styles are the styles every screen draws with, built once from a theme.
type Styles struct {
	Brand, Tab, ActiveTab, TabSep  lipgloss.Style
	Who, ReadOnly, Attention       lipgloss.Style
	Rule, Crumb, AsOfPast          lipgloss.Style
	ColHeader, Row, Selected       lipgloss.Style
	Muted, Label, Bold             lipgloss.Style
	Good, Warn, Bad                lipgloss.Style
	DiffDel, DiffIns, DiffWord     lipgloss.Style
	Modal, ModalTitle, ModalDanger lipgloss.Style
	StatusOK, StatusErr            lipgloss.Style
	// Plain is true when the terminal shows no colour or attributes
	// (NO_COLOR, or no colour support): screens then add textual markers
	// where colour alone would carry meaning.
	Plain bool
}

// NewStyles builds the styles of a theme for the default renderer, whose
// colour profile honours NO_COLOR (termenv's EnvColorProfile).
func NewStyles(t Theme) Styles {
	s := Styles{Plain: lipgloss.ColorProfile() == termenv.Ascii}
	n := lipgloss.NewStyle
	s.Brand = n().Bold(true).Foreground(t.Accent)
	s.Tab = n().Foreground(t.Muted)
	s.ActiveTab = n().Bold(true).Underline(true).Foreground(t.Fg)
	s.TabSep = n().Foreground(t.Border)
	s.Who = n().Foreground(t.Fg)
	s.ReadOnly = n().Bold(true).Foreground(t.Warn)
	s.Attention = n().Bold(true).Foreground(t.Warn)
	s.Rule = n().Foreground(t.Border)
	s.Crumb = n().Bold(true).Foreground(t.Fg)
	s.AsOfPast = n().Bold(true).Foreground(t.Warn)
	s.ColHeader = n().Bold(true).Foreground(t.Muted)
	s.Row = n().Foreground(t.Fg)
	s.Selected = n().Bold(true).Foreground(t.SelFg).Background(t.SelBg)
	s.Muted = n().Foreground(t.Muted)
	s.Label = n().Foreground(t.Muted)
	s.Bold = n().Bold(true)
	s.Good = n().Foreground(t.Good)
	s.Warn = n().Foreground(t.Warn)
	s.Bad = n().Foreground(t.Bad)
	s.DiffDel = n().Foreground(t.Bad)
	s.DiffIns = n().Foreground(t.Good)
	s.DiffWord = n().Bold(true).Underline(true)
	s.Modal = n().Border(lipgloss.RoundedBorder()).BorderForeground(t.Accent).Padding(0, 1)
	s.ModalTitle = n().Bold(true).Foreground(t.Accent)
	s.ModalDanger = n().Border(lipgloss.ThickBorder()).BorderForeground(t.Bad).Padding(0, 1)
	s.StatusOK = n().Foreground(t.Good)
	s.StatusErr = n().Bold(true).Foreground(t.Bad)
	return s
}
