package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/review"
)

// A curator's long shift: each story below is one part of it, told at both
// sizes a curator works at.

var sizes = [][2]int{{120, 40}, {80, 24}}

// openQPoll is openQ with the poll the test chooses (an hour: nothing
// refreshes unless the person's own action refreshes it).
func openQPoll(t *testing.T, w *queueWorld, who string, width, height, screen int, poll time.Duration) *session {
	t.Helper()
	m := New(Options{Service: w.service(t, who), DBName: "demo.db", Now: w.now, Poll: poll})
	m.Focus(screen)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	return &session{t: t, w: w.world, tm: tm}
}

// 3. Finding things: / filters every list with free words; G and g go to
// the true ends; s sorts the queue and the header says how.

func TestStoryFindingQueue(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.press("/", "german", "enter") // a word, not key=value: once refused
			seeAll(s, "1 match", "key c7/lang")
			s.golden()
		})
	}
}

func TestStoryFindingQueueSort(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			seeAll(s, "sort: risk", "▸") // the rows are read
			s.press("s")
			// The status comes once the page sorted by age is read.
			seeAll(s, "sort: age", "AGE▼", "queue sorted by age")
			m := s.quit()
			q := m.screens[QueueScreen].(*queue)
			for i := 1; i < len(q.list.rows); i++ {
				if q.list.rows[i].CreatedAt.Before(q.list.rows[i-1].CreatedAt) {
					t.Fatalf("sorted by age, row %d is older than row %d", i, i-1)
				}
			}
			if rowKey(q.list.rows[0]) != "refund/limit-2" { // the first write of the world
				t.Fatalf("oldest first: %s", rowKey(q.list.rows[0]))
			}
		})
	}
}

func TestStoryFindingQueueEnds(t *testing.T) {
	w := newQueueWorld(t)
	seedReviews(t, w, 1200) // six pages of the window
	last, err := w.service(t, "demo-curator").Queue().Page(w.ctx, review.QueueFilter{}, 1205, 1)
	if err != nil || len(last.Rows) != 1 || last.Total != 1206 {
		t.Fatalf("the queue's last row: %+v %v", last, err)
	}
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("1206 pending")
			s.press("G") // one press: the true end, not the end of the loaded page
			// The detail names the row under the cursor once it is read: wait
			// for the last row's own key there. "bench/" alone is on every
			// page of rows, so it does not tell that the end was read.
			s.see("key " + rowKey(last.Rows[0]))
			m := s.quit()
			q := m.screens[QueueScreen].(*queue)
			if q.list.cur.pos != q.list.total-1 {
				t.Fatalf("G put the cursor on row %d of %d", q.list.cur.pos, q.list.total)
			}
			if _, ok := q.row(q.list.cur.pos); !ok {
				t.Fatalf("the last row is not loaded (rows %d..%d of %d)", q.list.offset, q.list.offset+len(q.list.rows), q.list.total)
			}
		})
	}
}

func TestStoryFindingActivity(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			// The seeded world writes without the gated pipeline: no
			// measured latencies in the health panel, so the golden is stable.
			s := open(t, newWorld(t), "demo-curator", size[0], size[1], ActivityScreen)
			// G moves over the entries read: wait for them (the row
			// marker), not only for the header's audit root.
			s.seeAll("audit root", "▸")
			s.press("G")
			s.see("g: back to newest")
			s.press("/", "portuguese", "enter")
			s.see("1 match in")
			s.golden()
		})
	}
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, ActivityScreen)
	s.seeAll("audit root", "▸")
	s.press("G")
	s.see("g: back to newest")
	a := s.quit().screens[ActivityScreen].(*activity)
	if e, ok := a.row(a.list.cur.pos); !ok || e.LSN != 1 {
		t.Fatalf("G reached LSN %d (loaded %v)", e.LSN, ok)
	}
}

