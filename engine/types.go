// Package engine is memgov's governance core: the domain types of governed agent
// memory, the Store interface the core needs, and the use cases (writes, versioning,
// rollback, pinning, audit) that every door (CLI, TUI, servers) calls.
//
// engine knows nothing of SQL or terminals; store/sqlite implements Store.
package engine

import (
	"errors"

	"github.com/memgov/memgov/engine/memory"
)

// The domain types of governed memory live in engine/memory, which the write
// gates share; engine keeps their names.

// Layer is a memory layer (spec §12.1.4).
type Layer = memory.Layer

// The memory layers, from ephemeral to canonical.
const (
	Working    = memory.Working
	Session    = memory.Session
	Episodic   = memory.Episodic
	Semantic   = memory.Semantic
	Procedural = memory.Procedural
)

// Layers lists every layer in durability order.
var Layers = memory.Layers

// ParseLayer accepts a layer name in any case.
func ParseLayer(s string) (Layer, error) { return memory.ParseLayer(s) }

// State is the state of one version (spec §12.5.3).
type State = memory.State

// Version states.
const (
	Draft       = memory.Draft
	Active      = memory.Active
	Superseded  = memory.Superseded
	Retracted   = memory.Retracted
	Expired     = memory.Expired
	Quarantined = memory.Quarantined
)

// Role is what a principal may do (spec §12.8.2, plus operator for drift).
type Role = memory.Role

// Roles.
const (
	Executor     = memory.Executor
	Verifier     = memory.Verifier
	Orchestrator = memory.Orchestrator
	Curator      = memory.Curator
	Operator     = memory.Operator
)

// Roles lists every role.
var Roles = memory.Roles

// ParseRole accepts a role name in any case.
func ParseRole(s string) (Role, error) { return memory.ParseRole(s) }

// AllTenants is the tenant of a principal that governs every tenant (an
// installation-wide curator or operator). Agents always belong to one tenant.
const AllTenants = memory.AllTenants

// Principal is an agent or a person known to memgov.
type Principal = memory.Principal

// Item is a memory item: a stable identity whose content lives in versions.
type Item = memory.Item

// Version is one immutable version of an item.
type Version = memory.Version

// Errors the engine returns; doors map them to messages and exit codes.
var (
	ErrNotFound     = memory.ErrNotFound
	ErrConflict     = errors.New("conflict")
	ErrInvalid      = errors.New("invalid")
	ErrForbidden    = errors.New("forbidden")
	ErrTampered     = errors.New("audit log does not verify")
	ErrNotInit      = errors.New("database is not initialised")
	ErrSchemaNewer  = errors.New("database schema is newer than this memgov")
	ErrUnauthorized = errors.New("unauthorized")
)
