package review

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/host"
)

// Proposals are the reviewable artifacts agents' hosts synthesise (agent
// packs, workflow chains, prompt templates, automations), as one person sees
// them: those of the tenants they govern. A proposal is inert until applied;
// applying installs its last persisted artifact byte for byte.
type Proposals struct{ s *Service }

var _ ProposalService = (*Proposals)(nil)

// StateOpen filters for proposals waiting for a decision (draft or revised).
const StateOpen = "open"

// ProposalFilter narrows the list. Zero values match everything; State may
// be StateOpen.
type ProposalFilter struct {
	State string
	Kind  string
}

// String is the filter as the filter bar reads and writes it: "state=open kind=automation".
func (f ProposalFilter) String() string {
	var parts []string
	if f.State != "" {
		parts = append(parts, "state="+f.State)
	}
	if f.Kind != "" {
		parts = append(parts, "kind="+f.Kind)
	}
	return strings.Join(parts, " ")
}

// ParseProposalFilter reads "state=STATE kind=KIND" (either may be left out).
func ParseProposalFilter(s string) (ProposalFilter, error) {
	var f ProposalFilter
	for _, w := range strings.Fields(s) {
		k, v, _ := strings.Cut(w, "=")
		switch strings.ToLower(k) {
		case "state":
			v = strings.ToLower(v)
			switch v {
			case StateOpen, memgov.ProposalDraft, memgov.ProposalRevised, memgov.ProposalApplied, memgov.ProposalRejected, memgov.ProposalArchived:
				f.State = v
			default:
				return f, fmt.Errorf("%w: state %q: open, draft, revised, applied, rejected or archived", memgov.ErrInvalid, v)
			}
		case "kind":
			if !has(host.ProposalKinds, v) {
				return f, fmt.Errorf("%w: kind %q: %s", memgov.ErrInvalid, v, strings.Join(host.ProposalKinds, ", "))
			}
			f.Kind = v
		default:
			return f, fmt.Errorf("%w: %q: use state= or kind=", memgov.ErrInvalid, w)
		}
	}
	return f, nil
}

