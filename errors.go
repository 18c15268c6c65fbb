package memgov

import (
	"errors"
)

// ErrNotFound is the error stores wrap when what was asked for does not exist.
var ErrNotFound = errors.New("not found")

// Errors the engine returns; doors map them to messages and exit codes.
var (
	ErrConflict     = errors.New("conflict")
	ErrInvalid      = errors.New("invalid")
	ErrTampered     = errors.New("audit log does not verify")
	ErrNotInit      = errors.New("database is not initialised")
	ErrSchemaNewer  = errors.New("database schema is newer than this memgov")
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden: the principal is known, and authz refuses the action.
	ErrForbidden = errors.New("forbidden")
)
