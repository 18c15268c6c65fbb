package gate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/engine/similar"
)

// errStore stands in for a store whose reads fail (a lost connection, a
// corrupted table).
var errStore = errors.New("disk I/O error")

var now = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// failing is a reader for every gate: the method named fail returns errStore,
// the others answer as an empty store with one principal would.
type failing struct {
	fail string
	// layerCount is what CountOutcomes answers for a layer's writes.
	layerCount int
}

func (f failing) err(method string) error {
	if f.fail == method {
		return errStore
	}
	return nil
}

func (f failing) Idempotent(context.Context, string, time.Time) (memgov.IdempotencyRecord, bool, error) {
	return memgov.IdempotencyRecord{}, false, f.err("Idempotent")
}

func (f failing) Principal(_ context.Context, id string) (memgov.Principal, error) {
	return memgov.Principal{ID: id, Role: memgov.Orchestrator, Tenant: "acme"}, f.err("Principal")
}

func (f failing) ItemByKey(context.Context, string, string) (memgov.Item, error) {
	if err := f.err("ItemByKey"); err != nil {
		return memgov.Item{}, err
	}
	return memgov.Item{}, memgov.ErrNotFound
}

func (f failing) WorkspaceByRef(context.Context, string) (memgov.Workspace, bool, error) {
	return memgov.Workspace{}, false, f.err("WorkspaceByRef")
}

func (f failing) DriftStatus(context.Context, string) (gate.DriftStatus, error) {
	return gate.DriftStatus{}, f.err("DriftStatus")
}

func (f failing) CountOutcomes(_ context.Context, _ string, layer memgov.Layer, _ time.Time, statuses ...string) (int, error) {
	switch {
	case layer == "":
		return 0, f.err("CountOutcomes/burst")
	case len(statuses) == 1:
		return 0, f.err("CountOutcomes/deferred")
	}
	return f.layerCount, f.err("CountOutcomes/layer")
}

func (f failing) CountSessionCommits(context.Context, string, string) (int, error) {
	return 0, f.err("CountSessionCommits")
}

func (f failing) LeaseOf(context.Context, string) (memgov.Lease, bool, error) {
	return memgov.Lease{}, false, f.err("LeaseOf")
}

func (f failing) Version(context.Context, string) (memgov.Version, error) {
	if err := f.err("Version"); err != nil {
		return memgov.Version{}, err
	}
	return memgov.Version{}, memgov.ErrNotFound
}

func (f failing) Item(_ context.Context, id string) (memgov.Item, error) {
	if err := f.err("Item"); err != nil {
		return memgov.Item{}, err
	}
	return memgov.Item{}, memgov.ErrNotFound
}

func (f failing) CitedItems(context.Context, string) ([]string, error) {
	return nil, f.err("CitedItems")
}

func (f failing) Candidates(context.Context, memgov.CandidateQuery) ([]memgov.Candidate, error) {
	return nil, f.err("Candidates")
}

func (f failing) AgentRecord(context.Context, string) (int, int, error) {
	return 0, 0, f.err("AgentRecord")
}

func (f failing) Principals(context.Context) ([]memgov.Principal, error) {
	return nil, f.err("Principals")
}

// failed checks that a gate answered a failing read with the store's error and
// no verdict.
func failed(t *testing.T, verdict gate.Verdict, err error) {
	t.Helper()
	if !errors.Is(err, errStore) {
		t.Fatalf("err = %v, want the store's error", err)
	}
	if verdict != 0 {
		t.Fatalf("a failed gate gave the verdict %s", verdict)
	}
}

func pol() *policy.Policy {
	p := policy.Default()
	return &p
}

