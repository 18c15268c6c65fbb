package memgov

import (
	"context"

	"github.com/memgov/memgov/engine/merkle"
)

// Maintainer holds the store-level operations, which run outside any
// transaction the engine holds: verifying the log, rebuilding the derived
// tables from it, and compacting the file after an erasure.
type Maintainer interface {
	// Verify recomputes every leaf, payload hash and chain value from the
	// stored rows and reports the first LSN that does not verify (OK false,
	// BadLSN and Problem set) or the tree size and root of a sound log.
	Verify(ctx context.Context) (VerifyReport, error)
	// VerifyReplay is Verify with the served tables always compared with a
	// fresh replay of the log, never with a recorded digest.
	VerifyReplay(ctx context.Context) (VerifyReport, error)
	// Rebuild recomputes every derived table from the log in one transaction
	// and reports the entries replayed and how the replaced tables differed
	// from the rebuilt ones (no differences for a store that was consistent).
	Rebuild(ctx context.Context) (RebuildReport, error)
	// Compact removes erased bytes from the store's files: deleted rows leave
	// no content in free pages, journals or write-ahead logs. It changes no
	// row.
	Compact(ctx context.Context) error
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
	// replayed and compared row by row), "digest" (the log is the one a
	// matching replay recorded, and the tables still hash as they did then)
	// or "incremental" (the entries appended since were replayed on the
	// tables that replay kept, and the result hashes as the tables do).
	Served string `json:"served_tables"`
	// Rows counts the rows of each served table checked by a replay.
	Rows map[string]int64 `json:"rows,omitempty"`
	// Index counts the versions whose judge-derived features (a cache, never
	// compared with the log) are of the running judge, of another judge
	// version (stale) or missing; the engine sets it, a store leaves it nil.
	Index *IndexStatus `json:"index,omitempty"`
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
