package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov/review"
)

// Context is what every screen shares: the size of the terminal, styles,
// keys, the clock, the review service and the request counter.
type Context struct {
	Width, Height int
	Styles        Styles
	Keys          KeyMap
	Now           func() time.Time
	Svc           *review.Service
	DBName        string // shown in the header
	// ReadOnly says why the person may only read; nil when they may decide.
	ReadOnly error
	// Ctx is the parent of every query's context; cancelled when the program ends.
	Ctx context.Context

	reqs atomic.Int64
}

// nextID returns a fresh request id. A screen remembers the id of the request
// whose answer it waits for and drops answers carrying any other id: answers
// for a view the person has already left.
func (c *Context) nextID() int64 { return c.reqs.Add(1) }

// statusMsg is a one-line report of what just happened, shown in the footer.
type statusMsg struct {
	text string
	err  bool
}

// errStatus reports an error in the footer, with what to do when it is a
// permission refusal.
func errStatus(err error) statusMsg { return statusMsg{text: err.Error(), err: true} }

// fit truncates s (which may carry styles) to w cells and pads it to exactly w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = ansi.Truncate(s, w, "…")
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// wrap wraps plain text to w cells, returning its lines.
func wrap(s string, w int) []string {
	if w < 1 {
		return nil
	}
	return strings.Split(lipgloss.NewStyle().Width(w).Render(s), "\n")
}

// ago says how long before now t was: "now", "14s", "14m", "3h", "12d", "2026-01-02".
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return ""
	case d < 0:
		if s := ago(t, now); !strings.Contains(s, "-") {
			return "in " + s
		}
	case d < time.Second:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	}
	return t.UTC().Format("2006-01-02")
}

// agoLong is ago for prose: "14 minutes ago", "in 2 months".
func agoLong(now, t time.Time) string { return relative(now, t) }

// stamp is how the screens write an absolute time: UTC to the minute.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04")
}

var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// keyCell shortens a key holding a UUID to w cells for a KEY column, so that
// keys told apart stay told apart: what comes before the UUID, its first
// four digits and as much of its end as fits ("notes/01a2…78a886a9925f").
// Time-ordered UUIDs made together share their start and differ at the end.
// Other keys are returned whole, for the column to cut at its end.
func keyCell(k string, w int) string {
	if ansi.StringWidth(k) <= w || w < 9 {
		return k
	}
	loc := uuidRE.FindStringIndex(k)
	if loc == nil || loc[1] != len(k) {
		return k
	}
	head := k[:loc[0]] + k[loc[0]:loc[0]+4] + "…"
	if tail := w - ansi.StringWidth(head); tail >= 4 {
		return head + k[len(k)-tail:]
	}
	// No room for what comes before it: the UUID alone.
	return k[loc[0]:loc[0]+4] + "…" + k[len(k)-(w-5):]
}

// middle shortens s to w cells by cutting its middle: keys that share a
// prefix differ at the end ("semant…use-506"); a key holding a UUID as
// keyCell does.
func middle(s string, w int) string {
	if ansi.StringWidth(s) <= w || w < 5 {
		return s
	}
	if k := keyCell(s, w); k != s {
		return k
	}
	r := []rune(s)
	head := (w - 1) / 2
	tail := w - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// shortIDs abbreviates every UUID in a sentence ("rollback of 019a…3f2c").
func shortIDs(s string) string { return uuidRE.ReplaceAllStringFunc(s, shortID) }

// shortID abbreviates a UUID or hash for a table cell: "019a…3f2c".
func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) <= 12 {
		return id
	}
	return id[:4] + "…" + id[len(id)-4:]
}

// plural writes a count with the noun it counts: "1 proposal", "3 proposals".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// relative says in words how far t is from now: "in 2 months", "3 days
// ago", "just now". Sentences use it; table cells use ago.
func relative(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := t.Sub(now)
	future := d > 0
	if !future {
		d = -d
	}
	var s string
	switch {
	case d < 45*time.Second:
		return "just now"
	case d < 90*time.Second:
		s = "a minute"
	case d < 45*time.Minute:
		s = plural(int((d+30*time.Second)/time.Minute), "minute", "minutes")
	case d < 90*time.Minute:
		s = "an hour"
	case d < 22*time.Hour:
		s = plural(int((d+30*time.Minute)/time.Hour), "hour", "hours")
	case d < 36*time.Hour:
		s = "a day"
	case d < 26*24*time.Hour:
		s = plural(int((d+12*time.Hour)/(24*time.Hour)), "day", "days")
	case d < 46*24*time.Hour:
		s = "a month"
	case d < 320*24*time.Hour:
		s = plural(int((d+15*24*time.Hour)/(30*24*time.Hour)), "month", "months")
	case d < 548*24*time.Hour:
		s = "a year"
	default:
		s = plural(int((d+182*24*time.Hour)/(365*24*time.Hour)), "year", "years")
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// countsMsg asks the root to recount what needs attention now (after the
// person's own decision), not at the next poll.
type countsMsg struct{}

func refreshCounts() tea.Msg { return countsMsg{} }
