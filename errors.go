package memgov

import (
	"errors"
	"fmt"
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

// InputError is a request refused because of one of its inputs. It says
// what failed in the domain's terms and names the input as the domain does
// (Input: "size", "actor"); a front end that names the input otherwise (the
// CLI by a flag) adds its own hint. Kind is the class of the refusal
// (ErrInvalid, ErrUnauthorized, ...): errors.Is(err, Kind) holds.
type InputError struct {
	Kind  error
	Input string // the input at fault, as the domain names it
	Value string // its value, when Msg names it
	Msg   string // what is wrong with it
}

func (e *InputError) Error() string { return e.Kind.Error() + ": " + e.Msg }
func (e *InputError) Unwrap() error { return e.Kind }

// Inputf returns an InputError of kind about input, with a message
// formatted as fmt.Sprintf does.
func Inputf(kind error, input, format string, args ...any) *InputError {
	return &InputError{Kind: kind, Input: input, Msg: fmt.Sprintf(format, args...)}
}
