package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
)

const ref = "acme/support-bot"

type fixture struct {
	ctx  context.Context
	eng  *engine.Engine
	item string
	vers []string // version ids, v1 first
}

// setup seeds three versions of one item on a clock that moves a minute at
// every reading.
func setup(t *testing.T) *fixture {
	t.Helper()
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	return setupClock(t, func() time.Time { now = now.Add(time.Minute); return now })
}

func setupClock(t *testing.T, clock func() time.Time) *fixture {
	t.Helper()
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "m.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	eng := engine.New(s, key, engine.WithClock(clock))
	for _, p := range []memgov.Principal{
		{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "acme-cur", Role: memgov.Curator, Tenant: "globex"},
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
	} {
		if _, err := eng.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{ctx: ctx, eng: eng}
	for _, text := range []string{"Customer 42 prefers email.", "Customer 42 prefers email, after 6pm.", "Customer 42 prefers SMS."} {
		c, _ := json.Marshal(map[string]string{"text": text})
		r, err := eng.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: "customer-42/channel", Layer: memgov.Semantic, Content: c, Actor: "support-bot", Reason: "chat"})
		if err != nil {
			t.Fatal(err)
		}
		f.item, f.vers = r.ItemID, append(f.vers, r.VersionID)
	}
	return f
}

