package tui

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
)

// queueWorld is a database with deferred writes made through the governed
// pipeline and a deny-on-drift baseline, on a clock the test moves by hand.
type queueWorld struct {
	*world
	store   *sqlite.Store
	reviews map[string]string // key -> review id
}

func (w *queueWorld) now() time.Time { return w.clock.now() }

func (w *queueWorld) advance(d time.Duration) { w.clock.advance(d) }

// writeReq is a write request as an agent sends it.
func writeReq(agent, ref, key, layer, text string, conf float64, extra map[string]any, ev ...map[string]any) []byte {
	if len(ev) == 0 {
		ev = []map[string]any{{"source_type": "HUMAN_INPUT", "source_uri": "chat://s-88", "authority": 1}}
	}
	content := map[string]any{"text": text}
	for k, v := range extra {
		content[k] = v
	}
	obs := "user_stated_preference"
	if layer == "PROCEDURAL" {
		obs = "task_completion_strategy"
	}
	b, _ := json.Marshal(map[string]any{"source_agent_id": agent, "memory_ref": ref, "key": key, "target_layer": layer,
		"observation_type": obs, "confidence": conf, "content": content, "evidence_refs": ev,
		"run_id": "r-2291", "session_id": "s-88"})
	return b
}

func (w *queueWorld) write(t testing.TB, raw []byte) memgov.WriteResult {
	t.Helper()
	w.advance(time.Minute)
	req, err := memgov.DecodeWriteRequest(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.eng.Writes().Write(w.ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func newQueueWorld(t testing.TB) *queueWorld {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "queue.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: []byte(testKey), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w := &queueWorld{world: &world{ctx: ctx, path: path, clock: &testClock{t: testNow.Add(-3 * time.Hour)}}, store: s, reviews: map[string]string{}}
	w.eng = engine.New(s, []byte(testKey), engine.WithClock(w.clock.now))
	for _, p := range []memgov.Principal{
		{ID: "demo-curator", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "jane", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "ops-jane", Role: memgov.Operator, Tenant: memgov.AllTenants},
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "billing-agent", Role: memgov.Orchestrator, Tenant: "acme"},
		{ID: "research-agent", Role: memgov.Executor, Tenant: "globex"},
	} {
		if _, err := w.eng.AddPrincipal(ctx, p, "demo-curator"); err != nil {
			t.Fatal(err)
		}
	}
	// Committed memory (ungated loads): the refund rule and invoice terms.
	for _, kv := range [][3]string{{"refund/limit", "Refunds up to $1,000 need no second signature.", "$1,000"}, {"invoice/terms", "Invoices are due within 30 days.", ""}} {
		w.advance(time.Minute)
		content := map[string]string{"text": kv[1]}
		if kv[2] != "" {
			content = map[string]string{"text": kv[1], "subject": "refund approval", "predicate": "single_signature_limit", "object": kv[2]}
		}
		c, _ := json.Marshal(content)
		if _, err := w.eng.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/billing-agent", Key: kv[0], Layer: memgov.Procedural, Content: c,
			Actor: "billing-agent", Reason: "policy import", Confidence: 0.6}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.eng.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: "acme/billing-agent", By: "ops-jane", MemoryType: "persistent",
		TTLSeconds: 30 * 24 * 3600, DriftPolicy: "deny-on-drift", Level: 2, Reason: "quarterly review"}); err != nil {
		t.Fatal(err)
	}
	// A SYNC_BLOCK: the refund limit, contradicted, in procedural memory.
	sync := w.write(t, writeReq("billing-agent", "acme/billing-agent", "refund/limit-2", "PROCEDURAL", "Refunds up to $5,000 need no second signature.", 0.95,
		map[string]any{"subject": "refund approval", "predicate": "single_signature_limit", "object": "$5,000"},
		map[string]any{"source_type": "TOOL_OUTPUT", "source_uri": "erp://policies/refunds", "authority": 0.6},
		map[string]any{"source_type": "AGENT_REASONING", "authority": 0.3},
		map[string]any{"source_type": "DOCUMENT", "source_uri": "wiki://finance/draft-refund-policy", "authority": 0.3}))
	if sync.Status != memgov.StatusDeferred {
		t.Fatalf("sync write: %+v", sync)
	}
	w.reviews["refund/limit"] = sync.ReviewID
	// Deferred writes: executors propose; curators decide.
	for _, c := range []struct{ agent, ref, key, layer, text string }{
		{"support-bot", "acme/support-bot", "c7/lang", "EPISODIC", "Customer 7 wants invoices in German."},
		{"support-bot", "acme/support-bot", "c8/lang", "EPISODIC", "Customer 8 wants invoices in Klingon."},
		{"support-bot", "acme/support-bot", "c9/channel", "SEMANTIC", "Customer 9 prefers letters in the mail."},
		{"research-agent", "globex/research-agent", "paper/attention", "SEMANTIC", "The transformer paper was published in 2017."},
	} {
		res := w.write(t, writeReq(c.agent, c.ref, c.key, c.layer, c.text, 0.9, nil))
		if res.Status != memgov.StatusDeferred {
			t.Fatalf("%s: want deferred, got %+v", c.key, res)
		}
		w.reviews[c.key] = res.ReviewID
	}
	return w
}

