package memgov

import (
	"context"
	"encoding/json"
	"time"

	"github.com/memgov/memgov/engine/oplog"
)

// ProposalReader reads proposals (reviewed changes to skills, policy and
// other artifacts) and their revisions.
type ProposalReader interface {
	// Proposals returns the proposals of q.Tenant ("" or "*": every tenant)
	// with q.State, q.Kind and q.ArtifactHash (each when set), newest first,
	// at most q.Limit (0: 200).
	Proposals(ctx context.Context, q ProposalQuery) ([]Proposal, error)
	// Proposal returns the proposal with id at its latest revision; an
	// unknown id is ErrNotFound.
	Proposal(ctx context.Context, id string) (Proposal, error)
	// ProposalRevisions returns every revision of proposal id, by revision
	// number; an unknown id has none.
	ProposalRevisions(ctx context.Context, id string) ([]ProposalRevision, error)
}

// Proposal states.
const (
	ProposalDraft    = "draft"
	ProposalRevised  = "revised"
	ProposalRejected = "rejected"
	ProposalArchived = "archived"
	ProposalApplied  = "applied"
)

// ProposalProvenance points at the runs the artifact was learnt from.
type ProposalProvenance struct {
	SourceRunIDs []string `json:"sourceRunIds"`
}

// Proposal is a reviewable, inert artifact.
type Proposal struct {
	ID            string              `json:"id"`
	Kind          string              `json:"kind"`
	State         string              `json:"state"`
	Title         string              `json:"title,omitempty"`
	Artifact      json.RawMessage     `json:"artifact"`
	ArtifactHash  string              `json:"artifactHash"`
	Rationale     string              `json:"rationale,omitempty"`
	DuplicateOf   string              `json:"duplicateOf,omitempty"`
	Owner         oplog.ProposalOwner `json:"owner"`
	Provenance    ProposalProvenance  `json:"provenance"`
	Revision      int                 `json:"revision"`
	InstalledHash string              `json:"installedHash,omitempty"`
	DecidedBy     string              `json:"decidedBy,omitempty"`
	Gate          string              `json:"activation,omitempty"`
	Note          string              `json:"note,omitempty"`
	CreatedAt     time.Time           `json:"createdAt"`
	UpdatedAt     time.Time           `json:"updatedAt"`
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