func has(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Open reports whether a proposal still waits for a decision.
func Open(p memgov.Proposal) bool {
	return p.State == memgov.ProposalDraft || p.State == memgov.ProposalRevised
}

// ProposalView is a proposal with its revision history, oldest first.
type ProposalView struct {
	memgov.Proposal
	Revisions []memgov.ProposalRevision
}

// tenant bounds every query to the actor's tenant; installation-wide
// principals and people memgov does not know see every tenant.
func (p *Proposals) tenant() string {
	return authz.ConsoleTenant(p.s.actor)
}

// maxProposals bounds one list: the screen shows the newest this many.
const maxProposals = 1000

// Pending counts the open (draft or revised) proposals the actor sees.
func (p *Proposals) Pending(ctx context.Context) (int, error) {
	n := 0
	for _, st := range []string{memgov.ProposalDraft, memgov.ProposalRevised} {
		ps, err := p.s.eng.Host().ListProposals(ctx, memgov.ProposalQuery{Tenant: p.tenant(), State: st, Limit: maxProposals})
		if err != nil {
			return 0, err
		}
		n += len(ps)
	}
	return n, nil
}

// List returns the proposals matching f: open ones first, then the most
// recently changed.
func (p *Proposals) List(ctx context.Context, f ProposalFilter) ([]memgov.Proposal, error) {
	states := []string{f.State}
	if f.State == StateOpen {
		states = []string{memgov.ProposalDraft, memgov.ProposalRevised}
	}
	var out []memgov.Proposal
	for _, st := range states {
		ps, err := p.s.eng.Host().ListProposals(ctx, memgov.ProposalQuery{Tenant: p.tenant(), State: st, Kind: f.Kind, Limit: maxProposals})
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if oi, oj := Open(out[i]), Open(out[j]); oi != oj {
			return oi
		}
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// Show returns a proposal with its revision history.
func (p *Proposals) Show(ctx context.Context, id string) (ProposalView, error) {
	pr, revs, err := p.s.eng.Host().ShowProposal(ctx, id, p.tenant())
	return ProposalView{Proposal: pr, Revisions: revs}, err
}

// governs refuses people who may not decide in the proposal's tenant.
func (p *Proposals) governs(pr memgov.Proposal) error {
	a := p.s.actor
	if !authz.Known(a) {
		return p.s.CanAct()
	}
	if !authz.Governs(a, pr.Owner.Tenant) {
		return &ForbiddenError{Msg: fmt.Sprintf("read-only here: %s governs tenant %s, not %s", a.ID, a.Tenant, pr.Owner.Tenant)}
	}
	return nil
}

// CanApply returns nil when the actor may apply pr now, and otherwise why
// not: applying goes through the policy's one activation mode (the engine's
// ActivationGate): a curator who is not the proposal's owner (approval-gate)
// or a principal holding the proposal:activate scope (direct-rbac); and a
// draft or revised proposal.
func (p *Proposals) CanApply(pr memgov.Proposal) error {
	if err := p.governs(pr); err != nil {
		return err
	}
	a := p.s.actor
	mode := p.s.eng.Policy().Proposals.Activation
	if _, err := authz.ActivationGate(mode, a, pr); err != nil {
		switch {
		case mode == policy.ActivationApprovalGate && authz.IsCurator(a):
			return &ForbiddenError{Msg: fmt.Sprintf("%s owns this proposal; another curator must apply it", a.ID)}
		case mode == policy.ActivationApprovalGate:
			return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is %s %s; applying needs a curator who is not the owner (activation is %s)",
				a.ID, article(string(a.Role)), a.Role, mode)}
		default:
			return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s does not hold the %s scope (activation is %s)", a.ID, authz.ScopeProposalActivate, mode)}
		}
	}
	if !Open(pr) {
		return fmt.Errorf("%w: the proposal is %s; only draft or revised proposals can be applied", memgov.ErrConflict, pr.State)
	}
	return nil
}

// CanReject returns nil when the actor may reject pr: curators and
// operators, while it is draft or revised.
func (p *Proposals) CanReject(pr memgov.Proposal) error {
	if err := p.governs(pr); err != nil {
		return err
	}
	if a := p.s.actor; !authz.Human(a) {
		return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is %s %s; only curators and operators reject proposals", a.ID, article(string(a.Role)), a.Role)}
	}
	if !Open(pr) {
		return fmt.Errorf("%w: the proposal is %s; only draft or revised proposals can be rejected", memgov.ErrConflict, pr.State)
	}
	return nil
}

// CanArchive returns nil when the actor may archive pr: its owner, a curator
// or an operator, while it is draft, revised or rejected.
func (p *Proposals) CanArchive(pr memgov.Proposal) error {
	a := p.s.actor
	if !authz.Known(a) || a.ID != pr.Owner.Principal {
		if err := p.governs(pr); err != nil {
			return err
		}
		if !authz.Human(a) {
			return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is %s %s; only the owner, curators and operators archive proposals", a.ID, article(string(a.Role)), a.Role)}
		}
	}
	if !Open(pr) && pr.State != memgov.ProposalRejected {
		return fmt.Errorf("%w: the proposal is %s; only draft, revised or rejected proposals can be archived", memgov.ErrConflict, pr.State)
	}
	return nil
}

// Apply installs the proposal's last persisted artifact. A refusal is an
// error (matching memgov.ErrForbidden) and a result with Status 403; nothing
// is written.
func (p *Proposals) Apply(ctx context.Context, pr memgov.Proposal) (host.ApplyResult, error) {
	if err := p.CanApply(pr); err != nil {
		res := host.ApplyResult{ProposalID: pr.ID, State: pr.State, Status: 409, Error: err.Error()}
		if _, ok := err.(*ForbiddenError); ok {
			res.Status = 403
		}
		return res, err
	}
	return p.s.eng.Host().ApplyProposal(ctx, pr.ID, p.s.actor.ID)
}

// Reject refuses the proposal with a note.
func (p *Proposals) Reject(ctx context.Context, pr memgov.Proposal, note string) (memgov.Proposal, error) {
	if err := p.CanReject(pr); err != nil {
		return pr, err
	}
	return p.s.eng.Host().RejectProposal(ctx, pr.ID, p.s.actor.ID, note)
}

// Archive retires the proposal with a note.
func (p *Proposals) Archive(ctx context.Context, pr memgov.Proposal, note string) (memgov.Proposal, error) {
	if err := p.CanArchive(pr); err != nil {
		return pr, err
	}
	return p.s.eng.Host().ArchiveProposal(ctx, pr.ID, p.s.actor.ID, note)
}
