package baselines

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// Memory types.
const (
	MemoryNone memgov.MemoryType = "none"

	MemoryShared memgov.MemoryType = "shared"
)

// ValidateBaseline checks an approval against the spec §3.2.6 rules and the policy,
// and names the rule an invalid combination breaks. Errors wrap ErrInvalid.
func ValidateBaseline(p policy.Policy, r memgov.ApproveRequest) error {
	bad := func(rule, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", memgov.ErrInvalid, rule, fmt.Sprintf(format, args...))
	}
	ref, err := scope.Parse(r.MemoryRef)
	if err != nil {
		return fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	switch r.MemoryType {
	case MemoryNone, memgov.MemorySession, memgov.MemoryPersistent, MemoryShared:
	default:
		return bad("3.2.6 memory_type", "%q is not one of none, session, persistent, shared", r.MemoryType)
	}
	switch r.DriftPolicy {
	case policy.DenyOnDrift, policy.AlertOnDrift, policy.LogOnly:
	default:
		return bad("3.2.6 drift_policy", "%q is not one of deny-on-drift, alert-on-drift, log-only", r.DriftPolicy)
	}
	if r.Level < 0 || r.Level > 3 {
		return bad("compliance level", "%d is outside 0..3", r.Level)
	}
	if r.Level >= 2 && r.DriftPolicy == policy.LogOnly {
		return bad("3.2.6 drift_policy", "log-only is not allowed at compliance level %d (Level 2 and above)", r.Level)
	}
	if !policy.NormativeDriftPolicy(r.Level, r.DriftPolicy) {
		return bad("3.2.6 drift_policy", "%s is not allowed at compliance level %d: level %d and above require %s", r.DriftPolicy, r.Level, policy.DenyLevel, policy.DenyOnDrift)
	}
	if !driftPolicyAllowed(p, r.Level, r.DriftPolicy) {
		return bad("policy baseline.drift_policies", "compliance level %d does not allow %s", r.Level, r.DriftPolicy)
	}
	// The policy's bounds, never wider than the normative ones.
	minTTL := max(int64(p.Baseline.TTLMin.Std()/time.Second), int64(policy.NormativeTTLMin/time.Second))
	maxTTL := min(int64(p.Baseline.TTLMax.Std()/time.Second), int64(policy.NormativeTTLMax/time.Second))
	switch r.MemoryType {
	case MemoryNone:
		if r.TTLSeconds != 0 {
			return bad("3.2.6 ttl_seconds", "must be omitted for memory_type none")
		}
	case memgov.MemoryPersistent, MemoryShared:
		if r.TTLSeconds == 0 {
			return bad("3.2.6 ttl_seconds", "required for %s memory (%d..%d)", r.MemoryType, minTTL, maxTTL)
		}
	}
	if r.TTLSeconds < 0 || r.TTLSeconds != 0 && (r.TTLSeconds < minTTL || r.TTLSeconds > maxTTL) {
		return bad("3.2.6 ttl_seconds", "%d is outside %d..%d", r.TTLSeconds, minTTL, maxTTL)
	}
	if r.MemoryType == MemoryShared {
		if r.Owner == "" {
			return bad("3.2.6 shared_memory_owner", "required for shared memory: the agent holding the authoritative hash")
		}
		if r.Owner != ref.Agent && r.Owner != r.MemoryRef {
			return bad("3.2.6 shared_memory_owner", "%q must be the owner agent of %s (%s); approve the shared baseline on the owner's memoryRef", r.Owner, r.MemoryRef, ref.Agent)
		}
	} else if r.Owner != "" {
		return bad("3.2.6 shared_memory_owner", "only shared memory has an owner")
	}
	if r.CheckIntervalSeconds < 0 {
		return bad("3.2.6 check_interval_seconds", "must be positive")
	}
	switch r.Algorithm {
	case "", canon.SHA256, canon.SHAKE256:
	default:
		return bad("3.2.6 snapshot_hash", "algorithm %q is not sha256 or shake256", r.Algorithm)
	}
	return nil
}

// driftPolicyAllowed applies the policy's per-level table; a level above the
// highest one listed follows the highest one (Level 3 keeps Level 2's rule).
func driftPolicyAllowed(p policy.Policy, level int, dp string) bool {
	for l := level; l >= 0; l-- {
		if _, ok := p.Baseline.DriftPolicies[strconv.Itoa(l)]; ok {
			return p.DriftPolicyAllowed(l, dp)
		}
	}
	return false
}

// ApproveBaseline records a spec §3.2.6 memory_baseline of the memoryRef's current
// memory as a BASELINE_APPROVE log entry. Only operators and curators approve.
// It refuses while a drift episode is open (acknowledge it instead) or while
// rows were edited behind memgov's back.
func (svc *Service) ApproveBaseline(ctx context.Context, r memgov.ApproveRequest) (memgov.Baseline, error) {
	if err := ValidateBaseline(svc.policy, r); err != nil {
		return memgov.Baseline{}, err
	}
	var out memgov.Baseline
	err := svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		if _, err := svc.authz.Govern(ctx, tx, r.By, r.MemoryRef, authz.ActBaselineApprove); err != nil {
			return err
		}
		if pb, ok, err := sharedOwnerBaseline(ctx, tx, r.MemoryRef); err != nil {
			return err
		} else if ok {
			return fmt.Errorf("%w: 3.2.6 shared_memory_owner: %s is an instance of the shared memory of %s (baseline %s on %s); an instance references its owner's hash and has no baseline of its own: re-approve %s instead",
				memgov.ErrConflict, r.MemoryRef, pb.SharedMemoryOwner, pb.ID, pb.MemoryRef, pb.MemoryRef)
		}
		if ev, err := tx.OpenDrift(ctx, r.MemoryRef); err == nil {
			return &StateError{Kind: memgov.ErrConflict, Ref: r.MemoryRef, Drift: ev.ID, Msg: fmt.Sprintf("drift %s is open on %s", ev.ID, r.MemoryRef)}
		} else if !notFound(err) {
			return err
		}
		if _, err := svc.expireDueTx(ctx, tx, r.MemoryRef, svc.now()); err != nil {
			return err
		}
		if ok, _, err := svc.governedIntact(ctx, tx, tx, r.MemoryRef); err != nil {
			return err
		} else if !ok {
			return &StateError{Kind: memgov.ErrConflict, Ref: r.MemoryRef, Edited: true,
				Msg: fmt.Sprintf("%s was edited outside memgov; its drift must be recorded and acknowledged first", r.MemoryRef)}
		}
		out, err = svc.approveTx(ctx, tx, r)
		return err
	})
	return out, err
}

