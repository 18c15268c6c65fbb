package memgov

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// BaselineReader reads what baselines and drift detection compare: approved
// baselines, each memoryRef's op log of PUT/DEL operations (agent-manifest
// spec §3.2.6.2) with its head and checkpoints, the memory map materialised from
// the versions and the one folded from the op log, the cached snapshot hash,
// the marks of rows changed outside the log, drift episodes and sessions.
type BaselineReader interface {
	// Baseline returns ref's current baseline, the one recorded at the highest
	// LSN; a ref without one is ErrNotFound.
	Baseline(ctx context.Context, ref string) (Baseline, error)
	// BaselineByID returns the baseline with id; an unknown id is ErrNotFound.
	BaselineByID(ctx context.Context, id string) (Baseline, error)
	// MemHead returns the head of ref's op log; a ref without operations has
	// the zero head: MemoryRef set, TreeSize 0, the empty frontier and
	// merkle.EmptyRoot().
	MemHead(ctx context.Context, ref string) (MemHead, error)
	// LatestCheckpoint returns ref's op-log checkpoint with the highest
	// sequence number; a ref without one is ErrNotFound.
	LatestCheckpoint(ctx context.Context, ref string) (CheckpointRecord, error)
	// MemOps calls fn for every operation of ref's op log with
	// from <= Index < to, in index order; it stops at fn's first error.
	MemOps(ctx context.Context, ref string, from, to uint64, fn func(MemOp) error) error
	// MemoryMap calls fn for ref's materialised map: one row per ACTIVE
	// version not expired at now (ExpiresAt > now or none), its content as
	// Value ("null" when erased), in byte order of keys.
	MemoryMap(ctx context.Context, ref string, now time.Time, fn func(MapRow) error) error
	// FoldMap calls fn for the left fold of the first size operations of
	// ref's op log (a key's last operation wins; DEL removes it), without the
	// rows expired at now, in byte order of keys; size beyond the log folds
	// the whole log.
	FoldMap(ctx context.Context, ref string, size uint64, now time.Time, fn func(MapRow) error) error
	// Dirty reports whether a version row of ref was inserted or changed
	// other than by applying a log entry since ref's marks were last cleared.
	Dirty(ctx context.Context, ref string) (bool, error)
	// StateCache returns the snapshot hash last stored for ref with
	// PutStateCache; found is false when none was.
	StateCache(ctx context.Context, ref string) (c StateCache, found bool, err error)
	// OpenDrift returns ref's unacknowledged drift episode (the latest, by
	// LSN); a ref without one is ErrNotFound.
	OpenDrift(ctx context.Context, ref string) (DriftEvent, error)
	// DriftEvent returns the drift episode with id or, for 4 to 35
	// characters, the one episode whose id has that prefix; none is
	// ErrNotFound, a prefix shared by several is ErrInvalid.
	DriftEvent(ctx context.Context, id string) (DriftEvent, error)
	// DriftEvents returns the drift episodes of q.MemoryRef ("": every ref),
	// only unacknowledged ones with q.OpenOnly, newest (highest LSN) first, at
	// most q.Limit (0: all).
	DriftEvents(ctx context.Context, q DriftQuery) ([]DriftEvent, error)
	// OpenSession returns ref's session that has started and not ended (the
	// latest, by start LSN); a ref without one is ErrNotFound.
	OpenSession(ctx context.Context, ref string) (MemSession, error)
}

// BaselineWriter keeps the two non-logged records of baselines: the cached
// snapshot hash and the dirty marks.
type BaselineWriter interface {
	// PutStateCache stores c as the snapshot hash of c.MemoryRef, replacing
	// the previous one; StateCache returns it field for field.
	PutStateCache(ctx context.Context, c StateCache) error
	// ClearDirty forgets every dirty mark of ref, once verification showed
	// that its materialised memory equals the fold of its op log.
	ClearDirty(ctx context.Context, ref string) error
}

// MemoryType is the spec §3.2.6 memory_type of a baseline.
type MemoryType string

// Memory types.
const (
	MemorySession    MemoryType = "session"
	MemoryPersistent MemoryType = "persistent"
)