// tamper edits refund/limit behind memgov's back and lets memgov notice.
func (w *queueWorld) tamper(t testing.TB) {
	t.Helper()
	w.tamperText(t, "Refunds up to $50,000 need no second signature.")
	w.advance(time.Minute)
	v, err := w.eng.Baselines().VerifyMemory(w.ctx, memgov.VerifyRequest{MemoryRef: "acme/billing-agent"})
	if err != nil || !v.Drift || v.DriftID == "" {
		t.Fatalf("verify after tamper: %+v %v", v, err)
	}
}

// tamperText sets the text of refund/limit's head with another SQLite
// client, as anyone with access to the file could.
func (w *queueWorld) tamperText(t testing.TB, text string) {
	t.Helper()
	// Another SQLite client, as anyone with access to the file could use.
	db, err := sql.Open("sqlite", "file:"+w.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.ExecContext(w.ctx, `UPDATE versions SET content = CAST(json_set(content, '$.text', ?) AS BLOB)
		WHERE id = (SELECT head_version_id FROM items WHERE memory_ref = ? AND key = ?)`,
		text, "acme/billing-agent", "refund/limit")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("tamper edited %d rows", n)
	}
}

// openQ starts the program on the queue world as who; the screens' clock is
// the world's.
func openQ(t *testing.T, w *queueWorld, who string, width, height, screen int) *session {
	t.Helper()
	m := New(Options{Service: w.service(t, who), DBName: "demo.db", Now: w.now, Poll: 100 * time.Millisecond})
	m.Focus(screen)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	return &session{t: t, w: w.world, tm: tm}
}

// toReview moves the cursor onto the review of key.
func (s *session) toReview(w *queueWorld, key string) {
	s.t.Helper()
	rs, _, err := w.eng.Reviews().List(w.ctx, memgov.ReviewQuery{})
	if err != nil {
		s.t.Fatal(err)
	}
	for i, r := range rs {
		if r.ID == w.reviews[key] {
			s.press(strings.Repeat("j", i))
			return
		}
	}
	s.t.Fatalf("no open review for %s", key)
}

func TestGoldenQueue(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			s := openQ(t, w, "demo-curator", size[0], size[1], QueueScreen)
			s.see("RISK 0.65")
			s.golden()
		})
	}
}

func TestGoldenDrift(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(sizeName(size), func(t *testing.T) {
			w := newQueueWorld(t)
			w.tamper(t)
			s := openQ(t, w, "ops-jane", size[0], size[1], DriftScreen)
			s.see("changed outside memgov")
			s.golden()
		})
	}
}

func TestGoldenRejectCodes(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	s.press("r")
	s.see("Reject as")
	s.golden()
}

// The stories below check their outcome through the engine.

func TestFlowApproveMakesItReadable(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	s.toReview(w, "c7/lang")
	s.see("key c7/lang")
	s.press("enter")
	s.see("claimed by you · lease 1:00")
	s.press("a")
	s.see("Approve c7/lang?")
	s.press("checked the chat log", "enter")
	s.see("approved acme/support-bot › c7/lang")
	s.quit()
	v, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "c7/lang")
	if err != nil || v.Text() != "Customer 7 wants invoices in German." {
		t.Fatalf("approved write: %+v %v", v, err)
	}
	r, _ := w.eng.Reviews().Review(w.ctx, w.reviews["c7/lang"])
	if r.Status != memgov.ReviewApproved || r.DecidedBy != "demo-curator" || r.Note != "checked the chat log" {
		t.Fatalf("review after approval: %+v", r)
	}
}

