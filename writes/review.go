package writes

import (
	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
)

// Review tiers (spec §12.6.2) and statuses.
const (
	TierAuto  = "AUTO_APPROVE"
	TierAsync = "ASYNC_REVIEW"
)

// ReviewDetail is what a reviewer needs to decide, stored with the review.
type ReviewDetail struct {
	Reasons         []string             `json:"reasons"`
	Risk            []RiskFactorView     `json:"risk_factors"`
	RiskFormula     string               `json:"risk_formula"`
	Factual         *FactualView         `json:"factual,omitempty"`
	Evidence        []oplog.EvidenceRef  `json:"evidence,omitempty"`
	Related         []memgov.RelatedItem `json:"related,omitempty"`
	Provenance      *oplog.Provenance    `json:"provenance,omitempty"`
	ValidationScore float64              `json:"validation_score"`
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
