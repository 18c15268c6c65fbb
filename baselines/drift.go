package baselines

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/scope"
)

// Reason codes of DriftGate and drift causes.
const (
	ReasonBaselineExpired = "BASELINE_EXPIRED"       // the baseline's TTL has passed
	ReasonBudgetExhausted = "DELTA_BUDGET_EXHAUSTED" // the write would exceed the delta budget

	CauseOutside    = "outside-memgov" // rows changed without a log entry
	CauseBudget     = "budget"         // governed changes beyond the delta budget
	CauseCheckpoint = "checkpoint"     // the op log could not be bound (drift, rollback)

	CauseNotAllowed = "memory-not-allowed" // memory_type none, yet memory exists
	CauseSession    = "session-state"      // session memory outside a session differs from its baseline

)

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// VerifyMemory checks a memoryRef against the baseline that governs it (its
// own, or its shared owner's) and applies the drift policy:
//
//   - an expired baseline is invalid and needs re-approval;
//   - drift is a change not bound by the baseline: rows edited outside memgov
//     (the materialised map differs from the fold of the op log), governed
//     changes beyond the delta budget, or an agent's exported map (State) that
//     differs from the governed map;
//   - the first detection of an episode appends one DRIFT_DETECTED entry
//     (MEMORY_DRIFT_DETECTED); later verifications report the same drift_id
//     until an operator acknowledges it with AckDrift;
//   - deny-on-drift denies while drift is open or the baseline expired,
//     alert-on-drift allows with alerts, log-only only records.
//
// Session memory is checked when a session starts and exempt inside one;
// outside a session it must hash to its baseline (CauseSession): a change a
// session left behind is drift once the session ends, and a session that
// would start on it is refused under deny-on-drift.
//
// The check costs O(1) when nothing changed: the snapshot hash is cached per
// memoryRef and stays valid while the op log keeps its size, no row was changed
// outside memgov's apply (triggers record such rows for every client) and no
// included item expired. After governed writes the accepted checkpoint binds
// the state (Basis "checkpoint") and current_hash is null unless Deep.
func (svc *Service) VerifyMemory(ctx context.Context, r memgov.VerifyRequest) (memgov.VerifyResult, error) {
	if _, err := scope.Parse(r.MemoryRef); err != nil {
		return memgov.VerifyResult{}, fmt.Errorf("%w: memory ref: %v", memgov.ErrInvalid, err)
	}
	var agent []byte
	if r.State != nil {
		c, err := canon.Canonicalize(r.State)
		if err != nil {
			return memgov.VerifyResult{}, fmt.Errorf("%w: state: %v", memgov.ErrInvalid, err)
		}
		if len(c) == 0 || c[0] != '{' {
			return memgov.VerifyResult{}, fmt.Errorf("%w: state must be a JSON object {key: content}", memgov.ErrInvalid)
		}
		agent = c
	}
	var (
		res  memgov.VerifyResult
		need bool
	)
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		res, need, err = svc.verifyTx(ctx, tx, nil, r, agent)
		return err
	})
	if err != nil || !need {
		return res, err
	}
	err = svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		res, _, err = svc.verifyTx(ctx, tx, tx, r, agent)
		return err
	})
	return res, err
}