func ref(t *testing.T, s string) scope.Ref {
	t.Helper()
	r, err := scope.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestIdempotencyReadFails(t *testing.T) {
	r, err := gate.Idempotency{}.Evaluate(context.Background(), gate.IdempotencyInput{Content: []byte(`{"text":"x"}`),
		Agent: "bot", Layer: memgov.Episodic, Now: now, Window: 24 * time.Hour, Reader: failing{fail: "Idempotent"}})
	if !errors.Is(err, errStore) || r.Replay != nil || r.Token != "" {
		t.Fatalf("Evaluate = %+v, %v; want the store's error and nothing else", r, err)
	}
}

func TestAuthorizationReadFails(t *testing.T) {
	for _, method := range []string{"Principal", "ItemByKey", "WorkspaceByRef"} {
		t.Run(method, func(t *testing.T) {
			f := failing{fail: method}
			r, err := gate.Authorization{}.Evaluate(context.Background(), gate.AuthorizationInput{Agent: "bot",
				MemoryRef: "acme/bot/ws/draft", Ref: ref(t, "acme/bot/ws/draft"), Layer: memgov.Episodic, Key: "k",
				Policy: pol(), Reader: f, Workspaces: f})
			failed(t, r.Verdict, err)
			if r.Item != nil || r.Workspace || r.Principal.ID != "" {
				t.Fatalf("a failed gate reported findings: %+v", r)
			}
		})
	}
}

func TestDriftReadFails(t *testing.T) {
	r, err := gate.Drift{}.Evaluate(context.Background(), gate.DriftInput{MemoryRef: "acme/bot", Reader: failing{fail: "DriftStatus"}})
	failed(t, r.Verdict, err)
}

func TestRateLimitReadFails(t *testing.T) {
	for _, tc := range []struct {
		method     string
		layerCount int
	}{{"CountOutcomes/burst", 0}, {"CountOutcomes/layer", 0}, {"CountOutcomes/deferred", 1 << 20}, {"CountSessionCommits", 0}} {
		t.Run(tc.method, func(t *testing.T) {
			r, err := gate.RateLimit{}.Evaluate(context.Background(), gate.RateLimitInput{Agent: "bot", Role: memgov.Orchestrator,
				Layer: memgov.Working, SessionID: "s1", Now: now, Policy: pol(), Reader: failing{fail: tc.method, layerCount: tc.layerCount}})
			failed(t, r.Verdict, err)
			if r.Suspend != "" {
				t.Fatalf("a failed rate limit suspends: %+v", r)
			}
		})
	}
}

func TestPolicyReadFails(t *testing.T) {
	r, err := gate.Policy{}.Evaluate(context.Background(), gate.PolicyInput{Principal: memgov.Principal{ID: "bot", Role: memgov.Orchestrator, Tenant: "acme"},
		Ref: ref(t, "acme/bot"), MemoryRef: "acme/bot", Layer: memgov.Episodic, Key: "k", Now: now, Policy: pol(), Leases: failing{fail: "LeaseOf"}})
	failed(t, r.Verdict, err)
}

func TestEvidenceReadFails(t *testing.T) {
	auth := 1.0
	evs := []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: "erp://1", Authority: &auth},
		{SourceType: "MEMORY_ITEM", SourceItemID: "cited"}}
	for _, method := range []string{"Version", "Item", "CitedItems"} {
		t.Run(method, func(t *testing.T) {
			r, err := gate.Evidence{}.Evaluate(context.Background(), gate.EvidenceInput{Agent: "bot", Layer: memgov.Episodic,
				Evidence: evs, Confidence: 0.9, Item: &memgov.Item{ID: "own", Key: "k"}, Now: now, Policy: pol(), Reader: failing{fail: method}})
			failed(t, r.Verdict, err)
			if r.Scored {
				t.Fatalf("a failed evidence gate scored the write: %+v", r)
			}
		})
	}
}

func TestContradictionReadFails(t *testing.T) {
	r, err := gate.Contradiction{}.Evaluate(context.Background(), gate.ContradictionInput{MemoryRef: "acme/bot", Layer: memgov.Semantic,
		ContentHash: "sha256:x", Features: mustFeatures([]byte(`{"text":"The sky is blue."}`)), Confidence: 0.9,
		Policy: pol(), Reader: failing{fail: "Candidates"}})
	failed(t, r.Verdict, err)
	if r.Candidates != nil || r.Novel {
		t.Fatalf("a failed contradiction gate reported findings: %+v", r)
	}
	if !strings.Contains(err.Error(), "read candidates") {
		t.Fatalf("err = %v does not say what it read", err)
	}
}