// Baseline is the spec §3.2.6 memory_baseline record with what memgov needs to
// enforce it. Its JSON uses the spec's field names; the extra fields are
// memgov's binding of the record to its own log. The JSON is also the data
// of a BASELINE_APPROVE entry, so it is part of the log's format: a field's
// name, omitempty and value type may not change (engine/oplog's golden
// test holds its bytes).
type Baseline struct {
	ID                   string     `json:"baseline_id"`
	MemoryRef            string     `json:"memory_ref"`
	SnapshotHash         *string    `json:"snapshot_hash"` // null only for memory_type none
	MemoryType           MemoryType `json:"memory_type"`
	Store                string     `json:"store"`
	ApprovedAt           time.Time  `json:"approved_at"`
	BoundAt              time.Time  `json:"bound_at"`
	TTLSeconds           int64      `json:"ttl_seconds,omitempty"`
	DriftPolicy          string     `json:"drift_policy"`
	SharedMemoryOwner    string     `json:"shared_memory_owner,omitempty"`
	CheckIntervalSeconds int64      `json:"check_interval_seconds,omitempty"`
	ComplianceLevel      int        `json:"compliance_level"`
	ApprovedBy           string     `json:"approved_by"`
	DeltaBudget          int        `json:"delta_budget"`
	// LogPosition is the LSN of the state the hash was taken at.
	LogPosition int64 `json:"log_position"`
	// BaseTreeSize, BaseSeq and BaseFrontier bind the memory op log (spec §3.2.6.2);
	// the frontier is derived when the entry is applied, not recorded.
	BaseTreeSize uint64 `json:"memory_tree_size"`
	BaseSeq      uint64 `json:"checkpoint_seq"`
	BaseFrontier []byte `json:"-"`
	LSN          int64  `json:"lsn"` // the BASELINE_APPROVE entry
}

// ExpiresAt returns when the baseline stops being valid; zero when it has no TTL.
func (b Baseline) ExpiresAt() time.Time {
	if b.TTLSeconds == 0 {
		return time.Time{}
	}
	return b.ApprovedAt.Add(time.Duration(b.TTLSeconds) * time.Second)
}

// Expired reports whether the baseline's TTL has passed at now.
func (b Baseline) Expired(now time.Time) bool {
	exp := b.ExpiresAt()
	return !exp.IsZero() && now.After(exp)
}

// Hash returns the snapshot hash, or "" for memory_type none.
func (b Baseline) Hash() string {
	if b.SnapshotHash == nil {
		return ""
	}
	return *b.SnapshotHash
}

// BaseCheckpoint returns the spec §3.2.6.2 checkpoint the baseline binds.
func (b Baseline) BaseCheckpoint() (merkle.MemoryCheckpoint, *merkle.Frontier, error) {
	var f merkle.Frontier
	if err := f.UnmarshalBinary(b.BaseFrontier); err != nil {
		return merkle.MemoryCheckpoint{}, nil, fmt.Errorf("baseline %s frontier: %w", b.ID, err)
	}
	return merkle.MemoryCheckpoint{Root: f.Root(), TreeSize: f.Size(), Seq: b.BaseSeq,
		ApprovedAt: b.ApprovedAt, TTLSeconds: b.TTLSeconds}, &f, nil
}

// ApproveRequest asks for a baseline of a memoryRef's current memory.
type ApproveRequest struct {
	MemoryRef            string
	By                   string // an operator or curator
	MemoryType           MemoryType
	TTLSeconds           int64 // 0: omitted
	DriftPolicy          string
	Level                int
	Owner                string // shared_memory_owner, for shared memory
	CheckIntervalSeconds int64
	Algorithm            canon.Algorithm // "" means SHA-256
	Reason               string
}

// Reason codes of DriftGate and drift causes.
const (
	CauseStateMismatch = "state-mismatch" // an agent's exported map differs from the governed one
	ResolveReapprove   = "reapprove"
	ResolveRollback    = "rollback"
)

// DriftEvent is one MEMORY_DRIFT_DETECTED episode: opened by a DRIFT_DETECTED
// log entry, whose data is the embedded oplog.DriftData, and closed by an
// operator's DRIFT_ACK entry, which sets the acknowledgement below. A
// memoryRef has at most one open episode; verifications reuse it rather than
// emit a new event.
type DriftEvent struct {
	oplog.DriftData
	AckedAt    *time.Time `json:"acked_at,omitempty"`
	AckedBy    string     `json:"acked_by,omitempty"`
	Resolution string     `json:"resolution,omitempty"`
	Note       string     `json:"note,omitempty"`
	AckLSN     int64      `json:"ack_lsn,omitempty"`
}

// Open reports whether the episode awaits acknowledgement.
func (d DriftEvent) Open() bool { return d.AckedAt == nil }

// DriftQuery selects drift episodes.
type DriftQuery struct {
	MemoryRef string // "": every ref
	OpenOnly  bool
	Limit     int
}

// VerifyRequest asks whether a memoryRef's memory still matches its baseline.
type VerifyRequest struct {
	MemoryRef string
	// State, if not nil, is a running agent's exported memory map, a JSON
	// object {key: content}, checked as a host would at agent start-up.
	// Without it memgov's own materialised state is checked.
	State json.RawMessage
	// Deep re-hashes the materialised state even when nothing suggests a change.
	Deep  bool
	Actor string // recorded on a DRIFT_DETECTED entry; "" means memgov
}

