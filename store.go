package memgov

import (
	"context"
)

// Store persists the append-only log and the tables derived from it. It is
// declared whole here, one interface per concern (a file per concern), so that the
// compiler checks every implementation against every method the engine uses.
// A read transaction (ReadTx) sees every read concern, a write transaction (Tx)
// adds every write concern, and the Store adds the store-level operations.
// Implementations pass the conformance suite in store/storetest.
//
// Errors: a method that looks up one thing by its identity returns an error
// wrapping ErrNotFound when there is none, unless its comment says it reports
// absence another way (a found flag, a zero value, an empty string). Lists
// are empty, never an error, when nothing matches.
type Store interface {
	// Update runs fn in one serialisable write transaction and commits it when
	// fn returns nil; an error from fn (or from the commit) rolls back every
	// change fn made and is returned.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction over one consistent snapshot: no
	// write committed after View began is visible to fn.
	View(ctx context.Context, fn func(ReadTx) error) error
	// Info names the implementation and its schema version, for baselines and
	// `memgov version`.
	Info() StoreInfo
	// Close releases the store's connections; no method may be called after.
	Close() error
	Maintainer
}

// StoreInfo names a store implementation.
type StoreInfo struct {
	Type    string `json:"type"`    // e.g. memgov-sqlite
	Version string `json:"version"` // schema version
	Path    string `json:"path,omitempty"`
}

// ReadTx reads one consistent snapshot of the log and every derived table.
type ReadTx interface {
	LogReader
	PrincipalReader
	ItemReader
	PipelineReader
	ReviewReader
	BaselineReader
	LifecycleReader
	TelemetryReader
	WorkspaceReader
	EventReader
	ProposalReader
	CommitmentReader
	CredentialReader
	QuarantineReader
	VectorReader
	DeadLetterReader
	FeatureReader
}

// Tx is a write transaction: it reads its own writes, appends to the log and
// keeps the records that are not log entries (caches and telemetry).
type Tx interface {
	ReadTx
	LogWriter
	PipelineWriter
	BaselineWriter
	LifecycleWriter
	TelemetryWriter
	VectorWriter
	DeadLetterWriter
	FeatureWriter
}
