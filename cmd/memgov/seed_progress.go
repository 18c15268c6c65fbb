package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/x/term"
)

// seedProgress shows how far a dataset load has come: on a terminal, one
// progress bar redrawn in place on a single line; elsewhere (logs, CI, a
// pipe) nothing while it runs, so the caller's summary is the single line the
// load leaves.
type seedProgress struct {
	w        io.Writer
	tty      bool
	bar      progress.Model
	label    string
	lastDraw time.Time
	drawn    bool
}

func newSeedProgress(w io.Writer, label string) *seedProgress {
	f, ok := w.(*os.File)
	return newSeedProgressFor(w, label, ok && term.IsTerminal(f.Fd()))
}

// newSeedProgressFor is newSeedProgress with whether w is a terminal said.
func newSeedProgressFor(w io.Writer, label string, tty bool) *seedProgress {
	p := &seedProgress{w: w, label: label, tty: tty}
	if tty {
		p.bar = progress.New(progress.WithDefaultGradient(), progress.WithWidth(40))
	}
	return p
}

// update reports done of total writes.
func (p *seedProgress) update(done, total int) {
	if total <= 0 || !p.tty {
		return
	}
	frac := min(float64(done)/float64(total), 1)
	if done < total && time.Since(p.lastDraw) < 80*time.Millisecond {
		return
	}
	p.lastDraw = time.Now()
	// \r returns to the start of the line and \x1b[K clears what a longer
	// earlier drawing left: the bar stays on one line.
	fmt.Fprintf(p.w, "\r%s %s %d/%d writes\x1b[K", p.label, p.bar.ViewAs(frac), done, total)
	p.drawn = true
}

// finish ends the bar's line.
func (p *seedProgress) finish() {
	if p.tty && p.drawn {
		fmt.Fprintln(p.w)
	}
}
