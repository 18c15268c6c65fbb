package review_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
	"github.com/memgov/memgov/writes"
)

// stagedReview is one review the index tests stage directly on the log.
type stagedReview struct {
	id, ref, agent, key, text, reason, tier, supersedes string
	finding                                             string
	risk                                                float64
	created, due                                        time.Time
}

// stageAll appends a STAGE entry for each review, in one transaction, to a
// real database file, as the pipeline does for a deferred write.
func stageAll(t *testing.T, ctx context.Context, s *sqlite.Store, rs []stagedReview) {
	t.Helper()
	conf := 0.8
	err := s.Update(ctx, func(tx memgov.Tx) error {
		for _, r := range rs {
			detail, _ := json.Marshal(writes.ReviewDetail{Reasons: []string{r.reason}, Supersedes: r.supersedes, Findings: []string{r.finding}})
			content, _ := json.Marshal(map[string]string{"text": r.text})
			data, _ := json.Marshal(oplog.VersionData{Review: &oplog.StagedReview{ID: r.id, Tier: r.tier, Risk: r.risk, Reason: r.reason,
				DueAt: r.due.Format(oplog.TimeFormat), Detail: detail}})
			e := &oplog.Entry{Time: r.created, Op: oplog.Stage, MemoryRef: r.ref, ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: r.agent}
			if err := e.Seal(oplog.Payload{Key: r.key, Layer: string(memgov.Semantic), Content: content, ContentHash: oplog.HashPayload(content),
				Confidence: &conf, Reason: "staged for review: " + r.reason, Data: data}); err != nil {
				return err
			}
			if err := tx.Append(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// indexFixture is a queue of 60 reviews with repeated creation times,
// deadlines and risks, so that the orders' ties matter.
func indexFixture(t *testing.T) (context.Context, *engine.Engine, *sqlite.Store, []stagedReview) {
	t.Helper()
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "q.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	base := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	now := base.Add(30 * time.Minute)
	eng := engine.New(s, key, engine.WithClock(func() time.Time { return now }))
	words := []string{"invoices", "Klingon", "refund", "Berlin", "pager", "VAT", "ok"}
	reasons := []string{"CONTRADICTION", "HIGH_RISK", "LOW_FACTUAL_SCORE"}
	var rs []stagedReview
	for i := range 60 {
		r := stagedReview{id: fmt.Sprintf("rv-%02d", i), ref: fmt.Sprintf("acme/bot-%d", i%3), agent: fmt.Sprintf("bot-%d", i%3),
			key:  fmt.Sprintf("c%d/%s", i, []string{"lang", "channel", "billing"}[i%3]),
			text: fmt.Sprintf("Customer %d: %s and %s.", i, words[i%len(words)], words[(i*3+1)%len(words)]), reason: reasons[i%3],
			tier: writes.TierAsync, risk: float64(i%4) / 4, created: base.Add(time.Duration(i/3) * time.Minute), due: base.Add(time.Duration(1+i%5) * time.Hour)}
		if i%4 == 0 {
			r.tier = memgov.TierSync
		}
		if i%7 == 0 {
			r.supersedes = fmt.Sprintf("old/zeppelin-%d", i)
		}
		if i%11 == 0 {
			r.finding = "near-duplicate of quokka that differs"
		}
		rs = append(rs, r)
	}
	stageAll(t, ctx, s, rs)
	return ctx, eng, s, rs
}

// Every review whose text holds every word of a filter is found, and no
// other: the index answers as a search of the key, memoryRef, agent, reason,
// the detail's reasons, findings and superseded key and the write's text
// would, ignoring case.
func TestQueueFilterFindsEveryMatchingReview(t *testing.T) {
	ctx, eng, _, rs := indexFixture(t)
	q := review.New(eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}).Queue()
	hay := func(r stagedReview) string {
		return strings.ToLower(strings.Join([]string{r.key, r.ref, r.agent, r.reason, r.supersedes, r.finding, r.text}, "\x00"))
	}
	for _, text := range []string{"klingon", "KLINGON refund", "invoices berlin", "zeppelin", "quokka", "bot-1 contradiction",
		"c4/", "ok", "ok vat", "/billing 1", "customer 12:", "acme/bot-2 high_risk pager", "nowhere-in-any-review", "50%", "c_1"} {
		want := map[string]bool{}
		for _, r := range rs {
			ok := true
			for _, w := range strings.Fields(strings.ToLower(text)) {
				ok = ok && strings.Contains(hay(r), w)
			}
			if ok {
				want[r.id] = true
			}
		}
		p, err := q.Page(ctx, review.QueueFilter{Text: text}, 0, 100)
		if err != nil {
			t.Fatalf("filter %q: %v", text, err)
		}
		got := map[string]bool{}
		for _, r := range p.Rows {
			got[r.ID] = true
		}
		if p.Total != len(want) || len(got) != len(want) {
			t.Errorf("filter %q: %d found (total %d), want %d", text, len(got), p.Total, len(want))
		}
		for id := range want {
			if !got[id] {
				t.Errorf("filter %q: review %s matches but was not found", text, id)
			}
		}
		for id := range got {
			if !want[id] {
				t.Errorf("filter %q: review %s does not match but was found", text, id)
			}
		}
	}
	// The fixture's words must select something, or the test shows nothing.
	if p, _ := q.Page(ctx, review.QueueFilter{Text: "klingon"}, 0, 100); p.Total == 0 || p.Total == len(rs) {
		t.Fatalf("klingon matched %d of %d reviews: the fixture does not test a filter", p.Total, len(rs))
	}
}

// The age and SLA orders are those of the queue sorted in memory (the risk
// order, then a stable sort by creation time or by deadline), page by page.
func TestQueueSortsKeepTheirOrder(t *testing.T) {
	ctx, eng, _, _ := indexFixture(t)
	q := review.New(eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}).Queue()
	all, err := q.Page(ctx, review.QueueFilter{}, 0, 1000)
	if err != nil || len(all.Rows) != 60 {
		t.Fatalf("risk order: %d rows, %v", len(all.Rows), err)
	}
	for _, c := range []struct {
		sort review.QueueSort
		less func(a, b review.QueueRow) bool
	}{
		{review.SortAge, func(a, b review.QueueRow) bool { return a.CreatedAt.Before(b.CreatedAt) }},
		{review.SortSLA, func(a, b review.QueueRow) bool { return a.DueAt.Before(b.DueAt) }},
	} {
		want := slices.Clone(all.Rows)
		sort.SliceStable(want, func(i, j int) bool { return c.less(want[i], want[j]) })
		var got []review.QueueRow
		for off := 0; off < 60; off += 7 {
			p, err := q.Page(ctx, review.QueueFilter{Sort: c.sort}, off, 7)
			if err != nil || p.Total != 60 {
				t.Fatalf("%s page at %d: total %d, %v", c.sort, off, p.Total, err)
			}
			got = append(got, p.Rows...)
		}
		if slices.EqualFunc(want, all.Rows, func(a, b review.QueueRow) bool { return a.ID == b.ID }) {
			t.Fatalf("%s: the fixture's %s order is the risk order: the test shows nothing", c.sort, c.sort)
		}
		for i := range want {
			if got[i].ID != want[i].ID {
				t.Fatalf("%s order, row %d: %s, want %s", c.sort, i, got[i].ID, want[i].ID)
			}
		}
		// With a filter too.
		p, err := q.Page(ctx, review.QueueFilter{Sort: c.sort, Text: "refund"}, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var wantF []string
		for _, r := range want {
			if strings.Contains(strings.ToLower(r.Text), "refund") {
				wantF = append(wantF, r.ID)
			}
		}
		var gotF []string
		for _, r := range p.Rows {
			gotF = append(gotF, r.ID)
		}
		if len(wantF) == 0 || !slices.Equal(gotF, wantF) {
			t.Fatalf("%s order with a filter: %v, want %v", c.sort, gotF, wantF)
		}
	}
}

// An erasure empties the review index of the erased subject's text: the
// filter finds it no more and the database file holds it nowhere; rebuilding
// the derived tables gives back the same index, and the log verifies.
func TestErasureEmptiesTheReviewIndex(t *testing.T) {
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	db := filepath.Join(t.TempDir(), "q.db")
	s, err := sqlite.Open(ctx, db, sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	eng := engine.New(s, key, engine.WithClock(func() time.Time { return now }))
	if _, err := eng.AddPrincipal(ctx, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}, ""); err != nil {
		t.Fatal(err)
	}
	const secret = "Wisniewska-Zielinska"
	stageAll(t, ctx, s, []stagedReview{
		{id: "rv-1", ref: "acme/bot", agent: "bot", key: "c1/name", text: "Ola " + secret + " called about a refund.", reason: "HIGH_RISK",
			tier: writes.TierAsync, created: now.Add(-time.Hour), due: now.Add(time.Hour), finding: "the caller " + secret},
		{id: "rv-2", ref: "acme/bot", agent: "bot", key: "c2/name", text: "Another customer called about a refund.", reason: "HIGH_RISK",
			tier: writes.TierAsync, created: now.Add(-time.Hour), due: now.Add(time.Hour)},
	})
	q := review.New(eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}).Queue()
	if p, err := q.Page(ctx, review.QueueFilter{Text: "zielinska"}, 0, 10); err != nil || p.Total != 1 {
		t.Fatalf("before the erasure the filter finds the subject once: %d, %v", p.Total, err)
	}
	rep, err := eng.Lifecycle().Erase(ctx, memgov.EraseRequest{Subject: secret, By: "cur", Reason: "subject request"})
	if err != nil || rep.Items == 0 {
		t.Fatalf("erase: %+v %v", rep, err)
	}
	if p, err := q.Page(ctx, review.QueueFilter{Text: "zielinska", Sort: review.SortAge}, 0, 10); err != nil || p.Total != 0 {
		t.Fatalf("after the erasure the filter still finds %d reviews (%v)", p.Total, err)
	}
	if p, err := q.Page(ctx, review.QueueFilter{Text: "refund"}, 0, 10); err != nil || p.Total != 1 || p.Rows[0].ID != "rv-2" {
		t.Fatalf("the other review is still found: %+v %v", p, err)
	}
	for _, p := range []string{db, db + "-wal"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(secret))) {
			t.Fatalf("%s still holds the erased text", filepath.Base(p))
		}
	}
	vr, err := eng.Audit().VerifyReplay(ctx)
	if err != nil || !vr.OK {
		t.Fatalf("verify after the erasure: %+v %v", vr, err)
	}
	rb, err := eng.Audit().Rebuild(ctx)
	if err != nil || len(rb.Differences) != 0 || rb.Tables["review_fts"] != 2 {
		t.Fatalf("rebuild: %+v %v", rb, err)
	}
}