// verifyTx runs the check in tx. w is the same transaction when it may write,
// nil when it is read-only: when the check must write (record drift, clear
// dirty rows, cache a hash) and w is nil it returns need=true so the caller
// repeats it in a write transaction.
func (svc *Service) verifyTx(ctx context.Context, tx memgov.ReadTx, w memgov.Tx, r memgov.VerifyRequest, agent []byte) (memgov.VerifyResult, bool, error) {
	write := w != nil
	b, err := resolveBaseline(ctx, tx, r.MemoryRef)
	if err != nil {
		return memgov.VerifyResult{}, false, err
	}
	now := svc.now()
	res := memgov.VerifyResult{MemoryRef: r.MemoryRef, Policy: b.DriftPolicy, ApprovedHash: strPtr(b.Hash()), Alerts: []string{},
		Code: string(merkle.CodeAccept), Basis: "snapshot", BaselineID: b.ID, BaselineRef: b.MemoryRef, MemoryType: b.MemoryType}
	if b.CheckIntervalSeconds > 0 {
		t := now.Add(time.Duration(b.CheckIntervalSeconds) * time.Second)
		res.NextCheckAt = &t
	}
	alg := canon.SHA256
	if a, _, err := canon.ParseDigest(b.Hash()); err == nil {
		alg = a
	}
	ref := b.MemoryRef
	// Versions whose TTL passed are expired first, by appended entries (DELs of
	// the op log), so the fold of the log is the map being checked.
	if due, err := tx.DueExpiries(ctx, ref, now, 1); err != nil {
		return res, false, err
	} else if len(due) > 0 {
		if w == nil {
			return res, true, nil
		}
		if _, err := svc.expireDueTx(ctx, w, ref, now); err != nil {
			return res, false, err
		}
	}
	open, err := tx.OpenDrift(ctx, ref)
	hasOpen := err == nil
	if err != nil && !notFound(err) {
		return res, false, err
	}
	res.Expired = b.Expired(now)
	if res.Expired {
		res.Code = string(merkle.CodeExpired)
	}
	inSession := false
	if b.MemoryType == memgov.MemorySession {
		if _, err := tx.OpenSession(ctx, ref); err == nil {
			inSession = true
		} else if !notFound(err) {
			return res, false, err
		}
	}
	head, err := tx.MemHead(ctx, ref)
	if err != nil {
		return res, false, err
	}
	var cause, detail, current string
	switch {
	case inSession:
		res.Basis, res.SessionExempt = "session", true
	case hasOpen:
		// The episode stays open until acknowledged; nothing new to detect.
	case b.MemoryType == MemoryNone:
		st, err := svc.stateHash(ctx, tx, ref, now, canon.SHA256, nil, false)
		if err != nil && !errors.Is(err, memgov.ErrTampered) {
			return res, false, err
		}
		if err != nil || st.Items > 0 {
			cause, detail, current = CauseNotAllowed, fmt.Sprintf("memory_type none, yet %s holds %d items", ref, st.Items), st.Hash
		}
		if agent != nil && string(agent) != "{}" {
			cause, detail = CauseNotAllowed, "memory_type none, yet the agent's state is not empty"
			current = digestOf(alg, agent)
		}
	default:
		dirty, err := tx.Dirty(ctx, ref)
		if err != nil {
			return res, false, err
		}
		if dirty || r.Deep {
			if !write && (dirty || r.Deep) {
				return res, true, nil
			}
			st, err := svc.stateHash(ctx, tx, ref, now, alg, nil, true)
			tampered := errors.Is(err, memgov.ErrTampered)
			if err != nil && !tampered {
				return res, false, err
			}
			gov, err := foldHash(ctx, tx, ref, head.TreeSize, now, alg)
			if err != nil {
				return res, false, err
			}
			current = st.Hash
			if tampered || st.Hash != gov.Hash {
				cause, detail = CauseOutside, "the materialised memory differs from memgov's log: rows were changed outside memgov"
				if tampered {
					current = "invalid:" + memgov.ErrTampered.Error()
				}
			} else {
				if err := w.ClearDirty(ctx, ref); err != nil {
					return res, false, err
				}
				if err := w.PutStateCache(ctx, st); err != nil {
					return res, false, err
				}
			}
		}
		if cause == "" {
			cp, err := tx.LatestCheckpoint(ctx, ref)
			if err != nil {
				return res, false, err
			}
			res.Checkpoint = &struct {
				Seq      uint64 `json:"seq"`
				TreeSize uint64 `json:"tree_size"`
				Root     string `json:"memory_root"`
			}{cp.Seq, cp.TreeSize, cp.Root.Prefixed()}
			if head.TreeSize != cp.TreeSize {
				code := head.LastVerdict
				res.Code = code
				switch code {
				case string(merkle.CodeExpired):
					res.Expired = true
				case string(merkle.CodeBudget):
					cause, detail = CauseBudget, head.LastDetail
				default:
					cause, detail = CauseCheckpoint, head.LastVerdict+": "+head.LastDetail
				}
			} else if head.TreeSize != b.BaseTreeSize && current == "" {
				res.Basis = "checkpoint"
			}
		}
		if cause == "" && agent == nil && b.MemoryType == memgov.MemorySession && head.TreeSize != b.BaseTreeSize {
			// Session memory is checked against the baseline at start-up and
			// exempt only while a session is active (seed 000): outside one,
			// what a session changed and left behind is drift, whatever
			// checkpoint governed writes advanced inside it.
			h, ok, err := cachedHash(ctx, tx, ref, alg, head, now)
			if err != nil {
				return res, false, err
			}
			if !ok {
				if !write {
					return res, true, nil
				}
				st, err := svc.stateHash(ctx, tx, ref, now, alg, nil, false)
				if err != nil {
					return res, false, err
				}
				if err := w.PutStateCache(ctx, st); err != nil {
					return res, false, err
				}
				h = st.Hash
			}
			current, res.Basis = h, "session"
			if h != b.Hash() {
				cause, detail = CauseSession, "session memory differs from its baseline outside a session: a session changed it and left the change behind"
			}
		}
		if cause == "" && agent != nil {
			res.Basis = "state"
			gov, ok, err := cachedHash(ctx, tx, ref, alg, head, now)
			if err != nil {
				return res, false, err
			}
			if !ok {
				st, err := svc.stateHash(ctx, tx, ref, now, alg, nil, false)
				if err != nil {
					return res, false, err
				}
				gov = st.Hash
				if write {
					if err := w.PutStateCache(ctx, st); err != nil {
						return res, false, err
					}
				}
			}
			res.GovernedHash = gov
			// The agent's state is compared with the approved one: the baseline's
			// hash, or the fold of the op log at the latest accepted checkpoint
			// when governed writes advanced it (spec §3.2.6.2).
			approved := b.Hash()
			cp, err := tx.LatestCheckpoint(ctx, ref)
			if err != nil {
				return res, false, err
			}
			if cp.TreeSize != b.BaseTreeSize {
				st, err := foldHash(ctx, tx, ref, cp.TreeSize, now, alg)
				if err != nil {
					return res, false, err
				}
				approved = st.Hash
			}
			res.ApprovedHash = &approved
			current = digestOf(alg, agent)
			if current != approved {
				cause, detail = memgov.CauseStateMismatch, "the agent's exported memory differs from the approved memory "+approved
			}
		}
		if current == "" && res.Basis == "snapshot" {
			if h, ok, err := cachedHash(ctx, tx, ref, alg, head, now); err != nil {
				return res, false, err
			} else if ok {
				current = h
			} else {
				res.Basis = "checkpoint"
			}
		}
	}
	if cause != "" {
		res.Cause = cause
		if res.Code == string(merkle.CodeAccept) {
			res.Code = string(merkle.CodeDrift)
		}
		if !hasOpen {
			if !write {
				return res, true, nil
			}
			open, err = svc.recordDrift(ctx, w, b, cause, detail, current, r.Actor, now)
			if err != nil {
				return res, false, err
			}
			hasOpen = true
		}
	}
	res.CurrentHash = strPtr(current)
	if hasOpen {
		res.Drift, res.DriftID = true, open.ID
		if res.Cause == "" {
			res.Cause = open.Cause
		}
		if res.Code == string(merkle.CodeAccept) {
			res.Code = string(merkle.CodeDrift)
		}
	}
	res.Valid = !res.Drift && !res.Expired
	res.Action = "allow"
	if b.DriftPolicy == policy.DenyOnDrift && !res.Valid {
		res.Action = "deny"
	}
	if b.DriftPolicy != policy.LogOnly {
		if res.Drift {
			res.Alerts = append(res.Alerts, driftAlert(open))
		}
		if res.Expired {
			res.Alerts = append(res.Alerts, fmt.Sprintf("%s: baseline %s of %s expired at %s; re-approve it", ReasonBaselineExpired, b.ID, ref, b.ExpiresAt().Format(time.RFC3339)))
		}
	}
	return res, false, nil
}

