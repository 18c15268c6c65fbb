package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/internal/enginetest"
)

// M2: a TTL passing is appended to the spec §3.2.6.2 op log as a DEL, so the fold
// of the log equals `snapshot export`; a state an agent reports is compared
// with the approved memory.
func TestM2ExpiryFoldsAndStateIsComparedWithApproved(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	ref := "acme/billing-agent"
	env.put(ref, "tone", "formal")
	body, _ := json.Marshal(map[string]string{"text": "The spring promotion runs this week."})
	if _, err := env.e.Writes().Put(ctx, memgov.PutRequest{MemoryRef: ref, Key: "promo", Layer: memgov.Semantic, Content: body, Actor: "bot", TTL: time.Hour}); err != nil {
		t.Fatal(err)
	}
	env.approve(ref, memgov.MemoryPersistent, policy.AlertOnDrift)
	approvedState := json.RawMessage(`{"promo":{"text":"The spring promotion runs this week."},"tone":{"text":"formal"}}`)
	if r := env.verify(ref, approvedState); !r.Valid || r.Cause != "" {
		t.Fatalf("the approved state: %+v", r)
	}

	env.now = env.now.Add(2 * time.Hour) // the promotion's TTL passes
	var export bytes.Buffer
	if _, err := env.e.Baselines().ExportSnapshot(ctx, ref, "", &export); err != nil {
		t.Fatal(err)
	}
	if export.String() != `{"tone":{"text":"formal"}}` {
		t.Fatalf("export after expiry: %s", export.String())
	}
	// The op log ends with the DEL, appended by an EXPIRE entry of memgov's.
	var ops []memgov.MemOp
	if err := env.e.Baselines().MemoryOps(ctx, ref, func(o memgov.MemOp) error { ops = append(ops, o); return nil }); err != nil {
		t.Fatal(err)
	}
	last := ops[len(ops)-1]
	if last.Op != merkle.OpDel || last.Key != "promo" || env.countOps(oplog.Expire) != 1 {
		t.Fatalf("op log after expiry: %+v (%d EXPIRE entries)", ops, env.countOps(oplog.Expire))
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
	if r := env.verify(ref, approvedState); r.Cause != memgov.CauseStateMismatch || r.ApprovedHash == nil || *r.ApprovedHash != now {
		t.Fatalf("a state still holding the expired item: %+v", r)
	}
	env.auditOK()
}

// M4: an instance of shared memory binds to its owner's hash. It cannot
// approve a baseline of its own, and one it held from before the owner shared
// its memory no longer governs it.
func TestM4SharedInstanceBindsToOwner(t *testing.T) {
	env := newBEnv(t)
	ctx := context.Background()
	owner, inst := "acme/policy-agent", "acme/policy-agent/instance-2"
	env.put(owner, "rule", "refunds need two signatures")
	env.put(inst, "scratch", "a private note")
	// Before the owner shares, the instance is memory of its own.
	own := env.approve(inst, memgov.MemoryPersistent, policy.DenyOnDrift)
	shared := env.approve(owner, baselines.MemoryShared, policy.DenyOnDrift)
	// The instance's own baseline no longer governs it: the owner's does.
	b, err := env.e.Baselines().ResolveBaseline(ctx, inst)
	if err != nil || b.ID != shared.ID || b.ID == own.ID {
		t.Fatalf("instance resolves to %+v %v, want the owner's %s", b, err, shared.ID)
	}
	if r := env.verify(inst, json.RawMessage(`{"rule":{"text":"refunds need two signatures"}}`)); !r.Valid || r.BaselineID != shared.ID || r.BaselineRef != owner {
		t.Fatalf("instance with the owner's map: %+v", r)
	}
	// And it cannot approve one of its own any more.
	_, err = env.e.Baselines().ApproveBaseline(ctx, memgov.ApproveRequest{MemoryRef: inst, By: "oncall", MemoryType: memgov.MemoryPersistent,
		TTLSeconds: 86400, DriftPolicy: policy.DenyOnDrift, Level: 2})
	if err == nil || !strings.Contains(err.Error(), "references its owner's hash") {
		t.Fatalf("an instance approved a baseline of its own: %v", err)
	}
	for _, typ := range []memgov.MemoryType{baselines.MemoryShared, memgov.MemorySession} {
		r := memgov.ApproveRequest{MemoryRef: inst, By: "oncall", MemoryType: typ, TTLSeconds: 86400, DriftPolicy: policy.DenyOnDrift, Level: 2}
		if typ == baselines.MemoryShared {
			r.Owner = "policy-agent"
		}
		if _, err := env.e.Baselines().ApproveBaseline(ctx, r); err == nil {
			t.Fatalf("an instance approved a %s baseline of its own", typ)
		}
	}
}

// M5: the advertised activation mode is the only one. Under approval-gate (the
// default) a principal holding proposal:activate cannot apply; under
// direct-rbac only such a principal applies, and a curator does not.
func TestM5AdvertisedActivationIsTheOnlyOne(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []string{policy.ActivationApprovalGate, policy.ActivationDirectRBAC} {
		t.Run(mode, func(t *testing.T) {
			e := enginetest.New(t, "proposals:\n  activation: "+mode+"\n")
			enginetest.AddPrincipals(t, e)
			caps := e.Capabilities().Agents.Proposals
			if caps.Activation != mode || (caps.ActivationScope != "") != (mode == policy.ActivationDirectRBAC) {
				t.Fatalf("advertised %+v under %s", caps, mode)
			}
			p, err := e.Host().CreateProposal(ctx, memgov.ProposalInput{Kind: "prompt-template", Artifact: json.RawMessage(`{"name":"x"}`)}, "support-bot")
			if err != nil {
				t.Fatal(err)
			}
			allowed, refused := "acme-curator", "acme-ops" // acme-ops holds proposal:activate
			if mode == policy.ActivationDirectRBAC {
				allowed, refused = refused, allowed
			}
			if res, err := e.Host().ApplyProposal(ctx, p.ID, refused); !errors.Is(err, memgov.ErrForbidden) || res.Status != 403 || !strings.Contains(err.Error(), "activation is "+mode) {
				t.Fatalf("%s applied under %s: %+v %v", refused, mode, res, err)
			}
			if res, err := e.Host().ApplyProposal(ctx, p.ID, allowed); err != nil || res.Activation != mode {
				t.Fatalf("%s under %s: %+v %v", allowed, mode, res, err)
			}
		})
	}
	if _, err := policy.Parse([]byte("proposals:\n  activation: both\n")); err == nil || !strings.Contains(err.Error(), "proposals.activation") {
		t.Fatalf("an unknown activation mode: %v", err)
	}
}

// M6: a proposal's rationale and source run ids are redacted with the secrets
// registered for the source runs, not only the proposing run's.
func TestM6ProposalRationaleAndRunIDsRedacted(t *testing.T) {
	e, _ := enginetest.Contract(t)
	ctx := context.Background()
	const secret = "tok_ABCDEFGH12345678"
	if _, err := e.Secrets().Register("run-7", "crm", secret); err != nil {
		t.Fatal(err)
	}
	in := memgov.ProposalInput{Kind: "prompt-template", Artifact: json.RawMessage(`{"name":"followup"}`),
		Rationale: "learnt in run-7, which called the CRM with " + secret, SourceRunIDs: []string{"run-7", "run-7/" + secret}}
	p, err := e.Host().CreateProposal(ctx, in, "support-bot")
	if err != nil {
		t.Fatal(err)
	}
	rev, err := e.Host().ReviseProposal(ctx, p.ID, memgov.ProposalInput{Artifact: json.RawMessage(`{"name":"followup2"}`),
		Rationale: "again " + secret}, "support-bot")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{p.Rationale, strings.Join(p.Provenance.SourceRunIDs, " "), rev.Rationale} {
		if strings.Contains(s, secret) || !strings.Contains(s, "[REDACTED:crm]") {
			t.Fatalf("not redacted: %q", s)
		}
	}
	if p.Provenance.SourceRunIDs[0] != "run-7" {
		t.Fatalf("a run id without a secret changed: %v", p.Provenance.SourceRunIDs)
	}
	// Nor does the log keep it.
	n, err := e.Audit().LogSize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := e.Audit().LogTail(ctx, 0, int(n))
	if err != nil || len(entries) == 0 {
		t.Fatalf("log: %d entries, %v", len(entries), err)
	}
	for _, en := range entries {
		if strings.Contains(string(en.Payload), secret) {
			t.Fatalf("log entry %d keeps the secret", en.LSN)
		}
	}
}
