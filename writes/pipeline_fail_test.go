package writes_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/store/sqlite"
)

// A store's write transaction is every reader the gates declare; the
// orchestrator hands it to them as it is.
var (
	_ gate.IdempotencyReader   = memgov.Tx(nil)
	_ gate.AuthorizationReader = memgov.Tx(nil)
	_ gate.WorkspaceReader     = memgov.Tx(nil)
	_ gate.RateLimitReader     = memgov.Tx(nil)
	_ gate.LeaseReader         = memgov.Tx(nil)
	_ gate.EvidenceReader      = memgov.Tx(nil)
	_ gate.CandidateReader     = memgov.Tx(nil)
	_ gate.ApprovalReader      = memgov.Tx(nil)
)

// errInjected is the read failure failStore injects: what a corrupted page
// or a lost disk returns.
var errInjected = errors.New("database disk image is malformed")

// failStore is the real SQLite store whose write transactions, once armed,
// fail one read: the method named fail.
type failStore struct {
	memgov.Store
	fail   string
	armed  bool
	called bool // the failing read was made
}

func (s *failStore) Update(ctx context.Context, fn func(memgov.Tx) error) error {
	return s.Store.Update(ctx, func(tx memgov.Tx) error {
		if !s.armed {
			return fn(tx)
		}
		return fn(&failTx{Tx: tx, s: s})
	})
}

// View fails the same read: a write's gates read a snapshot first. Armed, the
// snapshot is read through a SQLite transaction of the write kind, whose
// reads failTx can fail; the snapshot's reader writes nothing.
func (s *failStore) View(ctx context.Context, fn func(memgov.ReadTx) error) error {
	if !s.armed {
		return s.Store.View(ctx, fn)
	}
	return s.Store.Update(ctx, func(tx memgov.Tx) error { return fn(&failTx{Tx: tx, s: s}) })
}

// failTx is a SQLite write transaction with one read that fails.
type failTx struct {
	memgov.Tx
	s *failStore
}

func (t *failTx) trip(method string) error {
	if t.s.fail != method {
		return nil
	}
	t.s.called = true
	return fmt.Errorf("%s: %w", method, errInjected)
}

func (t *failTx) Idempotent(ctx context.Context, token string, since time.Time) (memgov.IdempotencyRecord, bool, error) {
	if err := t.trip("Idempotent"); err != nil {
		return memgov.IdempotencyRecord{}, false, err
	}
	return t.Tx.Idempotent(ctx, token, since)
}

func (t *failTx) Principal(ctx context.Context, id string) (memgov.Principal, error) {
	if err := t.trip("Principal"); err != nil {
		return memgov.Principal{}, err
	}
	return t.Tx.Principal(ctx, id)
}

func (t *failTx) Principals(ctx context.Context) ([]memgov.Principal, error) {
	if err := t.trip("Principals"); err != nil {
		return nil, err
	}
	return t.Tx.Principals(ctx)
}

func (t *failTx) Item(ctx context.Context, id string) (memgov.Item, error) {
	if err := t.trip("Item"); err != nil {
		return memgov.Item{}, err
	}
	return t.Tx.Item(ctx, id)
}

func (t *failTx) ItemByKey(ctx context.Context, ref, key string) (memgov.Item, error) {
	if err := t.trip("ItemByKey"); err != nil {
		return memgov.Item{}, err
	}
	return t.Tx.ItemByKey(ctx, ref, key)
}

func (t *failTx) Version(ctx context.Context, id string) (memgov.Version, error) {
	if err := t.trip("Version"); err != nil {
		return memgov.Version{}, err
	}
	return t.Tx.Version(ctx, id)
}

func (t *failTx) CitedItems(ctx context.Context, itemID string) ([]string, error) {
	if err := t.trip("CitedItems"); err != nil {
		return nil, err
	}
	return t.Tx.CitedItems(ctx, itemID)
}

func (t *failTx) Candidates(ctx context.Context, q memgov.CandidateQuery) ([]memgov.Candidate, error) {
	if err := t.trip("Candidates"); err != nil {
		return nil, err
	}
	return t.Tx.Candidates(ctx, q)
}

func (t *failTx) CountOutcomes(ctx context.Context, agent string, layer memgov.Layer, since time.Time, statuses ...string) (int, error) {
	if err := t.trip("CountOutcomes"); err != nil {
		return 0, err
	}
	return t.Tx.CountOutcomes(ctx, agent, layer, since, statuses...)
}

