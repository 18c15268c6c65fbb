package memgov

import (
	"context"
	"time"

	"github.com/memgov/memgov/engine/merkle"
)

// LifecycleReader reads what garbage collection, erasure and write leases
// decide with.
type LifecycleReader interface {
	// GCScan returns up to limit items of layer that have a head version and
	// an id greater than afterID, by id, each with its head version, its
	// reads within window before now, its last read, its feedback impact and
	// why it is linked to an action (see Linked).
	GCScan(ctx context.Context, layer Layer, afterID string, limit int, now time.Time, window time.Duration) ([]GCItem, error)
	// GCPurgeable returns up to limit unpinned items, by id, that have no head
	// version because their last version EXPIRED at or before before and
	// that no purge entry has removed yet, each with ExpiredAt and Linked.
	GCPurgeable(ctx context.Context, before time.Time, limit int) ([]GCItem, error)
	// GCCursor returns the id after which the next GC scan of layer starts
	// ("" when none was set).
	GCCursor(ctx context.Context, layer Layer) (string, error)
	// Linked returns why an item is load-bearing for an action: cited as
	// evidence by another item's live version, awaiting a review, approved by
	// a person at its head, part of a rollback, or ACTIVE at a baseline's log
	// position; "" when none holds.
	Linked(ctx context.Context, itemID string) (string, error)
	// EraseMatches returns, once each, the items whose key, version content
	// or log payload (other than an ERASE entry's) contains any needle
	// (ASCII case-insensitively), and counts the log entries without an item
	// whose payload contains one.
	EraseMatches(ctx context.Context, needles []string) (items []string, unresolved int, err error)
	// DerivedItems returns, once each, the items derived from any of items:
	// merges of one of their versions and versions citing one of them as
	// MEMORY_ITEM evidence.
	DerivedItems(ctx context.Context, items []string) ([]string, error)
	// ItemEntries returns the LSNs of the log entries of items that still
	// have their payload, ascending within each item, items in the order
	// given.
	ItemEntries(ctx context.Context, items []string) ([]int64, error)
	// LeaseOf returns the write lease on resource ("memoryRef#key"), whether
	// live, expired or released; found is false when none was ever granted.
	LeaseOf(ctx context.Context, resource string) (l Lease, found bool, err error)
	// ErasureResidue returns what erasures left beside the log for its
	// replay (see ErasureResidue): every skeleton by LSN, every kept leaf by
	// memoryRef and index; both empty when nothing was ever erased.
	ErasureResidue(ctx context.Context) (ErasureResidue, error)
}

// LifecycleWriter keeps the lifecycle's non-logged state.
type LifecycleWriter interface {
	// SetGCCursor records the id after which the next GC scan of layer starts.
	SetGCCursor(ctx context.Context, layer Layer, after string) error
	// SecureDelete makes the store overwrite the bytes of every row deleted
	// after it in this transaction, so that erased content is not left in
	// free pages (Compact then removes it from the file and its journal).
	SecureDelete(ctx context.Context) error
	// RestoreErasureResidue records the residue another store's erasures
	// left (its ErasureResidue) before that store's log is appended here
	// entry by entry (a migration): Append then takes an entry whose payload
	// was erased (Payload nil, PayloadHash kept) when a skeleton stands for
	// its LSN, and applies the skeleton in its place, as a replay does. It
	// returns an error wrapping ErrConflict, and records nothing, unless the
	// log is empty.
	RestoreErasureResidue(ctx context.Context, r ErasureResidue) error
}

// ErasureResidue is what erasures leave beside the log, and what a replay of
// a log with erased payloads needs in their place: no text, only structure
// and hashes. Each ERASE entry binds the hash of the skeletons it left, so a
// forged skeleton fails audit verify; the leaves keep the memory op log's
// hashes, and so the snapshot hashes, unchanged.
type ErasureResidue struct {
	Skeletons []ErasedSkeleton `json:"skeletons"`
	Leaves    []ErasedLeaf     `json:"leaves"`
}

// ErasedSkeleton is the content-free payload replayed in place of the erased
// payload of the log entry at LSN (oplog.ErasedSkeleton).
type ErasedSkeleton struct {
	LSN  int64  `json:"lsn"`
	Body []byte `json:"body"`
}

// ErasedLeaf is the leaf the memory op at Index of MemoryRef's op log had
// before an erasure replaced its key and value.
type ErasedLeaf struct {
	MemoryRef string      `json:"memory_ref"`
	Index     int64       `json:"index"`
	Leaf      merkle.Hash `json:"leaf"`
}

// EraseRequest asks for the erasure of a data subject (spec §12.10.2).
type EraseRequest struct {
	// Subject is the subject's identifier as it appears in memory (a name,
	// an email address); Identifiers are further identifiers of the same
	// subject. All are matched case-insensitively (ASCII).
	Subject     string
	Identifiers []string
	By          string // a curator: erasure is a hard delete (spec §12.8.2)
	Reason      string
	DryRun      bool
}

// EraseReport is what an erasure found and removed.
type EraseReport struct {
	RequestID   string         `json:"request_id"`
	SubjectHash string         `json:"subject_hash"`
	Status      string         `json:"status"`         // COMPLETED, INCOMPLETE, DRY_RUN, NOTHING_FOUND
	Left        []string       `json:"left,omitempty"` // places an INCOMPLETE erasure could not reach
	DryRun      bool           `json:"dry_run"`
	Direct      []string       `json:"direct_items"`
	Derived     []string       `json:"derived_items"`
	Items       int            `json:"items"`
	ByLayer     map[string]int `json:"by_layer"`
	Payloads    int            `json:"payloads_erased"`
	Unresolved  int            `json:"unresolved_entries"` // non-item log entries naming the subject (left in place)
	LSN         int64          `json:"lsn,omitempty"`
	RequestedAt time.Time      `json:"requested_at"`
	CompletedAt time.Time      `json:"completed_at"`
	// NextActions settle what the erasure left in place: a curator
	// rejects the proposals naming the subject.
	NextActions []NextAction `json:"next_actions,omitempty"`
}

// LeaseResult is the answer to a lease request.
type LeaseResult struct {
	Status     string    `json:"status"`
	Lease      Lease     `json:"lease"`
	Holder     string    `json:"holder,omitempty"`      // DENIED: who holds it
	RetryAfter time.Time `json:"retry_after,omitempty"` // DENIED: when it expires
}

// Erasure kinds recorded by ERASE entries.
const (
	EraseSubject = "subject" // right to erasure (spec §12.10.2)
)

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
