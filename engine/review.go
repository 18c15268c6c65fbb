package engine

import (
	"encoding/json"
	"time"

	"github.com/memgov/memgov/engine/memory"
)

// Review tiers (spec §12.6.2) and statuses.
const (
	TierAuto  = "AUTO_APPROVE"
	TierAsync = "ASYNC_REVIEW"
	TierSync  = "SYNC_BLOCK"

	ReviewPending   = "PENDING"
	ReviewEscalated = "ESCALATED"
	ReviewApproved  = "APPROVED"
	ReviewRejected  = "REJECTED"
)

// Review decision reason codes (spec §12.6.7).
var RejectCodes = []string{"FACTUAL_ERROR", "POLICY_VIOLATION", "DUPLICATE", "CONTRADICTION", "PII", "OUT_OF_SCOPE", "OTHER"}

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

// ReviewDetail is what a reviewer needs to decide, stored with the review.
type ReviewDetail struct {
	Reasons         []string         `json:"reasons"`
	Risk            []RiskFactorView `json:"risk_factors"`
	RiskFormula     string           `json:"risk_formula"`
	Factual         *FactualView     `json:"factual,omitempty"`
	Evidence        []EvidenceRef    `json:"evidence,omitempty"`
	Related         []RelatedItem    `json:"related,omitempty"`
	Provenance      *Provenance      `json:"provenance,omitempty"`
	ValidationScore float64          `json:"validation_score"`
	// Findings say what the gates that deferred the write found, for the
	// curator: "near-duplicate of k that differs: "to berlin" in one
	// text, "from berlin" in the other".
	Findings   []string `json:"findings,omitempty"`
	Supersedes string   `json:"supersedes,omitempty"` // key of the item it would supersede
	// NeedsVerification flags a low-confidence write (spec §14.4): its
	// confidence is below the policy's verify_below. The flag is also the
	// last of Reasons, so every view of the reasons shows it.
	NeedsVerification bool `json:"needs_verification,omitempty"`
}

// ReasonNeedsVerification is the review reason of a low-confidence write.
const ReasonNeedsVerification = "NEEDS_VERIFICATION"

// RiskFactorView is one term of R(w).
type RiskFactorView struct {
	Name         string  `json:"name"`
	Weight       float64 `json:"weight"`
	Value        float64 `json:"value"`
	Contribution float64 `json:"contribution"`
}

// FactualView is the evidence gate's score next to its threshold.
type FactualView struct {
	Score     float64 `json:"score"`
	Threshold float64 `json:"threshold"`
	Pass      bool    `json:"pass"`
}

// RelatedItem is an existing item a write contradicts or duplicates, shown
// side by side with the new one.
type RelatedItem = memory.RelatedItem

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

// Candidate is an indexed version the dedup and contradiction gates compare
// a write against.
type Candidate = memory.Candidate

// CandidateQuery selects candidates within one memoryRef, in every durable
// layer (contradictions cross layers; the dedup gate keeps to its own).
type CandidateQuery = memory.CandidateQuery

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

// IdempotencyRecord is a registered idempotency token.
type IdempotencyRecord = memory.IdempotencyRecord
