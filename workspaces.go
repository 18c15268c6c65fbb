package memgov

import (
	"context"
)

// WorkspaceReader reads agents' workspaces (a private memoryRef over a base
// ref) and their merge requests.
type WorkspaceReader interface {
	// WorkspaceByID returns the workspace with id; an unknown id is
	// ErrNotFound.
	WorkspaceByID(ctx context.Context, id string) (Workspace, error)
	// WorkspaceByRef returns the workspace whose memoryRef is ref; found is
	// false when there is none.
	WorkspaceByRef(ctx context.Context, ref string) (ws Workspace, found bool, err error)
	// WorkspaceList returns the workspaces of tenant ("" or "*": every
	// tenant) by creation time, then ref.
	WorkspaceList(ctx context.Context, tenant string) ([]Workspace, error)
	// WorkspaceTouched returns the keys the workspace ref has written (items
	// of ref in any state) and the keys it removed from its base.
	WorkspaceTouched(ctx context.Context, ref string) (written, removed map[string]bool, err error)
	// WorkspaceOfReview names the workspace, key and change kind of a merge
	// request review; found is false for any other review.
	WorkspaceOfReview(ctx context.Context, reviewID string) (ref, key, kind string, found bool, err error)
	// WorkspaceReviewCounts counts the open (PENDING or ESCALATED) and the
	// APPROVED reviews of ref's merge request.
	WorkspaceReviewCounts(ctx context.Context, ref string) (open, approved int, err error)
}

// Workspace statuses.
const (
	WorkspaceSubmitted = "SUBMITTED"
	WorkspaceMerged    = "MERGED"
	WorkspaceRejected  = "REJECTED"
)

// WorkspaceChange is one key of a merge request.
type WorkspaceChange struct {
	Key      string `json:"key"`
	Kind     string `json:"kind"`
	Layer    Layer  `json:"layer"`
	Text     string `json:"text,omitempty"`      // the workspace's text (empty for REMOVED)
	BaseText string `json:"base_text,omitempty"` // the base's text at the snapshot
	Conflict bool   `json:"conflict"`
	// The DRAFT on the base ref and its review (set by SubmitWorkspace).
	ItemID    string `json:"item_id,omitempty"`
	VersionID string `json:"version_id,omitempty"`
	ReviewID  string `json:"review_id,omitempty"`
}

// MergeRequest is a workspace's changeset against its base.
type MergeRequest struct {
	WorkspaceID string            `json:"workspace_id"`
	Ref         string            `json:"ref"`
	BaseRef     string            `json:"base_ref"`
	BaseLSN     int64             `json:"base_lsn"`
	Changes     []WorkspaceChange `json:"changes"`
	Conflicts   []RelatedItem     `json:"conflicts"`
}