func (t *failTx) CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error) {
	if err := t.trip("CountSessionCommits"); err != nil {
		return 0, err
	}
	return t.Tx.CountSessionCommits(ctx, agent, sessionID)
}

func (t *failTx) AgentRecord(ctx context.Context, agent string) (int, int, error) {
	if err := t.trip("AgentRecord"); err != nil {
		return 0, 0, err
	}
	return t.Tx.AgentRecord(ctx, agent)
}

func (t *failTx) LeaseOf(ctx context.Context, resource string) (memgov.Lease, bool, error) {
	if err := t.trip("LeaseOf"); err != nil {
		return memgov.Lease{}, false, err
	}
	return t.Tx.LeaseOf(ctx, resource)
}

func (t *failTx) WorkspaceByRef(ctx context.Context, ref string) (memgov.Workspace, bool, error) {
	if err := t.trip("WorkspaceByRef"); err != nil {
		return memgov.Workspace{}, false, err
	}
	return t.Tx.WorkspaceByRef(ctx, ref)
}

func (t *failTx) Baseline(ctx context.Context, ref string) (memgov.Baseline, error) {
	if err := t.trip("Baseline"); err != nil {
		return memgov.Baseline{}, err
	}
	return t.Tx.Baseline(ctx, ref)
}

// inGate is how Write's error starts when a gate's read fails.
func inGate(name string) string { return "gate " + name + ": " }

func newFailEngine(t *testing.T, opts ...engine.Option) (*engine.Engine, *failStore) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "memgov.db"), sqlite.Options{Key: testKey, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fs := &failStore{Store: s}
	e := engine.New(fs, testKey, opts...)
	setupAgents(t, e)
	return e, fs
}

