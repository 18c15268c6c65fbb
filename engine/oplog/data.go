package oplog

import (
	"encoding/json"
	"time"

	"github.com/memgov/memgov/engine/merkle"
)

// The typed data of every operation whose payload carries Data. The JSON of
// each type is part of the log format: a field's name, its omitempty and its
// value type may not change, or existing logs stop verifying (see the golden
// test).

// VersionData is the data of a version entry written through the pipeline
// (INSERT, UPDATE, MERGE, STAGE) and of the decisions on a staged version
// (APPROVE, REJECT).
type VersionData struct {
	IdempotencyToken string `json:"idempotency_token,omitempty"`
	// IdempotencyScope is the digest of what the token covered (memoryRef,
	// key, content, agent, layer): a replay of the token is compared with it.
	IdempotencyScope string `json:"idempotency_scope,omitempty"`
	RequestID        string `json:"request_id,omitempty"`
	RunID            string `json:"run_id,omitempty"`
	SessionID        string `json:"session_id,omitempty"`
	ObservationType  string `json:"observation_type,omitempty"`
	// Source is the provenance class of the write (spec §14
	// PROVENANCE_LEVELS: user_stated, tool_verified, agent_inferred,
	// recalled), from its evidence: reads report its trust level and
	// confidence decay applies to the decaying classes.
	Source     string        `json:"source,omitempty"`
	Residency  string        `json:"residency,omitempty"`
	Evidence   []EvidenceRef `json:"evidence,omitempty"`
	Provenance *Provenance   `json:"provenance,omitempty"`
	Review     *StagedReview `json:"review,omitempty"`
	Decision   *DecisionData `json:"decision,omitempty"`
	// Links are the near texts the write was kept beside (relation
	// NEAR_DUPLICATE): reads derive a version's links from its entry.
	Links []Link `json:"links,omitempty"`
}

// Link is one near text a version was kept beside, as the dedup gate read
// it: the version it is linked to and the judge rule that linked them.
type Link struct {
	Relation   string   `json:"relation"`
	ItemID     string   `json:"item_id"`
	VersionID  string   `json:"version_id"`
	Key        string   `json:"key"`
	Similarity float64  `json:"similarity,omitempty"`
	Rule       string   `json:"rule,omitempty"`
	RuleWords  []string `json:"rule_words,omitempty"`
}

// StagedReview is the review a STAGE entry opens.
type StagedReview struct {
	ID     string          `json:"id"`
	Tier   string          `json:"tier"`
	Risk   float64         `json:"risk"`
	Reason string          `json:"reason"`
	DueAt  string          `json:"due_at"`
	Detail json.RawMessage `json:"detail"`
}

// DecisionData is the human decision an APPROVE or REJECT entry records.
type DecisionData struct {
	ReviewID string `json:"review_id"`
	Code     string `json:"code,omitempty"`
	Note     string `json:"note,omitempty"`
}

// EvidenceRef is one piece of evidence a write cites (spec §12.4).
type EvidenceRef struct {
	SourceType   string     `json:"source_type"`
	SourceURI    string     `json:"source_uri,omitempty"`
	SourceItemID string     `json:"source_item_id,omitempty"`
	Authority    *float64   `json:"authority,omitempty"`
	AccessedAt   *time.Time `json:"accessed_at,omitempty"`
	Excerpt      string     `json:"excerpt,omitempty"`
}

// Provenance is the provenance record of a version (spec §12.4.2), HMAC-signed.
type Provenance struct {
	ProvenanceID          string        `json:"provenance_id"`
	MemoryItemID          string        `json:"memory_item_id"`
	SourceAgentID         string        `json:"source_agent_id"`
	SourceTaskID          string        `json:"source_task_id,omitempty"`
	SourceSessionID       string        `json:"source_session_id,omitempty"`
	RequestID             string        `json:"request_id,omitempty"`
	EvidenceRefs          []EvidenceRef `json:"evidence_refs"`
	EvidenceQuality       string        `json:"evidence_quality"`
	AgentConfidence       float64       `json:"agent_confidence"`
	AdjustedConfidence    float64       `json:"adjusted_confidence"`
	ValidationScore       float64       `json:"validation_score"`
	HumanApprovalState    string        `json:"human_approval_state"`
	ApproverID            string        `json:"approver_id,omitempty"`
	ApprovalTimestamp     string        `json:"approval_timestamp,omitempty"`
	ApprovalJustification string        `json:"approval_justification,omitempty"`
	CreatedAt             string        `json:"created_at"`
	Supersedes            string        `json:"supersedes,omitempty"`
	ContentHash           string        `json:"content_hash"`
	Signature             string        `json:"provenance_signature,omitempty"`
}

