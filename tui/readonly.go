package tui

import (
	"errors"

	"github.com/memgov/memgov/review"
)

// nextStep names the command that lifts a read-only refusal, for the help
// page: "" when the refusal names none.
func nextStep(err error) string {
	var fe *review.ForbiddenError
	if !errors.As(err, &fe) || fe.Principal == "" {
		return ""
	}
	switch fe.Next {
	case review.NextRegister:
		return " with: memgov principal add --id " + fe.Principal + " --role curator --tenant TENANT"
	case review.NextReinstate:
		return " with: memgov principal reinstate " + fe.Principal + " --by CURATOR"
	}
	return ""
}
