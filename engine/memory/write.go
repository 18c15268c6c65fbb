package memory

import (
	"encoding/json"
	"time"

	"github.com/memgov/memgov/engine/oplog"
)

// Write statuses (spec §12.1.6).
const (
	StatusCommitted        = "COMMITTED"
	StatusMerged           = "MERGED"
	StatusAlreadyCommitted = "ALREADY_COMMITTED"
	StatusRejected         = "REJECTED"
	StatusDeferred         = "DEFERRED"
	StatusDeadlineExceeded = "DEADLINE_EXCEEDED"
	StatusDenied           = "DENIED"
)

// EvidenceRef is one piece of evidence behind a write (spec §12.4.3).
type EvidenceRef = oplog.EvidenceRef

// RelatedItem is an existing item a write contradicts or duplicates, shown
// side by side with the new one.
type RelatedItem struct {
	Relation   string  `json:"relation"` // CONTRADICTS, DUPLICATES, NEAR_DUPLICATE, SUPERSEDES
	ItemID     string  `json:"item_id"`
	VersionID  string  `json:"version_id"`
	Key        string  `json:"key"`
	Text       string  `json:"text"`
	OldText    string  `json:"old_text,omitempty"` // CONFLICTS_WITH: the text when the workspace was opened
	Similarity float64 `json:"similarity,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	State      State   `json:"state"`
	// Rule names the judge rule behind the relation (a row of
	// judge.RuleTable, e.g. "role-swap"), and RuleWords the words that
	// fired it.
	Rule      string   `json:"rule,omitempty"`
	RuleWords []string `json:"rule_words,omitempty"`
}

// Candidate is an indexed version the dedup and contradiction gates compare
// a write against.
type Candidate struct {
	VersionID   string
	ItemID      string
	Key         string
	Layer       Layer
	State       State
	ContentHash string
	Fingerprint []byte
	Subject     string
	Predicate   string
	Object      string
	Embedding   []byte
	Text        string
	Confidence  float64
	CreatedBy   string
}

// CandidateQuery selects candidates within one memoryRef, in every durable
// layer (contradictions cross layers; the dedup gate keeps to its own).
type CandidateQuery struct {
	MemoryRef   string
	ContentHash string
	Fingerprint []byte
	Bands       []uint32 // band number << 16 | value
	Subject     string
	Limit       int
}

// IdempotencyRecord is a registered idempotency token.
type IdempotencyRecord struct {
	Status    string
	ItemID    string
	VersionID string
	ReviewID  string
	Key       string
	// Scope is the digest of what the token covered (gate.Scope); "" for a
	// token registered before memgov kept it.
	Scope     string
	CreatedAt time.Time
}

// Provenance is the provenance record of a version (spec §12.4.2), HMAC-signed.
type Provenance = oplog.Provenance

// Lease is a write lease on one memory entry (spec §12.8.3).
type Lease struct {
	Resource  string    `json:"resource"`
	MemoryRef string    `json:"memory_ref"`
	Key       string    `json:"key"`
	Holder    string    `json:"holder"`
	Token     int64     `json:"fencing_token"`
	GrantedAt time.Time `json:"granted_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Released  bool      `json:"released,omitempty"`
}

// WorkspaceOpen is the status of a workspace that still takes writes.
const WorkspaceOpen = "OPEN"

// Workspace is an agent's copy-on-write workspace over a shared memoryRef (spec §12.8.4).
type Workspace struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Ref       string          `json:"ref"`
	BaseRef   string          `json:"base_ref"`
	Owner     string          `json:"owner"`
	BaseLSN   int64           `json:"base_lsn"`
	Status    string          `json:"status"`
	Request   json.RawMessage `json:"merge_request,omitempty"`
	DecidedBy string          `json:"decided_by,omitempty"`
	CreatedAt time.Time       `json:"created_at"`
}
