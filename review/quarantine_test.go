package review_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/review"
	"github.com/memgov/memgov/store/sqlite"
)

// burstEngine is an engine where support-bot's fourth write within the hour
// is a burst that quarantines its recent writes.
func burstEngine(t *testing.T) *engine.Engine {
	t.Helper()
	ctx := context.Background()
	key := []byte("0123456789abcdef0123456789abcdef")
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "m.db"), sqlite.Options{Key: key, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	pol, err := policy.Parse([]byte("reputation:\n  burst_limit: 3\n  burst_window: 1h\n  quarantine_window: 1h\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	eng := engine.New(s, key, engine.WithPolicy(pol), engine.WithClock(func() time.Time { now = now.Add(time.Second); return now }))
	for _, p := range []memgov.Principal{
		{ID: "cur", Role: memgov.Curator, Tenant: memgov.AllTenants},
		{ID: "globex-cur", Role: memgov.Curator, Tenant: "globex"},
		{ID: "ops", Role: memgov.Operator, Tenant: memgov.AllTenants},
		{ID: "support-bot", Role: memgov.Executor, Tenant: "acme"},
	} {
		if _, err := eng.AddPrincipal(ctx, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 4; i++ {
		req, err := memgov.DecodeWriteRequest([]byte(fmt.Sprintf(`{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"k%d","target_layer":"WORKING","content":{"text":"fact %d"}}`, i, i)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Writes().Write(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	return eng
}

// Open and CanDecide say beforehand what the engine will allow: the count a
// person sees, and who may release or retract.
func TestQuarantineOpenAndCanDecide(t *testing.T) {
	eng := burstEngine(t)
	ctx := context.Background()
	as := func(id string) *review.Service {
		p, err := review.Identify(ctx, eng, id)
		if err != nil {
			t.Fatal(err)
		}
		return review.New(eng, p)
	}
	cur := as("cur")
	vs, err := cur.Quarantine().List(ctx, "", "")
	if err != nil || len(vs) != 3 {
		t.Fatalf("quarantined: %+v %v", vs, err)
	}
	if n, err := cur.Quarantine().Open(ctx); err != nil || n != 3 {
		t.Fatalf("open for the curator: %d %v", n, err)
	}
	if a, err := cur.Attention(ctx); err != nil || a.Quarantine != (review.Count{N: 3, Available: true}) {
		t.Fatalf("attention: %+v %v", a, err)
	}
	if n, _ := as("globex-cur").Quarantine().Open(ctx); n != 0 {
		t.Fatalf("another tenant's curator counts acme's quarantine: %d", n)
	}
	e := vs[0].QuarantineEntry
	if err := cur.Quarantine().CanDecide(e); err != nil {
		t.Fatalf("the curator may not decide: %v", err)
	}
	for _, who := range []string{"ops", "globex-cur", "support-bot"} {
		svc := as(who)
		err := svc.Quarantine().CanDecide(e)
		if !review.IsForbidden(err) {
			t.Fatalf("%s may decide: %v", who, err)
		}
		if _, rerr := svc.Quarantine().Release(ctx, e.VersionID, "mine"); rerr == nil {
			t.Fatalf("%s released what CanDecide refused (%v)", who, err)
		}
	}
	if err := cur.Quarantine().Retract(ctx, e.VersionID, "poisoned"); err != nil {
		t.Fatal(err)
	}
	if err := cur.Quarantine().CanDecide(entryOf(t, cur, e.VersionID)); !errors.Is(err, memgov.ErrInvalid) || !strings.Contains(err.Error(), "already retracted") {
		t.Fatalf("a retracted entry is decidable: %v", err)
	}
	if n, _ := cur.Quarantine().Open(ctx); n != 2 {
		t.Fatalf("open after a retract: %d", n)
	}
}

func entryOf(t *testing.T, svc *review.Service, versionID string) memgov.QuarantineEntry {
	t.Helper()
	vs, err := svc.Quarantine().List(context.Background(), "all", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.VersionID == versionID {
			return v.QuarantineEntry
		}
	}
	t.Fatalf("no entry %s", versionID)
	return memgov.QuarantineEntry{}
}
