package tui

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/canon"
)

// The screens say what is so: the tests below each set up a fact the
// screen used to misstate, at a fixed size, and read the screen.

// TestDriftShowsTheMemoryNow: an episode keeps the hash detection saw; the
// memory was edited again since. The CURRENT HASH column and the detail's
// "now" show the hash of the memory as it is now.
func TestDriftShowsTheMemoryNow(t *testing.T) {
	w := newQueueWorld(t)
	w.tamper(t)
	w.tamperText(t, "Refunds up to $90,000 need no second signature.")
	now, err := w.eng.Baselines().SnapshotHash(w.ctx, "acme/billing-agent", canon.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true})
	if err != nil || len(ds) != 1 {
		t.Fatalf("drift: %+v %v", ds, err)
	}
	if ds[0].CurrentHash == now.Hash {
		t.Fatal("the second edit did not change the hash: the test shows nothing")
	}
	s := openQ(t, w, "ops-jane", 120, 40, DriftScreen)
	s.seeAll(hashCell(now.Hash), "now "+shortID(now.Hash))
	view := settle(s.quit()).View()
	if strings.Contains(view, hashCell(ds[0].CurrentHash)) {
		t.Fatalf("the screen shows the hash at detection as the current one:\n%s", view)
	}
}

// TestQueueDetailSaysTheRelatedStateNow: the SYNC_BLOCK review contradicts
// refund/limit, ACTIVE when the write was held. Another version of
// refund/limit supersedes it since; the detail says SUPERSEDED.
func TestQueueDetailSaysTheRelatedStateNow(t *testing.T) {
	w := newQueueWorld(t)
	c, _ := json.Marshal(map[string]string{"text": "Refunds up to $2,000 need no second signature."})
	if _, err := w.eng.Writes().Put(w.ctx, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: "refund/limit", Layer: memgov.Procedural,
		Content: c, Actor: "billing-agent", Reason: "policy import", Confidence: 0.6}); err != nil {
		t.Fatal(err)
	}
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.toReview(w, "refund/limit")
	s.seeAll("5 pending", "SUPERSEDED")
	view := settle(s.quit()).View()
	words := strings.Join(strings.Fields(strings.ReplaceAll(view, "│", " ")), " ")
	if !regexp.MustCompile(`CONTRADICTS refund/limit similarity \d\.\d\d · confidence \d\.\d\d · SUPERSEDED`).MatchString(words) ||
		strings.Contains(words, "· ACTIVE") {
		t.Fatalf("the detail does not say the contradicted version is superseded:\n%s", view)
	}
}

// TestUUIDKeysKeepTheirEnd: keys made of time-ordered UUIDs written together
// share their start; the KEY column keeps the start's first digits and the
// end that tells them apart.
func TestUUIDKeysKeepTheirEnd(t *testing.T) {
	w := newWorld(t)
	var keys []string
	for i := range 2 {
		k := "notes/" + uuid.Must(uuid.NewV7()).String()
		keys = append(keys, k)
		c, _ := json.Marshal(map[string]string{"text": "Working note " + string(rune('A'+i)) + "."})
		if _, err := w.eng.Writes().Put(w.ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: k, Layer: memgov.Semantic,
			Content: c, Actor: "support-bot", Reason: "scratch", Confidence: 0.8}); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("j", "enter")
	var want []string
	for _, k := range keys {
		want = append(want, keyCell(k, 24))
		if got := want[len(want)-1]; !strings.HasPrefix(got, k[:10]+"…") || !strings.HasSuffix(k, got[len(k[:10]+"…"):]) {
			t.Fatalf("keyCell(%s) = %s", k, got)
		}
	}
	if want[0] == want[1] {
		t.Fatalf("two keys read the same: %s", want[0])
	}
	s.seeAll(want...)
}

// TestHistoryFiguresAreRounded: a version written through the pipeline
// carries its provenance (adjusted confidence, validation score); the
// history shows its figures to at most three decimals, and a field's name
// and value stay on one line.
func TestHistoryFiguresAreRounded(t *testing.T) {
	w := newQueueWorld(t)
	if _, err := w.service(t, "demo-curator").Queue().Approve(w.ctx, w.reviews["c7/lang"], 0, "checked"); err != nil {
		t.Fatal(err)
	}
	s := openQ(t, w, "demo-curator", 120, 40, MemoryScreen)
	s.see("acme/support-bot")
	s.press("j", "enter")
	s.see("c7/lang")
	s.press("enter")
	s.see("adjusted_confidence: ")
	view := settle(s.quit()).View()
	if m := regexp.MustCompile(`\d\.\d{4,}`).FindString(view); m != "" {
		t.Fatalf("a figure with %s:\n%s", m, view)
	}
	if !regexp.MustCompile(`adjusted_confidence: \d(\.\d{1,3})?\b`).MatchString(view) {
		t.Fatalf("no rounded adjusted confidence:\n%s", view)
	}
	// A value stays whole on its line: the time, the hash (abbreviated), and
	// the evidence is not repeated as raw JSON.
	for _, re := range []string{`created_at: 2026-11-20T12:04:00.000Z`, `content_hash: sha256:[0-9a-f]{4}…[0-9a-f]{4}`} {
		if !regexp.MustCompile(re).MatchString(view) {
			t.Errorf("no line with %s:\n%s", re, view)
		}
	}
	if strings.Contains(view, "evidence_refs") {
		t.Errorf("the evidence is shown twice:\n%s", view)
	}
}

// TestHelpFitsAndExplainsTheHealthBadge: the Queue screen has the most keys;
// its help shows every group without cutting a line, with what the health
// badge means, at 120x40 and at 80x24.
func TestHelpFitsAndExplainsTheHealthBadge(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("5 pending")
			s.press("?")
			s.seeAll("QUEUE SCREEN", "CHOOSING FROM A LIST", "HEALTH BADGE")
			m := settle(s.quit())
			view := m.View()
			body := strings.Join(strings.Split(view, "\n")[4:], "\n")
			for _, want := range []string{"TYPING IN A FIELD", "IN A QUESTION", "HEALTHY", "DEGRADED", "CRITICAL",
				"correctness", "claim", "breached", "refresh"} {
				if !strings.Contains(body, want) {
					t.Errorf("the help lacks %q:\n%s", want, view)
				}
			}
			if strings.Contains(body, "…") {
				t.Errorf("the help cuts a line:\n%s", view)
			}
		})
	}
}

// TestActivityExplainsTheHealthScore: the panel above the log says what the
// score is made of and what is not measured.
func TestActivityExplainsTheHealthScore(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], ActivityScreen)
			s.see("HEALTH ")
			view := strings.Join(strings.Fields(settle(s.quit()).View()), " ")
			for _, want := range []string{"weighted mean of", "not measured: correctness impact, induced errors",
				"HEALTHY", "DEGRADED"} {
				if !strings.Contains(view, want) {
					t.Errorf("the panel lacks %q: %s", want, view)
				}
			}
		})
	}
}