func TestStoryFindingMemoryDriftProposals(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			pw := newProposalWorld(t)
			s := open(t, pw.world, "demo-curator", size[0], size[1], MemoryScreen)
			s.see("acme/support-bot")
			s.press("/", "billing", "enter")
			s.see("1 memory ref")
			s.press("enter", "/", "50,000", "enter")
			s.see("1 match for 50,000")
			s.press("3", "/", "refund", "enter")
			s.see("2 listed")
			m := s.quit()
			p := m.screens[ProposalsScreen].(*proposals)
			for _, r := range p.list.rows {
				if !strings.Contains(strings.ToLower(r.Title), "refund") {
					t.Fatalf("the filter kept %q", r.Title)
				}
			}
			mem := m.screens[MemoryScreen].(*memory)
			if mem.items.total != 1 || mem.items.rows[0].Key != "refund/limit" {
				t.Fatalf("items filter kept %+v", mem.items)
			}
		})
	}
	w := newQueueWorld(t)
	w.tamper(t)
	s := openQ(t, w, "ops-jane", 80, 24, DriftScreen)
	s.see("DENYING")
	s.press("/", "support", "enter")
	s.see("No open drift matches support")
	s.press("esc", "/", "billing", "enter")
	s.see("1 of 1 open")
	s.quit()
}

// 4. Rows that can be told apart: the key and the first words of the text
// on every queue row; the detail wraps; Activity names operations in full.

func TestStoryRowsToldApart(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			for _, k := range []string{"c20/lang", "c21/lang", "c22/lang"} {
				w.write(t, writeReq("support-bot", "acme/support-bot", k, "EPISODIC", "Customer "+k[1:3]+" wants invoices in Portuguese.", 0.9, nil))
			}
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("8 pending")
			m := s.quit()
			v := m.View()
			q := m.screens[QueueScreen].(*queue)
			for i := q.list.cur.offset; i < q.list.cur.offset+q.list.cur.height && i < q.list.total; i++ {
				r, _ := q.row(i)
				words := strings.Join(strings.Fields(r.Text)[:2], " ")
				if !strings.Contains(v, rowKey(r)) || !strings.Contains(v, words) {
					t.Fatalf("row %d does not show its key %q and its first words %q:\n%s", i, rowKey(r), words, v)
				}
			}
			if !strings.Contains(v, "c20/lang") || !strings.Contains(v, "Customer 20 wants") {
				t.Fatalf("the new rows are not told apart:\n%s", v)
			}
			if size[0] >= wideMin && !strings.Contains(v, "erp://policies/refunds") {
				t.Fatalf("the detail cut the evidence's source:\n%s", v)
			}
		})
	}
}

func TestStoryActivityOpsInFull(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			pw := newProposalWorld(t)
			s := open(t, pw.world, "demo-curator", size[0], size[1], ActivityScreen)
			// The root and the log are read apart: wait for the log's rows
			// (the row marker), which the screen is then read for.
			s.seeAll("audit root", "▸")
			m := s.quit()
			v := m.View()
			for _, op := range []string{"PROPOSAL_REVISE", "PROPOSAL_ARCHIVE", "PROPOSAL_REJECT", "PROPOSAL_APPLY"} {
				if !strings.Contains(v, op) {
					t.Fatalf("Activity does not name %s in full:\n%s", op, v)
				}
			}
		})
	}
}

// 5. Confirmations that mean something: adopting drifted state is styled
// as dangerous and waits for a typed reason; the bulk list is in the
// queue's order.

func TestStoryConfirmations(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			w.tamper(t)
			s := openQ(t, w, "ops-jane", size[0], size[1], DriftScreen)
			s.see("DENYING all writes")
			s.press("R")
			s.see("type the reason, then enter")
			s.golden()
			if es, _ := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true}); len(es) != 1 {
				t.Fatal("opening the question acknowledged the drift")
			}
		})
	}
}

func TestStoryBulkInQueueOrder(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.toReview(w, "c8/lang") // marked first, listed below c7 in the queue
			s.press(" ")
			s.see("1 marked")
			s.press("g")
			s.toReview(w, "c7/lang")
			s.press(" ", "A")
			s.see("Approve 2 marked reviews?")
			m := s.quit()
			v := m.View()
			i7, i8 := strings.Index(v, "› c7/lang"), strings.Index(v, "› c8/lang")
			if i7 < 0 || i8 < 0 || i7 > i8 {
				t.Fatalf("bulk list not in the queue's order (c7 at %d, c8 at %d):\n%s", i7, i8, v)
			}
		})
	}
}

