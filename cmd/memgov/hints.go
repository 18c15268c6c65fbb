package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/engine/merkle"
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

// Results say what to do next in memgov's terms as well: a NextAction
// beside a text that says it in a phrase. The CLI adds the command that
// does it; the HTTP and MCP doors return the NextAction.

// writeHint is what the CLI adds to the detail of res, the result of req.
func writeHint(req memgov.WriteRequest, res memgov.WriteResult) string {
	agent := placeholder(req.SourceAgentID, "AGENT_ID")
	switch res.NextAction {
	case memgov.NextRegisterAgent:
		tenant, _, _ := strings.Cut(req.MemoryRef, "/")
		return "; register it with: memgov principal add --id " + agent + " --role executor --tenant " + placeholder(tenant, "TENANT")
	case memgov.NextReinstateAgent:
		return " with: memgov principal reinstate " + agent + " --by CURATOR"
	case memgov.NextAcquireLease:
		return " with: memgov lease acquire " + placeholder(req.MemoryRef, "REF") + " " + placeholder(req.Key, "KEY") + " --by " + agent
	case memgov.NextCarryFencingToken:
		return " (fencing_token, or memgov write --fencing-token)"
	case memgov.NextAcknowledgeDrift:
		return " (memgov drift list)"
	}
	return ""
}

// placeholder returns id when it is a valid id, and otherwise ph.
func placeholder(id, ph string) string {
	if id == "" || strings.ContainsAny(id, " \t\n\"'`$;|&<>") {
		return ph
	}
	return id
}

// alertHint is what the CLI adds to a drift alert: the command that
// acknowledges an open episode ("MEMORY_DRIFT_DETECTED ID: ..."), or the one
// that records the drift of memory changed outside memgov
// ("MEMORY_DRIFT_DETECTED: REF was changed outside memgov; ...").
func alertHint(alert string) string {
	rest, ok := strings.CutPrefix(alert, merkle.EventMemoryDrift)
	if !ok {
		return ""
	}
	if ref, ok := strings.CutPrefix(rest, ": "); ok {
		if ref, _, ok := strings.Cut(ref, " was changed outside memgov"); ok {
			return " (memgov verify " + placeholder(ref, "REF") + ")"
		}
		return ""
	}
	if id, _, ok := strings.Cut(strings.TrimPrefix(rest, " "), ":"); ok && id != "" && !strings.Contains(id, " ") {
		return " (memgov drift ack " + id + " --by OPERATOR --resolve reapprove|rollback)"
	}
	return ""
}

// withAlertHints returns alerts with the CLI's hint added to each.
func withAlertHints(alerts []string) []string {
	if len(alerts) == 0 {
		return alerts
	}
	out := make([]string, len(alerts))
	for i, al := range alerts {
		out[i] = al + alertHint(al)
	}
	return out
}

// verifyHint is the command that settles what VerifyMemory found.
func verifyHint(res memgov.VerifyResult) string {
	if res.NextAction == memgov.NextAcknowledgeDrift && res.DriftID != "" {
		return "memgov drift ack " + res.DriftID + " --by OPERATOR --resolve reapprove|rollback"
	}
	return ""
}

// metricWords says, in the CLI's words, what measures an unmeasured metric:
// the feedback command with its flags.
var metricWords = map[memgov.NextAction]string{
	memgov.NextRecordOutcomes:     "task outcomes with memory (memgov feedback RETRIEVAL_ID --outcome success|failure) and with memory withheld (memgov feedback --ablated --outcome success|failure)",
	memgov.NextRecordFailureCause: "task outcomes (memgov feedback RETRIEVAL_ID --outcome failure --memory-caused for a failure memory caused)",
	memgov.NextRecordUsage:        "usage feedback (memgov feedback RETRIEVAL_ID --used KEY)",
	memgov.NextRevalidate:         "a re-validation sweep (memgov metrics --revalidate N)",
}

// metricsHints puts the CLI's words in m.UnmeasuredWhy.
func metricsHints(m *audit.Metrics) {
	for name, next := range m.UnmeasuredNext {
		if w, ok := metricWords[next]; ok {
			m.UnmeasuredWhy[name] = w
		}
	}
}

// complianceHints adds the command that settles each finding of rep.
func complianceHints(rep *audit.ComplianceReport) {
	for _, list := range [][]audit.ComplianceItem{rep.RetentionBreaches, rep.ResidencyViolations, rep.PastTTL} {
		for i := range list {
			if list[i].NextAction == memgov.NextRunGC {
				list[i].Detail += "; run memgov gc"
			}
		}
	}
}

// eraseHints is what the CLI adds after an erasure's report: the commands
// that settle what it left in place.
func eraseHints(rep memgov.EraseReport) []string {
	var out []string
	for _, n := range rep.NextActions {
		if n == memgov.NextRejectProposal {
			out = append(out, "reject or archive the proposals naming the subject: memgov proposal list, then memgov proposal reject ID --by CURATOR")
		}
	}
	return out
}
