package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/review"
)

// The engine and its services say what failed in the domain's terms: an
// input by its domain name (memgov.InputError), the state of a memoryRef
// that is in the way (baselines.StateError). The CLI adds its own hint: the
// flag that gives the input, the command that clears the way. The HTTP door
// passes the domain text alone.

// inputFlags names the flag that gives a domain input, for the commands
// whose flag is not named as the input is (command path → input → flag).
// Elsewhere an input is given by the flag of its name; the actor by --by,
// or --as on a command that reads.
var inputFlags = map[string]map[string]string{
	"memgov audit prove": {"size": "to"},
}

// hint is what the CLI adds to the message of err, which cmd returned: ""
// when it has nothing to add.
func hint(cmd *cobra.Command, err error) string {
	if cmd == nil || err == nil {
		return ""
	}
	var ie *memgov.InputError
	if errors.As(err, &ie) {
		return inputHint(cmd, ie)
	}
	var fe *review.ForbiddenError
	if errors.As(err, &fe) && fe.Principal != "" {
		switch fe.Next {
		case review.NextRegister:
			return " (memgov principal add --id " + fe.Principal + " --role curator --tenant TENANT)"
		case review.NextReinstate:
			return " (memgov principal reinstate " + fe.Principal + " --by CURATOR)"
		}
	}
	var se *baselines.StateError
	if errors.As(err, &se) {
		switch {
		case se.Session != "":
			return "; end it with: memgov session end " + se.Ref + " --by " + flagValue(cmd, "by", "ACTOR")
		case se.Edited:
			return "; record the drift with: memgov verify " + se.Ref + ", then acknowledge it with: memgov drift ack"
		case se.Drift != "":
			return "; resolve it with: memgov drift ack " + se.Drift + " --by " + flagValue(cmd, "by", "OPERATOR") + " --resolve reapprove|rollback"
		case errors.Is(se.Kind, memgov.ErrNotFound):
			return "; approve one with: memgov baseline approve " + se.Ref + " --by OPERATOR --type TYPE --policy POLICY"
		}
	}
	return ""
}

func inputHint(cmd *cobra.Command, ie *memgov.InputError) string {
	switch {
	case ie.Input == "actor" && errors.Is(ie.Kind, memgov.ErrUnauthorized) && ie.Value != "":
		return "; register it with: memgov principal add --id " + ie.Value + " --role curator --tenant TENANT"
	case ie.Input == "principal" && ie.Value != "":
		return " (memgov principal add)"
	case ie.Input == "actor" && errors.Is(ie.Kind, memgov.ErrForbidden) && cmd.CommandPath() == "memgov gc":
		return " (run gc --by a curator, or --dry-run)"
	case ie.Input == "request" && cmd.Flags().Lookup("batch") != nil:
		return " (use --batch for JSON lines)"
	}
	if f := flagOf(cmd, ie.Input); f != "" {
		return " (--" + f + ")"
	}
	return ""
}

// flagOf returns the flag of cmd that gives input, or "".
func flagOf(cmd *cobra.Command, input string) string {
	if f, ok := inputFlags[cmd.CommandPath()][input]; ok {
		return f
	}
	names := []string{input}
	if input == "actor" {
		names = []string{"by", "as"}
	}
	for _, n := range names {
		if f := cmd.Flags().Lookup(n); f != nil && !f.Hidden {
			return n
		}
	}
	return ""
}

// flagValue returns the value given to cmd's flag name, or placeholder.
func flagValue(cmd *cobra.Command, name, placeholder string) string {
	if f := cmd.Flags().Lookup(name); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return placeholder
}