// VerifyResult is the verdict of VerifyMemory.
type VerifyResult struct {
	MemoryRef    string   `json:"memory_ref"`
	Valid        bool     `json:"valid"`
	Drift        bool     `json:"drift"`
	Expired      bool     `json:"expired"`
	Action       string   `json:"action"` // allow or deny
	Policy       string   `json:"policy"`
	ApprovedHash *string  `json:"approved_hash"`
	CurrentHash  *string  `json:"current_hash"`
	Alerts       []string `json:"alerts"`
	DriftID      string   `json:"drift_id"`

	Code          string     `json:"code"`            // ACCEPT, drift, expired, budget, rollback
	Cause         string     `json:"cause,omitempty"` // why drift was found
	Basis         string     `json:"basis"`           // snapshot, checkpoint, state, session
	GovernedHash  string     `json:"governed_hash,omitempty"`
	BaselineID    string     `json:"baseline_id"`
	BaselineRef   string     `json:"baseline_ref"`
	MemoryType    MemoryType `json:"memory_type"`
	SessionExempt bool       `json:"session_exempt,omitempty"`
	Checkpoint    *struct {
		Seq      uint64 `json:"seq"`
		TreeSize uint64 `json:"tree_size"`
		Root     string `json:"memory_root"`
	} `json:"checkpoint,omitempty"`
	NextCheckAt *time.Time `json:"next_check_at,omitempty"`
	// NextAction is what settles an open drift episode: an operator
	// acknowledges DriftID.
	NextAction NextAction `json:"next_action,omitempty"`
}

// AckRequest acknowledges a drift episode and resolves it.
type AckRequest struct {
	DriftID    string
	By         string // an operator or curator
	Resolution string // reapprove or rollback
	Note       string
}

// AckResult reports what an acknowledgement did.
type AckResult struct {
	Drift         DriftEvent `json:"drift"`
	Resolution    string     `json:"resolution"`
	Baseline      Baseline   `json:"baseline"`
	Compensations int        `json:"compensating_entries"`
	Rebuilt       bool       `json:"rebuilt"`
	RebuildDiffs  []string   `json:"rebuild_differences,omitempty"`
	SnapshotHash  string     `json:"snapshot_hash"`
}

// MemSession is a session boundary of session memory (spec §3.2.6.1:
// session memory is checked against its baseline when a session starts and is
// exempt from drift detection inside the session).
type MemSession struct {
	ID        string     `json:"session_id"`
	MemoryRef string     `json:"memory_ref"`
	StartedBy string     `json:"started_by"`
	StartedAt time.Time  `json:"started_at"`
	StartLSN  int64      `json:"start_lsn"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	EndLSN    int64      `json:"end_lsn,omitempty"`
}

// MemHead is the head of a memoryRef's PUT/DEL operation log.
type MemHead struct {
	MemoryRef   string
	TreeSize    uint64
	Frontier    []byte // merkle.Frontier binary form
	Root        merkle.Hash
	LastVerdict string // code of the last checkpoint advance
	LastDetail  string
}

// MemOp is one spec §3.2.6.2 operation of a memory op log.
type MemOp struct {
	Index uint64
	Key   string
	Op    string // merkle.OpPut or merkle.OpDel
	Value []byte // canonical JSON of a PUT
	Leaf  merkle.Hash
	LSN   int64 // the log entry that made the change
}

// MarshalJSON writes {"index","key","op","value","leaf","lsn"}; a DEL has no value.
func (o MemOp) MarshalJSON() ([]byte, error) {
	v := struct {
		Index uint64          `json:"index"`
		Key   string          `json:"key"`
		Op    string          `json:"op"`
		Value json.RawMessage `json:"value,omitempty"`
		Leaf  string          `json:"leaf"`
		LSN   int64           `json:"lsn"`
	}{o.Index, o.Key, o.Op, o.Value, o.Leaf.Prefixed(), o.LSN}
	return json.Marshal(v)
}

// CheckpointRecord is a stored spec §3.2.6.2 memory checkpoint.
type CheckpointRecord struct {
	merkle.MemoryCheckpoint
	MemoryRef  string
	BaselineID string
	Proof      []merkle.Hash
	LSN        int64
}

// StateCache is the cached snapshot_hash of a memoryRef (see VerifyMemory).
type StateCache struct {
	MemoryRef  string
	Alg        canon.Algorithm
	TreeSize   uint64
	Hash       string
	NextExpiry *time.Time
	Items      int
	Bytes      int64
}

// MapRow is one member of a memory map as a store returns it.
type MapRow struct {
	Key       string
	Value     []byte
	ExpiresAt *time.Time
}
