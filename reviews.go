package memgov

import (
	"context"
	"encoding/json"
	"time"
)

// ReviewReader reads the human review queue that deferred writes enter and
// reviewers' decisions leave.
type ReviewReader interface {
	// Review returns the review with id; an unknown id is ErrNotFound.
	Review(ctx context.Context, id string) (Review, error)
	// Reviews returns the reviews whose status is one of q.Statuses (none:
	// PENDING and ESCALATED) and that match every other field set in q,
	// ordered by tier and risk (both descending), then creation time and id,
	// with q.Limit/q.Offset paging (Limit 0: all); total counts every match.
	Reviews(ctx context.Context, q ReviewQuery) (rs []Review, total int, err error)
	// AgentRecord counts agent's APPROVED reviews and its REJECTED reviews
	// other than those rejected for APPROVAL_TIMEOUT.
	AgentRecord(ctx context.Context, agent string) (approved, rejected int, err error)
	// OpenReviewOf returns the id of the PENDING or ESCALATED review of
	// versionID, or "" when it has none.
	OpenReviewOf(ctx context.Context, versionID string) (string, error)
}

// Decision is a person's decision on a review.
type Decision struct {
	ReviewID string
	Reviewer string
	Approve  bool
	Code     string // reason code, required to reject (RejectCodes)
	Note     string
	Token    int64 // the fencing token of the reviewer's claim; 0 when unclaimed
}

// Review tiers (spec §12.6.2) and statuses.
const (
	TierSync        = "SYNC_BLOCK"
	ReviewPending   = "PENDING"
	ReviewEscalated = "ESCALATED"
	ReviewApproved  = "APPROVED"
	ReviewRejected  = "REJECTED"
)

// Review is a deferred write waiting for a person.
type Review struct {
	ID           string          `json:"review_id"`
	VersionID    string          `json:"version_id"`
	ItemID       string          `json:"item_id"`
	MemoryRef    string          `json:"memory_ref"`
	Tenant       string          `json:"tenant"`
	Layer        Layer           `json:"layer"`
	Agent        string          `json:"agent"`
	Tier         string          `json:"tier"`
	Risk         float64         `json:"risk"`
	Reason       string          `json:"reason"`
	Detail       json.RawMessage `json:"detail"`
	Status       string          `json:"status"`
	CreatedAt    time.Time       `json:"created_at"`
	DueAt        time.Time       `json:"due_at"`
	DecidedBy    string          `json:"decided_by,omitempty"`
	DecidedAt    *time.Time      `json:"decided_at,omitempty"`
	DecisionCode string          `json:"decision_code,omitempty"`
	Note         string          `json:"note,omitempty"`
	ClaimHolder  string          `json:"claim_holder,omitempty"`
	ClaimToken   int64           `json:"claim_token,omitempty"`
	ClaimExpires time.Time       `json:"claim_expires,omitzero"`
}

// Open reports whether the review still waits for a decision.
func (r Review) Open() bool { return r.Status == ReviewPending || r.Status == ReviewEscalated }

// ReviewQuery filters and pages the queue.
type ReviewQuery struct {
	Statuses []string // default: PENDING and ESCALATED
	Layer    Layer
	Tier     string
	Agent    string
	Tenant   string
	Reason   string
	MinAge   time.Duration
	Breached bool // only reviews past their SLA or deadline
	// Text is free text: every word must occur, ignoring case, in the
	// review's text (the write's key, memoryRef, agent, reason, the detail's
	// reasons, findings and superseded key, and the write's text).
	Text string
	// Order is the order of the rows: ReviewOrderRisk (SYNC_BLOCK first, then
	// risk, then age), ReviewOrderAge (oldest first) or ReviewOrderSLA (the
	// nearest deadline or SLA first); ties keep the risk order.
	Order  string
	Now    time.Time
	Limit  int
	Offset int
}

// The orders of a ReviewQuery.
const (
	ReviewOrderRisk = ""
	ReviewOrderAge  = "age"
	ReviewOrderSLA  = "sla"
)

// Outcome is one write outcome, recorded for the quality metrics.
type Outcome struct {
	At        time.Time
	Agent     string
	Layer     Layer
	MemoryRef string
	SessionID string
	Status    string
	Reason    string
	Gate      string
	Latency   time.Duration
	Stages    map[string]time.Duration
}
