package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/x/term"
)

// seedProgress shows how far a dataset load has come: a progress bar redrawn
// in place when w is a terminal, a plain line every tenth otherwise (logs and
// CI keep readable output).
type seedProgress struct {
	w        io.Writer
	tty      bool
	bar      progress.Model
	label    string
	tenth    int
	lastDraw time.Time
	drawn    bool
}

func newSeedProgress(w io.Writer, label string) *seedProgress {
	p := &seedProgress{w: w, label: label, tenth: -1}
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		p.tty = true
		p.bar = progress.New(progress.WithDefaultGradient(), progress.WithWidth(40))
	}
	return p
}

// update reports done of total writes.
func (p *seedProgress) update(done, total int) {
	if total <= 0 {
		return
	}
	frac := min(float64(done)/float64(total), 1)
	if p.tty {
		if done < total && time.Since(p.lastDraw) < 80*time.Millisecond {
			return
		}
		p.lastDraw = time.Now()
		fmt.Fprintf(p.w, "\r%s %s %d/%d writes", p.label, p.bar.ViewAs(frac), done, total)
		p.drawn = true
		return
	}
	if t := int(frac * 10); t > p.tenth {
		p.tenth = t
		fmt.Fprintf(p.w, "%s %3.0f%% (%d/%d writes)\n", p.label, frac*100, done, total)
	}
}

// finish ends the bar's line.
func (p *seedProgress) finish() {
	if p.tty && p.drawn {
		fmt.Fprintln(p.w)
	}
}
