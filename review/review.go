// Package review is memgov's console for people: what one curator or
// operator reads and decides, as the TUI, the CLI's human commands and the
// doors present it. They call this package, never the store. Every decision
// it makes is a call to an engine service that appends a log entry with the
// actor, the time and the reason.
//
// It is the presentation side of review. The package reviews (plural) is
// the service that decides: approvals and rejections, claims, the
// fail-closed rejection of SYNC_BLOCK reviews, quarantine
// (engine.Engine.Reviews). The review queue (Queue) and quarantine
// (Quarantine) call it; drift acknowledgement (Drift) and proposals
// (Proposals) call the engine's baselines and proposals.
package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/scope"
	"github.com/memgov/memgov/host"
)

// ProposalService is the seam for proposals; *Proposals is the engine's.
type ProposalService interface {
	// Pending returns how many proposals wait for activation.
	Pending(ctx context.Context) (int, error)
	List(ctx context.Context, f ProposalFilter) ([]memgov.Proposal, error)
	Show(ctx context.Context, id string) (ProposalView, error)
	CanApply(memgov.Proposal) error
	CanReject(memgov.Proposal) error
	CanArchive(memgov.Proposal) error
	Apply(ctx context.Context, p memgov.Proposal) (host.ApplyResult, error)
	Reject(ctx context.Context, p memgov.Proposal, note string) (memgov.Proposal, error)
	Archive(ctx context.Context, p memgov.Proposal, note string) (memgov.Proposal, error)
}

// Service is the human-in-the-loop service for one person.
type Service struct {
	eng       *engine.Engine
	actor     memgov.Principal
	proposals ProposalService
}

// Option configures a Service.
type Option func(*Service)

// WithProposals wires proposals.
func WithProposals(p ProposalService) Option { return func(s *Service) { s.proposals = p } }

// New returns the service acting as actor. An actor with an empty Role is a
// person memgov does not know: they may read, never decide.
func New(eng *engine.Engine, actor memgov.Principal, opts ...Option) *Service {
	s := &Service{eng: eng, actor: actor}
	s.proposals = &Proposals{s}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Identify returns the principal registered as name, or an unregistered
// principal (empty Role) that the service treats as read-only.
func Identify(ctx context.Context, eng *engine.Engine, name string) (memgov.Principal, error) {
	p, err := eng.Principal(ctx, name)
	if errors.Is(err, memgov.ErrNotFound) {
		return memgov.Principal{ID: name}, nil
	}
	return p, err
}

// Actor returns who the service acts as.
func (s *Service) Actor() memgov.Principal { return s.actor }

// Proposals returns the proposals service.
func (s *Service) Proposals() ProposalService { return s.proposals }

// ForbiddenError says why the actor may only read. It matches
// memgov.ErrForbidden with errors.Is.
type ForbiddenError struct {
	Msg string
	// Next, when set, is what would let Principal decide, in memgov's
	// terms; the CLI and the TUI name the command that does it.
	Next      Next
	Principal string
}

// Next is what a person with authority does to lift a refusal.
type Next string

const (
	// NextRegister: a curator or operator registers the principal.
	NextRegister Next = "register"
	// NextReinstate: a curator or operator reinstates the suspended principal.
	NextReinstate Next = "reinstate"
)

func (e *ForbiddenError) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, memgov.ErrForbidden) hold.
func (e *ForbiddenError) Unwrap() error { return memgov.ErrForbidden }

// CanAct returns nil when the actor may make decisions (a registered person,
// curator or operator, not suspended: authz.Human), and otherwise a
// ForbiddenError that says why the UI is read-only.
func (s *Service) CanAct() error {
	switch {
	case !authz.Known(s.actor):
		return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is not a registered principal; a curator or operator registers it", s.actor.ID),
			Next: NextRegister, Principal: s.actor.ID}
	case !authz.Human(s.actor):
		return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is %s %s; only curators and operators decide", s.actor.ID, article(string(s.actor.Role)), s.actor.Role)}
	case s.actor.Suspended:
		return &ForbiddenError{Msg: fmt.Sprintf("read-only: %s is suspended; a curator or operator reinstates it", s.actor.ID),
			Next: NextReinstate, Principal: s.actor.ID}
	}
	return nil
}

// offer returns nil when authz offers the actor action a (authz.Checker.Offered),
// and otherwise a ForbiddenError: why, when the rule's Who refuses the actor's
// role, or authz's own reason.
func (s *Service) offer(a authz.Action, why string) error {
	err := s.eng.Authz().Offered(s.actor, a)
	switch {
	case err == nil:
		return nil
	case !authz.Known(s.actor) || s.actor.Suspended:
		return s.CanAct()
	case authz.WhoMay(s.actor, a) != nil:
		return &ForbiddenError{Msg: why}
	}
	return &ForbiddenError{Msg: "read-only: " + strings.TrimPrefix(err.Error(), memgov.ErrForbidden.Error()+": ")}
}

// authorize checks that the actor may decide about memory of ref.
func (s *Service) authorize(ref string) error {
	if err := s.CanAct(); err != nil {
		return err
	}
	r, err := scope.Parse(ref)
	if err != nil {
		return fmt.Errorf("%w: memory ref", memgov.ErrInvalid)
	}
	if !authz.Governs(s.actor, r.Tenant) {
		return &ForbiddenError{Msg: fmt.Sprintf("read-only here: rule CTI-1: %s governs tenant %s, not another tenant's memory", s.actor.ID, s.actor.Tenant)}
	}
	return nil
}

// sees reports whether the actor reads ref at the console (authz.Sees):
// people memgov does not know, and installation-wide principals, read every
// tenant (the database file is theirs to read anyway).
func (s *Service) sees(ref string) bool {
	if authz.ConsoleTenant(s.actor) == "" {
		return true
	}
	r, err := scope.Parse(ref)
	return err == nil && authz.Sees(s.actor, r.Tenant)
}

func article(w string) string {
	if w != "" && (w[0] == 'a' || w[0] == 'e' || w[0] == 'i' || w[0] == 'o' || w[0] == 'u') {
		return "an"
	}
	return "a"
}

// Count is a number of things needing attention, or Available false while the
// service that counts them has not landed.
type Count struct {
	N         int
	Available bool
}

// Attention is what needs a person now.
type Attention struct {
	Queue, Drift, Proposals Count
	// Quarantine is the open quarantined versions the actor sees.
	Quarantine Count
	LogSize    int64
}

// Attention counts what needs attention: open reviews, open drift episodes
// and proposals (unavailable until that service lands), and the log's size,
// the cheap check for "anything new".
func (s *Service) Attention(ctx context.Context) (Attention, error) {
	var a Attention
	var err error
	if a.Queue.N, err = s.Queue().Pending(ctx); err != nil {
		return a, fmt.Errorf("review queue: %w", err)
	}
	a.Queue.Available = true
	if a.Drift.N, err = s.Drift().Open(ctx); err != nil {
		return a, fmt.Errorf("drift: %w", err)
	}
	a.Drift.Available = true
	if s.proposals != nil {
		if a.Proposals.N, err = s.proposals.Pending(ctx); err != nil {
			return a, fmt.Errorf("proposals: %w", err)
		}
		a.Proposals.Available = true
	}
	if a.Quarantine.N, err = s.Quarantine().Open(ctx); err != nil {
		return a, fmt.Errorf("quarantine: %w", err)
	}
	a.Quarantine.Available = true
	a.LogSize, err = s.eng.Audit().LogSize(ctx)
	return a, err
}