func TestFlowRejectWithCodeAndNote(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 80, 24, QueueScreen)
	s.see("5 pending")
	s.toReview(w, "c8/lang")
	s.press("r")
	s.see("Reject as")
	// Move from the preselected code to FACTUAL_ERROR.
	rs, _, _ := w.eng.Reviews().List(w.ctx, memgov.ReviewQuery{})
	var row review.QueueRow
	for _, r := range rs {
		if r.ID == w.reviews["c8/lang"] {
			row.Review = r
			json.Unmarshal(r.Detail, &row.Detail)
		}
	}
	from := defaultCode(row)
	s.press(strings.Repeat("k", from)) // FACTUAL_ERROR is the first code
	s.press("enter")
	s.see("Reject c8/lang as FACTUAL_ERROR?")
	s.press("enter") // a rejection without a note cannot confirm
	s.see("a note is required")
	s.press("no such language on file", "enter")
	s.see("rejected acme/support-bot › c8/lang as FACTUAL_ERROR")
	s.quit()
	if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/support-bot", "c8/lang"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("rejected write readable: %v", err)
	}
	r, _ := w.eng.Reviews().Review(w.ctx, w.reviews["c8/lang"])
	if r.Status != memgov.ReviewRejected || r.DecisionCode != "FACTUAL_ERROR" || r.Note != "no such language on file" || r.DecidedBy != "demo-curator" {
		t.Fatalf("review after rejection: %+v", r)
	}
}

// Two reviewers: jane (through the engine) holds the claim; the TUI says so
// and refuses to decide; once the TUI's own lease has passed to someone
// else, its stale fencing token is refused too.
func TestFlowClaimConflict(t *testing.T) {
	w := newQueueWorld(t)
	id := w.reviews["c9/channel"]
	if _, err := w.eng.Reviews().Claim(w.ctx, id, "jane"); err != nil {
		t.Fatal(err)
	}
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	s.toReview(w, "c9/channel")
	s.see("claimed by jane")
	s.press("enter")
	s.see("jane is reviewing this until")
	s.press("a")
	s.see("cannot approve: jane holds the claim")

	// jane's lease runs out; the TUI claims; its lease runs out (the
	// renewal says so, and stops) and jane claims again, then walks away
	// until her lease runs out too: the TUI's token is stale. Whichever
	// read of the queue the screen holds when a is pressed, every claim on
	// it has lapsed, so the question opens and the token is what refuses.
	w.advance(2 * time.Minute)
	s.press("enter")
	s.see("claimed by you")
	w.advance(2 * time.Minute)
	s.see("your claim lapsed")
	if _, err := w.eng.Reviews().Claim(w.ctx, id, "jane"); err != nil {
		t.Fatal(err)
	}
	w.advance(2 * time.Minute)
	s.press("a")
	s.see("Approve c9/channel?")
	s.press("enter")
	s.see("is no longer yours") // the decision's refusal: the renewal stopped at the lapse
	s.quit()
	if r, _ := w.eng.Reviews().Review(w.ctx, id); r.Status != memgov.ReviewPending {
		t.Fatalf("a stale decision went through: %+v", r)
	}
}

func TestFlowApproveMarked(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	s.toReview(w, "c7/lang")
	s.press(" ")
	s.see("1 marked")
	s.press("g")
	s.toReview(w, "paper/attention")
	s.press(" ")
	s.see("2 marked")
	s.press("A")
	s.see("Approve 2 marked reviews?")
	s.press("enter")
	s.see("approved 2 of 2 marked reviews")
	s.quit()
	for _, k := range []struct{ ref, key string }{{"acme/support-bot", "c7/lang"}, {"globex/research-agent", "paper/attention"}} {
		if _, err := w.eng.Host().Get(w.ctx, memgov.Owner, k.ref, k.key); err != nil {
			t.Fatalf("%s not readable after bulk approval: %v", k.key, err)
		}
	}
}

func TestFlowOperatorCannotDecideReviews(t *testing.T) {
	w := newQueueWorld(t)
	before, _ := w.eng.Audit().LogSize(w.ctx)
	s := openQ(t, w, "ops-jane", 120, 40, QueueScreen)
	s.see("5 pending")
	s.press("a")
	s.see("cannot approve: read-only here: only curators decide reviews")
	s.quit()
	if after, _ := w.eng.Audit().LogSize(w.ctx); after != before {
		t.Fatalf("log grew from %d to %d", before, after)
	}
}

