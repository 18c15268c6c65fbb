package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/authz"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/engine/redact"
	"github.com/memgov/memgov/engine/scope"
)

// Reviewable learning (spec §15.12). An agent's host may synthesise a
// reusable artifact and persist it as an inert Proposal for people to review.
// A proposal in any state but applied influences nothing: the only way to
// obtain an artifact for use is InstalledArtifact, which returns applied
// artifacts only, verified against the hash persisted at apply time. Every
// transition is a log entry; proposal.created and proposal.activated events
// carry ids, kind, tenant and hashes, never the artifact or the rationale.

// Proposal kinds.
var ProposalKinds = []string{"agent-pack", "workflow-chain-pack", "prompt-template", "automation"}

func validKind(k string) bool { return slices.Contains(ProposalKinds, k) }

// checkIdentifier refuses an identifier a person could be misled by (see
// guard.CheckIdentifier).
func checkIdentifier(what, s string) error {
	if err := guard.CheckIdentifier(what, s); err != nil {
		return fmt.Errorf("%w: %v", memgov.ErrInvalid, err)
	}
	return nil
}

// prepareArtifact validates, redacts and canonicalises an artifact and its
// rationale and run ids.
func (svc *Service) prepareArtifact(in *memgov.ProposalInput) (json.RawMessage, string, error) {
	if len(bytes.TrimSpace(in.Artifact)) == 0 {
		return nil, "", fmt.Errorf("%w: the proposal needs an artifact", memgov.ErrInvalid)
	}
	raw, err := canon.Canonicalize(in.Artifact)
	if err != nil {
		return nil, "", fmt.Errorf("%w: the artifact is not JSON: %v", memgov.ErrInvalid, err)
	}
	if err := checkIdentifier("title", in.Title); err != nil {
		return nil, "", err
	}
	if err := checkIdentifier("workspace", in.Workspace); err != nil {
		return nil, "", err
	}
	for _, r := range append([]string{in.RunID}, in.SourceRunIDs...) {
		if err := checkIdentifier("run id", r); err != nil {
			return nil, "", err
		}
	}
	red := svc.redactor(in.RunID)
	if raw, err = redactCanonical(raw, red); err != nil {
		return nil, "", err
	}
	in.Title = red.String(in.Title)
	in.Workspace = red.String(in.Workspace)
	// The rationale and the source run ids speak of the runs the artifact was
	// learnt from: they are redacted with the secrets registered for each of
	// those runs as well as the proposing run's and the global ones (SR-1).
	reds := []*redact.Redactor{red}
	for _, r := range in.SourceRunIDs {
		if r != in.RunID {
			reds = append(reds, svc.redactor(r))
		}
	}
	redactAll := func(s string) string {
		for _, r := range reds {
			s = r.String(s)
		}
		return s
	}
	in.Rationale = redactAll(in.Rationale)
	for i, r := range in.SourceRunIDs {
		in.SourceRunIDs[i] = redactAll(r)
	}
	if err := checkProposalContent(*in, raw); err != nil {
		return nil, "", err
	}
	return raw, oplog.HashPayload(raw), nil
}

func (svc *Service) appendProposalOp(ctx context.Context, tx memgov.Tx, op oplog.Op, actor, reason string, d oplog.ProposalData) (*oplog.Entry, error) {
	entry := &oplog.Entry{Time: svc.now(), Op: op, ItemID: d.ID, Actor: actor}
	return entry, oplog.AppendData(ctx, tx, entry, reason, d)
}

