package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/memory"
)

// WriteRequest is a memory write request (spec §12.1.3), as agents and
// hosts send it: snake_case JSON.
type WriteRequest struct {
	RequestID        string          `json:"request_id,omitempty"`
	SourceAgentID    string          `json:"source_agent_id"`
	MemoryRef        string          `json:"memory_ref"`
	Key              string          `json:"key,omitempty"`
	TargetLayer      Layer           `json:"target_layer"`
	Content          json.RawMessage `json:"content"`
	Tags             []string        `json:"tags,omitempty"`
	EvidenceRefs     []EvidenceRef   `json:"evidence_refs,omitempty"`
	Confidence       *float64        `json:"confidence,omitempty"`
	ObservationType  string          `json:"observation_type,omitempty"`
	Classification   string          `json:"classification,omitempty"`
	TTLSeconds       *int64          `json:"ttl_seconds,omitempty"`
	IdempotencyToken string          `json:"idempotency_token,omitempty"`
	Deadline         *time.Time      `json:"deadline,omitempty"`
	RunID            string          `json:"run_id,omitempty"`
	SessionID        string          `json:"session_id,omitempty"`
	Residency        string          `json:"residency,omitempty"`
	// FencingToken is the token of the write lease the writer holds on
	// memory_ref#key (`memgov lease acquire` prints it, spec §12.8.3).
	FencingToken *int64 `json:"fencing_token,omitempty"`

	raw []byte // the request as received, for the schema gate
}

// EvidenceRef is one piece of evidence behind a write (spec §12.4.3).
type EvidenceRef = memory.EvidenceRef

// MaxRequestBytes bounds one encoded write request.
const MaxRequestBytes = 1 << 20

// DecodeWriteRequest decodes one JSON write request. Unknown fields and
// trailing data are errors, as are JSON that decoding would change (a lone
// surrogate escape, an integer a JSON number cannot carry exactly) and a
// key CheckKey refuses; the schema gate reports field-level problems.
func DecodeWriteRequest(raw []byte) (WriteRequest, error) {
	var r WriteRequest
	if len(raw) > MaxRequestBytes {
		return r, fmt.Errorf("%w: the request is %d bytes; the limit is %d", ErrInvalid, len(raw), MaxRequestBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("%w: the request is not a valid write request: %v", ErrInvalid, err)
	}
	if dec.More() {
		return r, fmt.Errorf("%w: unexpected data after the request (use --batch for JSON lines)", ErrInvalid)
	}
	if err := CheckExactJSON("the request", raw); err != nil {
		return r, err
	}
	if err := CheckKey(r.Key); err != nil {
		return r, err
	}
	r.raw = append([]byte(nil), bytes.TrimSpace(raw)...)
	return r, nil
}

// Write statuses (spec §12.1.6).
const (
	StatusCommitted        = memory.StatusCommitted
	StatusMerged           = memory.StatusMerged
	StatusAlreadyCommitted = memory.StatusAlreadyCommitted
	StatusRejected         = memory.StatusRejected
	StatusDeferred         = memory.StatusDeferred
	StatusDeadlineExceeded = memory.StatusDeadlineExceeded
	StatusDenied           = memory.StatusDenied
)

// Reason codes of write outcomes.
const (
	ReasonSchemaInvalid     = gate.ReasonSchemaInvalid
	ReasonInvalidRef        = gate.ReasonInvalidRef
	ReasonNotAdmissible     = gate.ReasonNotAdmissible
	ReasonContentPolicy     = gate.ReasonContentPolicy
	ReasonLowFactual        = gate.ReasonLowFactual
	ReasonSelfReferential   = gate.ReasonSelfReferential
	ReasonNoExternal        = gate.ReasonNoExternal
	ReasonProvenanceCycle   = gate.ReasonProvenanceCycle
	ReasonContradiction     = gate.ReasonContradiction
	ReasonExactDuplicate    = gate.ReasonExactDuplicate
	ReasonStructuralDup     = gate.ReasonStructuralDup
	ReasonSemanticDuplicate = gate.ReasonSemanticDuplicate
	ReasonSemanticConflict  = gate.ReasonSemanticConflict
	ReasonRateLimited       = gate.ReasonRateLimited
	ReasonSessionBudget     = gate.ReasonSessionBudget
	ReasonUnauthorized      = gate.ReasonUnauthorized
	ReasonSuspended         = gate.ReasonSuspended
	ReasonDriftDenied       = gate.ReasonDriftDenied
	ReasonApprovalTimeout   = "APPROVAL_TIMEOUT"
	ReasonDeadline          = gate.ReasonDeadline
	ReasonReviewRejected    = "REVIEW_REJECTED"
	ReasonLayerConflict     = gate.ReasonLayerConflict
)

// WriteResult is what a write returns to the agent or host.
type WriteResult struct {
	Status          string   `json:"status"`
	Reason          string   `json:"reason,omitempty"`
	Gate            string   `json:"gate,omitempty"`
	ItemID          string   `json:"item_id,omitempty"`
	VersionID       string   `json:"version_id,omitempty"`
	ReviewID        string   `json:"review_id,omitempty"`
	RetryAfter      *float64 `json:"retry_after,omitempty"` // seconds
	ValidationScore *float64 `json:"validation_score,omitempty"`
	RiskScore       *float64 `json:"risk_score,omitempty"`

	Key     string   `json:"key,omitempty"`
	Tier    string   `json:"tier,omitempty"`
	Detail  string   `json:"detail,omitempty"`
	Related []string `json:"related,omitempty"` // contradicting or duplicate item keys
	Alerts  []string `json:"alerts,omitempty"`
	LSN     int64    `json:"lsn,omitempty"`
	// NeedsVerification flags a low-confidence write (spec §14.4): readers
	// see the flag, and a curator sees it in the review.
	NeedsVerification bool `json:"needs_verification,omitempty"`
}

// Accepted reports whether the write is (or already was) in memory.
func (r WriteResult) Accepted() bool {
	return r.Status == StatusCommitted || r.Status == StatusMerged || r.Status == StatusAlreadyCommitted
}

func f64(v float64) *float64 { return &v }