func TestDedupReadFails(t *testing.T) {
	r, err := gate.Dedup{}.Evaluate(context.Background(), gate.DedupInput{MemoryRef: "acme/bot", Layer: memgov.Episodic,
		ContentHash: "sha256:x", Features: mustFeatures([]byte(`{"text":"The sky is blue."}`)), Policy: pol(),
		Reader: failing{fail: "Candidates"}})
	failed(t, r.Verdict, err)
	if r.Target != nil {
		t.Fatalf("a failed dedup gate names a merge target: %+v", r)
	}
}

func TestApprovalReadFails(t *testing.T) {
	for _, method := range []string{"AgentRecord", "Principals"} {
		t.Run(method, func(t *testing.T) {
			r, err := gate.Approval{}.Evaluate(context.Background(), gate.ApprovalInput{Agent: "bot", Ref: ref(t, "acme/shared"),
				Layer: memgov.Semantic, Confidence: 0.9, Policy: pol(), Reader: failing{fail: method}})
			failed(t, r.Verdict, err)
			if r.Risk.Tier != "" || r.Review != nil {
				t.Fatalf("a failed approval gate scored the write: %+v", r)
			}
		})
	}
}

// The same readers answering normally let every gate reach a verdict, so the
// failures above come from the failing read and nothing else.
func TestGatesJudgeWhenReadsSucceed(t *testing.T) {
	ctx, ok := context.Background(), failing{}
	feat := mustFeatures([]byte(`{"text":"The sky is blue."}`))
	auth := 1.0
	checks := map[string]func() (gate.Verdict, error){
		gate.NameAuthorization: func() (gate.Verdict, error) {
			r, err := gate.Authorization{}.Evaluate(ctx, gate.AuthorizationInput{Agent: "bot", MemoryRef: "acme/bot/ws/draft",
				Ref: ref(t, "acme/bot/ws/draft"), Layer: memgov.Episodic, Key: "k", Policy: pol(), Reader: ok, Workspaces: ok})
			return r.Verdict, err
		},
		gate.NameDrift: func() (gate.Verdict, error) {
			r, err := gate.Drift{}.Evaluate(ctx, gate.DriftInput{MemoryRef: "acme/bot", Reader: ok})
			return r.Verdict, err
		},
		gate.NameRateLimit: func() (gate.Verdict, error) {
			r, err := gate.RateLimit{}.Evaluate(ctx, gate.RateLimitInput{Agent: "bot", Role: memgov.Orchestrator, Layer: memgov.Working,
				SessionID: "s1", Now: now, Policy: pol(), Reader: ok})
			return r.Verdict, err
		},
		gate.NamePolicy: func() (gate.Verdict, error) {
			r, err := gate.Policy{}.Evaluate(ctx, gate.PolicyInput{Principal: memgov.Principal{ID: "bot", Role: memgov.Orchestrator, Tenant: "acme"},
				Ref: ref(t, "acme/bot"), MemoryRef: "acme/bot", Layer: memgov.Episodic, Key: "k", Now: now, Policy: pol(), Leases: ok})
			return r.Verdict, err
		},
		gate.NameEvidence: func() (gate.Verdict, error) {
			r, err := gate.Evidence{}.Evaluate(ctx, gate.EvidenceInput{Agent: "bot", Layer: memgov.Episodic,
				Evidence:   []oplog.EvidenceRef{{SourceType: "API_RESPONSE", SourceURI: "erp://1", Authority: &auth}, {SourceType: "MEMORY_ITEM", SourceItemID: "cited"}},
				Confidence: 0.9, Item: &memgov.Item{ID: "own", Key: "k"}, Now: now, Policy: pol(), Reader: ok})
			return r.Verdict, err
		},
		gate.NameContradiction: func() (gate.Verdict, error) {
			r, err := gate.Contradiction{}.Evaluate(ctx, gate.ContradictionInput{MemoryRef: "acme/bot", Layer: memgov.Semantic,
				ContentHash: "sha256:x", Features: feat, Confidence: 0.9, Policy: pol(), Reader: ok})
			return r.Verdict, err
		},
		gate.NameDedup: func() (gate.Verdict, error) {
			r, err := gate.Dedup{}.Evaluate(ctx, gate.DedupInput{MemoryRef: "acme/bot", Layer: memgov.Episodic, ContentHash: "sha256:x",
				Features: feat, Policy: pol(), Reader: ok})
			return r.Verdict, err
		},
		gate.NameApproval: func() (gate.Verdict, error) {
			r, err := gate.Approval{}.Evaluate(ctx, gate.ApprovalInput{Agent: "bot", Ref: ref(t, "acme/shared"), Layer: memgov.Semantic,
				Confidence: 0.9, Policy: pol(), Reader: ok})
			return r.Verdict, err
		},
	}
	for name, check := range checks {
		if v, err := check(); err != nil || v != gate.Accept {
			t.Errorf("%s = %s, %v; want ACCEPT", name, v, err)
		}
	}
}