func driftAlert(d memgov.DriftEvent) string {
	return fmt.Sprintf("%s %s: %s on %s since %s under %s; acknowledge with: memgov drift ack %s --by OPERATOR --resolve reapprove|rollback",
		merkle.EventMemoryDrift, d.ID, d.Cause, d.MemoryRef, d.DetectedAt.Format(time.RFC3339), d.Policy, d.ID)
}

func digestOf(alg canon.Algorithm, b []byte) string {
	d, err := canon.NewDigest(alg)
	if err != nil {
		return ""
	}
	d.Write(b)
	return d.Sum()
}

// recordDrift appends the DRIFT_DETECTED entry of a new episode.
func (svc *Service) recordDrift(ctx context.Context, tx memgov.Tx, b memgov.Baseline, cause, detail, current, actor string, now time.Time) (memgov.DriftEvent, error) {
	if cause != memgov.CauseStateMismatch {
		if rep, err := svc.diffTx(ctx, tx, b, now); err == nil && len(rep.Changes) > 0 {
			detail += fmt.Sprintf(" (%s)", rep.Summary())
		}
	}
	d := memgov.DriftEvent{ID: oplog.NewID(), BaselineID: b.ID, Policy: b.DriftPolicy, Cause: cause, ApprovedHash: b.Hash(),
		CurrentHash: current, Detail: detail}
	data, err := json.Marshal(d.Data())
	if err != nil {
		return d, err
	}
	if actor == "" {
		actor = "memgov"
	}
	entry := &oplog.Entry{Time: now, Op: oplog.DriftDetected, MemoryRef: b.MemoryRef, Actor: actor}
	if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: merkle.EventMemoryDrift + ": " + cause, Data: data}); err != nil {
		return d, err
	}
	return tx.DriftEvent(ctx, d.ID)
}

