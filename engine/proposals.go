package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/oplog"
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

// Proposal states.
const (
	ProposalDraft    = "draft"
	ProposalRevised  = "revised"
	ProposalApplied  = "applied"
	ProposalRejected = "rejected"
	ProposalArchived = "archived"
)

// Activation modes and the direct-rbac scope.
const (
	ActivationApprovalGate = "approval-gate"
	ActivationDirectRBAC   = "direct-rbac"
	ScopeProposalActivate  = "proposal:activate"
)

// ProposalOwner is the spec §15.12 owner of a proposal.
type ProposalOwner = oplog.ProposalOwner

// ProposalProvenance points at the runs the artifact was learnt from.
type ProposalProvenance struct {
	SourceRunIDs []string `json:"sourceRunIds"`
}

// Proposal is a reviewable, inert artifact.
type Proposal struct {
	ID            string             `json:"id"`
	Kind          string             `json:"kind"`
	State         string             `json:"state"`
	Title         string             `json:"title,omitempty"`
	Artifact      json.RawMessage    `json:"artifact"`
	ArtifactHash  string             `json:"artifactHash"`
	Rationale     string             `json:"rationale,omitempty"`
	DuplicateOf   string             `json:"duplicateOf,omitempty"`
	Owner         ProposalOwner      `json:"owner"`
	Provenance    ProposalProvenance `json:"provenance"`
	Revision      int                `json:"revision"`
	InstalledHash string             `json:"installedHash,omitempty"`
	DecidedBy     string             `json:"decidedBy,omitempty"`
	Gate          string             `json:"activation,omitempty"`
	Note          string             `json:"note,omitempty"`
	CreatedAt     time.Time          `json:"createdAt"`
	UpdatedAt     time.Time          `json:"updatedAt"`
}

// ProposalRevision is one persisted artifact of a proposal.
type ProposalRevision struct {
	Revision     int             `json:"revision"`
	Artifact     json.RawMessage `json:"artifact"`
	ArtifactHash string          `json:"artifactHash"`
	Rationale    string          `json:"rationale,omitempty"`
	By           string          `json:"by"`
	At           time.Time       `json:"at"`
	LSN          int64           `json:"lsn"`
}

// ProposalQuery selects proposals.
type ProposalQuery struct {
	Tenant       string // "" or "*": every tenant
	State        string
	Kind         string
	ArtifactHash string
	Limit        int // 0: 200
}

// ProposalInput creates or revises a proposal.
type ProposalInput struct {
	Kind         string
	Title        string
	Artifact     json.RawMessage // a JSON value, stored canonical
	Rationale    string
	SourceRunIDs []string
	Workspace    string
	Tenant       string // needed only when the actor governs every tenant
	DuplicateOf  string // "": detected (same tenant, kind and artifact hash)
	RunID        string // whose secrets are redacted (SR-1), with the global ones
}

func validKind(k string) bool {
	for _, x := range ProposalKinds {
		if x == k {
			return true
		}
	}
	return false
}

// prepareArtifact validates, redacts and canonicalises an artifact and its
// rationale and run ids.
func (e *Engine) prepareArtifact(in *ProposalInput) (json.RawMessage, string, error) {
	if len(bytes.TrimSpace(in.Artifact)) == 0 {
		return nil, "", fmt.Errorf("%w: the proposal needs an artifact", ErrInvalid)
	}
	raw, err := canon.Canonicalize(in.Artifact)
	if err != nil {
		return nil, "", fmt.Errorf("%w: the artifact is not JSON: %v", ErrInvalid, err)
	}
	if err := CheckIdentifier("title", in.Title); err != nil {
		return nil, "", err
	}
	if err := CheckIdentifier("workspace", in.Workspace); err != nil {
		return nil, "", err
	}
	for _, r := range append([]string{in.RunID}, in.SourceRunIDs...) {
		if err := CheckIdentifier("run id", r); err != nil {
			return nil, "", err
		}
	}
	red := e.redactor(in.RunID)
	if raw, err = redactCanonical(raw, red); err != nil {
		return nil, "", err
	}
	in.Rationale = red.String(in.Rationale)
	in.Title = red.String(in.Title)
	in.Workspace = red.String(in.Workspace)
	for i, r := range in.SourceRunIDs {
		in.SourceRunIDs[i] = red.String(r)
	}
	if err := checkProposalContent(*in, raw); err != nil {
		return nil, "", err
	}
	return raw, HashPayload(raw), nil
}