// 6. Claims: renewed while the item is open, on the injected clock; released
// on leaving; quitting with a claim or marks asks first.

func TestStoryClaimRenewsAndIsReleased(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			id := w.reviews["c9/channel"]
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.toReview(w, "c9/channel")
			s.press("enter")
			s.see("claimed by you · lease 1:00")
			first, _ := w.eng.Reviews().Review(w.ctx, id)
			w.advance(40 * time.Second) // past half the lease: the next tick renews
			waitFor(t, func() bool { r, _ := w.eng.Reviews().Review(w.ctx, id); return r.ClaimToken > first.ClaimToken })
			renewed, _ := w.eng.Reviews().Review(w.ctx, id)
			if renewed.ClaimHolder != "demo-curator" || !renewed.ClaimExpires.After(first.ClaimExpires) {
				t.Fatalf("renewal: %+v", renewed)
			}
			if size[0] < wideMin {
				s.press("esc") // the zoomed detail first
			}
			s.press("esc")
			s.see("released your claim on acme/support-bot › c9/channel")
			s.quit()
			if r, _ := w.eng.Reviews().Review(w.ctx, id); r.ClaimHolder != "" && w.now().Before(r.ClaimExpires) {
				t.Fatalf("still claimed after leaving: %+v", r)
			}
		})
	}
}

func TestStoryQuitAsksWithAClaim(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			id := w.reviews["c7/lang"]
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.toReview(w, "c7/lang")
			s.press("enter")
			s.see("claimed by you")
			s.press("q")
			s.see("Quit memgov?")
			s.press("esc") // stay
			s.see("cancelled: Quit memgov")
			s.press("q")
			s.see("Quit memgov?")
			s.press("enter")
			s.tm.WaitFinished(t, teatest.WithFinalTimeout(waitTime))
			if r, _ := w.eng.Reviews().Review(w.ctx, id); r.ClaimHolder != "" && w.now().Before(r.ClaimExpires) {
				t.Fatalf("the claim outlived the program: %+v", r)
			}
		})
	}
}

// waitFor polls a condition on the database (the program works on its own
// goroutine); the clock the program sees is the test's.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTime)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// 7. Truthful words: the status names the key that became memory; counts
// refresh after one's own decision; plurals and relative times.

func TestStoryTruthfulWords(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQPoll(t, w, "demo-curator", size[0], size[1], QueueScreen, time.Hour)
			s.see("5 pending")
			s.press("a")
			s.see("It supersedes refund/limit.")
			s.press("limit confirmed by finance", "enter")
			seeAll(s, "approved acme/billing-agent › refund/limit-2", "Queue 4") // the header's count, with no poll and no ctrl+r
			m := s.quit()
			if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/billing-agent", "refund/limit-2"); err != nil {
				t.Fatalf("the key the status names is not memory: %v", err)
			}
			if m.status.text != "approved acme/billing-agent › refund/limit-2: it is memory now; refund/limit is superseded" {
				t.Fatalf("status %q", m.status.text)
			}
		})
	}
}

func TestStoryFooterPerMode(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.press("/")
			s.see("apply filter")
			m := s.quit()
			lines := strings.Split(m.View(), "\n")
			footer := lines[len(lines)-1]
			if strings.Contains(footer, "q quit") || strings.Contains(footer, "tab") || !strings.Contains(footer, "esc cancel") {
				t.Fatalf("typing into the filter, the footer offers %q", footer)
			}
		})
	}
}

func TestStoryHelpPerScreen(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.press("?")
			s.see("QUEUE SCREEN")
			s.golden()
		})
	}
}

func TestVisibleCountsMatchList(t *testing.T) {
	w := newWorld(t)
	svc := w.service(t, "demo-curator")
	// A write past its TTL stays an item with a head; a read does not return it.
	w.clock.advance(400 * 24 * time.Hour)
	rs, err := svc.RefsVisible(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		snap, err := w.eng.Host().Read(context.Background(), memgov.Owner, memgov.ReadQuery{MemoryRef: r.MemoryRef})
		if err != nil {
			t.Fatal(err)
		}
		if r.Active != len(snap.Versions) {
			t.Fatalf("%s: the screen would say %d visible, a read returns %d", r.MemoryRef, r.Active, len(snap.Versions))
		}
	}
}

