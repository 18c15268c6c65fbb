package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
)

// splitQuery separates what was typed into a filter bar into key=value
// terms (for the service's own filter) and free words (matched against the
// rows' text).
func splitQuery(s string) (terms string, words []string) {
	var ts []string
	for _, w := range strings.Fields(s) {
		if strings.Contains(w, "=") {
			ts = append(ts, w)
		} else {
			words = append(words, strings.ToLower(w))
		}
	}
	return strings.Join(ts, " "), words
}

// matchWords reports whether every word (lower-case) occurs in one of the
// fields, ignoring case.
func matchWords(words []string, fields ...string) bool {
	if len(words) == 0 {
		return true
	}
	hay := strings.ToLower(strings.Join(fields, "\x00"))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// newFilterInput is the filter bar's field.
func newFilterInput(placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.CharLimit = 200
	return in
}