func (e *Engine) appendProposalOp(ctx context.Context, tx Tx, op Op, actor, reason string, d oplog.ProposalData) (*LogEntry, error) {
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	entry := &LogEntry{Time: e.Now(), Op: op, ItemID: d.ID, Actor: actor}
	if err := entry.Seal(Payload{Reason: reason, Data: data}); err != nil {
		return nil, err
	}
	return entry, tx.Append(ctx, entry)
}

// CreateProposal persists a new draft proposal owned by actor.
func (e *Engine) CreateProposal(ctx context.Context, in ProposalInput, actor string) (Proposal, error) {
	if !validKind(in.Kind) {
		return Proposal{}, fmt.Errorf("%w: kind must be one of %s", ErrInvalid, strings.Join(ProposalKinds, ", "))
	}
	if in.Workspace != "" && !scope.ValidSegment(in.Workspace) {
		return Proposal{}, fmt.Errorf("%w: workspace must be 1-64 characters of A-Z a-z 0-9 . _ -", ErrInvalid)
	}
	raw, hash, err := e.prepareArtifact(&in)
	if err != nil {
		return Proposal{}, err
	}
	var out Proposal
	err = e.store.Update(ctx, func(tx Tx) error {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		p, err := tx.Principal(ctx, actor)
		if err != nil {
			return err
		}
		tenant := p.Tenant
		if tenant == AllTenants {
			if !scope.ValidSegment(in.Tenant) {
				return fmt.Errorf("%w: %s governs every tenant; name the proposal's tenant", ErrInvalid, actor)
			}
			tenant = in.Tenant
		} else if in.Tenant != "" && in.Tenant != tenant {
			return fmt.Errorf("%w: %s may not propose for tenant %s", ErrForbidden, actor, in.Tenant)
		}
		dup := in.DuplicateOf
		if dup != "" {
			d, err := tx.Proposal(ctx, dup)
			if err != nil || d.Owner.Tenant != tenant {
				return fmt.Errorf("%w: duplicateOf names no proposal of tenant %s", ErrInvalid, tenant)
			}
		} else {
			same, err := tx.Proposals(ctx, ProposalQuery{Tenant: tenant, Kind: in.Kind, ArtifactHash: hash, Limit: 50})
			if err != nil {
				return err
			}
			for _, s := range same {
				if s.State != ProposalRejected && s.State != ProposalArchived {
					dup = s.ID
					break
				}
			}
		}
		runs := in.SourceRunIDs
		if runs == nil {
			runs = []string{}
		}
		d := oplog.ProposalData{ID: NewID(), Kind: in.Kind, Title: in.Title, Artifact: raw, ArtifactHash: hash, Rationale: in.Rationale,
			DuplicateOf: dup, Owner: &ProposalOwner{Tenant: tenant, Workspace: in.Workspace, Principal: actor}, SourceRunIDs: runs}
		if _, err := e.appendProposalOp(ctx, tx, OpProposalCreate, actor, "proposal created", d); err != nil {
			return err
		}
		out, err = tx.Proposal(ctx, d.ID)
		return err
	})
	return out, err
}

// proposalFor loads a proposal and checks that actor may act on it: the
// owner principal, or a curator or operator governing its tenant.
func (e *Engine) proposalFor(ctx context.Context, tx ReadTx, id, actor string, ownerOK bool) (Proposal, Principal, error) {
	if err := requirePrincipal(ctx, tx, actor); err != nil {
		return Proposal{}, Principal{}, err
	}
	p, err := tx.Principal(ctx, actor)
	if err != nil {
		return Proposal{}, Principal{}, err
	}
	pr, err := tx.Proposal(ctx, id)
	if err != nil || !p.Governs(pr.Owner.Tenant) {
		return Proposal{}, p, fmt.Errorf("%w: no proposal %s", ErrNotFound, safeID(id))
	}
	if !(ownerOK && pr.Owner.Principal == actor) && !p.Role.Human() {
		return pr, p, fmt.Errorf("%w: only the proposal's owner or a curator may do that", ErrForbidden)
	}
	return pr, p, nil
}

