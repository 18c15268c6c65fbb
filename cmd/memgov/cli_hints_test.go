package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/review"
)

// The engine's errors say what failed in memgov's terms; the CLI adds the
// flag that gives the input at fault, or the command that clears the way.
// The exit codes are those of the error's kind.
func TestCLIHintsNameTheFlagAndTheNextCommand(t *testing.T) {
	c := newCLI(t)
	c.ok("", "init")
	c.ok("", "principal", "add", "--id", "oncall", "--role", "operator", "--tenant", "*")
	c.ok("", "principal", "add", "--id", "bot", "--role", "executor", "--tenant", "acme")
	const ref = "acme/chat-agent"
	seedMemory(t, c, ref, map[string]string{"greeting": "Greet customers by their first name."})
	size := c.logSize()

	cases := []struct {
		args       []string
		code       int
		said, hint string
	}{
		{[]string{"audit", "prove", "--lsn", "99"}, exitError,
			"the entry's LSN must be between 1 and the tree size", "(--lsn)"},
		// the tree size of an inclusion proof is given by --to
		{[]string{"audit", "prove", "--lsn", "1", "--to", "99"}, exitError,
			"the tree size must be between 1 and the log size", "(--to)"},
		{[]string{"audit", "prove", "--from", "99"}, exitError,
			"the earlier tree size must be between 1 and", "(--from)"},
		{[]string{"checkpoint", "prove", ref, "--seq", "99"}, exitUsage,
			"operation 99 is not in the op log of " + ref, "(--seq)"},
		{[]string{"session", "start", ref, "--by", "bot"}, exitError,
			"no baseline for " + ref, "; approve one with: memgov baseline approve " + ref + " --by OPERATOR --type TYPE --policy POLICY"},
		{[]string{"gc", "--by", "mallory"}, exitError,
			`unknown principal "mallory": garbage collection is run by a curator or an orchestrator`, " (--by)"},
		{[]string{"session", "end", ref, "--by", "mallory"}, exitError,
			"mallory is not a registered principal", "; register it with: memgov principal add --id mallory --role curator --tenant TENANT"},
		// the review service says who may lift the refusal; the CLI names the command
		{[]string{"annotate", "XYZ", "--by", "mallory", "--note", "x"}, exitDenied,
			"read-only: mallory is not a registered principal; a curator or operator registers it", " (memgov principal add --id mallory --role curator --tenant TENANT)"},
	}
	for _, tc := range cases {
		_, errOut, code := c.run("", tc.args...)
		// the hint ends the message
		if code != tc.code || !strings.Contains(errOut, tc.said) || !strings.Contains(errOut, tc.hint+"\n") {
			t.Errorf("memgov %s: exit %d %q, want exit %d, %q and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.said, tc.hint)
		}
	}
	if after := c.logSize(); after != size {
		t.Errorf("the refusals grew the log from %d to %d entries", size, after)
	}

	c.ok("", "baseline", "approve", ref, "--by", "oncall", "--type", "session", "--ttl", "86400", "--policy", "deny-on-drift", "--level", "1")
	c.ok("", "session", "start", ref, "--by", "bot")
	_, errOut, code := c.run("", "session", "start", ref, "--by", "bot")
	if want := "is still open; end it with: memgov session end " + ref + " --by bot"; code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("a second session start: exit %d %q, want exit %d and %q", code, errOut, exitError, want)
	}
}

// A file that is not a memgov database: the store says so, the CLI says what
// to do about it.
func TestCLIHintOnAFileThatIsNoDatabase(t *testing.T) {
	c := newCLI(t)
	if err := os.WriteFile(c.db, []byte("not a database, only a line of text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.env = append(c.env, "MEMGOV_KEY=0123456789abcdef0123456789abcdef")
	_, errOut, code := c.run("", "list", "acme/x")
	if want := "is not a valid memgov database: " + c.db + " (restore it from a backup, or point --db at another file)\n"; code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("exit %d %q, want exit %d and %q", code, errOut, exitError, want)
	}
}

// The hints the CLI adds to domain states that the process tests above do
// not reach cheaply: a suspended reviewer, governed memory edited outside
// memgov.
func TestHintNamesTheCommandForADomainState(t *testing.T) {
	cmd := &cobra.Command{Use: "approve"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&review.ForbiddenError{Msg: "read-only: jane is suspended", Next: review.NextReinstate, Principal: "jane"},
			" (memgov principal reinstate jane --by CURATOR)"},
		{&review.ForbiddenError{Msg: "read-only: bot is an executor"}, ""},
		{&baselines.StateError{Kind: memgov.ErrConflict, Ref: "acme/a", Edited: true, Msg: "acme/a was edited outside memgov"},
			"; record the drift with: memgov verify acme/a, then acknowledge it with: memgov drift ack"},
	} {
		if got := hint(cmd, tc.err); got != tc.want {
			t.Errorf("hint(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
