package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/canon"
)

// Lifecycle operations (seed 001 12.7, 12.8, 12.10; seed 003 audit posture).
const (
	OpErase        Op = "ERASE"         // payloads removed: subject erasure, GC hard delete, retention hard delete
	OpAnnotate     Op = "ANNOTATE"      // a curation note or verifier annotation on an item
	OpReclassify   Op = "RECLASSIFY"    // an item moves to another layer
	OpLeaseAcquire Op = "LEASE_ACQUIRE" // a write lease is granted or renewed
	OpLeaseRelease Op = "LEASE_RELEASE" // a write lease is released
	OpWorkspace    Op = "WORKSPACE"     // a workspace is opened, submitted or decided
)

// Erasure kinds recorded by ERASE entries.
const (
	EraseSubject    = "subject"        // right to erasure (12.10.2)
	EraseGCHard     = "gc_hard_delete" // phase 2 of GC after the grace period (12.7.5)
	EraseRetention  = "retention"      // PII past its retention: hard delete + audit (12.10.4)
	erasedKeyPrefix = "erased-"
)

// ErasedContent replaces the content of every erased version: the version,
// its state history and its hashes in the log stay; the text does not.
var ErasedContent = json.RawMessage(`{"erased":true}`)

// ErasedKey is the key an erased item keeps: the caller's key may itself name
// the subject.
func ErasedKey(itemID string) string { return erasedKeyPrefix + itemID }

// ErasureRecord is the payload data of an ERASE entry. It names items and log
// positions, never the subject: SubjectHash is a salted SHA-256.
type ErasureRecord struct {
	Kind        string         `json:"kind"`
	RequestID   string         `json:"request_id"`
	SubjectHash string         `json:"subject_hash,omitempty"`
	RequestedAt string         `json:"requested_at"`
	Items       []string       `json:"items"`
	LSNs        []int64        `json:"lsns"`
	ByLayer     map[string]int `json:"by_layer"`
}

// DecodeErasure reads the record of an ERASE entry (for stores).
func DecodeErasure(e *LogEntry) (ErasureRecord, error) {
	var r ErasureRecord
	p, err := e.DecodePayload()
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(p.Data, &r); err != nil {
		return r, fmt.Errorf("log entry %d: erasure record: %w", e.LSN, err)
	}
	return r, nil
}

// ErasedSkeleton returns the content-free payload that stands in for an erased
// payload when the log is replayed: structure (layer, classification, scores,
// expiry, merge links, review and decision identifiers, MEMORY_ITEM citations)
// stays so that every derived table rebuilds exactly; text, tags, reasons,
// notes, evidence excerpts, provenance and idempotency tokens do not.
func ErasedSkeleton(itemID string, body []byte) ([]byte, error) {
	var p Payload
	if len(body) > 0 {
		if err := json.Unmarshal(body, &p); err != nil {
			return nil, fmt.Errorf("erased payload: %w", err)
		}
	}
	s := Payload{Salt: "erased", Reason: "erased", Layer: p.Layer, Classification: p.Classification,
		Confidence: p.Confidence, ValidationScore: p.ValidationScore, ExpiresAt: p.ExpiresAt, MergedFrom: p.MergedFrom}
	if p.Key != "" {
		s.Key = ErasedKey(itemID)
	}
	if len(p.Content) > 0 {
		s.Content = ErasedContent
	}
	if len(p.Data) > 0 {
		s.Data = scrubData(p.Data)
	}
	return canon.Marshal(s)
}

func scrubData(data json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range []string{"session_id", "observation_type", "residency", "kind", "from", "to"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if v, ok := m["review"]; ok {
		var r stagedReview
		if json.Unmarshal(v, &r) == nil {
			r.Detail = nil
			out["review"] = r
		}
	}
	if v, ok := m["decision"]; ok {
		var d decisionData
		if json.Unmarshal(v, &d) == nil {
			d.Note = ""
			out["decision"] = d
		}
	}
	if v, ok := m["evidence"]; ok {
		var ev []EvidenceRef
		if json.Unmarshal(v, &ev) == nil {
			kept := []EvidenceRef{}
			for _, r := range ev {
				kept = append(kept, EvidenceRef{SourceType: r.SourceType, SourceItemID: r.SourceItemID})
			}
			out["evidence"] = kept
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return b
}

// GCItem is what garbage collection knows about one item.
type GCItem struct {
	Item       Item
	Head       Version   // the ACTIVE version (zero for purge candidates)
	Accesses   int       // reads within the access window
	LastAccess time.Time // zero: never read
	Impact     float64   // used / retrieved from feedback; 1 without feedback
	Linked     string    // why the item is load-bearing for an action ("" if not)
	ExpiredAt  time.Time // purge candidates: when the last version expired
}

// Lease is a write lease on one memory entry (12.8.3).
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

// OutcomeRow is one recorded write outcome.
type OutcomeRow struct {
	Status    string
	Reason    string
	Layer     string
	LatencyUS int64
	Stages    map[string]int64 // microseconds per stage
}

// RetrievalRow is one read with usage feedback: items returned and used.
type RetrievalRow struct{ N, Used int }

// ErasureRow is one ERASE entry as the erasures table holds it.
type ErasureRow struct {
	LSN         int64          `json:"lsn"`
	Kind        string         `json:"kind"`
	RequestID   string         `json:"request_id"`
	SubjectHash string         `json:"subject_hash,omitempty"`
	RequestedAt time.Time      `json:"requested_at"`
	CompletedAt time.Time      `json:"completed_at"`
	Actor       string         `json:"actor"`
	Items       int            `json:"items"`
	Payloads    int            `json:"payloads"`
	ByLayer     map[string]int `json:"by_layer"`
}

// MetricsData is the raw material of the quality metrics.
type MetricsData struct {
	Outcomes           []OutcomeRow
	Retrievals         []RetrievalRow // reads that got feedback
	RetrievalsTotal    int
	StalenessMS        []int64
	Revalidated        int
	RevalidationFailed int
	LeaseGranted       int
	LeaseDenied        int
	LayerSizes         map[string]int // ACTIVE items per layer
	Erasures           []ErasureRow
	PastTTL            int // ACTIVE versions past their TTL that GC has not expired yet
	GCExpired          int // EXPIRE entries written by GC
}

// ComplianceData is the raw material of the compliance report.
type ComplianceData struct {
	Active   []Version // every ACTIVE version, expired or not
	Erasures []ErasureRow
	// ResidencyRejections counts writes refused with RESIDENCY_VIOLATION.
	ResidencyRejections int
}

// Workspace is an agent's copy-on-write workspace over a shared memoryRef (12.8.4).
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
