package engine

import (
	"time"

	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/oplog"
)

// Erasure kinds recorded by ERASE entries.
const (
	EraseSubject   = "subject"        // right to erasure (spec §12.10.2)
	EraseGCHard    = "gc_hard_delete" // phase 2 of GC after the grace period (spec §12.7.5)
	EraseRetention = "retention"      // PII past its retention: hard delete + audit (spec §12.10.4)
)

// ErasedContent replaces the content of every erased version: the version,
// its state history and its hashes in the log stay; the text does not.
var ErasedContent = oplog.ErasedContent

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

// Lease is a write lease on one memory entry (spec §12.8.3).
type Lease = memory.Lease

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
	Left        []string       `json:"left,omitempty"` // places not reached: the erasure is INCOMPLETE
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
	PastTTL            int              // ACTIVE versions past their TTL that GC has not expired yet
	GCExpired          int              // EXPIRE entries written by GC
	Tasks              []TaskOutcomeRow // task outcomes reported since, in no particular order
}

// TaskOutcomeRow is one reported task outcome (memgov feedback).
type TaskOutcomeRow struct {
	ID           string // the retrieval id, or the ablated task's id
	RetrievalID  string // "": memory was withheld from the task
	At           time.Time
	Principal    string
	Success      bool
	MemoryCaused bool // a failure whose root cause was memory
	Note         string
}

// ComplianceData is the raw material of the compliance report.
type ComplianceData struct {
	Active   []Version // every ACTIVE version, expired or not
	Erasures []ErasureRow
	// ResidencyRejections counts writes refused with RESIDENCY_VIOLATION.
	ResidencyRejections int
}

// Workspace is an agent's copy-on-write workspace over a shared memoryRef (spec §12.8.4).
type Workspace = memory.Workspace