// DriftGateResult is what DriftGate tells the write pipeline.
type DriftGateResult struct {
	Deny    bool     `json:"deny"`
	Reason  string   `json:"reason,omitempty"` // MEMORY_DRIFT_DENIED, BASELINE_EXPIRED, DELTA_BUDGET_EXHAUSTED
	Alerts  []string `json:"alerts,omitempty"`
	DriftID string   `json:"drift_id,omitempty"`
}

// DriftGate is the drift step of the write pipeline; call it inside the write
// transaction before committing a write to memoryRef. Under deny-on-drift it
// denies while a drift episode is open (unacknowledged), while the baseline is
// expired, when the write would exceed the delta budget, or when rows of the
// ref were changed outside memgov (then DriftID is empty: the episode is
// recorded by the next VerifyMemory). Under alert-on-drift the same conditions
// return Alerts and the write proceeds; log-only returns nothing. A memoryRef
// without a baseline, and session memory inside a session, pass. The gate is
// O(1) unless rows were changed outside memgov, which costs one re-hash.
func (svc *Service) DriftGate(ctx context.Context, tx memgov.Tx, memoryRef string) (DriftGateResult, error) {
	var res DriftGateResult
	b, err := resolveBaseline(ctx, tx, memoryRef)
	if notFound(err) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	if b.DriftPolicy == policy.LogOnly {
		return res, nil
	}
	flag := func(reason, alert, driftID string) {
		if b.DriftPolicy == policy.DenyOnDrift && !res.Deny {
			res.Deny, res.Reason, res.DriftID = true, reason, driftID
		}
		res.Alerts = append(res.Alerts, alert)
		if res.DriftID == "" {
			res.DriftID = driftID
		}
	}
	ref := b.MemoryRef
	if ev, err := tx.OpenDrift(ctx, ref); err == nil {
		flag(gate.ReasonDriftDenied, driftAlert(ev), ev.ID)
		return res, nil
	} else if !notFound(err) {
		return res, err
	}
	now := svc.now()
	if b.Expired(now) {
		flag(ReasonBaselineExpired, fmt.Sprintf("%s: baseline %s of %s expired at %s; re-approve it", ReasonBaselineExpired, b.ID, ref, b.ExpiresAt().Format(time.RFC3339)), "")
		return res, nil
	}
	if b.MemoryType == memgov.MemorySession {
		if _, err := tx.OpenSession(ctx, ref); err == nil {
			return res, nil
		}
	}
	head, err := tx.MemHead(ctx, ref)
	if err != nil {
		return res, err
	}
	if b.DeltaBudget > 0 && head.TreeSize-b.BaseTreeSize >= uint64(b.DeltaBudget) {
		flag(ReasonBudgetExhausted, fmt.Sprintf("%s: %d governed changes since baseline %s reach the delta budget of %d; re-approve the baseline", ReasonBudgetExhausted, head.TreeSize-b.BaseTreeSize, b.ID, b.DeltaBudget), "")
		return res, nil
	}
	if ok, _, err := svc.governedIntact(ctx, tx, tx, ref); err != nil {
		return res, err
	} else if !ok {
		flag(gate.ReasonDriftDenied, fmt.Sprintf("%s: %s was changed outside memgov; run memgov verify %s", merkle.EventMemoryDrift, ref, ref), "")
	}
	return res, nil
}

