package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/internal/enginetest"
	"github.com/memgov/memgov/lifecycle"
	"github.com/memgov/memgov/store/sqlite"
)

// TestContractRoundTrip: put through the governed pipeline, list and get in
// exactly the MemoryEntry shape, delete by a governed soft delete.
func TestContractRoundTrip(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	bot := e.Host().Adapter(memgov.As("support-bot"))
	res, err := bot.Put(ctx, enginetest.Governed("someone-else", "acme/support-bot", "customer-42/channel", "Customer 42 prefers email follow-up.", ""))
	if err != nil || res.Status != memgov.StatusCommitted {
		t.Fatalf("put: %+v %v", res, err)
	}
	list, err := bot.List(ctx, "acme/support-bot", host.ListOptions{})
	if err != nil || len(list) != 1 || list[0].ID != "customer-42/channel" || list[0].Content != "Customer 42 prefers email follow-up." {
		t.Fatalf("list = %+v, %v", list, err)
	}
	b, _ := json.Marshal(list[0])
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	got := sortedMapKeys(m)
	if !reflect.DeepEqual(got, []string{"content", "createdAt", "id", "tags"}) || m["createdAt"] != "2026-05-10T09:00:00.000Z" {
		t.Fatalf("MemoryEntry = %s", b)
	}
	g, err := bot.Get(ctx, "acme/support-bot", "customer-42/channel")
	if err != nil || g == nil || g.Content != list[0].Content {
		t.Fatalf("get = %+v, %v", g, err)
	}
	// The writer is the adapter's principal, whatever the request said.
	v, _ := bot.GetVersion(ctx, "acme/support-bot", "customer-42/channel")
	if v.CreatedBy != "support-bot" {
		t.Fatalf("written by %s", v.CreatedBy)
	}
	if g, err := bot.Get(ctx, "acme/support-bot", "nope"); g != nil || err != nil {
		t.Fatalf("unknown id: %+v %v", g, err)
	}
	if l, err := bot.List(ctx, "acme/nobody", host.ListOptions{}); len(l) != 0 || l == nil || err != nil {
		t.Fatalf("unknown ref: %#v %v", l, err)
	}
	// An executor may not delete episodic memory (RBAC); a curator may.
	if _, err := bot.Delete(ctx, "acme/support-bot", "customer-42/channel", "customer asked"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("executor delete: %v", err)
	}
	d, err := e.Host().Adapter(memgov.As("acme-curator")).Delete(ctx, "acme/support-bot", "customer-42/channel", "customer asked")
	if err != nil || !d.Deleted {
		t.Fatalf("delete: %+v %v", d, err)
	}
	if g, _ := bot.Get(ctx, "acme/support-bot", "customer-42/channel"); g != nil {
		t.Fatal("deleted entry still visible")
	}
	_, hist, _ := e.Host().History(ctx, memgov.Owner, d.ItemID)
	if len(hist) != 1 || hist[0].State != memgov.Retracted {
		t.Fatalf("soft delete keeps history: %+v", hist)
	}
	if d, err := e.Host().Adapter(memgov.As("acme-curator")).Delete(ctx, "acme/support-bot", "customer-42/channel", "again"); err != nil || d.Deleted {
		t.Fatalf("second delete: %+v %v", d, err)
	}
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var malformedRefs = []string{"", "acme", "acme/", "/acme/bot", "acme//bot", "acme/./bot", "acme/../globex/research-agent",
	"../globex/research-agent", "acme/bot\x00", "acme\x00/bot", "acme/bot\n", "acme/%2e%2e/globex", "acme%2Fbot/x", "acme/b\\ot",
	"acme/bot/", " acme/bot", "acme/b ot", strings.Repeat("a", 300) + "/bot", "acme/" + strings.Repeat("b", 65), "ａcme/bot", "acme/bot\u200b"}

// TestContractCrossTenantIsolation: the owner probe is non-empty, the
// cross-tenant probe exactly empty, malformed refs empty, errors data-free.
func TestContractCrossTenantIsolation(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	enginetest.Put(t, e, "acme/support-bot", "k1", "acme secret plan alpha")
	enginetest.Put(t, e, "globex/research-agent", "k1", "globex secret plan beta")
	acme, globex := e.Host().Adapter(memgov.As("support-bot")), e.Host().Adapter(memgov.As("research-agent"))
	if l, _ := acme.List(ctx, "acme/support-bot", host.ListOptions{}); len(l) != 1 {
		t.Fatalf("owner probe: %+v", l)
	}
	if l, _ := globex.List(ctx, "globex/research-agent", host.ListOptions{}); len(l) != 1 {
		t.Fatalf("owner probe: %+v", l)
	}
	l, err := acme.List(ctx, "globex/research-agent", host.ListOptions{})
	if err != nil || l == nil || len(l) != 0 {
		t.Fatalf("cross-tenant list = %#v, %v", l, err)
	}
	if g, err := acme.Get(ctx, "globex/research-agent", "k1"); g != nil || err != nil {
		t.Fatalf("cross-tenant get = %+v, %v", g, err)
	}
	if h, err := acme.Search(ctx, host.SearchQuery{MemoryRef: "globex/research-agent", Query: "secret plan"}); len(h) != 0 || err != nil {
		t.Fatalf("cross-tenant search = %+v, %v", h, err)
	}
	if c, err := acme.Commitments(ctx, "globex/research-agent"); len(c) != 0 || err != nil {
		t.Fatalf("cross-tenant commitments = %+v, %v", c, err)
	}
	if d, err := acme.Delete(ctx, "globex/research-agent", "k1", "probe"); d.Deleted || err != nil {
		t.Fatalf("cross-tenant delete = %+v, %v", d, err)
	}
	for _, ref := range malformedRefs {
		l, err := acme.List(ctx, ref, host.ListOptions{})
		if err != nil || len(l) != 0 {
			t.Errorf("List(%q) = %v, %v", ref, l, err)
		}
		if g, err := acme.Get(ctx, ref, "k1"); g != nil || err != nil {
			t.Errorf("Get(%q) = %v, %v", ref, g, err)
		}
	}
	// Installation-wide principals read every tenant.
	if l, _ := e.Host().Adapter(memgov.As("jane")).List(ctx, "globex/research-agent", host.ListOptions{}); len(l) != 1 {
		t.Fatalf("jane: %+v", l)
	}
	// An unknown principal is refused, and the error names neither ref nor data.
	_, err = e.Host().Adapter(memgov.As("nobody")).List(ctx, "globex/research-agent", host.ListOptions{})
	if !errors.Is(err, memgov.ErrUnauthorized) || strings.Contains(err.Error(), "globex") || strings.Contains(err.Error(), "plan") {
		t.Fatalf("unknown principal: %v", err)
	}
	// Tenant-bound events never show another tenant's memoryRefs.
	evs, err := e.Host().Events(ctx, memgov.As("support-bot"), memgov.EventQuery{})
	if err != nil || len(evs) == 0 {
		t.Fatalf("events: %v %v", evs, err)
	}
	for _, ev := range evs {
		if strings.HasPrefix(ev.MemoryRef, "globex/") || strings.Contains(string(ev.Data), "globex") {
			t.Fatalf("acme sees %+v", ev)
		}
	}
	// Asking for another tenant's events does not widen a principal's read;
	// the owner reads the tenant it asks for.
	asked, err := e.Host().Events(ctx, memgov.As("support-bot"), memgov.EventQuery{Tenant: "globex"})
	if err != nil || len(asked) != len(evs) {
		t.Fatalf("support-bot asking for globex: %d events (want its own %d), %v", len(asked), len(evs), err)
	}
	globexEvs, err := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Tenant: "globex"})
	if err != nil || len(globexEvs) == 0 {
		t.Fatalf("owner asking for globex: %v %v", globexEvs, err)
	}
	for _, ev := range globexEvs {
		if strings.HasPrefix(ev.MemoryRef, "acme/") {
			t.Fatalf("globex's events hold %+v", ev)
		}
	}
	if _, err := e.Host().Events(ctx, memgov.As("nobody"), memgov.EventQuery{}); !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("events as an unknown principal: %v", err)
	}
}

