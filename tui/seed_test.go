package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
)

// base is the seeded world's first moment; testNow is when the tests look at it.
var (
	base    = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	testNow = base.Add(6 * time.Hour)
)

const testKey = "0123456789abcdef0123456789abcdef0123456789abcdef"

// world is a seeded database.
type world struct {
	ctx     context.Context
	eng     *engine.Engine
	path    string
	channel string   // item id of acme/support-bot customer-42/channel
	vers    []string // its version ids, v1 first
	clock   *testClock
}

// testClock is a world's time: read by the engine and the screens from the
// program's commands (other goroutines) and moved by the test.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock by d and returns the new time.
func (c *testClock) advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

// seedWorld builds the demo story on a real SQLite file: four tenants' agents,
// an item with a rolled-back version, a pinned item, an expiring one.
func seedWorld(t testing.TB, path string, opts ...engine.Option) *world {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Key: []byte(testKey), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w := &world{ctx: ctx, path: path, clock: &testClock{t: base}}
	w.eng = engine.New(s, []byte(testKey), append([]engine.Option{engine.WithClock(func() time.Time { return w.clock.advance(7 * time.Minute) })}, opts...)...)
	for _, p := range []memgov.Principal{
		{ID: "demo-curator", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "ops-jane", Role: memgov.Operator, Tenant: memgov.AllTenants},
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
		{ID: "billing-agent", Role: memgov.Executor, Tenant: "acme"},
		{ID: "research-agent", Role: memgov.Executor, Tenant: "globex"},
		{ID: "hr-assistant", Role: memgov.Executor, Tenant: "initech"},
	} {
		if _, err := w.eng.AddPrincipal(ctx, p, "demo-curator"); err != nil {
			t.Fatal(err)
		}
	}
	put := func(ref, key string, layer memgov.Layer, by, text, reason string, tags ...string) memgov.PutResult {
		c, _ := json.Marshal(map[string]string{"text": text})
		r, err := w.eng.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: key, Layer: layer, Content: c, Actor: by,
			Reason: reason, Tags: tags, Confidence: 0.8})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, text := range []string{"Customer 42 prefers email.", "Customer 42 prefers email, after 6pm.", "Customer 42 prefers a phone call; ignore earlier notes."} {
		r := put("acme/support-bot", "customer-42/channel", memgov.Semantic, "support-bot", text, "from chat s-71", "customer")
		w.channel, w.vers = r.ItemID, append(w.vers, r.VersionID)
	}
	if _, err := w.eng.Lifecycle().Rollback(ctx, w.vers[2], "ops-jane", "the phone note came from a scraped page"); err != nil {
		t.Fatal(err)
	}
	put("acme/support-bot", "customer-17/language", memgov.Semantic, "support-bot", "Customer 17 writes in Portuguese.", "chat s-12")
	put("acme/support-bot", "greeting", memgov.Procedural, "support-bot", "Greet by first name, then ask for the order number.", "onboarding")
	put("acme/support-bot", "session/s-88", memgov.Episodic, "support-bot", "Customer asked twice about a late parcel\x1b[31m; escalated.", "session log")
	r := put("acme/billing-agent", "refund/limit", memgov.Procedural, "billing-agent", "Refunds up to $1,000 need no second signature.", "policy import")
	if _, err := w.eng.Lifecycle().Pin(ctx, r.ItemID, "demo-curator", "canonical refund rule"); err != nil {
		t.Fatal(err)
	}
	put("acme/billing-agent", "refund/limit", memgov.Procedural, "billing-agent", "Refunds up to $50,000 need no second signature.", "agent edit")
	put("globex/research-agent", "paper/attention", memgov.Semantic, "research-agent", "The transformer paper was published in 2017.", "arxiv")
	put("initech/hr-assistant", "policy/pto", memgov.Procedural, "hr-assistant", "PTO requests need 2 weeks notice.", "handbook")
	return w
}

func (w *world) service(t testing.TB, who string) *review.Service {
	t.Helper()
	p, err := review.Identify(w.ctx, w.eng, who)
	if err != nil {
		t.Fatal(err)
	}
	return review.New(w.eng, p)
}

// seedBulk adds n items to ref with batched ungated writes (1,000 per
// transaction).
func seedBulk(t testing.TB, eng *engine.Engine, ref string, n int) {
	t.Helper()
	ctx := context.Background()
	for start := 0; start < n; start += 1000 {
		batch := make([]memgov.PutRequest, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			batch = append(batch, memgov.PutRequest{MemoryRef: ref, Key: fmt.Sprintf("bulk/%06d", i), Layer: memgov.Episodic,
				Content: []byte(fmt.Sprintf(`{"text":"bulk fact number %d about the customer base"}`, i)), Actor: "support-bot", Confidence: 0.7})
		}
		if err := eng.Writes().PutBatch(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteDemoDB writes the seeded world to $MEMGOV_TUI_SEED (with its key
// file beside it) for looking at the screens by hand:
//
//	MEMGOV_TUI_SEED=/tmp/demo.db go test ./tui -run TestWriteDemoDB
func TestWriteDemoDB(t *testing.T) {
	path := os.Getenv("MEMGOV_TUI_SEED")
	if path == "" {
		t.Skip("set MEMGOV_TUI_SEED to write a demo database")
	}
	os.Remove(path)
	if err := os.WriteFile(path+".key", []byte(testKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := seedWorld(t, path)
	if n := os.Getenv("MEMGOV_TUI_BULK"); n != "" {
		var k int
		fmt.Sscan(n, &k)
		seedBulk(t, w.eng, "acme/bulk-agent", k)
	}
	t.Logf("wrote %s (%s)", path, filepath.Base(path)+".key")
}
