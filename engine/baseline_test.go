package engine_test

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

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// bEnv is an engine on a real SQLite file with a clock the test moves.
type bEnv struct {
	t    testing.TB
	e    *engine.Engine
	s    *sqlite.Store
	path string
	now  time.Time
}

func newBEnv(t testing.TB) *bEnv {
	t.Helper()
	env := &bEnv{t: t, path: filepath.Join(t.TempDir(), "memgov.db"), now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	s, err := sqlite.Open(context.Background(), env.path, sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	env.s = s
	env.e = engine.New(s, testKey, engine.WithClock(func() time.Time { return env.now }))
	ctx := context.Background()
	for _, p := range []memgov.Principal{
		{ID: "oncall", Role: memgov.Operator, Tenant: memgov.AllTenants},
		{ID: "jane", Role: memgov.Curator, Tenant: "acme"},
		{ID: "bot", Role: memgov.Executor, Tenant: "acme"},
	} {
		if _, err := env.e.AddPrincipal(ctx, p, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func (env *bEnv) put(ref, key, text string) {
	env.t.Helper()
	body, _ := json.Marshal(map[string]string{"text": text})
	if _, err := env.e.Writes().Put(context.Background(), memgov.PutRequest{MemoryRef: ref, Key: key, Layer: memgov.Semantic, Content: body, Actor: "bot"}); err != nil {
		env.t.Fatal(err)
	}
	env.now = env.now.Add(time.Second)
}

func (env *bEnv) approve(ref string, typ memgov.MemoryType, dp string) memgov.Baseline {
	env.t.Helper()
	r := memgov.ApproveRequest{MemoryRef: ref, By: "oncall", MemoryType: typ, TTLSeconds: 86400, DriftPolicy: dp, Level: 1}
	if typ == baselines.MemoryNone {
		r.TTLSeconds = 0
	}
	if typ == baselines.MemoryShared {
		r.Owner = strings.Split(ref, "/")[1]
	}
	b, err := env.e.Baselines().ApproveBaseline(context.Background(), r)
	if err != nil {
		env.t.Fatal(err)
	}
	return b
}

func (env *bEnv) verify(ref string, state json.RawMessage) memgov.VerifyResult {
	env.t.Helper()
	r, err := env.e.Baselines().VerifyMemory(context.Background(), memgov.VerifyRequest{MemoryRef: ref, State: state})
	if err != nil {
		env.t.Fatal(err)
	}
	return r
}

func (env *bEnv) hash(ref string) string {
	env.t.Helper()
	h, err := env.e.Baselines().SnapshotHash(context.Background(), ref, "")
	if err != nil {
		env.t.Fatal(err)
	}
	return h.Hash
}

// tamper edits the ACTIVE content of ref/key through another SQLite client,
// behind memgov's back (no trigger is dropped).
func (env *bEnv) tamper(ref, key, text string) {
	env.t.Helper()
	db, err := sql.Open("sqlite", env.path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		env.t.Fatal(err)
	}
	defer db.Close()
	body, _ := json.Marshal(map[string]string{"text": text})
	res, err := db.Exec(`UPDATE versions SET content = ? WHERE memory_ref = ? AND key = ? AND state = 'ACTIVE'`, body, ref, key)
	if err != nil {
		env.t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		env.t.Fatalf("tamper changed %d rows", n)
	}
}

func (env *bEnv) countOps(op oplog.Op) int {
	env.t.Helper()
	n := 0
	err := env.s.View(context.Background(), func(tx memgov.ReadTx) error {
		size, err := tx.LogSize(context.Background())
		if err != nil {
			return err
		}
		return tx.LogRange(context.Background(), 1, size, func(e *oplog.Entry) error {
			if e.Op == op {
				n++
			}
			return nil
		})
	})
	if err != nil {
		env.t.Fatal(err)
	}
	return n
}

func (env *bEnv) auditOK() {
	env.t.Helper()
	rep, err := env.s.Verify(context.Background())
	if err != nil || !rep.OK {
		env.t.Fatalf("audit verify: %+v %v", rep, err)
	}
}

func (env *bEnv) gate(ref string) baselines.DriftGateResult {
	env.t.Helper()
	var g baselines.DriftGateResult
	err := env.s.Update(context.Background(), func(tx memgov.Tx) (err error) {
		g, err = env.e.DriftGate(context.Background(), tx, ref)
		return err
	})
	if err != nil {
		env.t.Fatal(err)
	}
	return g
}

func TestMemoryVectorsThroughMemoryRef(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	// PUT a=1, PUT b=2 as log entries of a real memoryRef (values 1 and 2).
	for _, kv := range []struct{ k, v string }{{"a", "1"}, {"b", "2"}} {
		err := env.s.Update(ctx, func(tx memgov.Tx) error {
			e := &oplog.Entry{Time: env.now, Op: oplog.Insert, MemoryRef: "acme/vec", ItemID: oplog.NewID(), VersionID: oplog.NewID(), Actor: "bot"}
			if err := e.Seal(oplog.Payload{Key: kv.k, Layer: string(memgov.Semantic), Content: json.RawMessage(kv.v), ContentHash: oplog.HashPayload([]byte(kv.v))}); err != nil {
				return err
			}
			return tx.Append(ctx, e)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	env.approve("acme/vec", memgov.MemoryPersistent, policy.DenyOnDrift)
	cp, err := env.e.Baselines().MemoryCheckpoint(ctx, "acme/vec")
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:9a41dee8ec223727525f8b26685e413664190d2b82cd62d4f7c15180a9e1f5af"; cp.MemoryRoot != want || cp.TreeSize != 2 {
		t.Fatalf("memory_root %s size %d, want %s size 2", cp.MemoryRoot, cp.TreeSize, want)
	}
	var ops []memgov.MemOp
	if err := env.e.Baselines().MemoryOps(ctx, "acme/vec", func(o memgov.MemOp) error { ops = append(ops, o); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Leaf.Prefixed() != "sha256:f2904e572018f088488c4fbd2e5fffaa3bc5f94488eec27ca73f4d1348595b91" {
		t.Fatalf("ops %+v", ops)
	}
	p, err := env.e.Baselines().ProveMemory(ctx, "acme/vec", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Proof) != 1 || p.Proof[0] != "42effb8d6d6bf9904585248b30b039a5ede7a447a5f8fd21cc0a8b0b850c566f" {
		t.Fatalf("proof %v", p.Proof)
	}
	var buf strings.Builder
	if _, err := env.e.Baselines().ExportSnapshot(ctx, "acme/vec", "", &buf); err != nil || buf.String() != `{"a":1,"b":2}` {
		t.Fatalf("export %q %v", buf.String(), err)
	}
}

func TestApproveRefusesInvalidCombinations(t *testing.T) {
	p := policy.Default()
	base := memgov.ApproveRequest{MemoryRef: "acme/bot", By: "oncall", MemoryType: memgov.MemoryPersistent, TTLSeconds: 3600, DriftPolicy: policy.DenyOnDrift, Level: 2}
	cases := []struct {
		name string
		mod  func(*memgov.ApproveRequest)
		rule string
	}{
		{"ttl too short", func(r *memgov.ApproveRequest) { r.TTLSeconds = 3599 }, "ttl_seconds"},
		{"ttl too long", func(r *memgov.ApproveRequest) { r.TTLSeconds = 7776001 }, "ttl_seconds"},
		{"persistent without ttl", func(r *memgov.ApproveRequest) { r.TTLSeconds = 0 }, "required for persistent"},
		{"shared without ttl", func(r *memgov.ApproveRequest) { r.MemoryType, r.TTLSeconds, r.Owner = baselines.MemoryShared, 0, "bot" }, "required for shared"},
		{"none with ttl", func(r *memgov.ApproveRequest) { r.MemoryType = baselines.MemoryNone }, "omitted for memory_type none"},
		{"log-only at level 2", func(r *memgov.ApproveRequest) { r.DriftPolicy = policy.LogOnly }, "log-only is not allowed"},
		{"log-only at level 3", func(r *memgov.ApproveRequest) { r.DriftPolicy, r.Level = policy.LogOnly, 3 }, "log-only is not allowed"},
		{"alert at level 2", func(r *memgov.ApproveRequest) { r.DriftPolicy = policy.AlertOnDrift }, "alert-on-drift is not allowed at compliance level 2"},
		{"shared without owner", func(r *memgov.ApproveRequest) { r.MemoryType = baselines.MemoryShared }, "shared_memory_owner"},
		{"owner on persistent", func(r *memgov.ApproveRequest) { r.Owner = "bot" }, "only shared memory"},
		{"level 4", func(r *memgov.ApproveRequest) { r.Level = 4 }, "outside 0..3"},
		{"bad type", func(r *memgov.ApproveRequest) { r.MemoryType = "forever" }, "memory_type"},
	}
	if err := baselines.ValidateBaseline(p, base); err != nil {
		t.Fatalf("valid request refused: %v", err)
	}
	for _, tc := range cases {
		r := base
		tc.mod(&r)
		err := baselines.ValidateBaseline(p, r)
		if !errors.Is(err, memgov.ErrInvalid) || !strings.Contains(err.Error(), tc.rule) {
			t.Errorf("%s: got %v, want ErrInvalid naming %q", tc.name, err, tc.rule)
		}
	}
	env := newBEnv(t)
	r := base
	r.By = "bot"
	if _, err := env.e.Baselines().ApproveBaseline(context.Background(), r); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("executor approved a baseline: %v", err)
	}
}

func TestDenyOnDriftFromRowEditedOutsideMemgov(t *testing.T) {
	env := newBEnv(t)
	ref := "acme/billing-agent"
	env.put(ref, "refund/limit", "Refunds up to $1,000 need no second signature.")
	env.put(ref, "tone", "formal")
	b := env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	if b.Hash() != env.hash(ref) || b.Store == "" || b.LogPosition == 0 {
		t.Fatalf("baseline %+v", b)
	}
	r := env.verify(ref, nil)
	if !r.Valid || r.Action != "allow" || r.CurrentHash == nil || *r.CurrentHash != b.Hash() {
		t.Fatalf("unchanged verify: %+v", r)
	}
	if g := env.gate(ref); g.Deny {
		t.Fatalf("gate denied before drift: %+v", g)
	}
	env.tamper(ref, "refund/limit", "Refunds up to $50,000 need no second signature.")
	if g := env.gate(ref); !g.Deny || g.Reason != gate.ReasonDriftDenied {
		t.Fatalf("gate after tamper: %+v", g)
	}
	r = env.verify(ref, nil)
	if r.Valid || !r.Drift || r.Action != "deny" || r.DriftID == "" || r.Cause != baselines.CauseOutside || len(r.Alerts) == 0 {
		t.Fatalf("verify after tamper: %+v", r)
	}
	r2 := env.verify(ref, nil)
	if r2.DriftID != r.DriftID || r2.Action != "deny" {
		t.Fatalf("second verify: %+v", r2)
	}
	if n := env.countOps(oplog.DriftDetected); n != 1 {
		t.Fatalf("%d DRIFT_DETECTED entries, want exactly 1 per episode", n)
	}
	if g := env.gate(ref); !g.Deny || g.DriftID != r.DriftID {
		t.Fatalf("gate with open episode: %+v", g)
	}
	rep, err := env.e.Baselines().DriftDiff(context.Background(), r.DriftID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 1 || len(rep.Changes) != 1 || rep.Changes[0].Key != "refund/limit" || !rep.Changes[0].Outside ||
		!strings.Contains(string(rep.Changes[0].Old), "$1,000") || !strings.Contains(string(rep.Changes[0].New), "$50,000") {
		t.Fatalf("diff %+v", rep)
	}
	list, err := env.e.Baselines().ListDrift(context.Background(), memgov.DriftQuery{OpenOnly: true})
	if err != nil || len(list) != 1 || list[0].ID != r.DriftID {
		t.Fatalf("list %+v %v", list, err)
	}
	if _, err := env.e.Baselines().AckDrift(context.Background(), memgov.AckRequest{DriftID: r.DriftID, By: "bot", Resolution: memgov.ResolveRollback}); !errors.Is(err, memgov.ErrForbidden) {
		t.Fatalf("executor acknowledged drift: %v", err)
	}
	// The log itself is intact, but the edited row is served: audit verify
	// names it (issue 14).
	if rep, err := env.s.Verify(context.Background()); err != nil || rep.OK || rep.Table != "versions" {
		t.Fatalf("audit verify after an edit of a served row: %+v %v", rep, err)
	}
}

func TestAlertAndLogOnlyPolicies(t *testing.T) {
	for _, dp := range []string{policy.AlertOnDrift, policy.LogOnly} {
		t.Run(dp, func(t *testing.T) {
			env := newBEnv(t)
			ref := "acme/research-agent"
			env.put(ref, "k1", "one")
			env.approve(ref, memgov.MemoryPersistent, dp)
			env.tamper(ref, "k1", "uno")
			g := env.gate(ref)
			if g.Deny || (dp == policy.AlertOnDrift) != (len(g.Alerts) > 0) {
				t.Fatalf("gate: %+v", g)
			}
			for i := 0; i < 2; i++ {
				r := env.verify(ref, nil)
				if !r.Drift || r.Valid || r.Action != "allow" || r.DriftID == "" {
					t.Fatalf("verify: %+v", r)
				}
				if (dp == policy.AlertOnDrift) != (len(r.Alerts) == 1) {
					t.Fatalf("alerts under %s: %v", dp, r.Alerts)
				}
			}
			if n := env.countOps(oplog.DriftDetected); n != 1 {
				t.Fatalf("%d DRIFT_DETECTED entries", n)
			}
			// A governed write still commits and the alert stays until acknowledged.
			env.put(ref, "k2", "two")
			if g := env.gate(ref); g.Deny || (dp == policy.AlertOnDrift) != (len(g.Alerts) > 0) {
				t.Fatalf("gate with open episode: %+v", g)
			}
		})
	}
}

func TestGovernedWritesAdvanceCheckpointWithinBudget(t *testing.T) {
	env := newBEnv(t)
	ref := "acme/bot"
	env.put(ref, "k0", "zero")
	b := env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	env.put(ref, "k1", "one")
	r := env.verify(ref, nil)
	if !r.Valid || r.Drift || r.Code != "ACCEPT" || r.Checkpoint == nil || r.Checkpoint.Seq != b.BaseSeq+1 || r.Checkpoint.TreeSize != 2 {
		t.Fatalf("verify after a governed write: %+v %+v", r, r.Checkpoint)
	}
	deep, err := env.e.Baselines().VerifyMemory(context.Background(), memgov.VerifyRequest{MemoryRef: ref, Deep: true})
	if err != nil || !deep.Valid || deep.CurrentHash == nil || *deep.CurrentHash != env.hash(ref) {
		t.Fatalf("deep verify: %+v %v", deep, err)
	}
	budget := b.DeltaBudget
	for i := 2; i <= budget; i++ {
		env.put(ref, fmt.Sprintf("k%d", i), "more")
	}
	if r := env.verify(ref, nil); !r.Valid {
		t.Fatalf("within budget: %+v", r)
	}
	if g := env.gate(ref); !g.Deny || g.Reason != baselines.ReasonBudgetExhausted {
		t.Fatalf("gate at the budget: %+v", g)
	}
	env.put(ref, "over", "the budget") // Put is ungated
	r = env.verify(ref, nil)
	if r.Valid || r.Cause != baselines.CauseBudget || r.Code != "budget" || r.Action != "deny" {
		t.Fatalf("beyond budget: %+v", r)
	}
	// Re-approval resolves it.
	if _, err := env.e.Baselines().AckDrift(context.Background(), memgov.AckRequest{DriftID: r.DriftID, By: "jane", Resolution: memgov.ResolveReapprove}); err != nil {
		t.Fatal(err)
	}
	if r := env.verify(ref, nil); !r.Valid || r.Action != "allow" {
		t.Fatalf("after re-approval: %+v", r)
	}
	env.auditOK()
}

func TestExpiredBaselineIsInvalid(t *testing.T) {
	env := newBEnv(t)
	ref := "acme/bot"
	env.put(ref, "k", "v")
	env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	env.now = env.now.Add(86401 * time.Second)
	r := env.verify(ref, nil)
	if r.Valid || !r.Expired || r.Action != "deny" || r.Drift {
		t.Fatalf("expired: %+v", r)
	}
	if g := env.gate(ref); !g.Deny || g.Reason != baselines.ReasonBaselineExpired {
		t.Fatalf("gate: %+v", g)
	}
	env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	if r := env.verify(ref, nil); !r.Valid {
		t.Fatalf("re-approved: %+v", r)
	}
}

func TestSessionMemoryExemptInsideSession(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/chat-agent"
	env.put(ref, "greeting", "hello")
	env.approve(ref, memgov.MemorySession, policy.DenyOnDrift)
	if _, _, err := env.e.Baselines().StartSession(ctx, ref, "bot"); err != nil {
		t.Fatal(err)
	}
	env.tamper(ref, "greeting", "changed inside the session")
	if r := env.verify(ref, nil); !r.Valid || !r.SessionExempt {
		t.Fatalf("inside session: %+v", r)
	}
	if g := env.gate(ref); g.Deny {
		t.Fatalf("gate inside session: %+v", g)
	}
	if _, err := env.e.Baselines().EndSession(ctx, ref, "bot"); err != nil {
		t.Fatal(err)
	}
	_, r, err := env.e.Baselines().StartSession(ctx, ref, "bot")
	if !errors.Is(err, memgov.ErrForbidden) || r.Action != "deny" || !r.Drift {
		t.Fatalf("session start after drift: %+v %v", r, err)
	}
	other := "acme/persistent-agent"
	env.put(other, "k", "v")
	env.approve(other, memgov.MemoryPersistent, policy.DenyOnDrift)
	if _, _, err := env.e.Baselines().StartSession(ctx, other, "bot"); !errors.Is(err, memgov.ErrInvalid) {
		t.Fatalf("session on persistent memory: %v", err)
	}
}

func TestSharedMemoryVerifiesAgainstOwner(t *testing.T) {
	env := newBEnv(t)
	owner := "acme/policy-agent"
	env.put(owner, "rule", "no refunds on Sundays")
	b := env.approve(owner, baselines.MemoryShared, policy.DenyOnDrift)
	if b.SharedMemoryOwner != "policy-agent" {
		t.Fatalf("owner %q", b.SharedMemoryOwner)
	}
	var buf strings.Builder
	if _, err := env.e.Baselines().ExportSnapshot(context.Background(), owner, "", &buf); err != nil {
		t.Fatal(err)
	}
	inst := owner + "/instance-2"
	r := env.verify(inst, json.RawMessage(buf.String()))
	if !r.Valid || r.BaselineRef != owner || r.BaselineID != b.ID || r.Basis != "state" {
		t.Fatalf("instance with the owner's map: %+v", r)
	}
	r = env.verify(inst, json.RawMessage(`{"rule":{"text":"refunds always"}}`))
	if r.Valid || r.Cause != memgov.CauseStateMismatch || r.Action != "deny" {
		t.Fatalf("instance with another map: %+v", r)
	}
	if r := env.verify(owner+"/instance-3", nil); r.DriftID == "" || r.Action != "deny" {
		t.Fatalf("the episode covers every instance: %+v", r)
	}
}

func TestMemoryTypeNone(t *testing.T) {
	env := newBEnv(t)
	ref := "acme/stateless"
	b := env.approve(ref, baselines.MemoryNone, policy.DenyOnDrift)
	if b.SnapshotHash != nil || b.TTLSeconds != 0 {
		t.Fatalf("none baseline %+v", b)
	}
	if r := env.verify(ref, nil); !r.Valid || r.ApprovedHash != nil {
		t.Fatalf("empty: %+v", r)
	}
	env.put(ref, "k", "memory where none is allowed")
	if r := env.verify(ref, nil); r.Valid || r.Cause != baselines.CauseNotAllowed {
		t.Fatalf("with memory: %+v", r)
	}
}

func TestAckReapproveAdoptsOutsideEdit(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/bot"
	env.put(ref, "a", "alpha")
	env.put(ref, "b", "beta")
	env.approve(ref, memgov.MemoryPersistent, policy.DenyOnDrift)
	env.tamper(ref, "a", "ALPHA")
	tampered := env.hash(ref)
	r := env.verify(ref, nil)
	res, err := env.e.Baselines().AckDrift(ctx, memgov.AckRequest{DriftID: r.DriftID, By: "oncall", Resolution: memgov.ResolveReapprove, Note: "intended"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Baseline.Hash() != tampered || res.SnapshotHash != tampered || !res.Rebuilt || res.Compensations != 1 || res.Drift.Open() {
		t.Fatalf("reapprove: %+v", res)
	}
	if r := env.verify(ref, nil); !r.Valid || r.Action != "allow" {
		t.Fatalf("after reapprove: %+v", r)
	}
	env.auditOK()
	rep, err := env.s.Rebuild(ctx)
	if err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild after reapprove: %v %v", rep.Differences, err)
	}
	if env.hash(ref) != tampered {
		t.Fatal("the adopted content is not in the log")
	}
}

func TestAckRollbackRestoresBaseline(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/billing-agent"
	env.put(ref, "keep", "unchanged")
	env.put(ref, "limit", "$1,000")
	env.put(ref, "gone", "will be retracted")
	b := env.approve(ref, memgov.MemoryPersistent, policy.AlertOnDrift)
	// Governed changes since the baseline, beyond the budget...
	for i := 0; i <= b.DeltaBudget; i++ {
		env.put(ref, fmt.Sprintf("added-%02d", i), "new")
	}
	env.put(ref, "limit", "$5,000")
	it, err := env.e.Host().Get(ctx, memgov.Owner, ref, "gone")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.e.Lifecycle().Rollback(ctx, it.ID, "jane", "drop it"); err != nil {
		t.Fatal(err)
	}
	// ...and an edit outside memgov.
	env.tamper(ref, "limit", "$50,000")
	r := env.verify(ref, nil)
	if !r.Drift || r.Action != "allow" || len(r.Alerts) != 1 {
		t.Fatalf("verify: %+v", r)
	}
	rep, err := env.e.Baselines().DriftDiff(ctx, r.DriftID)
	if err != nil || rep.Added != b.DeltaBudget+1 || rep.Changed != 1 || rep.Removed != 1 {
		t.Fatalf("diff %s %v", rep.Summary(), err)
	}
	res, err := env.e.Baselines().AckDrift(ctx, memgov.AckRequest{DriftID: r.DriftID, By: "oncall", Resolution: memgov.ResolveRollback})
	if err != nil {
		t.Fatal(err)
	}
	if res.SnapshotHash != b.Hash() || env.hash(ref) != b.Hash() || res.Baseline.ID != b.ID || !res.Rebuilt {
		t.Fatalf("rollback: %+v, hash %s want %s", res, env.hash(ref), b.Hash())
	}
	env.auditOK()
	if r := env.verify(ref, nil); !r.Valid || r.Drift || len(r.Alerts) != 0 {
		t.Fatalf("after rollback: %+v", r)
	}
	if rep, err := env.s.Rebuild(ctx); err != nil || len(rep.Differences) != 0 {
		t.Fatalf("rebuild after rollback: %v %v", rep.Differences, err)
	}
	if env.hash(ref) != b.Hash() {
		t.Fatal("rebuild changed the rolled-back memory")
	}
	// Governed writes advance again from the re-bound checkpoint.
	env.put(ref, "after", "rollback")
	if r := env.verify(ref, nil); !r.Valid || r.Checkpoint == nil || r.Checkpoint.TreeSize == 0 {
		t.Fatalf("write after rollback: %+v", r)
	}
}

func TestConsistencyProofFromFrontierMatchesMerkle(t *testing.T) {
	var leaves []merkle.Hash
	for i := 0; i < 70; i++ {
		leaves = append(leaves, merkle.LeafHash(merkle.TagKV, []byte(fmt.Sprint(i))))
	}
	for m := 0; m <= len(leaves); m++ {
		var f merkle.Frontier
		for _, l := range leaves[:m] {
			f.Append(l)
		}
		for n := m; n <= len(leaves) && n <= m+9; n++ {
			got, root, err := merkle.ConsistencyProofFromFrontier(&f, leaves[m:n])
			if err != nil {
				t.Fatalf("m=%d n=%d: %v", m, n, err)
			}
			want, err := merkle.ConsistencyProof(leaves[:n], uint64(m))
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || root != merkle.Root(leaves[:n]) {
				t.Fatalf("m=%d n=%d: proof %v want %v", m, n, got, want)
			}
		}
	}
}