// ListDrift lists drift episodes, newest first.
func (svc *Service) ListDrift(ctx context.Context, q memgov.DriftQuery) ([]memgov.DriftEvent, error) {
	var out []memgov.DriftEvent
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		out, err = tx.DriftEvents(ctx, q)
		return err
	})
	if out == nil {
		out = []memgov.DriftEvent{}
	}
	return out, err
}

// DriftEvent returns one drift episode by id, open or acknowledged.
func (svc *Service) DriftEvent(ctx context.Context, id string) (memgov.DriftEvent, error) {
	var ev memgov.DriftEvent
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		ev, err = tx.DriftEvent(ctx, id)
		return err
	})
	return ev, err
}

// KeyChange is one key of a drift diff.
type KeyChange struct {
	Key  string          `json:"key"`
	Kind string          `json:"kind"` // added, removed, changed
	Old  json.RawMessage `json:"old,omitempty"`
	New  json.RawMessage `json:"new,omitempty"`
	// Outside marks a change with no log entry: the materialised row differs
	// from what memgov's log says.
	Outside bool `json:"outside_memgov"`
}

// DriftReport is what changed since the baseline, key by key.
type DriftReport struct {
	Event    memgov.DriftEvent `json:"drift"`
	Baseline memgov.Baseline   `json:"baseline"`
	Changes  []KeyChange       `json:"changes"`
	Added    int               `json:"added"`
	Removed  int               `json:"removed"`
	Changed  int               `json:"changed"`
}

// Summary is "1 changed, 2 added" style text.
func (r DriftReport) Summary() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{r.Changed, "changed"}, {r.Added, "added"}, {r.Removed, "removed"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) == 0 {
		return "no key changed"
	}
	return strings.Join(parts, ", ")
}

// DriftDiff shows what changed in the episode's memoryRef since its baseline:
// the baseline map (the fold of the op log the baseline binds) against the
// materialised map now, with changes that have no log entry marked Outside.
func (svc *Service) DriftDiff(ctx context.Context, driftID string) (DriftReport, error) {
	var rep DriftReport
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		ev, err := tx.DriftEvent(ctx, driftID)
		if err != nil {
			return err
		}
		b, err := tx.BaselineByID(ctx, ev.BaselineID)
		if err != nil {
			return err
		}
		if cur, err := tx.Baseline(ctx, b.MemoryRef); err == nil && cur.ID == b.ID {
			b = cur
		}
		rep, err = svc.diffTx(ctx, tx, b, svc.now())
		rep.Event = ev
		return err
	})
	return rep, err
}

func collect(scan func(func(memgov.MapRow) error) error) (map[string]memgov.MapRow, error) {
	m := map[string]memgov.MapRow{}
	err := scan(func(r memgov.MapRow) error {
		r.Value = bytes.Clone(r.Value)
		m[r.Key] = r
		return nil
	})
	return m, err
}

func (svc *Service) diffTx(ctx context.Context, br memgov.BaselineReader, b memgov.Baseline, now time.Time) (DriftReport, error) {
	rep := DriftReport{Baseline: b, Changes: []KeyChange{}}
	base := map[string]memgov.MapRow{}
	var err error
	if b.MemoryType != MemoryNone {
		if base, err = collect(func(fn func(memgov.MapRow) error) error { return br.FoldMap(ctx, b.MemoryRef, b.BaseTreeSize, now, fn) }); err != nil {
			return rep, err
		}
	}
	head, err := br.MemHead(ctx, b.MemoryRef)
	if err != nil {
		return rep, err
	}
	gov, err := collect(func(fn func(memgov.MapRow) error) error { return br.FoldMap(ctx, b.MemoryRef, head.TreeSize, now, fn) })
	if err != nil {
		return rep, err
	}
	cur, err := collect(func(fn func(memgov.MapRow) error) error { return br.MemoryMap(ctx, b.MemoryRef, now, fn) })
	if err != nil {
		return rep, err
	}
	keys := make([]string, 0, len(base)+len(cur))
	for k := range base {
		keys = append(keys, k)
	}
	for k := range cur {
		if _, ok := base[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return canon.CompareKeys(keys[i], keys[j]) < 0 })
	for _, k := range keys {
		o, inBase := base[k]
		n, inCur := cur[k]
		g, inGov := gov[k]
		outside := inCur != inGov || inCur && !bytes.Equal(n.Value, g.Value)
		switch {
		case inBase && !inCur:
			rep.Removed++
			rep.Changes = append(rep.Changes, KeyChange{Key: k, Kind: "removed", Old: o.Value, Outside: outside})
		case !inBase && inCur:
			rep.Added++
			rep.Changes = append(rep.Changes, KeyChange{Key: k, Kind: "added", New: n.Value, Outside: outside})
		case !bytes.Equal(o.Value, n.Value):
			rep.Changed++
			rep.Changes = append(rep.Changes, KeyChange{Key: k, Kind: "changed", Old: o.Value, New: n.Value, Outside: outside})
		}
	}
	return rep, nil
}