// CreateProposal persists a new draft proposal owned by actor.
func (svc *Service) CreateProposal(ctx context.Context, in memgov.ProposalInput, actor string) (memgov.Proposal, error) {
	if !validKind(in.Kind) {
		return memgov.Proposal{}, fmt.Errorf("%w: kind must be one of %s", memgov.ErrInvalid, strings.Join(ProposalKinds, ", "))
	}
	if in.Workspace != "" && !scope.ValidSegment(in.Workspace) {
		return memgov.Proposal{}, fmt.Errorf("%w: workspace must be 1-64 characters of A-Z a-z 0-9 . _ -", memgov.ErrInvalid)
	}
	raw, hash, err := svc.prepareArtifact(&in)
	if err != nil {
		return memgov.Proposal{}, err
	}
	var out memgov.Proposal
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		if err := authz.Require(ctx, tx, actor); err != nil {
			return err
		}
		p, err := tx.Principal(ctx, actor)
		if err != nil {
			return err
		}
		tenant := p.Tenant
		if tenant == memgov.AllTenants {
			if !scope.ValidSegment(in.Tenant) {
				return fmt.Errorf("%w: %s governs every tenant; name the proposal's tenant", memgov.ErrInvalid, actor)
			}
			tenant = in.Tenant
		} else if in.Tenant != "" && in.Tenant != tenant {
			return fmt.Errorf("%w: %s may not propose for tenant %s", memgov.ErrForbidden, actor, in.Tenant)
		}
		dup := in.DuplicateOf
		if dup != "" {
			d, err := tx.Proposal(ctx, dup)
			if err != nil || d.Owner.Tenant != tenant {
				return fmt.Errorf("%w: duplicateOf names no proposal of tenant %s", memgov.ErrInvalid, tenant)
			}
		} else {
			same, err := tx.Proposals(ctx, memgov.ProposalQuery{Tenant: tenant, Kind: in.Kind, ArtifactHash: hash, Limit: 50})
			if err != nil {
				return err
			}
			for _, s := range same {
				if s.State != memgov.ProposalRejected && s.State != memgov.ProposalArchived {
					dup = s.ID
					break
				}
			}
		}
		runs := in.SourceRunIDs
		if runs == nil {
			runs = []string{}
		}
		d := oplog.ProposalData{ID: oplog.NewID(), Kind: in.Kind, Title: in.Title, Artifact: raw, ArtifactHash: hash, Rationale: in.Rationale,
			DuplicateOf: dup, Owner: &oplog.ProposalOwner{Tenant: tenant, Workspace: in.Workspace, Principal: actor}, SourceRunIDs: runs}
		if _, err := svc.appendProposalOp(ctx, tx, oplog.ProposalCreate, actor, "proposal created", d); err != nil {
			return err
		}
		out, err = tx.Proposal(ctx, d.ID)
		return err
	})
	return out, err
}

// proposalFor loads a proposal and checks that actor may act on it: the
// owner principal, or a curator or operator governing its tenant.
func (svc *Service) proposalFor(ctx context.Context, tx memgov.ReadTx, id, actor string, ownerOK bool) (memgov.Proposal, memgov.Principal, error) {
	if err := authz.Require(ctx, tx, actor); err != nil {
		return memgov.Proposal{}, memgov.Principal{}, err
	}
	p, err := tx.Principal(ctx, actor)
	if err != nil {
		return memgov.Proposal{}, memgov.Principal{}, err
	}
	pr, err := tx.Proposal(ctx, id)
	if err != nil || !authz.Governs(p, pr.Owner.Tenant) {
		return memgov.Proposal{}, p, fmt.Errorf("%w: no proposal %s", memgov.ErrNotFound, safeID(id))
	}
	if !(ownerOK && pr.Owner.Principal == actor) && !authz.Human(p) {
		return pr, p, fmt.Errorf("%w: only the proposal's owner or a curator may do that", memgov.ErrForbidden)
	}
	return pr, p, nil
}

// ReviseProposal persists a new artifact (and rationale) for a draft or
// revised proposal; it becomes revised.
func (svc *Service) ReviseProposal(ctx context.Context, id string, in memgov.ProposalInput, actor string) (memgov.Proposal, error) {
	raw, hash, err := svc.prepareArtifact(&in)
	if err != nil {
		return memgov.Proposal{}, err
	}
	var out memgov.Proposal
	err = svc.store.Update(ctx, func(tx memgov.Tx) error {
		pr, _, err := svc.proposalFor(ctx, tx, id, actor, true)
		if err != nil {
			return err
		}
		if pr.State != memgov.ProposalDraft && pr.State != memgov.ProposalRevised {
			return fmt.Errorf("%w: proposal %s is %s; only draft or revised proposals can be revised", memgov.ErrConflict, pr.ID, pr.State)
		}
		// The proposal's own source runs redact the new rationale too.
		for _, r := range pr.Provenance.SourceRunIDs {
			in.Rationale = svc.redactor(r).String(in.Rationale)
		}
		d := oplog.ProposalData{ID: pr.ID, Artifact: raw, ArtifactHash: hash, Rationale: in.Rationale}
		if _, err := svc.appendProposalOp(ctx, tx, oplog.ProposalRevise, actor, "proposal revised", d); err != nil {
			return err
		}
		out, err = tx.Proposal(ctx, pr.ID)
		return err
	})
	return out, err
}

