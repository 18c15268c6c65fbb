package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/policy"
)

// M2: a TTL passing is appended to the 3.2.6.2 op log as a DEL, so the fold
// of the log equals `snapshot export`; a state an agent reports is compared
// with the approved memory.
func TestM2ExpiryFoldsAndStateIsComparedWithApproved(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/billing-agent"
	env.put(ref, "tone", "formal")
	body, _ := json.Marshal(map[string]string{"text": "The spring promotion runs this week."})
	if _, err := env.e.Put(ctx, engine.PutRequest{MemoryRef: ref, Key: "promo", Layer: engine.Semantic, Content: body, Actor: "bot", TTL: time.Hour}); err != nil {
		t.Fatal(err)
	}
	env.approve(ref, engine.MemoryPersistent, policy.AlertOnDrift)
	approvedState := json.RawMessage(`{"promo":{"text":"The spring promotion runs this week."},"tone":{"text":"formal"}}`)
	if r := env.verify(ref, approvedState); !r.Valid || r.Cause != "" {
		t.Fatalf("the approved state: %+v", r)
	}

	env.now = env.now.Add(2 * time.Hour) // the promotion's TTL passes
	var export bytes.Buffer
	if _, err := env.e.ExportSnapshot(ctx, ref, "", &export); err != nil {
		t.Fatal(err)
	}
	if export.String() != `{"tone":{"text":"formal"}}` {
		t.Fatalf("export after expiry: %s", export.String())
	}
	// The op log ends with the DEL, appended by an EXPIRE entry of memgov's.
	var ops []engine.MemOp
	if err := env.e.MemoryOps(ctx, ref, func(o engine.MemOp) error { ops = append(ops, o); return nil }); err != nil {
		t.Fatal(err)
	}
	last := ops[len(ops)-1]
	if last.Op != merkle.OpDel || last.Key != "promo" || env.countOps(engine.OpExpire) != 1 {
		t.Fatalf("op log after expiry: %+v (%d EXPIRE entries)", ops, env.countOps(engine.OpExpire))
	}
	// The left fold of the op log is the exported map, byte for byte.
	fold := map[string]json.RawMessage{}
	for _, o := range ops {
		if o.Op == merkle.OpDel {
			delete(fold, o.Key)
		} else {
			fold[o.Key] = o.Value
		}
	}
	b, _ := json.Marshal(fold)
	c, err := canon.Canonicalize(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(c) != export.String() {
		t.Fatalf("fold %s != export %s", c, export.String())
	}
	// The approved memory now is the fold at the accepted checkpoint: the
	// agent's map with the expired item differs from it, the one without
	// it matches.
	now := env.hash(ref)
	if r := env.verify(ref, json.RawMessage(`{"tone":{"text":"formal"}}`)); r.Cause != "" || r.ApprovedHash == nil || *r.ApprovedHash != now || !strings.HasPrefix(now, "sha256:") {
		t.Fatalf("the state without the expired item: %+v", r)
	}
	if r := env.verify(ref, approvedState); r.Cause != engine.CauseStateMismatch || r.ApprovedHash == nil || *r.ApprovedHash != now {
		t.Fatalf("a state still holding the expired item: %+v", r)
	}
	env.auditOK()
}
