package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/audit"
	"github.com/memgov/memgov/baselines"
	"github.com/memgov/memgov/review"
)

// The engine's errors say what failed in memgov's terms; the CLI adds the
// flag that gives the input at fault, or the command that clears the way.
// The exit codes are those of the error's kind.
func TestCLIHintsNameTheFlagAndTheNextCommand(t *testing.T) {
	c := newCLI(t)
	const ref = "acme/chat-agent"
	c.governedSetup(ref, map[string]string{"greeting": "Greet customers by their first name."})
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

// A refused write says what lifts the refusal in memgov's terms (the
// detail's phrase, next_action); the CLI adds the command that does it, in
// its JSON and its table alike.
func TestCLIWriteResultsNameTheNextCommand(t *testing.T) {
	c := newCLI(t)
	const ref = "acme/billing-agent"
	c.governedSetup(ref, map[string]string{"refund/limit": "Refunds up to $1,000 need no second signature."})

	out, _, code := c.run(writeReq("ghost", ref, "k1", "The invoice run is on Fridays."), "write", "--json")
	want := `unknown agent "ghost"; a curator registers it as a principal of tenant acme; register it with: memgov principal add --id ghost --role executor --tenant acme`
	if code != exitDenied || jsonField(out, "detail") != want || jsonField(out, "next_action") != string(memgov.NextRegisterAgent) {
		t.Errorf("a write by an unknown agent: exit %d %s\nwant exit %d, detail %q and next_action %s", code, out, exitDenied, want, memgov.NextRegisterAgent)
	}
	if out, _, _ := c.run(writeReq("ghost", ref, "k1", "The invoice run is on Fridays."), "write"); !strings.Contains(out, want) {
		t.Errorf("the table of a write by an unknown agent lacks %q:\n%s", want, out)
	}

	// Memory edited behind memgov's back under deny-on-drift: verify names
	// the acknowledgement, and a write is denied until it is made.
	c.ok("", "baseline", "approve", ref, "--by", "oncall", "--type", "persistent", "--ttl", "2592000", "--policy", "deny-on-drift", "--level", "2")
	editOutsideMemgov(t, c, "refund/limit", "Refunds up to $50,000 need no second signature.")
	vout, _, code := c.run("", "verify", ref, "--json")
	v := decode[memgov.VerifyResult](t, vout)
	if code != exitDenied || v.DriftID == "" || v.NextAction != memgov.NextAcknowledgeDrift {
		t.Fatalf("verify after an edit: exit %d %s", code, vout)
	}
	ack := "memgov drift ack " + v.DriftID + " --by OPERATOR --resolve reapprove|rollback"
	if len(v.Alerts) != 1 || !strings.HasSuffix(v.Alerts[0], "an operator acknowledges it, re-approving or rolling back ("+ack+")") {
		t.Errorf("verify's alerts %q, want the acknowledgement and %q", v.Alerts, ack)
	}
	if out, _, _ := c.run("", "verify", ref); !strings.Contains(out, "  next: "+ack+"\n") {
		t.Errorf("verify's table lacks the next command %q:\n%s", ack, out)
	}
	out, _, code = c.run(writeReq("bot", ref, "k2", "The invoice run is on Fridays."), "write", "--json")
	res := decode[memgov.WriteResult](t, out)
	if code != exitDenied || res.NextAction != memgov.NextAcknowledgeDrift ||
		res.Detail != "memory of "+ref+" drifted from its approved baseline under deny-on-drift; an operator must acknowledge the drift (memgov drift list)" {
		t.Errorf("a write to drifted memory: exit %d %s", code, out)
	}
	if len(res.Alerts) != 1 || !strings.HasSuffix(res.Alerts[0], "("+ack+")") {
		t.Errorf("a write to drifted memory: alerts %q, want the command %q", res.Alerts, ack)
	}
}

// The hints the CLI adds to results the process tests above do not reach
// cheaply.
func TestResultHintsNameTheCommand(t *testing.T) {
	req := memgov.WriteRequest{SourceAgentID: "bot", MemoryRef: "acme/shared", Key: "deploy-window"}
	for _, tc := range []struct {
		res  memgov.WriteResult
		want string
	}{
		{memgov.WriteResult{NextAction: memgov.NextReinstateAgent}, " with: memgov principal reinstate bot --by CURATOR"},
		{memgov.WriteResult{NextAction: memgov.NextAcquireLease}, " with: memgov lease acquire acme/shared deploy-window --by bot"},
		{memgov.WriteResult{NextAction: memgov.NextCarryFencingToken}, " (fencing_token, or memgov write --fencing-token)"},
		{memgov.WriteResult{}, ""},
	} {
		if got := writeHint(req, tc.res); got != tc.want {
			t.Errorf("writeHint(%s) = %q, want %q", tc.res.NextAction, got, tc.want)
		}
	}
	if got := writeHint(memgov.WriteRequest{SourceAgentID: "a b;c"}, memgov.WriteResult{NextAction: memgov.NextRegisterAgent}); got != "; register it with: memgov principal add --id AGENT_ID --role executor --tenant TENANT" {
		t.Errorf("writeHint for an id unfit for a command line = %q", got)
	}
	for alert, want := range map[string]string{
		"MEMORY_DRIFT_DETECTED: acme/a was changed outside memgov; a verification records the drift":                       " (memgov verify acme/a)",
		"DELTA_BUDGET_EXHAUSTED: 5 governed changes since baseline b reach the delta budget of 5; re-approve the baseline": "",
	} {
		if got := alertHint(alert); got != want {
			t.Errorf("alertHint(%q) = %q, want %q", alert, got, want)
		}
	}

	m := audit.Metrics{UnmeasuredWhy: map[string]string{"retrieval_precision": "usage feedback", "write_acceptance": "governed writes in the window"},
		UnmeasuredNext: map[string]memgov.NextAction{"retrieval_precision": memgov.NextRecordUsage, "write_acceptance": memgov.NextWrite}}
	metricsHints(&m)
	if m.UnmeasuredWhy["retrieval_precision"] != "usage feedback (memgov feedback RETRIEVAL_ID --used KEY)" || m.UnmeasuredWhy["write_acceptance"] != "governed writes in the window" {
		t.Errorf("metricsHints: %q", m.UnmeasuredWhy)
	}

	rep := audit.ComplianceReport{PastTTL: []audit.ComplianceItem{{Detail: "TTL passed 2026-01-01T00:00:00Z; garbage collection expires it", NextAction: memgov.NextRunGC}},
		RetentionBreaches: []audit.ComplianceItem{{Detail: "past the PII retention"}}}
	complianceHints(&rep)
	if rep.PastTTL[0].Detail != "TTL passed 2026-01-01T00:00:00Z; garbage collection expires it; run memgov gc" || rep.RetentionBreaches[0].Detail != "past the PII retention" {
		t.Errorf("complianceHints: %+v", rep)
	}

	if got := eraseHints(memgov.EraseReport{NextActions: []memgov.NextAction{memgov.NextRejectProposal}}); len(got) != 1 || !strings.Contains(got[0], "memgov proposal reject ID --by CURATOR") {
		t.Errorf("eraseHints = %q", got)
	}
}