// AckDrift closes an open drift episode; only operators and curators may.
//
// reapprove adopts the memory as it is now: changes made outside memgov are
// first written into the log as compensating entries (the tables are rebuilt
// from the log, then UPDATE/INSERT/RETRACT entries reproduce the observed map),
// then a new baseline of the same type, TTL, policy and level is approved.
//
// rollback restores the baseline's memory: rows changed outside memgov are
// rebuilt from the log, then compensating entries (UPDATE/INSERT for changed or
// removed keys, RETRACT for added ones) bring the map back to the baseline's,
// and the baseline is re-bound to the op log after them (a new checkpoint with
// the same snapshot_hash and TTL). Nothing in the log is rewritten.
func (svc *Service) AckDrift(ctx context.Context, r memgov.AckRequest) (memgov.AckResult, error) {
	res := memgov.AckResult{Resolution: r.Resolution}
	if r.Resolution != memgov.ResolveReapprove && r.Resolution != memgov.ResolveRollback {
		return res, fmt.Errorf("%w: resolution %q is not reapprove or rollback", memgov.ErrInvalid, r.Resolution)
	}
	var (
		ev       memgov.DriftEvent
		observed map[string]memgov.MapRow
		intact   bool
	)
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if ev, err = tx.DriftEvent(ctx, r.DriftID); err != nil {
			return err
		}
		if _, err := svc.authz.Govern(ctx, tx, r.By, ev.MemoryRef, authz.ActDriftAck); err != nil {
			return err
		}
		if !ev.Open() {
			return fmt.Errorf("%w: drift %s was already acknowledged by %s (%s)", memgov.ErrConflict, ev.ID, ev.AckedBy, ev.Resolution)
		}
		if intact, _, err = svc.governedIntact(ctx, tx, nil, ev.MemoryRef); err != nil {
			return err
		}
		observed, err = collect(func(fn func(memgov.MapRow) error) error { return tx.MemoryMap(ctx, ev.MemoryRef, svc.now(), fn) })
		return err
	})
	if err != nil {
		return res, err
	}
	if !intact {
		rep, err := svc.store.Rebuild(ctx)
		if err != nil {
			return res, fmt.Errorf("rebuild from the log: %w", err)
		}
		res.Rebuilt, res.RebuildDiffs = true, rep.Differences
	}
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		if ev, err = tx.DriftEvent(ctx, r.DriftID); err != nil {
			return err
		}
		if !ev.Open() {
			return fmt.Errorf("%w: drift %s was acknowledged meanwhile", memgov.ErrConflict, ev.ID)
		}
		b, err := tx.Baseline(ctx, ev.MemoryRef)
		if err != nil {
			return err
		}
		now := svc.now()
		target := observed
		if r.Resolution == memgov.ResolveRollback {
			target = map[string]memgov.MapRow{}
			if b.MemoryType != MemoryNone {
				if target, err = collect(func(fn func(memgov.MapRow) error) error { return tx.FoldMap(ctx, b.MemoryRef, b.BaseTreeSize, now, fn) }); err != nil {
					return err
				}
			}
		}
		reason := fmt.Sprintf("drift %s %s", ev.ID, r.Resolution)
		if r.Note != "" {
			reason += ": " + r.Note
		}
		if res.Compensations, err = svc.compensate(ctx, tx, b.MemoryRef, target, r.By, reason, now); err != nil {
			return err
		}
		if ok, _, err := svc.governedIntact(ctx, tx, tx, b.MemoryRef); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("%w: %s still differs from the log after the rebuild", memgov.ErrTampered, b.MemoryRef)
		}
		ack := oplog.DriftAckData{DriftID: ev.ID, Resolution: r.Resolution, Note: r.Note}
		if r.Resolution == memgov.ResolveReapprove {
			alg := canon.SHA256
			if a, _, err := canon.ParseDigest(b.Hash()); err == nil {
				alg = a
			}
			nb, err := svc.approveTx(ctx, tx, memgov.ApproveRequest{MemoryRef: b.MemoryRef, By: r.By, MemoryType: b.MemoryType,
				TTLSeconds: b.TTLSeconds, DriftPolicy: b.DriftPolicy, Level: b.ComplianceLevel, Owner: b.SharedMemoryOwner,
				CheckIntervalSeconds: b.CheckIntervalSeconds, Algorithm: alg, Reason: reason})
			if err != nil {
				return err
			}
			ack.NewBaselineID = nb.ID
		}
		entry := &oplog.Entry{Time: now, Op: oplog.DriftAck, MemoryRef: b.MemoryRef, Actor: r.By}
		if err := oplog.AppendData(ctx, tx, entry, reason, ack); err != nil {
			return err
		}
		if res.Drift, err = tx.DriftEvent(ctx, ev.ID); err != nil {
			return err
		}
		if res.Baseline, err = tx.Baseline(ctx, b.MemoryRef); err != nil {
			return err
		}
		alg := canon.SHA256
		if a, _, err := canon.ParseDigest(res.Baseline.Hash()); err == nil {
			alg = a
		}
		st, err := svc.stateHash(ctx, tx, b.MemoryRef, now, alg, nil, false)
		if err != nil {
			return err
		}
		res.SnapshotHash = st.Hash
		return tx.PutStateCache(ctx, st)
	})
	return res, err
}

