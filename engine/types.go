// Package engine is memgov's governance core: the domain types of governed agent
// memory, the Store interface the core needs, and the use cases (writes, versioning,
// rollback, pinning, audit) that every door (CLI, TUI, servers) calls.
//
// engine knows nothing of SQL or terminals; store/sqlite implements Store.
package engine

import (
	"errors"
)

// The domain types of governed memory live in engine/memory, which the write
// gates share; engine keeps their names.

// Errors the engine returns; doors map them to messages and exit codes.
var (
	ErrForbidden = errors.New("forbidden")
)
