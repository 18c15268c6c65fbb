package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/host"
	"github.com/memgov/memgov/lifecycle"
)

// The host memory contract's commands (issue 6): search, forget, distill,
// consolidate, commitments, proposal, capabilities, events; and --as on reads.

// asHelp documents --as on every read command.
const asHelp = "read as this principal: its tenant bounds what is returned (env MEMGOV_PRINCIPAL; default: the database's local owner, every tenant)"

// reader returns the principal reads are bound to: --as, else
// MEMGOV_PRINCIPAL, else "" (the local owner of the database, who holds its
// key and reads every tenant).
func reader(as string) string {
	if as != "" {
		return as
	}
	return os.Getenv("MEMGOV_PRINCIPAL")
}

// readerOf is the reader reads are for: the principal of reader(as), else
// the local owner.
func readerOf(as string) memgov.Reader {
	if p := reader(as); p != "" {
		return memgov.As(p)
	}
	return memgov.Owner
}

// adapter returns the MemoryAdapter of the reader.
func adapter(eng *engine.Engine, as string) *host.MemoryAdapter {
	return eng.Host().Adapter(readerOf(as))
}

// denied maps authorization errors to exit 5.
func denied(err error) error {
	if errors.Is(err, memgov.ErrForbidden) || errors.Is(err, memgov.ErrUnauthorized) {
		return &exitCodeError{code: exitDenied, err: err}
	}
	return err
}