// TestContractCrossInstance: two engines over one database file, each bound
// to one tenant; a tenant-A adapter returns [] for a tenant-B ref even though
// the shared store holds the entries. Memory written by one instance is
// durable for the other (long-term).
func TestContractCrossInstance(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	s1, err := sqlite.Open(ctx, path, sqlite.Options{Key: enginetest.Key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	e1 := engine.New(s1, enginetest.Key)
	enginetest.AddPrincipals(t, e1)
	s2, err := sqlite.Open(ctx, path, sqlite.Options{Key: enginetest.Key})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	e2 := engine.New(s2, enginetest.Key)
	enginetest.Put(t, e1, "acme/support-bot", "a", "written by instance one for acme")
	enginetest.Put(t, e2, "globex/research-agent", "b", "written by instance two for globex")
	a, b := e1.Host().Adapter(memgov.As("support-bot")), e2.Host().Adapter(memgov.As("research-agent"))
	if l, _ := a.List(ctx, "acme/support-bot", host.ListOptions{}); len(l) != 1 {
		t.Fatalf("instance one, own tenant: %v", l)
	}
	if l, _ := b.List(ctx, "globex/research-agent", host.ListOptions{}); len(l) != 1 {
		t.Fatalf("instance two, own tenant: %v", l)
	}
	if l, _ := a.List(ctx, "globex/research-agent", host.ListOptions{}); len(l) != 0 {
		t.Fatalf("instance one leaked globex: %v", l)
	}
	if l, _ := b.List(ctx, "acme/support-bot", host.ListOptions{}); len(l) != 0 {
		t.Fatalf("instance two leaked acme: %v", l)
	}
	if g, _ := e2.Host().Adapter(memgov.As("support-bot")).Get(ctx, "acme/support-bot", "a"); g == nil {
		t.Fatal("memory written by instance one is not durable for instance two")
	}
}

// TestContractRedaction: SR-1 holds for everything stored, hashed, embedded or
// logged, and for derived content.
func TestContractRedaction(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	const secret = "sk-live-4242424242"
	if _, err := e.Secrets().Register("run-1", "stripe-key", secret); err != nil {
		t.Fatal(err)
	}
	bot := e.Host().Adapter(memgov.As("support-bot"))
	res, err := bot.Put(ctx, enginetest.Governed("support-bot", "acme/support-bot", "billing/key", "The billing API key is "+secret+" for now.", "run-1"))
	if err != nil || !res.Accepted() {
		t.Fatalf("put: %+v %v", res, err)
	}
	g, _ := bot.Get(ctx, "acme/support-bot", "billing/key")
	if g == nil || !strings.Contains(g.Content, "[REDACTED:stripe-key]") || strings.Contains(g.Content, secret) {
		t.Fatalf("read back: %+v", g)
	}
	if _, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 200, Actor: "acme-curator", RunID: "run-1"}); err != nil {
		t.Fatal(err)
	}
	assertNoPlaintext(t, e, secret)
}

