package engine_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"testing"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/policy"
)

// The snapshot hash is served from the store's current-value table while no
// row is dirty; an edit of versions by another client must still change it
// and be caught, and a deep verify must catch an edit even when the client
// dropped the triggers that mark rows dirty.
func TestSnapshotHashFollowsOutsideEdits(t *testing.T) {
	env := newBEnv(t)
	ref := "acme/billing-agent"
	env.put(ref, "a", "one")
	env.put(ref, "b", "two")
	before := env.hash(ref)
	env.tamper(ref, "a", "edited")
	if after := env.hash(ref); after == before {
		t.Fatal("snapshot hash ignores a row edited outside memgov")
	}
}

func TestDeepVerifyCatchesEditWithoutTriggers(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/billing-agent"
	env.put(ref, "a", "one")
	env.put(ref, "b", "two")
	b := env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	db, err := sql.Open("sqlite", env.path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"text": "edited"})
	for _, q := range []string{`DROP TRIGGER mem_dirty_versions_upd`, `UPDATE versions SET content = ? WHERE memory_ref = ? AND key = 'a' AND state = 'ACTIVE'`} {
		var args []any
		if q[0] == 'U' {
			args = []any{body, ref}
		}
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if r := env.verify(ref, nil); !r.Valid {
		t.Fatalf("shallow verify without a dirty mark: %+v", r)
	}
	r, err := env.e.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: ref, Deep: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Valid || !r.Drift || r.Cause != baselines.CauseOutside || r.CurrentHash == nil || *r.CurrentHash == b.Hash() {
		t.Fatalf("deep verify after an edit without triggers: %+v", r)
	}
}