// ApplyResult reports an apply: Status is the HTTP-style status of the host
// surface (200 applied, 403 refused, 409 wrong state).
type ApplyResult struct {
	Status        int    `json:"status"`
	ProposalID    string `json:"proposalId"`
	State         string `json:"state,omitempty"`
	Activation    string `json:"activation,omitempty"`
	ArtifactHash  string `json:"artifactHash,omitempty"`
	InstalledHash string `json:"installedHash,omitempty"`
	Error         string `json:"error,omitempty"`
}

// ApplyProposal installs a draft or revised proposal's last persisted
// artifact, byte for byte (no re-synthesis). It is authorised only through
// the policy's activation mode (see authz.ActivationGate): the approval gate — a
// curator of the tenant other than the owner grants it by applying — or direct
// RBAC — a principal of the tenant whose attribute "scopes" (comma or space
// separated) holds proposal:activate — never both. Anyone else is refused
// with Status 403 and an error wrapping memgov.ErrForbidden; nothing is written.
func (svc *Service) ApplyProposal(ctx context.Context, id, actor string) (ApplyResult, error) {
	res := ApplyResult{ProposalID: id}
	err := svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		if err := authz.Require(ctx, tx, actor); err != nil {
			return err
		}
		p, err := tx.Principal(ctx, actor)
		if err != nil {
			return err
		}
		pr, err := tx.Proposal(ctx, id)
		if err != nil || !authz.Governs(p, pr.Owner.Tenant) {
			return fmt.Errorf("%w: no proposal %s", memgov.ErrNotFound, safeID(id))
		}
		if authz.ActsFor(p, pr.Owner.Principal) {
			res.Status, res.Error = http.StatusForbidden, "forbidden: the owner of a proposal may not activate it"
			return fmt.Errorf("%w: rule SELF-REVIEW (%s): %s owns this proposal (or acts for its owner) and may not activate it", memgov.ErrForbidden, authz.ActProposalActivate, actor)
		}
		gate, err := authz.ActivationGate(svc.policy.Proposals.Activation, p, pr)
		if err != nil {
			res.Status, res.Error = http.StatusForbidden, "forbidden: "+strings.TrimPrefix(err.Error(), memgov.ErrForbidden.Error()+": ")
			return err
		}
		if pr.State != memgov.ProposalDraft && pr.State != memgov.ProposalRevised {
			res.Status, res.State, res.Error = http.StatusConflict, pr.State, "conflict: proposal is "+pr.State
			return fmt.Errorf("%w: proposal %s is %s; only draft or revised proposals can be applied", memgov.ErrConflict, pr.ID, pr.State)
		}
		if oplog.HashPayload(pr.Artifact) != pr.ArtifactHash {
			return fmt.Errorf("%w: proposal %s: the stored artifact does not match its hash", memgov.ErrTampered, pr.ID)
		}
		d := oplog.ProposalData{ID: pr.ID, ArtifactHash: pr.ArtifactHash, Gate: gate}
		if _, err := svc.appendProposalOp(ctx, tx, oplog.ProposalApply, actor, "proposal applied ("+gate+")", d); err != nil {
			return err
		}
		after, err := tx.Proposal(ctx, pr.ID)
		if err != nil {
			return err
		}
		res = ApplyResult{Status: http.StatusOK, ProposalID: pr.ID, State: after.State, Activation: gate,
			ArtifactHash: after.ArtifactHash, InstalledHash: after.InstalledHash}
		return nil
	})
	return res, err
}