// ExpireData is the data of an EXPIRE entry written by garbage collection;
// an expiry by hand or by TTL carries none.
type ExpireData struct {
	GC string `json:"gc"` // the GC mode
}

// GC modes, the ExpireData.GC of an expiry (spec §12.7.4), and retention
// (spec §12.10.4).
const (
	GCModeTTL       = "ttl"
	GCModeRelevance = "relevance"
	GCModeRetention = "retention"
	GCModePinned    = "pinned"
	GCModeLinked    = "linked"
	GCModeGrace     = "grace" // hard delete after the grace period
	// GCModeConfidence expires an entry whose confidence decayed below the
	// policy's floor (spec §14.7).
	GCModeConfidence = "confidence"
	// GCModeSessionEnd expires WORKING memory when its session ends.
	GCModeSessionEnd = "session_end"
)

// PrincipalData is the data of a PRINCIPAL entry; the principal's id is the
// entry's item.
type PrincipalData struct {
	Role       string            `json:"role"`
	Tenant     string            `json:"tenant"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// AuditCheckpointRecord is a signed audit checkpoint, the data of an
// AUDIT_CHECKPOINT entry; LSN is that entry's position (zero when written).
type AuditCheckpointRecord struct {
	merkle.AuditCheckpoint
	Signature string `json:"signature"`
	LSN       int64  `json:"lsn"`
}

// MarshalJSON writes the checkpoint's agent-manifest fields with its signature
// and the LSN of the log entry that recorded it.
func (r AuditCheckpointRecord) MarshalJSON() ([]byte, error) {
	cp, err := r.AuditCheckpoint.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(cp, &m); err != nil {
		return nil, err
	}
	m["signature"], _ = json.Marshal(r.Signature)
	if r.LSN > 0 {
		m["lsn"], _ = json.Marshal(r.LSN)
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *AuditCheckpointRecord) UnmarshalJSON(b []byte) error {
	var extra struct {
		Signature string `json:"signature"`
		LSN       int64  `json:"lsn"`
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	delete(m, "signature")
	delete(m, "lsn")
	cp, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := r.AuditCheckpoint.UnmarshalJSON(cp); err != nil {
		return err
	}
	r.Signature, r.LSN = extra.Signature, extra.LSN
	return nil
}

// ClaimData is the data of CLAIM, RELEASE and ESCALATE entries.
type ClaimData struct {
	ReviewID string `json:"review_id"`
	Holder   string `json:"holder,omitempty"`
	Token    int64  `json:"token,omitempty"`
	Expires  string `json:"expires,omitempty"`
	Note     string `json:"note,omitempty"`
}

// ErasureData is the data of an ERASE entry. It names items and log
// positions, never the subject: SubjectHash is a salted SHA-256.
type ErasureData struct {
	Kind        string         `json:"kind"`
	RequestID   string         `json:"request_id"`
	SubjectHash string         `json:"subject_hash,omitempty"`
	RequestedAt string         `json:"requested_at"`
	Items       []string       `json:"items"`
	LSNs        []int64        `json:"lsns"`
	ByLayer     map[string]int `json:"by_layer"`
	// Left names the places the erasure could not reach: memoryRefs and
	// keys containing the subject's identifiers, which the log's chain
	// covers. Never the identifiers themselves. Non-empty: INCOMPLETE.
	Left []string `json:"left,omitempty"`
	// Skeletons binds the content-free skeleton that stands in for each
	// erased payload on replay (ErasedSkeleton): LSN -> payload hash of the
	// skeleton, so that an altered skeleton is detected like an altered
	// payload. ERASE entries written before it have none.
	Skeletons map[string]string `json:"skeletons,omitempty"`
}

// AnnotationData is the data of an ANNOTATE entry.
type AnnotationData struct {
	Kind string `json:"kind"`
	Note string `json:"note"`
}

// ReclassifyData is the data of a RECLASSIFY entry; the payload's Layer is
// the layer the item moves to.
type ReclassifyData struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// LeaseData is the data of LEASE_ACQUIRE (with ExpiresAt) and LEASE_RELEASE
// entries; the resource is the entry's memoryRef and Key.
type LeaseData struct {
	Key       string `json:"key"`
	Token     int64  `json:"token"`
	ExpiresAt string `json:"expires_at,omitempty"`
}

// WorkspaceData is the data of a WORKSPACE entry.
type WorkspaceData struct {
	Action  string          `json:"action"` // open, remove, submit, merge, reject
	ID      string          `json:"id,omitempty"`
	Name    string          `json:"name,omitempty"`
	BaseRef string          `json:"base_ref,omitempty"`
	BaseLSN int64           `json:"base_lsn,omitempty"`
	Key     string          `json:"key,omitempty"`
	Request json.RawMessage `json:"request,omitempty"`
}

// A BASELINE_APPROVE entry carries memgov.Baseline, the spec §3.2.6
// memory_baseline record, as its data: the record is defined once, with the
// domain's types, in the root package, and its JSON is this format (the
// golden test holds its bytes).

// DriftData is the data of a DRIFT_DETECTED entry: the MEMORY_DRIFT_DETECTED
// episode as it opens. memgov.DriftEvent embeds it and adds the
// acknowledgement a later DRIFT_ACK entry records.
type DriftData struct {
	ID           string    `json:"drift_id"`
	Event        string    `json:"event"` // MEMORY_DRIFT_DETECTED
	MemoryRef    string    `json:"memory_ref"`
	BaselineID   string    `json:"baseline_id"`
	Policy       string    `json:"policy"`
	Cause        string    `json:"cause"`
	ApprovedHash string    `json:"approved_hash"`
	CurrentHash  string    `json:"current_hash"`
	Detail       string    `json:"detail"`
	DetectedAt   time.Time `json:"detected_at"`
	LSN          int64     `json:"lsn"`
}

// DriftAckData is the data of a DRIFT_ACK entry.
type DriftAckData struct {
	DriftID       string `json:"drift_id"`
	Resolution    string `json:"resolution"`
	Note          string `json:"note,omitempty"`
	NewBaselineID string `json:"new_baseline_id,omitempty"`
}

// SessionData is the data of SESSION_START and SESSION_END entries.
type SessionData struct {
	SessionID string `json:"session_id"`
}

// DistillData is the data of a DISTILL entry (counts and ids only).
type DistillData struct {
	TokenBudget  int    `json:"tokenBudget"`
	TokensUsed   int    `json:"tokensUsed"`
	IndexUpdated bool   `json:"indexUpdated"`
	ArchiveKey   string `json:"archiveKey"`
	ArchiveHash  string `json:"archiveHash"`
	Sources      int    `json:"sources"`
}

// ConsolidateData is the data of a CONSOLIDATE entry.
type ConsolidateData struct {
	InputCount   int `json:"inputCount"`
	OutputCount  int `json:"outputCount"`
	Merged       int `json:"merged"`
	Superseded   int `json:"superseded"`
	Strengthened int `json:"strengthened"`
}

// CommitmentData is the data of COMMITMENT, COMMITMENT_FIRE and
// COMMITMENT_ARM entries.
type CommitmentData struct {
	ID              string          `json:"id"`
	Tenant          string          `json:"tenant,omitempty"`
	SourceVersionID string          `json:"sourceVersionId,omitempty"`
	Kind            string          `json:"kind,omitempty"`
	DueAt           string          `json:"dueAt,omitempty"`
	Predicate       json.RawMessage `json:"predicate,omitempty"`
}

// ProposalOwner is who a proposal belongs to.
type ProposalOwner struct {
	Tenant    string `json:"tenant"`
	Workspace string `json:"workspace,omitempty"`
	Principal string `json:"principal"`
}

// ProposalData is the data of the PROPOSAL_* entries.
type ProposalData struct {
	ID           string          `json:"id"`
	Kind         string          `json:"kind,omitempty"`
	Title        string          `json:"title,omitempty"`
	Artifact     json.RawMessage `json:"artifact,omitempty"`
	ArtifactHash string          `json:"artifactHash,omitempty"`
	Rationale    string          `json:"rationale,omitempty"`
	DuplicateOf  string          `json:"duplicateOf,omitempty"`
	Owner        *ProposalOwner  `json:"owner,omitempty"`
	SourceRunIDs []string        `json:"sourceRunIds,omitempty"`
	Gate         string          `json:"gate,omitempty"`
	Note         string          `json:"note,omitempty"`
}

// Actions of a QUARANTINE entry.
const (
	QuarantineHold    = "quarantine" // the version leaves every read
	QuarantineRelease = "release"    // a curator releases it: a new ACTIVE version with its content
	QuarantineRetract = "retract"    // a curator retracts it for good
)

// QuarantineData is the data of a QUARANTINE entry. A release entry's
// VersionID is the new version and its PrevVersionID the quarantined one.
type QuarantineData struct {
	Action string `json:"action"`
	Agent  string `json:"agent"` // the agent whose writes are quarantined
	Cause  string `json:"cause"` // why: the threshold crossed, or the curator's reason
}