// wreq is a write request of billing-agent (an orchestrator: its episodic
// writes commit) with the fields changed by set.
func wreq(set func(m map[string]any)) []byte {
	m := map[string]any{"source_agent_id": "billing-agent", "memory_ref": "acme/billing-agent", "key": "invoice/4411",
		"target_layer": "EPISODIC", "observation_type": "tool_result_verified", "confidence": 0.9,
		"content":       map[string]any{"text": "Invoice 4411 was paid."},
		"evidence_refs": []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://invoices/4411", "authority": 0.95}}}
	if set != nil {
		set(m)
	}
	b, _ := json.Marshal(m)
	return b
}

// counts returns the log size and the number of recorded write outcomes.
func counts(t *testing.T, s memgov.Store) (logSize int64, outcomes int) {
	t.Helper()
	err := s.View(context.Background(), func(tx memgov.ReadTx) (err error) {
		if logSize, err = tx.LogSize(context.Background()); err != nil {
			return err
		}
		for _, a := range []string{"billing-agent", "support-bot"} {
			n, err := tx.CountOutcomes(context.Background(), a, "", time.Time{})
			if err != nil {
				return err
			}
			outcomes += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return logSize, outcomes
}

// A store read that fails inside any step of the write path fails the write:
// Write returns the error naming the step, nothing is appended to the log and
// no outcome (REJECTED, DENIED or any other) is recorded. The same request on
// a store that does not fail reaches a verdict.
func TestWriteFailsWhenAStepCannotRead(t *testing.T) {
	triple := func(text string) func(m map[string]any) {
		return func(m map[string]any) {
			m["content"] = map[string]any{"text": text, "subject": "invoice 4411", "predicate": "status", "object": "paid"}
		}
	}
	cited := func(m map[string]any) {
		m["evidence_refs"] = []any{map[string]any{"source_type": "API_RESPONSE", "source_uri": "erp://invoices/4411", "authority": 0.95},
			map[string]any{"source_type": "MEMORY_ITEM", "source_item_id": "0190aaaa-0000-7000-8000-000000000000"}}
	}
	for _, tc := range []struct {
		name, fail, step string
		setup            [][]byte
		request          []byte
		want             string // the status the request reaches when nothing fails
		policy           string // policy overrides, YAML
	}{
		{name: "idempotency", fail: "Idempotent", step: inGate(gate.NameIdempotency), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "authorization principal", fail: "Principal", step: inGate(gate.NameAuthorization), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "authorization item", fail: "ItemByKey", step: inGate(gate.NameAuthorization), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "authorization workspace", fail: "WorkspaceByRef", step: inGate(gate.NameAuthorization),
			request: wreq(func(m map[string]any) { m["memory_ref"] = "acme/billing-agent/ws/draft" }), want: memgov.StatusCommitted},
		{name: "drift", fail: "Baseline", step: inGate(gate.NameDrift), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "rate limit", fail: "CountOutcomes", step: inGate(gate.NameRateLimit), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "session budget", fail: "CountSessionCommits", step: inGate(gate.NameRateLimit),
			request: wreq(func(m map[string]any) { m["session_id"] = "s1" }), want: memgov.StatusCommitted},
		{name: "policy lease", fail: "LeaseOf", step: inGate(gate.NamePolicy), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "evidence cited version", fail: "Version", step: inGate(gate.NameEvidence), request: wreq(cited), want: memgov.StatusCommitted},
		{name: "evidence provenance chain", fail: "CitedItems", step: inGate(gate.NameEvidence),
			setup: [][]byte{wreq(nil)},
			request: wreq(func(m map[string]any) {
				cited(m)
				m["content"] = map[string]any{"text": "Invoice 4411 was paid by wire."}
			}), want: memgov.StatusCommitted},
		{name: "contradiction candidates", fail: "Candidates", step: inGate(gate.NameContradiction), request: wreq(nil), want: memgov.StatusCommitted},
		// A merge is a SEMANTIC verdict (EPISODIC memory links a later
		// episode instead): the orchestrator may write SEMANTIC memory
		// here, at a risk that needs no curator.
		{name: "dedup merge target", fail: "Item", step: gate.NameCommit + ": read merge target",
			setup: [][]byte{wreq(func(m map[string]any) { triple("Invoice 4411 was paid.")(m); m["target_layer"] = "SEMANTIC" })},
			request: wreq(func(m map[string]any) {
				triple("Invoice 4411 was paid in full.")(m)
				m["key"], m["target_layer"] = "invoice/4411-b", "SEMANTIC"
			}), want: memgov.StatusMerged,
			policy: "rbac:\n  orchestrator:\n    write: [WORKING, SESSION, EPISODIC, SEMANTIC]\nrisk:\n  async_from: 0.9\n  sync_from: 0.95\n"},
		{name: "approval reputation", fail: "AgentRecord", step: inGate(gate.NameApproval), request: wreq(nil), want: memgov.StatusCommitted},
		{name: "approval blast radius", fail: "Principals", step: inGate(gate.NameApproval),
			request: wreq(func(m map[string]any) { m["memory_ref"] = "acme/billing-agent/shared" }), want: memgov.StatusCommitted},
		{name: "commit version", fail: "ItemByKey", step: gate.NameCommit + ": assign version",
			request: wreq(func(m map[string]any) { delete(m, "key") }), want: memgov.StatusCommitted},
		{name: "stage item", fail: "ItemByKey", step: gate.NameCommit + ": read item",
			request: wreq(func(m map[string]any) {
				delete(m, "key")
				m["source_agent_id"] = "support-bot"
				m["memory_ref"] = "acme/support-bot"
			}),
			want: memgov.StatusDeferred},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			// The control: on a store that does not fail, the request reaches its verdict.
			var opts []engine.Option
			if tc.policy != "" {
				p, err := policy.Parse([]byte(tc.policy))
				if err != nil {
					t.Fatal(err)
				}
				opts = append(opts, engine.WithPolicy(p))
			}
			ok, _ := newFailEngine(t, opts...)
			for _, s := range tc.setup {
				write(t, ok, s)
			}
			if r := write(t, ok, tc.request); r.Status != tc.want {
				t.Fatalf("without a failing read: %s %s (%s), want %s", r.Status, r.Reason, r.Detail, tc.want)
			}

			e, fs := newFailEngine(t, opts...)
			for _, s := range tc.setup {
				write(t, e, s)
			}
			log0, out0 := counts(t, fs)
			fs.fail, fs.armed = tc.fail, true
			req, err := memgov.DecodeWriteRequest(tc.request)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Writes().Write(ctx, req)
			fs.armed = false
			if !fs.called {
				t.Fatalf("the write never read %s", tc.fail)
			}
			if err == nil {
				t.Fatalf("a failed %s read gave %s %s at %s (%s); want an error", tc.fail, res.Status, res.Reason, res.Gate, res.Detail)
			}
			if !errors.Is(err, errInjected) || !strings.HasPrefix(err.Error(), tc.step) {
				t.Fatalf("err = %q; want the read's error, wrapped by %q", err, tc.step)
			}
			if res.Status != "" {
				t.Fatalf("a failed write reports %+v", res)
			}
			if log1, out1 := counts(t, fs); log1 != log0 || out1 != out0 {
				t.Fatalf("a failed write changed the store: log %d -> %d, outcomes %d -> %d", log0, log1, out0, out1)
			}
		})
	}
}