func (a *app) searchCommand() *cobra.Command {
	var (
		asJSON bool
		as     string
		asOf   string
		q      host.SearchQuery
	)
	cmd := &cobra.Command{
		Use:   "search REF QUERY",
		Short: "Rank a memoryRef's entries for a query (hybrid RRF retrieval)",
		Long: `search ranks the visible entries of REF by reciprocal rank fusion (k = policy
retrieval.rrf_k, 60) of keyword relevance (Okapi BM25 of the query's words: every
entry holding one of them is a candidate, rare words weigh more), semantic
similarity and tag/structure match, weighted by provenance (confidence,
freshness, authority). Recency orders equal scores (newer first) unless the
policy weighs it (retrieval.signals.recency). There is no similarity cut-off; an
entry whose text is the query itself ranks first. Facts no longer valid
(superseded, or past content.invalid_at) are left out unless --include-superseded
or --as-of TIME asks for them. Expired, draft and quarantined entries never
surface, nor entries of another tenant.

Cost: the ref's entries (the newest 100,000) are indexed in memory on the first
search after a change to the ref; a search over 10,000 unchanged entries takes
about 1 ms in a serving process (memgov serve, mcp).`,
		Example: `  memgov search acme/support-bot "who signs large refunds?"
  memgov search acme/support-bot "CEO of ACME" --as-of 2026-01-01T00:00:00Z --json
  memgov search acme/support-bot billing --tag crm --limit 5 --as support-bot`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asOf != "" {
				t, err := time.Parse(time.RFC3339Nano, asOf)
				if err != nil {
					return usagef("--as-of must be RFC 3339, like 2026-11-20T14:00:00Z")
				}
				q.AsOf = t
			}
			if q.Limit < 0 || q.Limit > host.MaxSearchLimit {
				return usagef("--limit must be between 1 and %d", host.MaxSearchLimit)
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			q.MemoryRef, q.Query = args[0], args[1]
			a.readerNote(reader(as))
			hits, rid, err := adapter(eng, as).SearchRead(cmd.Context(), q)
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(host.EnvelopeSearch(q.MemoryRef, rid, hits))
			}
			if len(hits) == 0 {
				fmt.Fprintf(a.stdout, "nothing in %s matches\n", args[0])
				return nil
			}
			t := a.table("SCORE", "KEY", "STATE", "WORDS", "SEM", "STRUCT", "RECENT", "CONTENT")
			for _, h := range hits {
				t.row(strconv.FormatFloat(h.Score, 'f', 4, 64), clip(h.Entry.ID, 32), string(h.State), strconv.Itoa(h.Ranks.Keyword), strconv.Itoa(h.Ranks.Semantic),
					strconv.Itoa(h.Ranks.Structure), strconv.Itoa(h.Ranks.Recency), clip(h.Entry.Content, 60))
			}
			t.flush()
			for _, h := range hits {
				if h.Entry.Read != nil {
					if w := noteWarning(*h.Entry.Read); w != "" {
						fmt.Fprintf(a.stdout, "warning: %s: %s\n", clip(h.Entry.ID, 48), w)
					}
				}
			}
			fmt.Fprintf(a.stdout, "retrieval %s (memgov feedback %s --used KEY)\n", rid, rid)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON {memory_ref, retrieval_id, hits: [{entry, read, score, ...}]}")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	cmd.Flags().StringVar(&asOf, "as-of", "", "the facts valid at this RFC 3339 time (superseded ones included)")
	cmd.Flags().BoolVar(&q.IncludeSuperseded, "include-superseded", false, "also return facts that are no longer valid")
	cmd.Flags().StringSliceVar(&q.Tags, "tag", nil, "only entries with this tag (repeatable)")
	cmd.Flags().IntVar(&q.Limit, "limit", host.DefaultSearchLimit, "at most this many hits")
	return cmd
}

func (a *app) forgetCommand() *cobra.Command {
	var (
		asJSON           bool
		subject, by, why string
	)
	cmd := &cobra.Command{
		Use:   "forget REF --subject S --by WHO",
		Short: "Retract every entry of a memoryRef that mentions a subject",
		Long: `forget is the tenant-scoped delete-by-subject: every visible entry of REF whose
content.subject equals S or whose text contains S (case-insensitive) is retracted
by a log entry naming WHO and the reason. It erases from live memory only: the
log, past snapshots (memgov at) and replays keep the history. WHO must be a
curator or operator of REF's tenant.`,
		Example: `  memgov forget acme/support-bot --subject "Alice Martin" --by jane --reason "GDPR request 7"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			res, err := eng.Host().Forget(cmd.Context(), args[0], subject, by, why)
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "forgot %d of %d entries in %s\n", res.Forgotten, res.Scanned, res.MemoryRef)
			for _, k := range res.Keys {
				fmt.Fprintf(a.stdout, "  %s\n", clip(k, 80))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	cmd.Flags().StringVar(&subject, "subject", "", "the subject to forget (required)")
	cmd.Flags().StringVar(&by, "by", "", "the curator or operator (required)")
	cmd.Flags().StringVar(&why, "reason", "", "why (recorded in the log)")
	cmd.MarkFlagRequired("subject")
	cmd.MarkFlagRequired("by")
	return cmd
}

func (a *app) distillCommand() *cobra.Command {
	var (
		asJSON         bool
		r              host.DistillRequest
		out, archive   string
		distillSecrets *secretFlags
	)
	cmd := &cobra.Command{
		Use:   "distill REF --budget TOKENS --by WHO",
		Short: "Distill a memoryRef into an immutable archive and MEMORY-INDEX.json",
		Long: `distill reads the visible entries of REF and writes, within the token budget
(input + output, counted with the memgov-words-v1 tokenizer: each run of letters,
digits and underscores is a token, and so is every other non-space character), a
content-addressed archive under the key distill/<sha256> and the MEMORY-INDEX.json
entry of REF, which the next session loads (memgov get REF MEMORY-INDEX.json).
The archive is canonical JSON, byte-stable for the same sources and budget.
Secrets registered for --run are redacted again. A budget that cannot be met
fails with token_budget_exceeded (exit 3) and writes nothing. The run emits
memory.compacted {tokenBudget, tokensUsed, indexUpdated}.`,
		Example: `  memgov distill acme/support-bot --budget 2000 --by jane
  memgov distill acme/support-bot --budget 2000 --by jane --out MEMORY-INDEX.json --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if r.Budget < 0 {
				return usagef("--budget must be positive (0: the maximum, %d)", host.MaxTokenBudget)
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := distillSecrets.register(eng, r.RunID); err != nil {
				return err
			}
			r.MemoryRef = args[0]
			res, err := eng.Host().Distill(cmd.Context(), r)
			if errors.Is(err, host.ErrTokenBudgetExceeded) {
				if asJSON {
					_ = a.printJSON(map[string]any{"error": "token_budget_exceeded", "detail": err.Error()})
				}
				return &exitCodeError{code: exitRejected, err: err}
			}
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return denied(err)
			}
			if out != "" {
				if err := os.WriteFile(out, append(res.Index, '\n'), 0o644); err != nil {
					return fmt.Errorf("write --out: %w", err)
				}
			}
			if archive != "" {
				if err := os.WriteFile(archive, res.Archive, 0o644); err != nil {
					return fmt.Errorf("write --archive-out: %w", err)
				}
			}
			if asJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "distilled %d entries of %s: %d of %d tokens (%d in, %d out, %s)\narchive %s%s\n",
				res.Sources, res.MemoryRef, res.TokensUsed, res.TokenBudget, res.InputTokens, res.OutputTokens, res.Tokenizer,
				res.ArchiveKey, map[bool]string{true: "", false: " (unchanged)"}[res.ArchiveNew])
			if res.IndexUpdated {
				fmt.Fprintf(a.stdout, "updated %s\n", memgov.IndexKey)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().IntVar(&r.Budget, "budget", 0, "token budget for input + output (0: the maximum)")
	cmd.Flags().StringVar(&r.Actor, "by", "", "the principal running the distillation (required)")
	cmd.Flags().StringVar(&r.RunID, "run", "", "redact the secrets registered for this run")
	distillSecrets = addSecretFlags(cmd)
	cmd.Flags().StringVar(&out, "out", "", "also write MEMORY-INDEX.json to this file")
	cmd.Flags().StringVar(&archive, "archive-out", "", "also write the archive's canonical bytes to this file")
	cmd.MarkFlagRequired("by")
	return cmd
}

func (a *app) consolidateCommand() *cobra.Command {
	var (
		asJSON      bool
		r           lifecycle.ConsolidateRequest
		consSecrets *secretFlags
	)
	cmd := &cobra.Command{
		Use:   "consolidate REF --by WHO",
		Short: "Merge near-duplicates and supersede stale facts within one memoryRef",
		Long: `consolidate runs one reconciliation pass over the long-term (episodic, semantic,
procedural) entries of REF only, judged as the write path judges a write: an
entry merges into another only when both state the same claims (into the newer)
or the other keeps every word of it and adds to it (into the longer); confidence
rises when different writers corroborate it. A fact a newer one contradicts on a
single-valued relation (manager, lives in, CEO, ...) is superseded by it; a
multi-valued one ("speaks French" / "speaks German") is kept, and so is every
other near entry (a word swap, another name or number). Episodic entries are
events and never merge. Each merge names its rule; --json lists them (rules,
changes, kept). Merged content is redacted again. A second pass over an
unchanged corpus changes nothing. Emits agent.memory.consolidated {inputCount,
outputCount, memoryRef}.`,
		Example: `  memgov consolidate acme/support-bot --by jane --json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := consSecrets.register(eng, r.RunID); err != nil {
				return err
			}
			r.MemoryRef = args[0]
			res, err := eng.Lifecycle().Consolidate(cmd.Context(), r)
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "%s: %d entries in, %d out (%d merged, %d superseded, %d strengthened)\n",
				res.MemoryRef, res.InputCount, res.OutputCount, res.Merged, res.Superseded, res.Strengthened)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().StringVar(&r.Actor, "by", "", "the principal running the pass (required)")
	cmd.Flags().StringVar(&r.RunID, "run", "", "redact the secrets registered for this run")
	consSecrets = addSecretFlags(cmd)
	cmd.MarkFlagRequired("by")
	return cmd
}

func (a *app) commitmentsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "commitments",
		Short: "List and fire inferred standing commitments",
		Long: `An entry whose content has "commit_at": RFC3339 (a time) or "commit_when":
{"key": K} / {"tag": T} (a predicate over the same memoryRef) states a
commitment. tick infers them and fires each at most once per satisfied
condition, emitting a content-free commitment.fired event.`,
		Example: `  memgov commitments tick acme/support-bot --by jane
  memgov commitments list acme/support-bot --json`,
	}
	var (
		asJSON bool
		as     string
	)
	list := &cobra.Command{
		Use:     "list REF",
		Short:   "List the commitments of a memoryRef",
		Example: "  memgov commitments list acme/support-bot --as support-bot --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			a.readerNote(reader(as))
			cs, err := adapter(eng, as).Commitments(cmd.Context(), args[0])
			if err != nil {
				return denied(err)
			}
			if asJSON {
				return a.printJSON(cs)
			}
			if len(cs) == 0 {
				fmt.Fprintf(a.stdout, "no commitments in %s\n", args[0])
				return nil
			}
			t := a.table("ID", "KIND", "CONDITION", "FIRED", "ARMED")
			for _, c := range cs {
				cond := string(c.Predicate)
				if c.DueAt != nil {
					cond = c.DueAt.Format(time.RFC3339)
				}
				t.row(c.ID, c.Kind, cond, strconv.Itoa(c.FiredCount), strconv.FormatBool(c.Armed))
			}
			t.flush()
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	list.Flags().StringVar(&as, "as", "", asHelp)
	var (
		by       string
		tickJSON bool
	)
	tick := &cobra.Command{
		Use:     "tick REF --by WHO",
		Short:   "Infer commitments and fire those whose condition holds",
		Example: "  memgov commitments tick acme/support-bot --by jane --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			res, err := eng.Host().TickCommitments(cmd.Context(), args[0], by)
			if errors.Is(err, memgov.ErrInvalid) {
				return &usageError{err}
			}
			if err != nil {
				return denied(err)
			}
			if tickJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "%s: %d inferred, %d fired, %d re-armed\n", res.MemoryRef, len(res.Inferred), len(res.Fired), len(res.Rearmed))
			return nil
		},
	}
	tick.Flags().StringVar(&by, "by", "", "the principal running the tick (required)")
	tick.Flags().BoolVar(&tickJSON, "json", false, "print JSON")
	tick.MarkFlagRequired("by")
	cmd.AddCommand(list, tick)
	return cmd
}

func (a *app) capabilitiesCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "capabilities",
		Short: "Print the memory capabilities memgov advertises",
		Long: `capabilities prints the capability blocks of the memory contract and the eight
RFC 0080 dimensions (read, write, search, long-term-durability, compaction,
attribution, replay-snapshot, retention), each with the tests that prove it.`,
		Example: "  memgov capabilities --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			c := eng.Capabilities()
			if asJSON {
				return a.printJSON(c)
			}
			t := a.table("DIMENSION", "SUPPORTED", "PROVED BY")
			for _, d := range c.Dimensions {
				t.row(d.Name, strconv.FormatBool(d.Supported), strings.Join(d.Tests, ", "))
			}
			t.flush()
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) eventsCommand() *cobra.Command {
	var (
		asJSON, follow bool
		as             string
		q              memgov.EventQuery
		interval, dur  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "events",
		Short: "Read the content-free event outbox",
		Long: `events prints the outbox: memory.written, memory.retracted, memory.expired,
memory.compacted, agent.memory.consolidated, commitment.fired, proposal.created,
proposal.activated, review.* and agent.* events. They carry ids and counts, never
content. --follow polls for new events (every --interval) until interrupted or
--for elapses; with --json it prints one event per line.`,
		Example: `  memgov events --type memory.written --json
  memgov events --follow --as support-bot --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if interval <= 0 {
				return usagef("--interval must be positive")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			read := func() ([]memgov.Event, error) {
				a.readerNote(reader(as))
				return eng.Host().Events(ctx, readerOf(as), q)
			}
			print := func(evs []memgov.Event, lines bool) error {
				if asJSON && !lines {
					return a.printJSON(evs)
				}
				for _, ev := range evs {
					if asJSON {
						if err := a.printJSONLine(ev); err != nil {
							return err
						}
						continue
					}
					fmt.Fprintf(a.stdout, "%d\t%s\t%s\t%s\t%s\n", ev.ID, ev.At.Format(time.RFC3339), ev.Type, ev.MemoryRef, ev.Data)
				}
				return nil
			}
			evs, err := read()
			if err != nil {
				return denied(err)
			}
			if !follow {
				return print(evs, false)
			}
			var deadline <-chan time.Time
			if dur > 0 {
				deadline = time.After(dur)
			}
			tick := time.NewTicker(interval)
			defer tick.Stop()
			for {
				if err := print(evs, true); err != nil {
					return err
				}
				if len(evs) > 0 {
					q.AfterID = evs[len(evs)-1].ID
				}
				select {
				case <-ctx.Done():
					return nil
				case <-deadline:
					return nil
				case <-tick.C:
				}
				if evs, err = read(); err != nil {
					return denied(err)
				}
			}
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (one event per line with --follow)")
	cmd.Flags().BoolVar(&follow, "follow", false, "keep polling for new events")
	cmd.Flags().StringVar(&q.Type, "type", "", "only events of this type")
	cmd.Flags().Int64Var(&q.AfterID, "after", 0, "only events after this id")
	cmd.Flags().IntVar(&q.Limit, "limit", 0, "at most this many events per read (0: 1000)")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	cmd.Flags().DurationVar(&interval, "interval", time.Second, "poll interval with --follow")
	cmd.Flags().DurationVar(&dur, "for", 0, "stop following after this long (0: until interrupted)")
	return cmd
}
