package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// MemoryType is the spec §3.2.6 memory_type of a baseline.
type MemoryType string

// Memory types.
const (
	MemoryNone       MemoryType = "none"
	MemorySession    MemoryType = "session"
	MemoryPersistent MemoryType = "persistent"
	MemoryShared     MemoryType = "shared"
)

// Baseline is the spec §3.2.6 memory_baseline record with what memgov needs to
// enforce it. Its JSON uses the spec's field names; the extra fields are
// memgov's binding of the record to its own log.
type Baseline struct {
	ID                   string     `json:"baseline_id"`
	MemoryRef            string     `json:"memory_ref"`
	SnapshotHash         *string    `json:"snapshot_hash"` // null only for memory_type none
	MemoryType           MemoryType `json:"memory_type"`
	Store                string     `json:"store"`
	ApprovedAt           time.Time  `json:"approved_at"`
	BoundAt              time.Time  `json:"bound_at"`
	TTLSeconds           int64      `json:"ttl_seconds,omitempty"`
	DriftPolicy          string     `json:"drift_policy"`
	SharedMemoryOwner    string     `json:"shared_memory_owner,omitempty"`
	CheckIntervalSeconds int64      `json:"check_interval_seconds,omitempty"`
	ComplianceLevel      int        `json:"compliance_level"`
	ApprovedBy           string     `json:"approved_by"`
	DeltaBudget          int        `json:"delta_budget"`
	// LogPosition is the LSN of the state the hash was taken at.
	LogPosition int64 `json:"log_position"`
	// BaseTreeSize, BaseSeq and BaseFrontier bind the memory op log (spec §3.2.6.2).
	BaseTreeSize uint64 `json:"memory_tree_size"`
	BaseSeq      uint64 `json:"checkpoint_seq"`
	BaseFrontier []byte `json:"-"`
	LSN          int64  `json:"lsn"` // the BASELINE_APPROVE entry
}

// data is the record as a BASELINE_APPROVE entry carries it.
func (b Baseline) data() oplog.BaselineData {
	return oplog.BaselineData{ID: b.ID, MemoryRef: b.MemoryRef, SnapshotHash: b.SnapshotHash, MemoryType: string(b.MemoryType), Store: b.Store,
		ApprovedAt: b.ApprovedAt, BoundAt: b.BoundAt, TTLSeconds: b.TTLSeconds, DriftPolicy: b.DriftPolicy, SharedMemoryOwner: b.SharedMemoryOwner,
		CheckIntervalSeconds: b.CheckIntervalSeconds, ComplianceLevel: b.ComplianceLevel, ApprovedBy: b.ApprovedBy, DeltaBudget: b.DeltaBudget,
		LogPosition: b.LogPosition, BaseTreeSize: b.BaseTreeSize, BaseSeq: b.BaseSeq, LSN: b.LSN}
}

// ExpiresAt returns when the baseline stops being valid; zero when it has no TTL.
func (b Baseline) ExpiresAt() time.Time {
	if b.TTLSeconds == 0 {
		return time.Time{}
	}
	return b.ApprovedAt.Add(time.Duration(b.TTLSeconds) * time.Second)
}

// Expired reports whether the baseline's TTL has passed at now.
func (b Baseline) Expired(now time.Time) bool {
	exp := b.ExpiresAt()
	return !exp.IsZero() && now.After(exp)
}

// Hash returns the snapshot hash, or "" for memory_type none.
func (b Baseline) Hash() string {
	if b.SnapshotHash == nil {
		return ""
	}
	return *b.SnapshotHash
}

// BaseCheckpoint returns the spec §3.2.6.2 checkpoint the baseline binds.
func (b Baseline) BaseCheckpoint() (merkle.MemoryCheckpoint, *merkle.Frontier, error) {
	var f merkle.Frontier
	if err := f.UnmarshalBinary(b.BaseFrontier); err != nil {
		return merkle.MemoryCheckpoint{}, nil, fmt.Errorf("baseline %s frontier: %w", b.ID, err)
	}
	return merkle.MemoryCheckpoint{Root: f.Root(), TreeSize: f.Size(), Seq: b.BaseSeq,
		ApprovedAt: b.ApprovedAt, TTLSeconds: b.TTLSeconds}, &f, nil
}

// ApproveRequest asks for a baseline of a memoryRef's current memory.
type ApproveRequest struct {
	MemoryRef            string
	By                   string // an operator or curator
	MemoryType           MemoryType
	TTLSeconds           int64 // 0: omitted
	DriftPolicy          string
	Level                int
	Owner                string // shared_memory_owner, for shared memory
	CheckIntervalSeconds int64
	Algorithm            canon.Algorithm // "" means SHA-256
	Reason               string
}

