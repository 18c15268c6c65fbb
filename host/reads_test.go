package host_test

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
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/store/sqlite"
)

// readsFixture is an engine on a fresh SQLite file with two tenants:
// acme's executor bot, curator jane and orchestrator orch, and globex's
// executor eve. acme/bot holds a session entry and a PII entry; globex/eve
// holds one entry whose text no refusal may show.
type readsFixture struct {
	e                *engine.Engine
	session, pii, gx memgov.PutResult
}

const globexText = "globex pays its supplier on the ninth"

func newReadsFixture(t *testing.T) readsFixture {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: enginetest.Key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	e := engine.New(s, enginetest.Key, engine.WithClock(func() time.Time { return now }))
	for _, p := range []memgov.Principal{{ID: "bot", Role: memgov.Executor, Tenant: "acme"}, {ID: "jane", Role: memgov.Curator, Tenant: "acme"},
		{ID: "orch", Role: memgov.Orchestrator, Tenant: "acme"}, {ID: "eve", Role: memgov.Executor, Tenant: "globex"}} {
		if _, err := e.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	put := func(ref, key string, layer memgov.Layer, class, text string) memgov.PutResult {
		t.Helper()
		content, err := json.Marshal(map[string]string{"text": text})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: layer, Content: content, Actor: "jane", Confidence: 0.9, Classification: class})
		if err != nil {
			t.Fatalf("put %s/%s: %v", ref, key, err)
		}
		return res
	}
	return readsFixture{e: e,
		session: put("acme/bot", "plan", memgov.Session, "", "the plan is to ship on friday"),
		pii:     put("acme/bot", "card", memgov.Session, "PII", "the customer's card ends in 4242"),
		gx:      put("globex/eve", "pay", memgov.Session, "", globexText),
	}
}

// noLeak fails when a refusal's text shows another tenant's data.
func noLeak(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && (strings.Contains(err.Error(), globexText) || strings.Contains(err.Error(), "globex/eve")) {
		t.Errorf("%s: the refusal shows globex's data: %v", what, err)
	}
}