func TestReadOnlyActorsCannotAct(t *testing.T) {
	f := setup(t)
	for _, tc := range []struct {
		p    memgov.Principal
		want string
	}{
		{memgov.Principal{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"}, "an executor"},
		{memgov.Principal{ID: "nobody"}, "read-only: nobody is not a registered principal"},
		{memgov.Principal{ID: "acme-cur", Role: memgov.Curator, Tenant: "globex"}, "globex"},
	} {
		svc := review.New(f.eng, tc.p)
		acts := map[string]func() error{
			"pin":      func() error { _, err := svc.SetPinned(f.ctx, f.item, true, "x"); return err },
			"expire":   func() error { _, err := svc.ForceExpire(f.ctx, f.item, "x"); return err },
			"rollback": func() error { _, err := svc.RollBackTo(f.ctx, f.vers[0], "x"); return err },
		}
		for name, act := range acts {
			err := act()
			if !errors.Is(err, memgov.ErrForbidden) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s by %s: %v, want ErrForbidden %q", name, tc.p.ID, err, tc.want)
			}
		}
	}
	if size, _ := f.eng.Audit().LogSize(f.ctx); size != 6 {
		t.Fatalf("refused actions wrote to the log: size %d", size)
	}
}

// TestCanActSaysTheNextStepInDomainTerms: a refusal names what lifts it as
// a kind the CLI and the TUI render, never as a command line.
func TestCanActSaysTheNextStepInDomainTerms(t *testing.T) {
	f := setup(t)
	for _, tc := range []struct {
		p    memgov.Principal
		next review.Next
	}{
		{memgov.Principal{ID: "nobody"}, review.NextRegister},
		{memgov.Principal{ID: "jane", Role: memgov.Curator, Tenant: "acme", Suspended: true}, review.NextReinstate},
		{memgov.Principal{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"}, ""},
	} {
		err := review.New(f.eng, tc.p).CanAct()
		var fe *review.ForbiddenError
		if !errors.As(err, &fe) {
			t.Fatalf("%s: CanAct = %v, want a ForbiddenError", tc.p.ID, err)
		}
		if fe.Next != tc.next || (tc.next != "" && fe.Principal != tc.p.ID) {
			t.Errorf("%s: next %q for %q, want %q for %q", tc.p.ID, fe.Next, fe.Principal, tc.next, tc.p.ID)
		}
		if strings.Contains(err.Error(), "memgov ") || strings.Contains(err.Error(), "--") {
			t.Errorf("%s: %q names a CLI command or flag", tc.p.ID, err)
		}
	}
}

func TestRollBackToOlderAndActive(t *testing.T) {
	f := setup(t)
	svc := review.New(f.eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants})
	h, err := svc.History(f.ctx, f.item)
	if err != nil {
		t.Fatal(err)
	}
	if got := review.PlanRollback(h, 2).Summary; got != "Make the content of v1 ACTIVE again as v4; v3 (ACTIVE now) is retracted." {
		t.Fatalf("plan for v1: %q", got)
	}
	if got := review.PlanRollback(h, 0).Summary; got != "Retract v3 (ACTIVE) and reactivate the content of v2 as v4." {
		t.Fatalf("plan for v3: %q", got)
	}
	if _, err := svc.RollBackTo(f.ctx, f.vers[0], "wrong channel"); err != nil {
		t.Fatal(err)
	}
	v, err := f.eng.Host().Get(f.ctx, memgov.Owner, ref, "customer-42/channel")
	if err != nil || v.Text() != "Customer 42 prefers email." || v.Seq != 4 {
		t.Fatalf("after restore: v%d %q %v", v.Seq, v.Text(), err)
	}
	h, _ = svc.History(f.ctx, f.item)
	if got := h.Versions[1].How(); got != "rolled back by cur" {
		t.Errorf("v3 how = %q", got)
	}
	if got := h.Versions[0].How(); got != "restored v1 by cur" {
		t.Errorf("v4 how = %q", got)
	}
	// Rolling back the ACTIVE version retracts it; v3 was retracted, so no
	// predecessor is reactivated.
	if _, err := svc.RollBackTo(f.ctx, h.Versions[0].ID, "bad restore"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.eng.Host().Get(f.ctx, memgov.Owner, ref, "customer-42/channel"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("after retracting v4: %v", err)
	}
}

func TestPinExpireAndAsOf(t *testing.T) {
	f := setup(t)
	svc := review.New(f.eng, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants})
	if _, err := svc.SetPinned(f.ctx, f.item, true, "keep"); err != nil {
		t.Fatal(err)
	}
	if it, _ := f.eng.Host().Item(f.ctx, memgov.Owner, f.item); !it.Pinned {
		t.Fatal("not pinned")
	}
	if _, err := svc.ForceExpire(f.ctx, f.item, "stale"); err != nil {
		t.Fatal(err)
	}
	page, err := svc.Items(f.ctx, review.ItemsQuery{MemoryRef: ref})
	if err != nil || len(page.Versions) != 0 {
		t.Fatalf("items now: %d %v", len(page.Versions), err)
	}
	for _, spec := range []string{"5", "2026-11-20T14:05:30Z", "2026-11-20 14:05"} {
		at, err := svc.ParseAsOf(f.ctx, spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		page, err = svc.Items(f.ctx, review.ItemsQuery{MemoryRef: ref, At: at})
		if err != nil || len(page.Versions) != 1 || page.Versions[0].Text() != "Customer 42 prefers email, after 6pm." {
			t.Fatalf("as of %s (LSN %d): %+v %v", spec, at.LSN, page.Versions, err)
		}
	}
	for _, bad := range []string{"0", "999", "yesterday-ish", "2020-01-01"} {
		if _, err := svc.ParseAsOf(f.ctx, bad); !errors.Is(err, memgov.ErrInvalid) {
			t.Errorf("ParseAsOf(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	if at, err := svc.ParseAsOf(f.ctx, "now"); err != nil || !at.Now() {
		t.Errorf("now: %+v %v", at, err)
	}
	evs, err := svc.LogTail(f.ctx, 0, 2)
	if err != nil || len(evs) != 2 || evs[0].Op != oplog.Expire || evs[0].Reason != "stale" || evs[1].Op != oplog.Pin {
		t.Fatalf("log tail: %+v %v", evs, err)
	}
}

func TestItemsPaging(t *testing.T) {
	f := setup(t)
	for _, k := range []string{"a", "b", "c", "d"} {
		c, _ := json.Marshal(map[string]string{"text": "t " + k})
		if _, err := f.eng.Writes().Put(f.ctx, memgov.PutRequest{MemoryRef: ref, Key: k, Layer: memgov.Episodic, Content: c, Actor: "support-bot"}); err != nil {
			t.Fatal(err)
		}
	}
	svc := review.New(f.eng, memgov.Principal{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"})
	var keys []string
	after := ""
	for pages := 0; ; pages++ {
		p, err := svc.Items(f.ctx, review.ItemsQuery{MemoryRef: ref, AfterKey: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Versions {
			keys = append(keys, v.Key)
		}
		if !p.More {
			break
		}
		after = p.Versions[len(p.Versions)-1].Key
	}
	if got := strings.Join(keys, ","); got != "a,b,c,customer-42/channel,d" {
		t.Fatalf("paged keys %s", got)
	}
	refs, _ := review.New(f.eng, memgov.Principal{ID: "g", Role: memgov.Curator, Tenant: "globex"}).Refs(f.ctx)
	if len(refs) != 0 {
		t.Fatalf("a globex curator sees %v", refs)
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"x\ny\nz", "x\nY\nz", " x|-y|+Y| z"},
		{"", "a", "+a"},
		{"a\nb", "", "-a|-b"},
		{"same", "same", " same"},
	} {
		var parts []string
		for _, p := range review.LineDiff(tc.a, tc.b) {
			parts = append(parts, p.Op.String()+p.Text)
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("LineDiff(%q,%q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
	var del, ins []string
	for _, p := range review.WordDiff("Refunds up to $1,000 need", "Refunds up to $50,000 need") {
		switch p.Op {
		case review.Delete:
			del = append(del, p.Text)
		case review.Insert:
			ins = append(ins, p.Text)
		}
	}
	if strings.Join(del, "") != "$1,000 " || strings.Join(ins, "") != "$50,000 " {
		t.Fatalf("word diff: -%q +%q", del, ins)
	}
}