// compensate appends the entries that turn ref's materialised map into target:
// UPDATE or INSERT for keys missing or different, RETRACT for keys not in target.
func (svc *Service) compensate(ctx context.Context, tx memgov.Tx, ref string, target map[string]memgov.MapRow, actor, reason string, now time.Time) (int, error) {
	cur, err := collect(func(fn func(memgov.MapRow) error) error { return tx.MemoryMap(ctx, ref, now, fn) })
	if err != nil {
		return 0, err
	}
	keys := make([]string, 0, len(cur)+len(target))
	for k := range cur {
		keys = append(keys, k)
	}
	for k := range target {
		if _, ok := cur[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return canon.CompareKeys(keys[i], keys[j]) < 0 })
	n := 0
	for _, k := range keys {
		t, want := target[k]
		c, have := cur[k]
		switch {
		case want && (!have || !bytes.Equal(t.Value, c.Value)):
			layer, meta := memgov.Semantic, memgov.Version{}
			item, err := tx.ItemByKey(ctx, ref, k)
			switch {
			case err == nil:
				layer = item.Layer
				hist, err := tx.History(ctx, item.ID)
				if err != nil {
					return n, err
				}
				if len(hist) > 0 {
					meta = hist[0]
				}
			case !notFound(err):
				return n, err
			}
			entry, err := svc.versions.VersionEntry(ctx, tx, ref, k, layer, actor, now)
			if err != nil {
				return n, err
			}
			conf, score := meta.Confidence, meta.ValidationScore
			p := oplog.Payload{Reason: reason, Key: k, Layer: string(layer), Content: t.Value, ContentHash: oplog.HashPayload(t.Value),
				Tags: meta.Tags, Confidence: &conf, ValidationScore: &score, Classification: meta.Classification}
			if t.ExpiresAt != nil {
				p.ExpiresAt = t.ExpiresAt.UTC().Format(oplog.TimeFormat)
			}
			if err := oplog.Append(ctx, tx, entry, p); err != nil {
				return n, err
			}
			n++
		case !want && have:
			item, err := tx.ItemByKey(ctx, ref, k)
			if err != nil {
				return n, err
			}
			head, err := tx.Version(ctx, item.Head)
			if err != nil {
				return n, err
			}
			entry := &oplog.Entry{Time: now, Op: oplog.Retract, MemoryRef: ref, ItemID: item.ID, VersionID: head.ID, PrevVersionID: head.Prev, Actor: actor}
			if err := oplog.Append(ctx, tx, entry, oplog.Payload{Reason: reason}); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
