package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/gate"
	"github.com/memgov/memgov/engine/redact"
)

// exitFor maps a write status to the exit-code contract.
func exitFor(status string) int {
	switch status {
	case memgov.StatusCommitted, memgov.StatusMerged, memgov.StatusAlreadyCommitted:
		return exitOK
	case memgov.StatusRejected, memgov.StatusDeadlineExceeded:
		return exitRejected
	case memgov.StatusDeferred:
		return exitDeferred
	case memgov.StatusDenied:
		return exitDenied
	}
	return exitError
}

func (a *app) writeCommand() *cobra.Command {
	var (
		file, run           string
		sec                 *secretFlags
		asJSON, batch, wait bool
		noWait              bool
		fencing             int64
	)
	cmd := &cobra.Command{
		Use:   "write",
		Short: "Submit a memory write through the governed pipeline",
		Long: `write reads one JSON write request from stdin (or --file) and runs it through every
gate: idempotency, deadline, authorization, drift, rate limits, schema, content policy,
evidence, contradiction, dedup, provenance and risk-tiered approval.

Request fields: request_id, source_agent_id, memory_ref, key, target_layer, content
{text, subject, predicate, object, ...}, tags, evidence_refs [{source_type, source_uri,
source_item_id, authority, accessed_at, excerpt}], confidence, observation_type,
classification, ttl_seconds, idempotency_token, deadline, run_id, session_id, residency.

A SYNC_BLOCK write (one a curator must decide before the writer goes on) blocks
until the decision or the review's deadline, and prints the final outcome: COMMITTED
when approved, REJECTED when rejected or when the deadline passes (APPROVAL_TIMEOUT,
fail-closed). --no-wait returns DEFERRED at once; the review stays and resolves the
same way, as it does when a waiting writer is killed.

A write to an entry under a write lease carries the lease's fencing token
(fencing_token in the request, or --fencing-token); memgov lease acquire prints it.

An idempotency_token covers what the write writes (memory_ref, key, content, agent,
layer): a replay of the same write answers ALREADY_COMMITTED, a replay of the token
with anything changed is refused with IDEMPOTENCY_CONFLICT.

Result: {status, reason, gate, item_id, version_id, review_id, retry_after,
validation_score, risk_score}. Exit codes: 0 COMMITTED/MERGED/ALREADY_COMMITTED,
3 REJECTED (or DEADLINE_EXCEEDED), 4 DEFERRED, 5 DENIED, 1 error, 2 usage.
With --batch, stdin holds JSON lines; the exit code is the worst outcome.`,
		Example: `  echo '{"source_agent_id":"support-bot","memory_ref":"acme/support-bot","key":"customer-42/channel",
    "target_layer":"EPISODIC","observation_type":"user_stated_preference",
    "content":{"text":"Customer 42 prefers email."},
    "evidence_refs":[{"source_type":"HUMAN_INPUT","source_uri":"chat://s-71","authority":1}]}' | memgov write --json
  memgov write --file req.json --no-wait
  memgov write --file req.json --fencing-token 3
  memgov write --batch --file writes.jsonl --json
  memgov write --run r-2291 --secret stripe=sk_live_0123456789 --file req.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var in io.Reader = a.stdin
			if file != "" && file != "-" {
				f, err := os.Open(file)
				if err != nil {
					return err
				}
				defer f.Close()
				in = f
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := sec.register(eng, run); err != nil {
				return err
			}
			if wait && noWait {
				return usagef("--wait and --no-wait contradict each other")
			}
			if cmd.Flags().Changed("fencing-token") && fencing <= 0 {
				return usagef("--fencing-token takes the positive token memgov lease acquire printed")
			}
			if batch {
				if cmd.Flags().Changed("fencing-token") {
					return usagef("--fencing-token names one lease; put fencing_token in each request of a batch")
				}
				return a.writeBatch(cmd, eng, in, run, asJSON, !noWait)
			}
			raw, err := io.ReadAll(io.LimitReader(in, memgov.MaxRequestBytes+1))
			if err != nil {
				return err
			}
			if len(bytes.TrimSpace(raw)) == 0 {
				return usagef("no write request on stdin (pipe one in, or use --file; see `memgov write --help`)")
			}
			req, err := memgov.DecodeWriteRequest(raw)
			if err != nil {
				return &exitCodeError{code: exitUsage, err: err}
			}
			if run != "" && req.RunID == "" {
				req.RunID = run
			}
			if cmd.Flags().Changed("fencing-token") {
				req.FencingToken = &fencing
			}
			res, err := eng.Writes().Write(cmd.Context(), req)
			if err != nil {
				return err
			}
			if res, err = a.awaitDecision(cmd, eng, res, !noWait); err != nil {
				return err
			}
			a.printWrite(res, asJSON)
			if code := exitFor(res.Status); code != exitOK {
				return &exitCodeError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "read the request from this file instead of stdin")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&batch, "batch", false, "read JSON lines, one request each")
	cmd.Flags().BoolVar(&wait, "wait", false, "block a SYNC_BLOCK write until a curator decides or its deadline passes (the default; kept for compatibility)")
	cmd.Flags().BoolVar(&noWait, "no-wait", false, "return DEFERRED at once for a SYNC_BLOCK write instead of waiting for the decision")
	cmd.Flags().Int64Var(&fencing, "fencing-token", 0, "the fencing token of the write lease held on the entry (memgov lease acquire prints it)")
	cmd.Flags().StringVar(&run, "run", "", "run id: secrets registered with --secret apply to this run")
	sec = addSecretFlags(cmd)
	return cmd
}

func registerSecrets(reg *redact.Registry, run string, pairs []string, file string) error {
	all := map[string]string{}
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		m, err := redact.ParseSecretsFile(f)
		f.Close()
		if err != nil {
			return usagef("--secrets-file: %v", err)
		}
		for k, v := range m {
			all[k] = v
		}
	}
	for _, p := range pairs {
		id, v, ok := strings.Cut(p, "=")
		if !ok || id == "" {
			return usagef("--secret takes ID=VALUE")
		}
		all[id] = v
	}
	for id, v := range all {
		if _, err := reg.Register(run, id, v); err != nil {
			return usagef("secret %s: %v", id, err)
		}
	}
	return nil
}

// awaitDecision blocks on the review of a DEFERRED SYNC_BLOCK write until a
// curator decides it or its deadline passes (fail-closed), when wait is set.
// The review lives in the store: a curator in another process decides it, and
// a writer killed while it waits leaves it to resolve the same way.
func (a *app) awaitDecision(cmd *cobra.Command, eng *engine.Engine, res memgov.WriteResult, wait bool) (memgov.WriteResult, error) {
	if !wait {
		return res, nil
	}
	return eng.Writes().AwaitSync(cmd.Context(), res)
}

func (a *app) writeBatch(cmd *cobra.Command, eng *engine.Engine, in io.Reader, run string, asJSON, wait bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), memgov.MaxRequestBytes)
	worst, line := exitOK, 0
	counts := map[string]int{}
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		req, err := memgov.DecodeWriteRequest(b)
		var res memgov.WriteResult
		if err != nil {
			res = memgov.WriteResult{Status: memgov.StatusRejected, Gate: gate.NameSchema, Reason: gate.ReasonSchemaInvalid, Detail: fmt.Sprintf("line %d: %v", line, err)}
		} else {
			if run != "" && req.RunID == "" {
				req.RunID = run
			}
			if res, err = eng.Writes().Write(cmd.Context(), req); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			if res, err = a.awaitDecision(cmd, eng, res, wait); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
		}
		counts[res.Status]++
		a.printWrite(res, asJSON)
		if c := exitFor(res.Status); c > worst {
			worst = c
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d is longer than %d bytes", line+1, memgov.MaxRequestBytes)
		}
		return err
	}
	if !asJSON {
		fmt.Fprintf(a.stderr, "%d requests: %v\n", line, counts)
	}
	if worst != exitOK {
		return &exitCodeError{code: worst}
	}
	return nil
}

func (a *app) printWrite(res memgov.WriteResult, asJSON bool) {
	if asJSON {
		a.printJSONLine(res)
		return
	}
	msg := res.Status
	if res.Reason != "" {
		msg += " " + res.Reason
	}
	if res.Gate != "" && !res.Accepted() {
		msg += " at " + res.Gate
	}
	fmt.Fprintln(a.stdout, msg)
	t := a.table()
	if res.Key != "" {
		t.row("  key", res.Key)
	}
	if res.ItemID != "" {
		t.row("  item", res.ItemID)
	}
	if res.VersionID != "" {
		t.row("  version", res.VersionID)
	}
	if res.ReviewID != "" {
		t.row("  review", res.ReviewID+" ("+res.Tier+")")
	}
	if res.RiskScore != nil {
		t.row("  risk", fmt.Sprintf("%.2f", *res.RiskScore))
	}
	if res.RetryAfter != nil && res.Status == memgov.StatusDeferred {
		t.row("  retry after", (time.Duration(*res.RetryAfter * float64(time.Second))).Round(time.Second).String())
	}
	if len(res.Related) > 0 {
		t.row("  related", strings.Join(res.Related, ", "))
	}
	if res.Detail != "" {
		t.row("  detail", res.Detail)
	}
	if res.Rule != "" {
		t.row("  rule", res.Rule+wordsSuffix(res.RuleWords)+" (memgov judge --rules)")
	}
	for _, l := range res.Links {
		t.row("  linked", l.Relation+" "+l.Key+" ("+l.ItemID+")")
	}
	if res.NeedsVerification {
		t.row("  flag", "needs verification (confidence below the policy's verify_below)")
	}
	for _, al := range res.Alerts {
		t.row("  alert", al)
	}
	t.flush()
}
