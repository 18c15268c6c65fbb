package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/store/sqlite"
)

func newCurateEngine(t *testing.T) (*engine.Engine, context.Context) {
	t.Helper()
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "m.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	e := engine.New(s, key, engine.WithClock(func() time.Time { now = now.Add(time.Second); return now }))
	if _, err := e.AddPrincipal(ctx, memgov.Principal{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants}, ""); err != nil {
		t.Fatal(err)
	}
	return e, ctx
}

func put(t *testing.T, e *engine.Engine, key, text string) memgov.PutResult {
	t.Helper()
	c, _ := json.Marshal(map[string]string{"text": text})
	r, err := e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: "acme/support-bot", Key: key, Layer: memgov.Semantic, Content: c, Actor: "cur"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExpireByHand(t *testing.T) {
	e, ctx := newCurateEngine(t)
	r := put(t, e, "k", "one")
	lsn, err := e.Lifecycle().Expire(ctx, r.ItemID, "cur", "stale")
	if err != nil {
		t.Fatal(err)
	}
	_, hist, err := e.Host().History(ctx, memgov.Owner, r.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	if hist[0].State != memgov.Expired || hist[0].ActiveTo != lsn {
		t.Fatalf("head after expire: %s active_to %d, want EXPIRED at %d", hist[0].State, hist[0].ActiveTo, lsn)
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/support-bot", "k"); !errors.Is(err, memgov.ErrNotFound) {
		t.Fatalf("Get after expire: %v, want ErrNotFound", err)
	}
	le, err := e.Audit().LogEntryAt(ctx, lsn)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := le.DecodePayload()
	if le.Op != oplog.Expire || le.Actor != "cur" || p.Reason != "stale" || le.VersionID != r.VersionID {
		t.Fatalf("entry %+v reason %q", le, p.Reason)
	}
	// Nothing ACTIVE any more: a second expiry is a conflict.
	if _, err := e.Lifecycle().Expire(ctx, r.ItemID, "cur", "again"); !errors.Is(err, memgov.ErrConflict) {
		t.Fatalf("second expire: %v, want ErrConflict", err)
	}
	// The log still verifies and rebuilds to the same tables.
	if rep, err := e.Audit().Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	if rep, err := e.Audit().Rebuild(ctx); err != nil || len(rep.Differences) > 0 {
		t.Fatalf("rebuild: %+v %v", rep, err)
	}
}

func TestExpireRefusals(t *testing.T) {
	e, ctx := newCurateEngine(t)
	r := put(t, e, "k", "one")
	for _, tc := range []struct {
		name, item, actor, reason string
		want                      error
	}{
		{"no reason", r.ItemID, "cur", " ", memgov.ErrInvalid},
		{"unknown actor", r.ItemID, "mallory", "x", memgov.ErrUnauthorized},
		{"unknown item", "nope", "cur", "x", memgov.ErrNotFound},
	} {
		if _, err := e.Lifecycle().Expire(ctx, tc.item, tc.actor, tc.reason); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := e.Host().Get(ctx, memgov.Owner, "acme/support-bot", "k"); err != nil {
		t.Fatalf("refused expiries changed the item: %v", err)
	}
}

func TestLogTailAndBefore(t *testing.T) {
	e, ctx := newCurateEngine(t) // LSN 1: the principal
	for i := range 9 {
		put(t, e, "k", "text "+string(rune('a'+i)))
	}
	size, err := e.Audit().LogSize(ctx)
	if err != nil || size != 10 {
		t.Fatalf("LogSize = %d, %v; want 10", size, err)
	}
	lsns := func(es []oplog.Entry) (out []int64) {
		for _, e := range es {
			out = append(out, e.LSN)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		got  func() ([]oplog.Entry, error)
		want []int64
	}{
		{"recent page", func() ([]oplog.Entry, error) { return e.Audit().LogTail(ctx, 0, 3) }, []int64{10, 9, 8}},
		{"new since 7", func() ([]oplog.Entry, error) { return e.Audit().LogTail(ctx, 7, 50) }, []int64{10, 9, 8}},
		{"many new, newest kept", func() ([]oplog.Entry, error) { return e.Audit().LogTail(ctx, 2, 4) }, []int64{10, 9, 8, 7}},
		{"nothing new", func() ([]oplog.Entry, error) { return e.Audit().LogTail(ctx, 10, 5) }, nil},
		{"before 8", func() ([]oplog.Entry, error) { return e.Audit().LogBefore(ctx, 8, 3) }, []int64{7, 6, 5}},
		{"before 3", func() ([]oplog.Entry, error) { return e.Audit().LogBefore(ctx, 3, 5) }, []int64{2, 1}},
		{"before 1", func() ([]oplog.Entry, error) { return e.Audit().LogBefore(ctx, 1, 5) }, nil},
	} {
		es, err := tc.got()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := lsns(es); !equal(got, tc.want) {
			t.Errorf("%s: LSNs %v, want %v", tc.name, got, tc.want)
		}
	}
	es, _ := e.Audit().LogTail(ctx, 0, 1)
	if p, err := es[0].DecodePayload(); err != nil || p.Key != "k" {
		t.Fatalf("LogTail entries carry payloads: %+v %v", p, err)
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestActivePageMatchesRead(t *testing.T) {
	e, ctx := newCurateEngine(t)
	for _, k := range []string{"d", "a", "c", "b", "e"} {
		put(t, e, k, "text "+k)
	}
	r := put(t, e, "x", "gone")
	if _, err := e.Lifecycle().Expire(ctx, r.ItemID, "cur", "stale"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		after string
		limit int
	}{{"", 0}, {"", 2}, {"b", 2}, {"e", 3}} {
		want, err := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: "acme/support-bot", AfterKey: tc.after, Limit: tc.limit})
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Host().ActivePage(ctx, memgov.Owner, "acme/support-bot", tc.after, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Versions) != len(want.Versions) || got.LSN != want.LSN {
			t.Fatalf("after %q limit %d: %d versions at %d, Read gives %d at %d", tc.after, tc.limit, len(got.Versions), got.LSN, len(want.Versions), want.LSN)
		}
		for i := range got.Versions {
			if got.Versions[i].ID != want.Versions[i].ID {
				t.Fatalf("after %q limit %d: version %d differs", tc.after, tc.limit, i)
			}
		}
	}
	if s, _ := e.Host().ActivePage(ctx, memgov.Owner, "../etc", "", 1); len(s.Versions) != 0 {
		t.Fatal("a malformed ref read data")
	}
}
