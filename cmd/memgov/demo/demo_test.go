package demo_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/cmd/memgov/demo"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/sqlite"
)

const testKey = "0123456789abcdef0123456789abcdef0123456789abcdef"

// end is the present every test story ends at.
var end = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// seed plays fsys into a new SQLite database in a temp dir, under the
// dataset's policy, generating scale of every generate step's writes, and
// returns the engine on it (whose clock stands where the story stopped).
func seed(t *testing.T, fsys fs.FS, scale float64) (*engine.Engine, demo.Report, error) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "demo.db"), sqlite.Options{Key: []byte(testKey), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pol, _, err := demo.Policy(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var eng *engine.Engine
	rep, err := demo.Load(ctx, fsys, demo.Options{
		Open: func(now func() time.Time) (*engine.Engine, error) {
			eng = engine.New(s, []byte(testKey), engine.WithClock(now), engine.WithPolicy(pol))
			return eng, nil
		},
		Now:   func() time.Time { return end },
		Scale: scale,
	})
	return eng, rep, err
}

// TestDemoStory plays the embedded story with a twentieth of its generated
// memory and checks what a new user is promised to see.
func TestDemoStory(t *testing.T) {
	ctx := context.Background()
	eng, rep, err := seed(t, demo.FS, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Writes < 100 || rep.Outcomes[memgov.StatusCommitted] == 0 || rep.Outcomes[memgov.StatusDeferred] == 0 || rep.Outcomes[memgov.StatusRejected] == 0 {
		t.Fatalf("report: %+v", rep)
	}
	if now := eng.Now(); !now.Equal(end) {
		t.Fatalf("the story ends at %s, want %s", now, end)
	}

	// The review queue: open reviews, SYNC_BLOCK ones among them, with
	// deadlines still ahead.
	rs, total, err := eng.Reviews().List(ctx, memgov.ReviewQuery{Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	sync := 0
	for _, r := range rs {
		if r.Tier == memgov.TierSync {
			sync++
			if !r.DueAt.After(end) {
				t.Errorf("SYNC_BLOCK review %s of %s is already due (%s)", r.ID, r.MemoryRef, r.DueAt)
			}
		}
	}
	if total < 10 || sync < 2 {
		t.Fatalf("queue: %d open reviews, %d SYNC_BLOCK", total, sync)
	}

	// Two drifted agents, each against its approved baseline.
	ds, err := eng.Baselines().ListDrift(ctx, memgov.DriftQuery{OpenOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, d := range ds {
		refs = append(refs, d.MemoryRef)
	}
	slices.Sort(refs)
	if !slices.Equal(refs, []string{"acme/billing-agent", "globex/research-agent"}) {
		t.Fatalf("open drift in %v", refs)
	}
	for _, d := range ds {
		v, err := eng.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: d.MemoryRef})
		if err != nil || !v.Drift || v.DriftID != d.ID {
			t.Fatalf("verify %s: %+v %v", d.MemoryRef, v, err)
		}
		rep, err := eng.Baselines().DriftDiff(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Changes) == 0 {
			t.Fatalf("drift %s of %s shows no change against baseline %s", d.ID, d.MemoryRef, rep.Baseline.ID)
		}
		for _, c := range rep.Changes {
			if c.Outside {
				t.Errorf("%s %s changed outside memgov: the demo seeds through the engine only", d.MemoryRef, c.Key)
			}
		}
		if d.MemoryRef == "acme/billing-agent" {
			if v.Action != "deny" {
				t.Errorf("billing-agent is deny-on-drift, verify says %s", v.Action)
			}
			i := slices.IndexFunc(rep.Changes, func(c baselines.KeyChange) bool { return c.Key == "refund/limit" })
			if i < 0 || !strings.Contains(string(rep.Changes[i].Old), "$1,000") || !strings.Contains(string(rep.Changes[i].New), "$50,000") {
				t.Errorf("billing drift: %+v", rep.Changes)
			}
		}
	}

	// Proposals in every state a reviewer meets.
	ps, err := eng.Host().ListProposals(ctx, memgov.ProposalQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, p := range ps {
		states[p.State]++
	}
	for _, st := range []string{memgov.ProposalDraft, memgov.ProposalRevised, memgov.ProposalApplied, memgov.ProposalRejected, memgov.ProposalArchived} {
		if states[st] == 0 {
			t.Errorf("no %s proposal: %v", st, states)
		}
	}

	// Nothing was edited behind the log's back.
	if v, err := eng.Audit().Verify(ctx); err != nil || !v.OK {
		t.Fatalf("audit verify: %+v %v", v, err)
	}
}

// story is a dataset of the given story lines and no templates.
func story(lines ...string) fstest.MapFS {
	return fstest.MapFS{"story.jsonl": {Data: []byte(strings.Join(lines, "\n") + "\n")}}
}

var people = []string{
	`{"op":"start","ago":"1d"}`,
	`{"op":"principal","id":"support-bot","role":"executor","tenant":"acme"}`,
	`{"op":"principal","id":"jane","role":"curator","tenant":"*"}`,
	`{"op":"write","request":{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"c7/lang","target_layer":"EPISODIC","observation_type":"user_stated_preference","confidence":0.9,"content":{"text":"Customer 7 wants invoices in German."},"evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://7","authority":1}]},"expect":"DEFERRED"}`,
}

// TestStoryDecisionsFollowReviewRules: a story's human decisions go through
// the review service, so its rules hold in a seeded database as they do on
// the CLI and in the TUI: a rejection without a note is refused and nothing
// is logged for it.
func TestStoryDecisionsFollowReviewRules(t *testing.T) {
	ctx := context.Background()
	lines := append(append([]string(nil), people...),
		`{"op":"decide","ref":"acme/support-bot","key":"c7/lang","by":"jane","approve":false,"code":"FACTUAL_ERROR"}`)
	eng, _, err := seed(t, story(lines...), 1)
	if err == nil || !strings.Contains(err.Error(), "needs a note") || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("a rejection without a note: %v", err)
	}
	if _, n, err := eng.Reviews().List(ctx, memgov.ReviewQuery{}); err != nil || n != 1 {
		t.Fatalf("open reviews after the refused rejection: %d %v", n, err)
	}
	es, err := eng.Audit().LogTail(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Op == oplog.Reject {
			t.Fatalf("a refused rejection was logged: %+v", e)
		}
	}

	// An agent is no curator: its decision is refused too.
	lines = append(append([]string(nil), people...),
		`{"op":"decide","ref":"acme/support-bot","key":"c7/lang","by":"support-bot","approve":true,"note":"mine"}`)
	if _, _, err := seed(t, story(lines...), 1); err == nil || !strings.Contains(err.Error(), "only curators") {
		t.Fatalf("an agent deciding: %v", err)
	}

	// The same decision with a note is logged, by the curator.
	lines = append(append([]string(nil), people...),
		`{"op":"decide","ref":"acme/support-bot","key":"c7/lang","by":"jane","approve":false,"code":"FACTUAL_ERROR","note":"the customer writes in French"}`)
	eng, rep, err := seed(t, story(lines...), 1)
	if err != nil || rep.Steps != 5 {
		t.Fatalf("seed: %+v %v", rep, err)
	}
	es, err = eng.Audit().LogTail(ctx, 0, 1)
	if err != nil || len(es) != 1 || es[0].Op != oplog.Reject || es[0].Actor != "jane" {
		t.Fatalf("last entry: %+v %v", es, err)
	}
}

// TestStoryRefusesRawEdits: the loader knows no step that edits the database
// behind the engine's back; such a dataset stops with the line it failed on.
func TestStoryRefusesRawEdits(t *testing.T) {
	_, _, err := seed(t, story(`{"op":"start","ago":"1d"}`,
		`{"op":"tamper","ref":"acme/billing-agent","key":"refund/limit","text":"Refunds up to $50,000 need no second signature."}`), 1)
	if err == nil || !strings.Contains(err.Error(), `line 2 (tamper): unknown step "tamper"`) {
		t.Fatalf("tamper step: %v", err)
	}
	_, _, err = seed(t, story(`{"op":"start","ago":"1d"}`, `{"op":"write","bogus":1}`), 1)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("unknown field: %v", err)
	}
}
