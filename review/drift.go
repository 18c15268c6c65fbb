package review

import (
	"context"
	"fmt"
	"sort"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/canon"
)

// Drift is the list of memory drift episodes (MEMORY_DRIFT_DETECTED) and their
// acknowledgement, as one person sees it.
type Drift struct{ s *Service }

// Drift returns drift episodes and their acknowledgement.
func (s *Service) Drift() *Drift { return &Drift{s} }

// DriftView is one open episode with its key-level diff against the baseline.
type DriftView struct {
	baselines.DriftReport
	// Err is set when the diff could not be computed; the episode is still
	// listed (and can still be acknowledged).
	Err error
	// Now is the snapshot hash of the memory as it is now, in the algorithm
	// of the approved hash; "" when it could not be computed (NowErr says
	// why). The episode's CurrentHash is what detection saw, and is empty
	// when the drift was found without hashing (a delta budget spent).
	Now    string
	NowErr error
}

// Open counts the open drift episodes the actor sees.
func (d *Drift) Open(ctx context.Context) (int, error) {
	es, err := d.s.eng.Baselines().ListDrift(ctx, memgov.DriftQuery{OpenOnly: true})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		if d.s.sees(e.MemoryRef) {
			n++
		}
	}
	return n, nil
}

// List returns the open episodes, deny-on-drift first (they block an agent),
// then newest first, each with its diff.
func (d *Drift) List(ctx context.Context) ([]DriftView, error) {
	es, err := d.s.eng.Baselines().ListDrift(ctx, memgov.DriftQuery{OpenOnly: true})
	if err != nil {
		return nil, err
	}
	var out []DriftView
	for _, e := range es {
		if !d.s.sees(e.MemoryRef) {
			continue
		}
		rep, err := d.s.eng.Baselines().DriftDiff(ctx, e.ID)
		if err != nil {
			rep = baselines.DriftReport{Event: e}
		}
		if rep.Baseline.ID == "" {
			if b, berr := d.s.eng.Baselines().ResolveBaseline(ctx, e.MemoryRef); berr == nil {
				rep.Baseline = b
			}
		}
		v := DriftView{DriftReport: rep, Err: err}
		alg := canon.SHA256
		if a, _, perr := canon.ParseDigest(e.ApprovedHash); perr == nil {
			alg = a
		}
		if info, herr := d.s.eng.Baselines().SnapshotHash(ctx, e.MemoryRef, alg); herr != nil {
			v.NowErr = herr
		} else {
			v.Now = info.Hash
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool {
		di, dj := out[i].Event.Policy == "deny-on-drift", out[j].Event.Policy == "deny-on-drift"
		if di != dj {
			return di
		}
		return out[i].Event.DetectedAt.After(out[j].Event.DetectedAt)
	})
	return out, nil
}

// CanAck returns nil when the actor may acknowledge drift of ref (operators
// and curators governing its tenant), and otherwise says why not.
func (d *Drift) CanAck(ref string) error {
	if a := d.s.actor; authz.Known(a) {
		if err := d.s.offer(authz.ActDriftAck, fmt.Sprintf("read-only: %s is %s %s; only an operator or a curator acknowledges drift", a.ID, article(string(a.Role)), a.Role)); err != nil {
			return err
		}
	}
	return d.s.authorize(ref)
}

// Resolutions of a drift episode.
const (
	Reapprove = "reapprove" // adopt the memory as it is now under a new baseline
	RollBack  = "rollback"  // restore the baseline's memory
)

// Ack resolves an open episode: Reapprove or RollBack. Either is log
// entries by the actor (compensating entries, then a baseline record).
func (d *Drift) Ack(ctx context.Context, v DriftView, resolution, note string) (memgov.AckResult, error) {
	if err := d.CanAck(v.Event.MemoryRef); err != nil {
		return memgov.AckResult{}, err
	}
	if resolution != Reapprove && resolution != RollBack {
		return memgov.AckResult{}, fmt.Errorf("%w: resolution %q: reapprove or rollback", memgov.ErrInvalid, resolution)
	}
	return d.s.eng.Baselines().AckDrift(ctx, memgov.AckRequest{DriftID: v.Event.ID, By: d.s.actor.ID, Resolution: resolution, Note: note})
}

// AckID resolves the open episode id: Ack for callers that hold only the
// episode's id (the CLI).
func (d *Drift) AckID(ctx context.Context, id, resolution, note string) (memgov.AckResult, error) {
	ev, err := d.s.eng.Baselines().DriftEvent(ctx, id)
	if err != nil {
		return memgov.AckResult{}, err
	}
	return d.Ack(ctx, DriftView{DriftReport: baselines.DriftReport{Event: ev}}, resolution, note)
}

// CanApprove returns nil when the actor may approve a baseline for ref:
// operators and curators governing its tenant.
func (d *Drift) CanApprove(ref string) error {
	if a := d.s.actor; authz.Known(a) {
		if err := d.s.offer(authz.ActBaselineApprove, fmt.Sprintf("read-only: %s is %s %s; only an operator or a curator approves baselines", a.ID, article(string(a.Role)), a.Role)); err != nil {
			return err
		}
	}
	return d.s.authorize(ref)
}

// ApproveBaseline approves r.MemoryRef's current memory as its baseline, by
// the actor (r.By is set to them). The engine checks the record's rules
// (type, TTL, policy, level, owner).
func (d *Drift) ApproveBaseline(ctx context.Context, r memgov.ApproveRequest) (memgov.Baseline, error) {
	if err := d.CanApprove(r.MemoryRef); err != nil {
		return memgov.Baseline{}, err
	}
	r.By = d.s.actor.ID
	return d.s.eng.Baselines().ApproveBaseline(ctx, r)
}

// VerifyBaselined checks every memoryRef that has a baseline of its own, so
// drift made behind memgov's back (rows edited with plain SQL) opens an
// episode while someone watches. It costs O(1) per ref when nothing changed.
func (d *Drift) VerifyBaselined(ctx context.Context) (int, error) {
	refs, err := d.s.eng.Host().Refs(ctx, memgov.Owner)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range refs {
		if _, err := d.s.eng.Baselines().Baseline(ctx, r.MemoryRef); err != nil {
			continue
		}
		res, err := d.s.eng.Baselines().VerifyMemory(ctx, memgov.VerifyRequest{MemoryRef: r.MemoryRef})
		if err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			continue
		}
		if res.Drift {
			n++
		}
	}
	return n, nil
}