// assertNoPlaintext scans every log payload, every visible entry and every
// event for the plaintext.
func assertNoPlaintext(t *testing.T, e *engine.Engine, secret string) {
	t.Helper()
	ctx := context.Background()
	size, _ := e.Audit().LogSize(ctx)
	entries, err := e.Audit().LogTail(ctx, 0, int(size))
	if err != nil {
		t.Fatal(err)
	}
	for _, le := range entries {
		if bytes.Contains(le.Payload, []byte(secret)) {
			t.Fatalf("log entry %d (%s) holds the plaintext", le.LSN, le.Op)
		}
	}
	refs, _ := e.Host().Refs(ctx, memgov.Owner)
	for _, r := range refs {
		snap, _ := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: r.MemoryRef})
		for _, v := range snap.Versions {
			if bytes.Contains(v.Content, []byte(secret)) || strings.Contains(strings.Join(v.Tags, " "), secret) {
				t.Fatalf("%s/%s holds the plaintext", r.MemoryRef, v.Key)
			}
		}
	}
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{})
	for _, ev := range evs {
		if strings.Contains(string(ev.Data), secret) {
			t.Fatalf("event %s holds the plaintext", ev.Type)
		}
	}
}

// TestContractTTLExpiry: an entry past expiresAt surfaces in no read, search,
// distillation, consolidation or export, at millisecond granularity, though
// no GC has run.
func TestContractTTLExpiry(t *testing.T) {
	e, c := enginetest.Contract(t)
	ctx := context.Background()
	_, err := e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: "acme/support-bot", Key: "promo", Layer: memgov.Episodic,
		Content: json.RawMessage(`{"text":"The spring promo code is SPRING26 for refunds."}`), TTL: time.Minute, Actor: "jane"})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Put(t, e, "acme/support-bot", "stay", "Refunds are processed within five days.")
	bot := e.Host().Adapter(memgov.As("support-bot"))
	visible := func() map[string]bool {
		out := map[string]bool{}
		l, _ := bot.List(ctx, "acme/support-bot", host.ListOptions{})
		out["list"] = contains(enginetest.KeysOf(l), "promo")
		g, _ := bot.Get(ctx, "acme/support-bot", "promo")
		out["get"] = g != nil
		h, _ := bot.Search(ctx, host.SearchQuery{MemoryRef: "acme/support-bot", Query: "spring promo code"})
		out["search"] = len(h) > 0 && h[0].Entry.ID == "promo"
		var buf bytes.Buffer
		if _, err := e.Baselines().ExportSnapshot(ctx, "acme/support-bot", "", &buf); err != nil {
			t.Fatal(err)
		}
		out["export"] = strings.Contains(buf.String(), "SPRING26")
		snap, _ := e.Host().Read(ctx, memgov.Owner, memgov.ReadQuery{MemoryRef: "acme/support-bot"})
		out["read"] = len(snap.Versions) == 2
		return out
	}
	c.Set(enginetest.T0.Add(time.Minute - time.Millisecond))
	for k, v := range visible() {
		if !v {
			t.Errorf("1ms before expiry, %s does not show the entry", k)
		}
	}
	c.Set(enginetest.T0.Add(time.Minute))
	for k, v := range visible() {
		if v {
			t.Errorf("at expiresAt, %s still shows the entry", k)
		}
	}
	d, err := e.Host().Distill(ctx, host.DistillRequest{MemoryRef: "acme/support-bot", Budget: 500, Actor: "acme-curator"})
	if err != nil || d.Sources != 1 || bytes.Contains(d.Archive, []byte("SPRING26")) {
		t.Fatalf("distill after expiry: %+v %v", d, err)
	}
	cr, err := e.Lifecycle().Consolidate(ctx, lifecycle.ConsolidateRequest{MemoryRef: "acme/support-bot", Actor: "acme-curator"})
	if err != nil || cr.InputCount != 1 {
		t.Fatalf("consolidate after expiry: %+v %v", cr, err)
	}
	// Events carry no content, expired or not.
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{})
	for _, ev := range evs {
		if strings.Contains(string(ev.Data), "SPRING26") {
			t.Fatalf("event %s carries content", ev.Type)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestForgetBySubject: delete-by-subject retracts every mention within one
// ref of one tenant, by log entries, and reports counts.
func TestForgetBySubject(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	enginetest.Put(t, e, "acme/support-bot", "a", "Alice Martin prefers email.")
	enginetest.Put(t, e, "acme/support-bot", "b", `{"text":"Prefers phone calls.","subject":"alice martin","predicate":"prefers","object":"phone"}`)
	enginetest.Put(t, e, "acme/support-bot", "c", "Bob pays by invoice.")
	enginetest.Put(t, e, "acme/other-bot", "a", "ALICE MARTIN opened a ticket.")
	enginetest.Put(t, e, "globex/research-agent", "a", "Alice Martin is a globex lead.")
	if _, err := e.Host().Forget(ctx, "acme/support-bot", "Alice Martin", "research-agent", "gdpr"); !errors.Is(err, memgov.ErrForbidden) && !errors.Is(err, memgov.ErrUnauthorized) {
		t.Fatalf("forget by another tenant's agent: %v", err)
	}
	if _, err := e.Host().Forget(ctx, "acme/support-bot", "Alice Martin", "globex-curator", "gdpr"); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("forget by another tenant's curator: %v", err)
	}
	res, err := e.Host().Forget(ctx, "acme/support-bot", "alice martin", "acme-curator", "gdpr request 7")
	if err != nil || res.Forgotten != 2 || res.Scanned != 3 || !reflect.DeepEqual(res.Keys, []string{"a", "b"}) {
		t.Fatalf("forget = %+v, %v", res, err)
	}
	jane := e.Host().Adapter(memgov.As("jane"))
	if l, _ := jane.List(ctx, "acme/support-bot", host.ListOptions{}); !reflect.DeepEqual(enginetest.KeysOf(l), []string{"c"}) {
		t.Fatalf("after forget: %v", enginetest.KeysOf(l))
	}
	for _, ref := range []string{"acme/other-bot", "globex/research-agent"} {
		if l, _ := jane.List(ctx, ref, host.ListOptions{}); len(l) != 1 {
			t.Fatalf("forget reached %s", ref)
		}
	}
	le, _ := e.Audit().LogEntryAt(ctx, res.LSN)
	if le.Op != oplog.Retract || le.Actor != "acme-curator" {
		t.Fatalf("forget entry: %+v", le)
	}
}

// TestReplaySnapshot: a read at a recorded log position returns what was
// visible then, whatever forget or consolidation did since.
func TestReplaySnapshot(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	r := enginetest.Put(t, e, "acme/support-bot", "a", "Alice Martin prefers email.")
	if _, err := e.Host().Forget(ctx, "acme/support-bot", "alice", "acme-curator", "gdpr"); err != nil {
		t.Fatal(err)
	}
	bot := e.Host().Adapter(memgov.As("support-bot"))
	if l, _ := bot.List(ctx, "acme/support-bot", host.ListOptions{}); len(l) != 0 {
		t.Fatal("forgotten entry is live")
	}
	l, err := bot.List(ctx, "acme/support-bot", host.ListOptions{AtLSN: r.LSN})
	if err != nil || len(l) != 1 || l[0].Content != "Alice Martin prefers email." {
		t.Fatalf("snapshot at %d = %+v, %v", r.LSN, l, err)
	}
}

// TestAttributionEventsAreContentFree: one memory.written per write, ids only.
func TestAttributionEventsAreContentFree(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	res, err := e.Host().Adapter(memgov.As("support-bot")).Put(ctx, enginetest.Governed("support-bot", "acme/support-bot", "k", "Customer Zed likes tea.", ""))
	if err != nil || !res.Accepted() {
		t.Fatal(res, err)
	}
	evs, _ := e.Host().Events(ctx, memgov.Owner, memgov.EventQuery{Type: "memory.written"})
	if len(evs) != 1 {
		t.Fatalf("memory.written events: %+v", evs)
	}
	var d map[string]any
	_ = json.Unmarshal(evs[0].Data, &d)
	for k, v := range d {
		if !contains([]string{"memoryRef", "itemId", "versionId", "agentId", "op"}, k) {
			t.Errorf("memory.written carries %s", k)
		}
		if s, _ := v.(string); strings.Contains(s, "tea") {
			t.Errorf("memory.written carries content in %s", k)
		}
	}
	if d["versionId"] != res.VersionID || d["agentId"] != "support-bot" {
		t.Fatalf("event = %s", evs[0].Data)
	}
}

// FuzzMemoryRefRead drives arbitrary refs through the read path of a tenant-A
// adapter over a store holding tenant B's entries: no panic, no error that
// echoes the ref, and nothing of tenant B ever returned.
func FuzzMemoryRefRead(f *testing.F) {
	for _, r := range malformedRefs {
		f.Add(r, "k1")
	}
	f.Add("acme/support-bot", "k1")
	f.Add("globex/research-agent", "k1")
	f.Add("acme/../globex/research-agent", "k1")
	f.Add("globex/research-agent/", "k1")
	f.Add("GLOBEX/research-agent", "k1")
	e, _ := enginetest.Contract(f)
	enginetest.Put(f, e, "acme/support-bot", "k1", "acme entry")
	enginetest.Put(f, e, "globex/research-agent", "k1", "globex entry")
	enginetest.Put(f, e, "globex/research-agent/ns", "k1", "globex namespaced entry")
	a := e.Host().Adapter(memgov.As("support-bot"))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, ref, id string) {
		l, err := a.List(ctx, ref, host.ListOptions{})
		if err != nil {
			t.Fatalf("List error %v", err)
		}
		for _, en := range l {
			if en.Content != "acme entry" {
				t.Fatalf("List(%q) escaped its tenant: %+v", ref, en)
			}
		}
		g, err := a.Get(ctx, ref, id)
		if err != nil {
			t.Fatalf("Get error %v", err)
		}
		if g != nil && g.Content != "acme entry" {
			t.Fatalf("Get(%q, %q) escaped its tenant: %+v", ref, id, g)
		}
		if len(l) > 0 && ref != "acme/support-bot" {
			t.Fatalf("List accepted %q as acme/support-bot", ref)
		}
	})
}