// A judge that fails routes the write to a person (DESIGN.md: a configured
// model that fails, MODEL_UNAVAILABLE); it is not an error of the store.
func TestContradictionJudgeFails(t *testing.T) {
	near := mustFeatures([]byte(`{"text":"The sky is blue today."}`))
	c := memgov.Candidate{VersionID: "v1", ItemID: "i1", Key: "sky", Layer: memgov.Semantic, State: memgov.Active,
		Text: "The sky is blue today.", Embedding: marshal(t, near)}
	r, err := gate.Contradiction{}.Evaluate(context.Background(), gate.ContradictionInput{MemoryRef: "acme/bot", Layer: memgov.Semantic,
		ContentHash: "sha256:x", Features: mustFeatures([]byte(`{"text":"The sky is blue today."}`)), Confidence: 0.9,
		Policy: pol(), Judge: brokenJudge{}, Reader: candidates{c}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != gate.Defer || r.Reason != gate.ReasonModelUnavailable || !errors.Is(r.JudgeError, errStore) {
		t.Fatalf("Evaluate = %s %s (%v), want DEFER MODEL_UNAVAILABLE", r.Verdict, r.Reason, r.JudgeError)
	}
}

type brokenJudge struct{}

func (brokenJudge) Contradiction(context.Context, string, string) (float64, error) {
	return 0, errStore
}

type candidates []memgov.Candidate

func (c candidates) Candidates(context.Context, memgov.CandidateQuery) ([]memgov.Candidate, error) {
	return c, nil
}

func marshal(t *testing.T, f memory.Features) []byte {
	t.Helper()
	b, err := f.Embedding.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A stored embedding that does not decode is a store that cannot be read, not
// a candidate with no similarity.
func TestDedupMalformedEmbedding(t *testing.T) {
	c := memgov.Candidate{VersionID: "v1", ItemID: "i1", Key: "sky", Layer: memgov.Episodic, State: memgov.Active,
		Text: "The sky is blue.", Embedding: []byte{0xff, 0x01}}
	r, err := gate.Dedup{}.Evaluate(context.Background(), gate.DedupInput{MemoryRef: "acme/bot", Layer: memgov.Episodic,
		ContentHash: "sha256:x", Features: mustFeatures([]byte(`{"text":"The sky is blue."}`)), Policy: pol(), Reader: candidates{c}})
	if !errors.Is(err, similar.ErrMalformed) || r.Verdict != 0 {
		t.Fatalf("Evaluate = %s, %v; want the decoding error and no verdict", r.Verdict, err)
	}
}

// oneWay is a judge model that reads premise as entailing hypothesis for
// the one pair it is given, and as neutral for everything else.
type oneWay struct{ premise, hypothesis string }

func (o oneWay) Entailment(_ context.Context, p, h string) (string, float64, error) {
	if p == o.premise && h == o.hypothesis {
		return "entails", 0.95, nil
	}
	return "neutral", 0.9, nil
}

// A rewording the words leave open is decided by the judge model: in
// SEMANTIC memory the write that the model reads as saying all the
// candidate says and more extends an ACTIVE candidate (MERGE) and is held
// beside a draft, and one the model reads the candidate as stating is
// REJECTED; in EPISODIC memory both commit as their own item linked to the
// earlier episode (extends-event, repeats-event); the model's neutral
// reading leaves it a distinct record.
func TestDedupModelDecides(t *testing.T) {
	old, text := "Ravi approved the budget for the offsite.", "Ravi signed off on the budget for the offsite in Lisbon."
	eval := func(layer memgov.Layer, state memgov.State, m gate.Entailer) gate.DedupResult {
		t.Helper()
		c := memgov.Candidate{VersionID: "v1", ItemID: "i1", Key: "budget", Layer: layer, State: state, Text: old}
		r, err := gate.Dedup{}.Evaluate(context.Background(), gate.DedupInput{MemoryRef: "acme/bot", Layer: layer,
			ContentHash: "sha256:x", Features: mustFeatures([]byte(`{"text":"` + text + `"}`)), Policy: pol(),
			Reader: candidates{c}, Model: m})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := eval(memgov.Semantic, memgov.Active, oneWay{text, old}); r.Verdict != gate.Merge || r.Target == nil || r.Target.VersionID != "v1" || r.Rule != judge.RuleModelExtends {
		t.Errorf("write entails an active candidate: %s %s %q, want MERGE into v1", r.Verdict, r.Reason, r.Detail)
	}
	if r := eval(memgov.Semantic, memgov.Draft, oneWay{text, old}); r.Verdict != gate.Defer || len(r.Related) != 1 || r.Related[0].Relation != "NEAR_DUPLICATE" {
		t.Errorf("write entails a draft: %s %s %+v, want DEFER with the draft linked", r.Verdict, r.Reason, r.Related)
	}
	if r := eval(memgov.Semantic, memgov.Active, oneWay{old, text}); r.Verdict != gate.Reject || r.Rule != judge.RuleModelEntails {
		t.Errorf("candidate entails the write: %s %s %q, want REJECT by %s", r.Verdict, r.Reason, r.Detail, judge.RuleModelEntails)
	}
	for _, tc := range []struct {
		state memgov.State
		model oneWay
		rule  string
	}{
		{memgov.Active, oneWay{text, old}, judge.RuleExtendsEvent},
		{memgov.Draft, oneWay{text, old}, judge.RuleExtendsEvent},
		{memgov.Active, oneWay{old, text}, judge.RuleRepeatsEvent},
	} {
		r := eval(memgov.Episodic, tc.state, tc.model)
		if r.Verdict != gate.Accept || r.Target != nil || r.Rule != tc.rule || len(r.Links) != 1 || r.Links[0].VersionID != "v1" ||
			r.Links[0].Relation != "NEAR_DUPLICATE" || r.Links[0].Rule != tc.rule {
			t.Errorf("EPISODIC, %s candidate, model %+v: %s rule %q links %+v (%q), want ACCEPT linked to v1 by %s",
				tc.state, tc.model, r.Verdict, r.Rule, r.Links, r.Detail, tc.rule)
		}
	}
	if r := eval(memgov.Episodic, memgov.Active, oneWay{}); r.Verdict != gate.Accept {
		t.Errorf("neutral model: %s %s %q, want ACCEPT", r.Verdict, r.Reason, r.Detail)
	}
	if r := eval(memgov.Episodic, memgov.Active, nil); r.Verdict != gate.Accept {
		t.Errorf("no model: %s %s %q, want ACCEPT", r.Verdict, r.Reason, r.Detail)
	}
}

// mustFeatures is memory.FeaturesOf for a content the test wrote.
func mustFeatures(content []byte) memory.Features {
	f, err := memory.FeaturesOf(content)
	if err != nil {
		panic(err)
	}
	return f
}