// approveTx appends the BASELINE_APPROVE entry for the state as tx sees it.
func (svc *Service) approveTx(ctx context.Context, tx memgov.Tx, r memgov.ApproveRequest) (memgov.Baseline, error) {
	now := svc.now()
	pos, err := tx.LogSize(ctx)
	if err != nil {
		return memgov.Baseline{}, err
	}
	alg := r.Algorithm
	if alg == "" {
		alg = canon.SHA256
	}
	info := svc.store.Info()
	b := memgov.Baseline{ID: oplog.NewID(), MemoryRef: r.MemoryRef, MemoryType: r.MemoryType, Store: info.Type + "/" + info.Version,
		ApprovedAt: now, BoundAt: now, TTLSeconds: r.TTLSeconds, DriftPolicy: r.DriftPolicy, SharedMemoryOwner: r.Owner,
		CheckIntervalSeconds: r.CheckIntervalSeconds, ComplianceLevel: r.Level, ApprovedBy: r.By,
		DeltaBudget: svc.policy.Baseline.DeltaBudget, LogPosition: pos}
	if r.MemoryType != MemoryNone {
		st, err := svc.stateHash(ctx, tx, r.MemoryRef, now, alg, nil, false)
		if err != nil {
			return memgov.Baseline{}, err
		}
		b.SnapshotHash = &st.Hash
		if err := tx.PutStateCache(ctx, st); err != nil {
			return memgov.Baseline{}, err
		}
	}
	head, err := tx.MemHead(ctx, r.MemoryRef)
	if err != nil {
		return memgov.Baseline{}, err
	}
	b.BaseTreeSize = head.TreeSize
	data, err := json.Marshal(b)
	if err != nil {
		return memgov.Baseline{}, err
	}
	reason := r.Reason
	if reason == "" {
		reason = "approve " + string(r.MemoryType) + " baseline"
	}
	entry := &oplog.Entry{Time: now, Op: oplog.BaselineApprove, MemoryRef: r.MemoryRef, ItemID: "", Actor: r.By}
	if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason, Data: data}); err != nil {
		return memgov.Baseline{}, err
	}
	return tx.Baseline(ctx, r.MemoryRef)
}

// Baseline returns the current baseline of a memoryRef (its own, not an
// owner's; see ResolveBaseline).
func (svc *Service) Baseline(ctx context.Context, ref string) (memgov.Baseline, error) {
	var b memgov.Baseline
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		b, err = tx.Baseline(ctx, ref)
		return err
	})
	return b, err
}

// resolveBaseline finds the baseline that governs ref: its own, or else the
// shared baseline of the nearest ancestor ref. Shared memory is approved once,
// on the owner's memoryRef (tenant/owner-agent[/ns...]); every instance is a ref
// below it (tenant/owner-agent/instance-2) and verifies against the owner's
// hash. The second result is the ref that holds the baseline.
//
// An instance of shared memory binds to its owner's hash (spec §3.2.6: every
// instance references the same hash): the owner's shared baseline governs it
// even if the instance holds a baseline of its own (approved before the owner
// shared its memory; ApproveBaseline refuses one after).
func resolveBaseline(ctx context.Context, br memgov.BaselineReader, ref string) (memgov.Baseline, error) {
	if pb, ok, err := sharedOwnerBaseline(ctx, br, ref); err != nil || ok {
		return pb, err
	}
	b, err := br.Baseline(ctx, ref)
	if err == nil || !notFound(err) {
		return b, err
	}
	return memgov.Baseline{}, &StateError{Kind: memgov.ErrNotFound, Ref: ref, Msg: "no baseline for " + ref}
}

// sharedOwnerBaseline returns the shared baseline of the nearest ancestor ref
// of ref, when there is one: ref is then an instance of that shared memory.
func sharedOwnerBaseline(ctx context.Context, br memgov.BaselineReader, ref string) (memgov.Baseline, bool, error) {
	segs := strings.Split(ref, "/")
	for i := len(segs) - 1; i >= scope.MinSegments; i-- {
		parent := strings.Join(segs[:i], "/")
		pb, err := br.Baseline(ctx, parent)
		if err == nil && pb.MemoryType == MemoryShared {
			return pb, true, nil
		}
		if err != nil && !notFound(err) {
			return pb, false, err
		}
	}
	return memgov.Baseline{}, false, nil
}

// ResolveBaseline returns the baseline that governs ref: its own, or the shared
// baseline of its owner (the nearest ancestor memoryRef with a shared baseline).
func (svc *Service) ResolveBaseline(ctx context.Context, ref string) (memgov.Baseline, error) {
	var b memgov.Baseline
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		b, err = resolveBaseline(ctx, tx, ref)
		return err
	})
	return b, err
}
