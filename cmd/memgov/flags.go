package main

import (
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// reasonFlag registers --reason, the one flag memgov commands take for why a
// person acts, and --note, its older name on some commands, bound to the
// same value and hidden from help.
func reasonFlag(fs *pflag.FlagSet, p *string, usage string) {
	fs.StringVar(p, "reason", "", usage)
	fs.StringVar(p, "note", "", "the same as --reason")
	_ = fs.MarkHidden("note")
}

// stamp writes a time as people and scripts read it alike: RFC 3339, UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// jsonError answers a --json command that failed: {"error": kind, "detail":
// what failed} on stdout, the message on stderr, and the command's exit code.
func (a *app) jsonError(code int, kind string, err error) error {
	if perr := a.printJSON(map[string]string{"error": kind, "detail": err.Error()}); perr != nil {
		return perr
	}
	return &exitCodeError{code: code, err: err}
}

// jsonNative are the commands whose output is JSON whatever the flags (an
// audit root, a signed checkpoint, the log's entries, a proof, a canonical
// memory map): they take --json too, so that a script may pass it to every command.
var jsonNative = []string{"audit root", "audit checkpoint", "audit export", "audit prove", "snapshot export"}

// noJSON are the commands without --json, and why: they open a terminal UI,
// serve until stopped, or print an artifact that is itself the answer (a
// canonical document, hashes one per line) for comparison with other tools.
var noJSON = map[string]string{
	"memgov":             "opens the TUI",
	"demo":               "opens the demo's TUI",
	"tui":                "opens the TUI",
	"serve":              "serves until stopped",
	"mcp":                "serves MCP over stdio until its input closes",
	"seed":               "loads a dataset, printing its progress for a person",
	"canon":              "prints the canonical document or its digest",
	"merkle leaf":        "prints leaf hashes, one per line",
	"merkle root":        "prints a root hash",
	"merkle consistency": "prints proof hashes, one per line",
	"merkle inclusion":   "prints proof hashes, one per line",
}

func acceptJSON(root *cobra.Command) {
	for _, path := range jsonNative {
		c, _, err := root.Find(strings.Fields(path))
		if err != nil || c == root || c.Flags().Lookup("json") != nil {
			continue
		}
		c.Flags().Bool("json", false, "the output is JSON already; accepted so that every command takes --json")
	}
}