// New deferred writes appear without a key press, and the poll's sweep
// escalates reviews past their SLA while the program is open.
func TestQueueIsLive(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	res := w.write(t, writeReq("support-bot", "acme/support-bot", "c11/lang", "EPISODIC", "Customer 11 wants invoices in Dutch.", 0.9, nil))
	if res.Status != memgov.StatusDeferred {
		t.Fatalf("%+v", res)
	}
	s.see("6 pending")
	w.advance(25 * time.Hour)
	s.see("ESCALATED")
	s.quit()
	r, _ := w.eng.Reviews().Review(w.ctx, res.ReviewID)
	if r.Status != memgov.ReviewEscalated {
		t.Fatalf("after the SLA: %+v", r)
	}
}

func TestFlowDriftReapprove(t *testing.T) {
	w := newQueueWorld(t)
	w.tamper(t)
	s := openQ(t, w, "ops-jane", 120, 40, DriftScreen)
	s.see("DENYING all writes")
	s.press("R")
	s.see("Adopt the current memory of acme/billing-agent as its baseline?")
	s.press("R") // a second R is text in the reason, not a confirmation
	s.see("reason: R")
	if es, _ := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true}); len(es) != 1 {
		t.Fatal("the drift was acknowledged by the key that asked")
	}
	s.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	s.press("enter") // and an empty reason cannot confirm
	s.see("a reason is required")
	s.press("the ERP import was the source", "enter")
	s.see("its current memory is the new baseline")
	s.quit()
	if es, _ := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true}); len(es) != 0 {
		t.Fatalf("drift still open: %+v", es)
	}
	v, err := w.eng.Baselines().VerifyMemory(w.ctx, memgov.VerifyRequest{MemoryRef: "acme/billing-agent", Deep: true})
	if err != nil || v.Drift || !v.Valid {
		t.Fatalf("after re-approval: %+v %v", v, err)
	}
	got, _ := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/billing-agent", "refund/limit")
	if got.Text() != "Refunds up to $50,000 need no second signature." {
		t.Fatalf("re-approval kept %q", got.Text())
	}
}

func TestFlowDriftRollBack(t *testing.T) {
	w := newQueueWorld(t)
	w.tamper(t)
	s := openQ(t, w, "demo-curator", 80, 24, DriftScreen)
	s.see("DENYING all writes")
	s.press("B")
	s.see("Roll acme/billing-agent back to its baseline?")
	s.press("enter")
	s.see("a reason is required")
	s.press("the limit was raised outside memgov", "enter")
	s.see("rolled back to baseline")
	s.quit()
	got, _ := w.eng.Host().Get(w.ctx, memgov.Owner, "acme/billing-agent", "refund/limit")
	if got.Text() != "Refunds up to $1,000 need no second signature." {
		t.Fatalf("after rollback: %q", got.Text())
	}
	if es, _ := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true}); len(es) != 0 {
		t.Fatalf("drift still open: %+v", es)
	}
}

func TestFlowDriftReadOnly(t *testing.T) {
	w := newQueueWorld(t)
	w.tamper(t)
	s := openQ(t, w, "support-bot", 120, 40, DriftScreen)
	s.see("DENYING all writes")
	s.press("B")
	s.see("cannot roll back to the baseline: read-only: support-bot is an executor")
	s.quit()
	if es, _ := w.eng.Baselines().ListDrift(w.ctx, memgov.DriftQuery{OpenOnly: true}); len(es) != 1 {
		t.Fatalf("open drift: %d", len(es))
	}
}

func TestParseQueueFilterRoundTrip(t *testing.T) {
	f, err := review.ParseQueueFilter("layer=semantic tier=sync agent=support-bot reason=contradiction age=2h breached")
	if err != nil {
		t.Fatal(err)
	}
	want := review.QueueFilter{Layer: memgov.Semantic, Tier: memgov.TierSync, Agent: "support-bot", Reason: "CONTRADICTION", MinAge: 2 * time.Hour, Breached: true}
	if f != want {
		t.Fatalf("parsed %+v", f)
	}
	if g, err := review.ParseQueueFilter(f.String()); err != nil || g != f {
		t.Fatalf("round trip %q -> %+v %v", f.String(), g, err)
	}
	if _, err := review.ParseQueueFilter("colour=red"); err == nil {
		t.Fatal("unknown filter accepted")
	}
	_ = fmt.Sprint
}

func TestFlowFilter(t *testing.T) {
	w := newQueueWorld(t)
	s := openQ(t, w, "demo-curator", 120, 40, QueueScreen)
	s.see("5 pending")
	s.press("/", "agent=research-agent", "enter")
	s.see("1 match")
	m := s.quit()
	q := m.screens[QueueScreen].(*queue)
	if len(q.list.rows) != 1 || q.list.rows[0].Agent != "research-agent" {
		t.Fatalf("filtered rows: %+v", q.list.rows)
	}
}