// Every read names its reader: the owner reads every tenant whole; a
// principal reads its tenant, without what authz hides from it; another
// tenant's memory is refused or absent, and no refusal shows it.
func TestReadsAreBoundedByTheReader(t *testing.T) {
	f := newReadsFixture(t)
	ctx := context.Background()
	h := f.e.Host()
	bot, eve, owner := memgov.As("bot"), memgov.As("eve"), memgov.Owner

	// Read: the owner sees both entries, unrecorded; bot its cleared one,
	// recorded, with the other counted hidden; eve is refused acme.
	snap, err := h.Read(ctx, owner, memgov.ReadQuery{MemoryRef: "acme/bot"})
	if err != nil || len(snap.Versions) != 2 || snap.Hidden != 0 || snap.RetrievalID != "" {
		t.Fatalf("owner Read: %d versions, %d hidden, retrieval %q, %v", len(snap.Versions), snap.Hidden, snap.RetrievalID, err)
	}
	snap, err = h.Read(ctx, bot, memgov.ReadQuery{MemoryRef: "acme/bot"})
	if err != nil || len(snap.Versions) != 1 || snap.Versions[0].Key != "plan" || snap.Hidden != 1 || snap.RetrievalID == "" {
		t.Fatalf("bot Read: %+v, %v", snap, err)
	}
	_, err = h.Read(ctx, eve, memgov.ReadQuery{MemoryRef: "acme/bot"})
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("eve read acme: %v", err)
	}
	_, err = h.Read(ctx, bot, memgov.ReadQuery{MemoryRef: "globex/eve"})
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot read globex: %v", err)
	}
	noLeak(t, "Read", err)
	if _, err := h.Read(ctx, memgov.As("nobody"), memgov.ReadQuery{MemoryRef: "acme/bot"}); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("an unknown principal read: %v", err)
	}

	// Get and History.
	if _, err := h.Get(ctx, bot, "acme/bot", "card"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot got the PII entry: %v", err)
	}
	if v, err := h.Get(ctx, owner, "acme/bot", "card"); err != nil || v.ID != f.pii.VersionID {
		t.Fatalf("owner Get: %v", err)
	}
	_, err = h.Get(ctx, bot, "globex/eve", "pay")
	noLeak(t, "Get", err)
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot got globex's entry: %v", err)
	}
	if _, vs, err := h.History(ctx, bot, f.pii.ItemID); err != nil || len(vs) != 0 {
		t.Fatalf("bot's history of the PII item: %d versions, %v", len(vs), err)
	}
	_, _, err = h.History(ctx, bot, f.gx.ItemID)
	noLeak(t, "History", err)
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot read globex's history: %v", err)
	}

	// Item, ItemByKey, Version, Versions.
	if _, err := h.Item(ctx, bot, f.gx.ItemID); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot read globex's item: %v", err)
	}
	if it, err := h.Item(ctx, owner, f.gx.ItemID); err != nil || it.MemoryRef != "globex/eve" {
		t.Fatalf("owner Item: %+v %v", it, err)
	}
	// Another tenant's key is refused whether it exists or not: the
	// refusal does not tell.
	for _, key := range []string{"pay", "no-such-key"} {
		if _, err := h.ItemByKey(ctx, bot, "globex/eve", key); !errors.Is(err, memgov.ErrForbidden) {
			t.Fatalf("bot read globex's item by key %s: %v", key, err)
		}
	}
	if it, err := h.ItemByKey(ctx, bot, "acme/bot", "plan"); err != nil || it.ID != f.session.ItemID {
		t.Fatalf("bot ItemByKey of its own: %+v %v", it, err)
	}
	_, err = h.Version(ctx, bot, f.gx.VersionID)
	noLeak(t, "Version", err)
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot read globex's version: %v", err)
	}
	ids := []string{f.session.VersionID, f.pii.VersionID, f.gx.VersionID, "no-such-version"}
	if vs, err := h.Versions(ctx, bot, ids); err != nil || len(vs) != 1 || vs[f.session.VersionID].Key != "plan" {
		t.Fatalf("bot Versions: %d, %v", len(vs), err)
	}
	if vs, err := h.Versions(ctx, owner, ids); err != nil || len(vs) != 3 {
		t.Fatalf("owner Versions: %d, %v", len(vs), err)
	}

	// Refs, ActivePage, VisibleCounts.
	refs := func(r memgov.Reader) []string {
		t.Helper()
		rs, err := h.Refs(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range rs {
			out = append(out, x.MemoryRef)
		}
		return out
	}
	if got := strings.Join(refs(owner), " "); got != "acme/bot globex/eve" {
		t.Fatalf("owner Refs: %s", got)
	}
	if got := strings.Join(refs(bot), " "); got != "acme/bot" {
		t.Fatalf("bot Refs: %s", got)
	}
	if p, err := h.ActivePage(ctx, bot, "acme/bot", "", 10); err != nil || len(p.Versions) != 1 {
		t.Fatalf("bot ActivePage: %d, %v", len(p.Versions), err)
	}
	if p, err := h.ActivePage(ctx, owner, "acme/bot", "", 10); err != nil || len(p.Versions) != 2 {
		t.Fatalf("owner ActivePage: %d, %v", len(p.Versions), err)
	}
	_, err = h.ActivePage(ctx, bot, "globex/eve", "", 10)
	noLeak(t, "ActivePage", err)
	if !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("bot paged globex: %v", err)
	}
	counts, err := h.VisibleCounts(ctx, bot, []string{"acme/bot", "globex/eve"})
	if err != nil || counts["acme/bot"] != 1 || counts["globex/eve"] != 0 {
		t.Fatalf("bot VisibleCounts: %v %v", counts, err)
	}
	counts, err = h.VisibleCounts(ctx, owner, []string{"acme/bot", "globex/eve"})
	if err != nil || counts["acme/bot"] != 2 || counts["globex/eve"] != 1 {
		t.Fatalf("owner VisibleCounts: %v %v", counts, err)
	}
}

// The MemoryAdapter reads through the same rule: the owner's adapter lists
// every entry and may not write; a principal's lists what authz lets it see.
func TestAdapterReadsAsItsReader(t *testing.T) {
	f := newReadsFixture(t)
	ctx := context.Background()
	h := f.e.Host()
	own, err := h.Adapter(memgov.Owner).List(ctx, "acme/bot", host.ListOptions{})
	if err != nil || len(own) != 2 {
		t.Fatalf("owner List: %d, %v", len(own), err)
	}
	mine, err := h.Adapter(memgov.As("bot")).List(ctx, "acme/bot", host.ListOptions{})
	if err != nil || len(mine) != 1 || mine[0].ID != "plan" {
		t.Fatalf("bot List: %+v, %v", mine, err)
	}
	other, err := h.Adapter(memgov.As("bot")).List(ctx, "globex/eve", host.ListOptions{})
	if err != nil || len(other) != 0 {
		t.Fatalf("bot listed globex: %+v, %v", other, err)
	}
	if _, err := h.Adapter(memgov.Owner).Put(ctx, memgov.WriteRequest{MemoryRef: "acme/bot"}); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("the owner's adapter wrote: %v", err)
	}
	if r := h.Adapter(memgov.As("bot")).Reader(); r != memgov.As("bot") {
		t.Fatalf("the adapter's reader: %+v", r)
	}
}