func TestWords(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{now.Add(10 * time.Second), "just now"},
		{now.Add(-3 * 24 * time.Hour), "3 days ago"},
		{now.Add(-24 * time.Hour), "a day ago"},
		{now.Add(69 * 24 * time.Hour), "in 2 months"},
		{now.Add(-5 * time.Minute), "5 minutes ago"},
		{now.Add(2 * time.Hour), "in 2 hours"},
		{now.Add(800 * 24 * time.Hour), "in 2 years"},
	} {
		if got := relative(now, c.t); got != c.want {
			t.Errorf("relative(%s) = %q, want %q", c.t.Sub(now), got, c.want)
		}
	}
	if got := ago(now, now.Add(69*24*time.Hour)); got != "2027-02-01" {
		t.Errorf("a far future date in a cell: %q", got)
	}
	if plural(1, "proposal waits", "proposals wait") != "1 proposal waits" || plural(3, "entry", "entries") != "3 entries" {
		t.Error("plural")
	}
}

// 8. The mouse: the wheel scrolls, a click selects a row or a tab.

func TestStoryMouse(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.tm.Send(tea.MouseMsg{X: 10, Y: 8, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
			s.see("key c7/lang") // three rows down
			s.tm.Send(tea.MouseMsg{X: 10, Y: headerLines + 2, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
			s.see("key c9/channel") // the second row, clicked
			m := s.quit()
			if q := m.screens[QueueScreen].(*queue); q.list.cur.pos != 1 {
				t.Fatalf("the click selected row %d", q.list.cur.pos)
			}
			// The tabs line moves when the tabs' counts and the health badge
			// arrive, each read on its own after the queue's rows: the click
			// is aimed at the line as drawn once all have arrived and sent
			// once that very line is on screen.
			line, spans := settledTabs(t, w, "demo-curator", size, QueueScreen)
			s2 := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s2.see(line)
			s2.tm.Send(tea.MouseMsg{X: spans[ActivityScreen][0] + 1, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
			s2.see("audit root")
			if m2 := s2.quit(); m2.active != ActivityScreen {
				t.Fatalf("the click on Activity's tab opened screen %d", m2.active)
			}
		})
	}
}

// settledTabs is the tabs line of who's program at a size on a screen once
// its counts and health badge are read, and where each tab sits on it.
func settledTabs(t *testing.T, w *queueWorld, who string, size [2]int, screen int) (string, [][2]int) {
	t.Helper()
	m := New(Options{Service: w.service(t, who), DBName: "demo.db", Now: w.now, Poll: time.Hour})
	t.Cleanup(m.cancel)
	m.Focus(screen)
	m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
	view := settle(m).View()
	line := strings.TrimRight(ansi.Strip(strings.SplitN(view, "\n", 2)[0]), " ")
	if !strings.Contains(line, "need you") || !m.health.loaded {
		t.Fatalf("the settled tabs line has no counts or no health: %q", line)
	}
	for i, sp := range m.tabSpans {
		if sp[0] < 0 {
			t.Fatalf("tab %d is not on the tabs line %q", i, line)
		}
	}
	return line, m.tabSpans
}

var _ = regexp.MustCompile
var _ = review.SortAge

// A write held beside a near-duplicate says in the detail how it differs:
// the reason code alone does not tell a curator that "to Berlin" became
// "from Berlin".
func TestStoryNearDuplicateSaysHow(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			w.write(t, writeReq("support-bot", "acme/support-bot", "parcel/1", "EPISODIC", "Parcel 88 was shipped to Berlin.", 0.9, nil))
			w.write(t, writeReq("support-bot", "acme/support-bot", "parcel/2", "EPISODIC", "Parcel 88 was shipped from Berlin.", 0.9, nil))
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("7 pending")
			s.press("/", "from berlin", "enter")
			seeAll(s, "1 match", "key parcel/2", "NEAR_DUPLICATE", "differs:", `"to berlin"`)
		})
	}
}