func (svc *Service) closeProposal(ctx context.Context, op oplog.Op, id, actor, note string) (memgov.Proposal, error) {
	var out memgov.Proposal
	err := svc.store.Update(ctx, func(tx memgov.Tx) (err error) {
		pr, _, err := svc.proposalFor(ctx, tx, id, actor, op == oplog.ProposalArchive)
		if err != nil {
			return err
		}
		ok := pr.State == memgov.ProposalDraft || pr.State == memgov.ProposalRevised || op == oplog.ProposalArchive && pr.State == memgov.ProposalRejected
		if !ok {
			return fmt.Errorf("%w: proposal %s is %s", memgov.ErrConflict, pr.ID, pr.State)
		}
		what := "rejected"
		if op == oplog.ProposalArchive {
			what = "archived"
		}
		if _, err := svc.appendProposalOp(ctx, tx, op, actor, "proposal "+what, oplog.ProposalData{ID: pr.ID, Note: note}); err != nil {
			return err
		}
		out, err = tx.Proposal(ctx, pr.ID)
		return err
	})
	return out, err
}

// RejectProposal refuses a draft or revised proposal (a curator or operator).
func (svc *Service) RejectProposal(ctx context.Context, id, actor, note string) (memgov.Proposal, error) {
	return svc.closeProposal(ctx, oplog.ProposalReject, id, actor, note)
}

// ArchiveProposal retires a draft, revised or rejected proposal (its owner,
// a curator or an operator).
func (svc *Service) ArchiveProposal(ctx context.Context, id, actor, note string) (memgov.Proposal, error) {
	return svc.closeProposal(ctx, oplog.ProposalArchive, id, actor, note)
}

// ListProposals lists proposals, newest first. Set q.Tenant to bound the
// list to one tenant (the TUI passes its principal's).
func (svc *Service) ListProposals(ctx context.Context, q memgov.ProposalQuery) ([]memgov.Proposal, error) {
	out := []memgov.Proposal{}
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		list, err := tx.Proposals(ctx, q)
		if err == nil && list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// ShowProposal returns a proposal with its revision history (oldest first).
// A tenant other than "" or "*" hides other tenants' proposals (ErrNotFound).
func (svc *Service) ShowProposal(ctx context.Context, id, tenant string) (memgov.Proposal, []memgov.ProposalRevision, error) {
	var (
		pr   memgov.Proposal
		revs []memgov.ProposalRevision
	)
	err := svc.store.View(ctx, func(tx memgov.ReadTx) (err error) {
		if pr, err = tx.Proposal(ctx, id); err != nil {
			return err
		}
		if tenant != "" && tenant != memgov.AllTenants && pr.Owner.Tenant != tenant {
			return fmt.Errorf("%w: no proposal %s", memgov.ErrNotFound, safeID(id))
		}
		revs, err = tx.ProposalRevisions(ctx, id)
		return err
	})
	if err != nil {
		return memgov.Proposal{}, nil, err
	}
	return pr, revs, nil
}

// InstalledArtifact returns the artifact an applied proposal installed, after
// checking its bytes against the hash recorded at apply time. Proposals in any
// other state have no installed artifact (ErrNotFound): they are inert.
func (svc *Service) InstalledArtifact(ctx context.Context, id string) (json.RawMessage, error) {
	pr, _, err := svc.ShowProposal(ctx, id, "")
	if err != nil {
		return nil, err
	}
	if pr.State != memgov.ProposalApplied || pr.InstalledHash == "" {
		return nil, fmt.Errorf("%w: proposal %s is %s, not applied", memgov.ErrNotFound, pr.ID, pr.State)
	}
	if oplog.HashPayload(pr.Artifact) != pr.InstalledHash {
		return nil, fmt.Errorf("%w: proposal %s: the installed artifact does not match its hash", memgov.ErrTampered, pr.ID)
	}
	return pr.Artifact, nil
}

// InstalledArtifacts lists the applied proposals of a tenant: the only
// proposals a run may consult.
func (svc *Service) InstalledArtifacts(ctx context.Context, tenant, kind string) ([]memgov.Proposal, error) {
	return svc.ListProposals(ctx, memgov.ProposalQuery{Tenant: tenant, Kind: kind, State: memgov.ProposalApplied})
}