// ValidateBaseline checks an approval against the spec §3.2.6 rules and the policy,
// and names the rule an invalid combination breaks. Errors wrap ErrInvalid.
func ValidateBaseline(p policy.Policy, r ApproveRequest) error {
	bad := func(rule, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalid, rule, fmt.Sprintf(format, args...))
	}
	ref, err := scope.Parse(r.MemoryRef)
	if err != nil {
		return fmt.Errorf("%w: memory ref: %v", ErrInvalid, err)
	}
	switch r.MemoryType {
	case MemoryNone, MemorySession, MemoryPersistent, MemoryShared:
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
	if !driftPolicyAllowed(p, r.Level, r.DriftPolicy) {
		return bad("policy baseline.drift_policies", "compliance level %d does not allow %s", r.Level, r.DriftPolicy)
	}
	minTTL, maxTTL := int64(p.Baseline.TTLMin.Std()/time.Second), int64(p.Baseline.TTLMax.Std()/time.Second)
	switch r.MemoryType {
	case MemoryNone:
		if r.TTLSeconds != 0 {
			return bad("3.2.6 ttl_seconds", "must be omitted for memory_type none")
		}
	case MemoryPersistent, MemoryShared:
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

// requireGovernor refuses actors the authority table does not let perform a
// on ref: operators or curators of the ref's tenant.
func (e *Engine) requireGovernor(ctx context.Context, tx ReadTx, actor, ref string, a Action) (Principal, error) {
	if err := requirePrincipal(ctx, tx, actor); err != nil {
		return Principal{}, err
	}
	return e.permitTx(ctx, tx, actor, a, Target{Ref: ref})
}

// ApproveBaseline records a spec §3.2.6 memory_baseline of the memoryRef's current
// memory as a BASELINE_APPROVE log entry. Only operators and curators approve.
// It refuses while a drift episode is open (acknowledge it instead) or while
// rows were edited behind memgov's back.
func (e *Engine) ApproveBaseline(ctx context.Context, r ApproveRequest) (Baseline, error) {
	if err := ValidateBaseline(e.Policy(), r); err != nil {
		return Baseline{}, err
	}
	var out Baseline
	err := e.store.Update(ctx, func(tx Tx) (err error) {
		if _, err := e.requireGovernor(ctx, tx, r.By, r.MemoryRef, ActBaselineApprove); err != nil {
			return err
		}
		if ev, err := tx.OpenDrift(ctx, r.MemoryRef); err == nil {
			return fmt.Errorf("%w: drift %s is open on %s; resolve it with: memgov drift ack %s --by %s --resolve reapprove|rollback", ErrConflict, ev.ID, r.MemoryRef, ev.ID, r.By)
		} else if !isNotFound(err) {
			return err
		}
		if ok, _, err := e.governedIntact(ctx, tx, tx, r.MemoryRef); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("%w: %s was edited outside memgov; run `memgov verify %s` and acknowledge the drift first", ErrConflict, r.MemoryRef, r.MemoryRef)
		}
		out, err = e.approveTx(ctx, tx, r)
		return err
	})
	return out, err
}

// approveTx appends the BASELINE_APPROVE entry for the state as tx sees it.
func (e *Engine) approveTx(ctx context.Context, tx Tx, r ApproveRequest) (Baseline, error) {
	now := e.Now()
	pos, err := tx.LogSize(ctx)
	if err != nil {
		return Baseline{}, err
	}
	alg := r.Algorithm
	if alg == "" {
		alg = canon.SHA256
	}
	info := e.store.Info()
	b := Baseline{ID: NewID(), MemoryRef: r.MemoryRef, MemoryType: r.MemoryType, Store: info.Type + "/" + info.Version,
		ApprovedAt: now, BoundAt: now, TTLSeconds: r.TTLSeconds, DriftPolicy: r.DriftPolicy, SharedMemoryOwner: r.Owner,
		CheckIntervalSeconds: r.CheckIntervalSeconds, ComplianceLevel: r.Level, ApprovedBy: r.By,
		DeltaBudget: e.Policy().Baseline.DeltaBudget, LogPosition: pos}
	if r.MemoryType != MemoryNone {
		st, err := e.stateHash(ctx, tx, r.MemoryRef, now, alg, nil, false)
		if err != nil {
			return Baseline{}, err
		}
		b.SnapshotHash = &st.Hash
		if err := tx.PutStateCache(ctx, st); err != nil {
			return Baseline{}, err
		}
	}
	head, err := tx.MemHead(ctx, r.MemoryRef)
	if err != nil {
		return Baseline{}, err
	}
	b.BaseTreeSize = head.TreeSize
	data, err := json.Marshal(b.data())
	if err != nil {
		return Baseline{}, err
	}
	reason := r.Reason
	if reason == "" {
		reason = "approve " + string(r.MemoryType) + " baseline"
	}
	entry := &LogEntry{Time: now, Op: OpBaselineApprove, MemoryRef: r.MemoryRef, ItemID: "", Actor: r.By}
	if err := entry.Seal(Payload{Reason: reason, Data: data}); err != nil {
		return Baseline{}, err
	}
	if err := tx.Append(ctx, entry); err != nil {
		return Baseline{}, err
	}
	return tx.Baseline(ctx, r.MemoryRef)
}

// Baseline returns the current baseline of a memoryRef (its own, not an
// owner's; see ResolveBaseline).
func (e *Engine) Baseline(ctx context.Context, ref string) (Baseline, error) {
	var b Baseline
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
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
func resolveBaseline(ctx context.Context, br BaselineReader, ref string) (Baseline, error) {
	b, err := br.Baseline(ctx, ref)
	if err == nil || !isNotFound(err) {
		return b, err
	}
	segs := strings.Split(ref, "/")
	for i := len(segs) - 1; i >= scope.MinSegments; i-- {
		parent := strings.Join(segs[:i], "/")
		pb, perr := br.Baseline(ctx, parent)
		if perr == nil && pb.MemoryType == MemoryShared {
			return pb, nil
		}
		if perr != nil && !isNotFound(perr) {
			return pb, perr
		}
	}
	return Baseline{}, fmt.Errorf("%w: no baseline for %s; approve one with: memgov baseline approve %s --by OPERATOR --type TYPE --policy POLICY", ErrNotFound, ref, ref)
}

// ResolveBaseline returns the baseline that governs ref: its own, or the shared
// baseline of its owner (the nearest ancestor memoryRef with a shared baseline).
func (e *Engine) ResolveBaseline(ctx context.Context, ref string) (Baseline, error) {
	var b Baseline
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		b, err = resolveBaseline(ctx, tx, ref)
		return err
	})
	return b, err
}
