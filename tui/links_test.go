package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memgov/memgov"
)

// An episode kept beside a near one as its own item shows, in its
// history, what it is linked to: the linked key, version and state, the
// linked text, and the judge rule with the words that fired it. The
// history list marks the linked version; the episode it repeats has no
// link of its own.
func TestHistoryShowsTheLinksOfEachVersion(t *testing.T) {
	for _, size := range sizes {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			first := w.write(t, writeReq("billing-agent", "acme/billing-agent", "kin/1", "EPISODIC", "Priya is the sister of Dev and the cousin of Anil.", 0.9, nil))
			second := w.write(t, writeReq("billing-agent", "acme/billing-agent", "kin/2", "EPISODIC", "Priya is the sister of Anil and the cousin of Dev.", 0.9, nil))
			if first.Status != memgov.StatusCommitted || second.Status != memgov.StatusCommitted || len(second.Links) != 1 || second.Links[0].Key != "kin/1" {
				t.Fatalf("the writes: %+v / %+v, want both COMMITTED, the second linked to kin/1", first, second)
			}
			rule := second.Links[0].Rule
			if rule == "" {
				t.Fatalf("the link names no rule: %+v", second.Links[0])
			}

			s := openQ(t, w, "demo-curator", size[0], size[1], MemoryScreen)
			s.see("acme/billing-agent")
			s.press("/", "billing", "enter", "enter")
			s.see("kin/2")
			s.press("/", "kin/2", "enter")
			s.see("1 match")
			s.press("enter")
			seeAll(s, "created · linked", "NEAR_DUPLICATE of kin/1 v1", "rule       "+rule)
			view := ansi.Strip(settle(s.quit()).View())
			// The detail pane is the right half at 120 columns, the lower
			// part at 80: read it line by line, without the list beside it.
			var detail []string
			for _, l := range strings.Split(view, "\n") {
				if size[0] >= wideMin {
					_, l, _ = strings.Cut(l, "│ ")
				}
				detail = append(detail, strings.TrimRight(l, " "))
			}
			text := strings.Join(detail, "\n")
			for _, want := range []string{"linked     NEAR_DUPLICATE of kin/1 v1", "(ACTIVE)", "“Priya is the sister of Dev", "rule       " + rule + `: "`} {
				if !strings.Contains(text, want) {
					t.Errorf("the history of kin/2 lacks %q:\n%s", want, view)
				}
			}
			// The link comes before how the version was written, and the
			// linked text is the first episode's, not the second's.
			if li, wi := strings.Index(text, "linked     "), strings.Index(text, "written    "); li < 0 || wi < li {
				t.Errorf("the link is not shown above the write's log line:\n%s", view)
			}
			if strings.Count(text, "│“Priya is the sister of Anil") != 0 {
				t.Errorf("the linked text shown is the version's own:\n%s", view)
			}
		})
	}
}

// The episode repeated has no link of its own: links are recorded on the
// write kept beside it.
func TestHistoryOfTheLinkedToItemShowsNoLink(t *testing.T) {
	w := newQueueWorld(t)
	w.write(t, writeReq("billing-agent", "acme/billing-agent", "kin/1", "EPISODIC", "Priya is the sister of Dev and the cousin of Anil.", 0.9, nil))
	if r := w.write(t, writeReq("billing-agent", "acme/billing-agent", "kin/2", "EPISODIC", "Priya is the sister of Anil and the cousin of Dev.", 0.9, nil)); len(r.Links) != 1 {
		t.Fatalf("kin/2 is not linked: %+v", r)
	}
	s := openQ(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/billing-agent")
	s.press("/", "billing", "enter", "enter")
	s.see("kin/1")
	s.press("/", "kin/1", "enter")
	s.see("1 match")
	s.press("enter")
	s.see("first version: nothing to compare")
	view := ansi.Strip(settle(s.quit()).View())
	if !strings.Contains(view, "written    ") || strings.Contains(view, "linked     ") || strings.Contains(view, "· linked") {
		t.Errorf("the history of kin/1 shows a link:\n%s", view)
	}
}

// historyOf opens the history of key in acme/billing-agent as who and
// returns the screen once the version's log line is drawn.
func historyOf(t *testing.T, w *queueWorld, who, key string) string {
	t.Helper()
	s := openQ(t, w, who, 120, 40, MemoryScreen)
	s.see("acme/billing-agent")
	s.press("/", "billing", "enter", "enter")
	s.see(key)
	s.press("/", key, "enter")
	s.see("1 match")
	s.press("enter")
	s.see("written    ")
	return ansi.Strip(settle(s.quit()).View())
}

// The history shows the links its reader may see: an agent's console
// leaves out a link to a version above its clearance and keeps one it may
// read; the reader of the database file, whom memgov does not know, sees
// every link.
func TestHistoryShowsOnlyLinksTheReaderMaySee(t *testing.T) {
	w := newQueueWorld(t)
	business := func(key, text string) memgov.WriteResult {
		raw := writeReq("billing-agent", "acme/billing-agent", key, "EPISODIC", text, 0.9, nil)
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m["classification"] = "BUSINESS"
		raw, _ = json.Marshal(m)
		return w.write(t, raw)
	}
	pub := func(key, text string) memgov.WriteResult {
		return w.write(t, writeReq("billing-agent", "acme/billing-agent", key, "EPISODIC", text, 0.9, nil))
	}
	for _, r := range []memgov.WriteResult{
		pub("kin/1", "Priya is the sister of Dev and the cousin of Anil."),
		pub("kin/2", "Priya is the sister of Anil and the cousin of Dev."),
		business("deal/1", "Globex offered 4 million for the Lyon warehouse."),
		pub("deal/2", "Globex offered 4 million for the Lyon warehouse."),
	} {
		if r.Status != memgov.StatusCommitted {
			t.Fatalf("write: %+v", r)
		}
	}
	if v := historyOf(t, w, "billing-agent", "kin/2"); !strings.Contains(v, "NEAR_DUPLICATE of kin/1") {
		t.Errorf("billing-agent does not see the link to the public kin/1:\n%s", v)
	}
	// (The write's recorded reason, shown whole, still names the key it
	// repeats: the console shows the log as written.)
	if v := historyOf(t, w, "billing-agent", "deal/2"); strings.Contains(v, "NEAR_DUPLICATE of deal/1") || strings.Contains(v, "linked     ") {
		t.Errorf("billing-agent, cleared for GENERAL, sees the link to the BUSINESS deal/1:\n%s", v)
	}
	if v := historyOf(t, w, "db-reader", "deal/2"); !strings.Contains(v, "NEAR_DUPLICATE of deal/1") {
		t.Errorf("the database's reader does not see the link to deal/1:\n%s", v)
	}
}