// ReviseProposal persists a new artifact (and rationale) for a draft or
// revised proposal; it becomes revised.
func (e *Engine) ReviseProposal(ctx context.Context, id string, in ProposalInput, actor string) (Proposal, error) {
	raw, hash, err := e.prepareArtifact(&in)
	if err != nil {
		return Proposal{}, err
	}
	var out Proposal
	err = e.store.Update(ctx, func(tx Tx) error {
		pr, _, err := e.proposalFor(ctx, tx, id, actor, true)
		if err != nil {
			return err
		}
		if pr.State != ProposalDraft && pr.State != ProposalRevised {
			return fmt.Errorf("%w: proposal %s is %s; only draft or revised proposals can be revised", ErrConflict, pr.ID, pr.State)
		}
		d := oplog.ProposalData{ID: pr.ID, Artifact: raw, ArtifactHash: hash, Rationale: in.Rationale}
		if _, err := e.appendProposalOp(ctx, tx, OpProposalRevise, actor, "proposal revised", d); err != nil {
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
// the approval gate — a curator of the tenant other than the owner grants it
// by applying — or direct RBAC — a principal of the tenant whose attribute
// "scopes" (comma or space separated) holds proposal:activate. Anyone else is
// refused with Status 403 and an error wrapping ErrForbidden; nothing is
// written.
func (e *Engine) ApplyProposal(ctx context.Context, id, actor string) (ApplyResult, error) {
	res := ApplyResult{ProposalID: id}
	err := e.store.Update(ctx, func(tx Tx) (err error) {
		if err := requirePrincipal(ctx, tx, actor); err != nil {
			return err
		}
		p, err := tx.Principal(ctx, actor)
		if err != nil {
			return err
		}
		pr, err := tx.Proposal(ctx, id)
		if err != nil || !p.Governs(pr.Owner.Tenant) {
			return fmt.Errorf("%w: no proposal %s", ErrNotFound, safeID(id))
		}
		if ActsFor(p, pr.Owner.Principal) {
			res.Status, res.Error = http.StatusForbidden, "forbidden: the owner of a proposal may not activate it"
			return fmt.Errorf("%w: rule SELF-REVIEW (%s): %s owns this proposal (or acts for its owner) and may not activate it", ErrForbidden, ActProposalActivate, actor)
		}
		var gate string
		switch {
		case p.Role == Curator && actor != pr.Owner.Principal:
			gate = ActivationApprovalGate
		case HasScope(p, ScopeProposalActivate):
			gate = ActivationDirectRBAC
		default:
			res.Status, res.Error = http.StatusForbidden, "forbidden: apply needs a curator's approval or the proposal:activate scope"
			return fmt.Errorf("%w: %s may not activate proposals (a curator approves, or a principal holds %s)", ErrForbidden, actor, ScopeProposalActivate)
		}
		if pr.State != ProposalDraft && pr.State != ProposalRevised {
			res.Status, res.State, res.Error = http.StatusConflict, pr.State, "conflict: proposal is "+pr.State
			return fmt.Errorf("%w: proposal %s is %s; only draft or revised proposals can be applied", ErrConflict, pr.ID, pr.State)
		}
		if HashPayload(pr.Artifact) != pr.ArtifactHash {
			return fmt.Errorf("%w: proposal %s: the stored artifact does not match its hash", ErrTampered, pr.ID)
		}
		d := oplog.ProposalData{ID: pr.ID, ArtifactHash: pr.ArtifactHash, Gate: gate}
		if _, err := e.appendProposalOp(ctx, tx, OpProposalApply, actor, "proposal applied ("+gate+")", d); err != nil {
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

// HasScope reports whether a principal's "scopes" attribute holds scope.
func HasScope(p Principal, scope string) bool {
	for _, s := range strings.FieldsFunc(p.Attributes["scopes"], func(r rune) bool { return r == ',' || r == ' ' }) {
		if s == scope {
			return true
		}
	}
	return false
}

func (e *Engine) closeProposal(ctx context.Context, op Op, id, actor, note string) (Proposal, error) {
	var out Proposal
	err := e.store.Update(ctx, func(tx Tx) (err error) {
		pr, _, err := e.proposalFor(ctx, tx, id, actor, op == OpProposalArchive)
		if err != nil {
			return err
		}
		ok := pr.State == ProposalDraft || pr.State == ProposalRevised || op == OpProposalArchive && pr.State == ProposalRejected
		if !ok {
			return fmt.Errorf("%w: proposal %s is %s", ErrConflict, pr.ID, pr.State)
		}
		what := "rejected"
		if op == OpProposalArchive {
			what = "archived"
		}
		if _, err := e.appendProposalOp(ctx, tx, op, actor, "proposal "+what, oplog.ProposalData{ID: pr.ID, Note: note}); err != nil {
			return err
		}
		out, err = tx.Proposal(ctx, pr.ID)
		return err
	})
	return out, err
}

// RejectProposal refuses a draft or revised proposal (a curator or operator).
func (e *Engine) RejectProposal(ctx context.Context, id, actor, note string) (Proposal, error) {
	return e.closeProposal(ctx, OpProposalReject, id, actor, note)
}

// ArchiveProposal retires a draft, revised or rejected proposal (its owner,
// a curator or an operator).
func (e *Engine) ArchiveProposal(ctx context.Context, id, actor, note string) (Proposal, error) {
	return e.closeProposal(ctx, OpProposalArchive, id, actor, note)
}

// ListProposals lists proposals, newest first. Set q.Tenant to bound the
// list to one tenant (the TUI passes its principal's).
func (e *Engine) ListProposals(ctx context.Context, q ProposalQuery) ([]Proposal, error) {
	out := []Proposal{}
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
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
func (e *Engine) ShowProposal(ctx context.Context, id, tenant string) (Proposal, []ProposalRevision, error) {
	var (
		pr   Proposal
		revs []ProposalRevision
	)
	err := e.store.View(ctx, func(tx ReadTx) (err error) {
		if pr, err = tx.Proposal(ctx, id); err != nil {
			return err
		}
		if tenant != "" && tenant != AllTenants && pr.Owner.Tenant != tenant {
			return fmt.Errorf("%w: no proposal %s", ErrNotFound, safeID(id))
		}
		revs, err = tx.ProposalRevisions(ctx, id)
		return err
	})
	if err != nil {
		return Proposal{}, nil, err
	}
	return pr, revs, nil
}

// InstalledArtifact returns the artifact an applied proposal installed, after
// checking its bytes against the hash recorded at apply time. Proposals in any
// other state have no installed artifact (ErrNotFound): they are inert.
func (e *Engine) InstalledArtifact(ctx context.Context, id string) (json.RawMessage, error) {
	pr, _, err := e.ShowProposal(ctx, id, "")
	if err != nil {
		return nil, err
	}
	if pr.State != ProposalApplied || pr.InstalledHash == "" {
		return nil, fmt.Errorf("%w: proposal %s is %s, not applied", ErrNotFound, pr.ID, pr.State)
	}
	if HashPayload(pr.Artifact) != pr.InstalledHash {
		return nil, fmt.Errorf("%w: proposal %s: the installed artifact does not match its hash", ErrTampered, pr.ID)
	}
	return pr.Artifact, nil
}

// InstalledArtifacts lists the applied proposals of a tenant: the only
// proposals a run may consult.
func (e *Engine) InstalledArtifacts(ctx context.Context, tenant, kind string) ([]Proposal, error) {
	return e.ListProposals(ctx, ProposalQuery{Tenant: tenant, Kind: kind, State: ProposalApplied})
}
