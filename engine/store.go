package engine

import (
	"context"
	"time"

	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// Store persists the log and the tables derived from it. Implementations pass the
// conformance suite in store/storetest.
type Store interface {
	// Update runs fn in one write transaction; an error from fn rolls it back.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read transaction over a consistent snapshot.
	View(ctx context.Context, fn func(ReadTx) error) error
	// Verify recomputes every leaf, payload hash and chain value from the stored
	// rows and reports the first LSN that does not verify.
	Verify(ctx context.Context) (VerifyReport, error)
	// VerifyReplay is Verify with the served tables always compared with a
	// fresh replay of the log, never with a recorded digest.
	VerifyReplay(ctx context.Context) (VerifyReport, error)
	// Rebuild recomputes every derived table from the log and reports how the
	// tables it replaced differed from the rebuilt ones.
	Rebuild(ctx context.Context) (RebuildReport, error)
	// Info describes the store for baselines and `memgov version`.
	Info() StoreInfo
	Close() error
}

// StoreInfo names a store implementation.
type StoreInfo struct {
	Type    string `json:"type"`    // e.g. memgov-sqlite
	Version string `json:"version"` // schema version
	Path    string `json:"path,omitempty"`
}

// ReadTx reads a consistent snapshot.
type ReadTx interface {
	// LogSize returns the number of entries in the log (the highest LSN).
	LogSize(ctx context.Context) (int64, error)
	// LogRange calls fn for entries from..to (inclusive, LSN order) with payloads.
	LogRange(ctx context.Context, from, to int64, fn func(*LogEntry) error) error
	// Leaves returns the stored leaf hashes of entries 1..n.
	Leaves(ctx context.Context, n int64) ([]merkle.Hash, error)
	// LSNAt returns the highest LSN written at or before t (0 if none).
	LSNAt(ctx context.Context, t time.Time) (int64, error)
	// TimeOf returns the time of an entry.
	TimeOf(ctx context.Context, lsn int64) (time.Time, error)

	Principal(ctx context.Context, id string) (Principal, error)
	Principals(ctx context.Context) ([]Principal, error)

	Item(ctx context.Context, id string) (Item, error)
	ItemByKey(ctx context.Context, ref, key string) (Item, error)
	Version(ctx context.Context, id string) (Version, error)
	// History returns every version of an item, newest first.
	History(ctx context.Context, itemID string) ([]Version, error)
	// Active returns the versions ACTIVE at the query's LSN (0: now) that have
	// not expired at the query's time, ordered by key.
	Active(ctx context.Context, q ActiveQuery) ([]Version, error)
	// Refs lists the memoryRefs that have items, with counts.
	Refs(ctx context.Context) ([]RefSummary, error)
	// DueExpiries returns the ACTIVE versions of ref whose TTL has passed at
	// now (expires_at <= now), ordered by key, at most limit (0: all).
	DueExpiries(ctx context.Context, ref string, now time.Time, limit int) ([]Version, error)

	AuditCheckpoints(ctx context.Context) ([]AuditCheckpointRecord, error)

	// The governed write path.
	Idempotent(ctx context.Context, token string, since time.Time) (IdempotencyRecord, bool, error)
	// CountOutcomes counts an agent's write attempts to a layer since a time
	// ("" layer: every layer), optionally only those with the given statuses.
	CountOutcomes(ctx context.Context, agent string, layer Layer, since time.Time, statuses ...string) (int, error)
	// CountSessionCommits counts an agent's accepted writes in one session.
	CountSessionCommits(ctx context.Context, agent, sessionID string) (int, error)
	Candidates(ctx context.Context, q CandidateQuery) ([]Candidate, error)
	// CitedItems returns the items that the visible or pending versions of an
	// item cite as MEMORY_ITEM evidence.
	CitedItems(ctx context.Context, itemID string) ([]string, error)
	Review(ctx context.Context, id string) (Review, error)
	Reviews(ctx context.Context, q ReviewQuery) ([]Review, int, error)
	// AgentRecord counts an agent's reviewed writes by decision.
	AgentRecord(ctx context.Context, agent string) (approved, rejected int, err error)
}

// Tx is a write transaction.
type Tx interface {
	ReadTx
	// Append assigns the entry its LSN, a time no earlier than the previous
	// entry's, its leaf and chain value, stores it and applies it to every
	// derived table.
	Append(ctx context.Context, e *LogEntry) error
	// RecordOutcome stores a write outcome for the metrics (not a log entry:
	// an outcome that changes nothing in memory is telemetry).
	RecordOutcome(ctx context.Context, o Outcome) error
}

// ActiveQuery selects visible versions.
type ActiveQuery struct {
	MemoryRef string
	Tag       string
	AtLSN     int64     // 0: the current state
	Now       time.Time // entries expired at this time are not returned
	Limit     int       // 0: no limit
	AfterKey  string    // keyset paging
}

// RefSummary counts the items of one memoryRef.
type RefSummary struct {
	MemoryRef string `json:"memory_ref"`
	Items     int    `json:"items"`
	Active    int    `json:"active"`
}

// VerifyReport is the result of Store.Verify.
type VerifyReport struct {
	TreeSize int64       `json:"tree_size"`
	Root     merkle.Hash `json:"-"`
	OK       bool        `json:"ok"`
	BadLSN   int64       `json:"bad_lsn,omitempty"`
	Problem  string      `json:"problem,omitempty"`
	Erased   int64       `json:"erased_payloads"`
	// Table and Row name the served row of the first difference between the
	// tables readers are served from and a replay of the log; BadLSN is then
	// the log entry that wrote (or removed) that row, 0 when none did.
	Table string `json:"table,omitempty"`
	Row   string `json:"row,omitempty"`
	// Differences lists the served rows that differ from the replay.
	Differences []RowDifference `json:"differences,omitempty"`
	// Served says how the served tables were checked: "replay" (the log was
	// replayed and compared row by row) or "digest" (the log is the one a
	// matching replay recorded, and the tables still hash as they did then).
	Served string `json:"served_tables"`
	// Rows counts the rows of each served table checked by a replay.
	Rows map[string]int64 `json:"rows,omitempty"`
}

// RowDifference is one served row that differs from a replay of the log.
type RowDifference struct {
	Table   string `json:"table"`
	Row     string `json:"row"`
	LSN     int64  `json:"lsn"`
	Problem string `json:"problem"`
}

// RebuildReport is the result of Store.Rebuild.
type RebuildReport struct {
	Entries     int64            `json:"entries"`
	Tables      map[string]int64 `json:"rows"`
	Differences []string         `json:"differences"`
}

// AuditCheckpointRecord is a signed audit checkpoint as stored.
type AuditCheckpointRecord = oplog.AuditCheckpointRecord
