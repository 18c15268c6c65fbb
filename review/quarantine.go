package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
)

// Quarantine is what curators see and decide of quarantined memory (spec §12.11.5):
// the writes of an agent that crossed a burst or contradiction threshold,
// withheld from every read and kept for investigation.
type Quarantine struct{ s *Service }

// Quarantine returns the quarantine service.
func (s *Service) Quarantine() *Quarantine { return &Quarantine{s} }

// QuarantineView is one quarantined version with its content, for a curator.
type QuarantineView struct {
	memgov.QuarantineEntry
	Text string `json:"text"`
}

// List returns the quarantined versions of the tenants the actor sees; status
// "" lists open ones (QUARANTINED), "all" every status.
func (q *Quarantine) List(ctx context.Context, status, agent string) ([]QuarantineView, error) {
	switch strings.ToUpper(status) {
	case "":
		status = memgov.QuarantineOpen
	case "ALL":
		status = ""
	case memgov.QuarantineOpen, memgov.QuarantineReleased, memgov.QuarantineRetracted:
		status = strings.ToUpper(status)
	default:
		return nil, fmt.Errorf("%w: status is one of quarantined, released, retracted, all", memgov.ErrInvalid)
	}
	rs, err := q.s.eng.Reviews().Quarantined(ctx, memgov.QuarantineQuery{Status: status, Agent: agent, Tenant: authz.ConsoleTenant(q.s.actor)})
	if err != nil {
		return nil, err
	}
	out := []QuarantineView{}
	for _, r := range rs {
		if !q.s.sees(r.MemoryRef) {
			continue
		}
		v := QuarantineView{QuarantineEntry: r}
		if ver, err := q.s.eng.Host().Version(ctx, memgov.Owner, r.VersionID); err == nil {
			v.Text = ver.Text()
		}
		out = append(out, v)
	}
	return out, nil
}

// Open counts the open quarantined versions the actor sees.
func (q *Quarantine) Open(ctx context.Context) (int, error) {
	rs, err := q.s.eng.Reviews().Quarantined(ctx, memgov.QuarantineQuery{Status: memgov.QuarantineOpen, Tenant: authz.ConsoleTenant(q.s.actor)})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rs {
		if q.s.sees(r.MemoryRef) {
			n++
		}
	}
	return n, nil
}

// CanDecide says whether the actor may release or retract e, and why not:
// only open entries, only by curators who govern its tenant (the engine's
// rule; operators read the quarantine but do not decide it).
func (q *Quarantine) CanDecide(e memgov.QuarantineEntry) error {
	if e.Status != memgov.QuarantineOpen {
		return fmt.Errorf("%w: already %s", memgov.ErrInvalid, strings.ToLower(e.Status))
	}
	if err := q.s.authorize(e.MemoryRef); err != nil {
		return err
	}
	if a := q.s.actor; !authz.IsCurator(a) {
		return &ForbiddenError{Msg: fmt.Sprintf("only curators release or retract quarantined memory; %s is %s %s", a.ID, article(string(a.Role)), a.Role)}
	}
	return nil
}

// Release puts a quarantined version back: a new ACTIVE version with its
// content. A note is required.
func (q *Quarantine) Release(ctx context.Context, versionID, note string) (memgov.Version, error) {
	if err := q.decide(ctx, versionID, note); err != nil {
		return memgov.Version{}, err
	}
	return q.s.eng.Reviews().ReleaseQuarantine(ctx, versionID, q.s.actor.ID, note)
}

// Retract retracts a quarantined version for good. A note is required.
func (q *Quarantine) Retract(ctx context.Context, versionID, note string) error {
	if err := q.decide(ctx, versionID, note); err != nil {
		return err
	}
	return q.s.eng.Reviews().RetractQuarantine(ctx, versionID, q.s.actor.ID, note)
}

func (q *Quarantine) decide(ctx context.Context, versionID, note string) error {
	if strings.TrimSpace(note) == "" {
		return memgov.Inputf(memgov.ErrInvalid, "reason", "say why")
	}
	rs, err := q.s.eng.Reviews().Quarantined(ctx, memgov.QuarantineQuery{VersionID: versionID})
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("%w: no quarantined version %s; the quarantine list names the versions held", memgov.ErrNotFound, versionID)
	}
	return q.s.authorize(rs[0].MemoryRef)
}
