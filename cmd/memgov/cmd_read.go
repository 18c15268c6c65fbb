package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/host"
)

func (a *app) getCommand() *cobra.Command {
	var asJSON, full bool
	var as string
	cmd := &cobra.Command{
		Use:   "get REF KEY",
		Short: "Read one memory entry",
		Long: `get prints the ACTIVE, unexpired version of the entry KEY in memoryRef REF.
With --json it prints exactly the MemoryEntry {id, content, tags, createdAt,
expiresAt} (none: exit 1, {"error": "not_found"}), and on stderr the retrieval id of this read
(for memgov feedback) and its read note (source, trust level, confidence, needs
verification, stale warning); --full prints the whole version record, with
links: the near texts the write was kept beside (NEAR_DUPLICATE, with the
judge rule that linked them), read from its log entry. Every read is
recorded: it reinforces the entry's relevance (n_access) and feeds the retrieval
metrics.`,
		Example: "  memgov get acme/support-bot customer-42/channel\n  memgov get acme/support-bot customer-42/channel --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if reader(as) == "" {
				a.readerNote("")
			}
			r, err := adapter(eng, as).GetRead(cmd.Context(), args[0], args[1])
			if err == nil && len(r.Versions) == 0 {
				err = memgov.ErrNotFound
			}
			if errors.Is(err, memgov.ErrNotFound) {
				missing := fmt.Errorf("no visible entry %q in %s (see `memgov list %s`)", args[1], args[0], args[0])
				if asJSON {
					return a.jsonError(exitError, "not_found", missing)
				}
				return &exitCodeError{code: exitError, err: missing}
			}
			if err != nil {
				return denied(err)
			}
			v := r.Versions[0]
			if asJSON && !full {
				a.printReadNotes(r)
				return a.printJSON(r.Entries()[0])
			}
			links, err := readLinks(cmd.Context(), eng, as, []memgov.Version{v})
			if err != nil {
				return err
			}
			if full {
				return a.printJSON(struct {
					memgov.Version
					Links []memgov.RelatedItem `json:"links,omitempty"`
				}{v, links[v.ID]})
			}
			a.printVersion(v)
			a.printLinks(links[v.ID])
			a.printNote(r.Notes[0])
			fmt.Fprintf(a.stdout, "retrieval    %s (memgov feedback %s --used %s)\n", r.ID, r.ID, v.Key)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the MemoryEntry as JSON")
	cmd.Flags().BoolVar(&full, "full", false, "print the whole version record as JSON")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	return cmd
}

// readLinks reads the links of vs, as the reader named by --as may see them.
func readLinks(ctx context.Context, eng *engine.Engine, as string, vs []memgov.Version) (map[string][]memgov.RelatedItem, error) {
	links, err := eng.Host().Links(ctx, readerOf(as), vs)
	if err != nil {
		return nil, denied(err)
	}
	return links, nil
}

// printLinks prints the near texts a version was kept beside.
func (a *app) printLinks(links []memgov.RelatedItem) {
	for _, l := range links {
		state := ""
		if l.State != "" {
			state = " (" + string(l.State) + ")"
		}
		fmt.Fprintf(a.stdout, "linked       %s %s%s [rule %s]\n", l.Relation, l.Key, state, l.Rule)
	}
}

func (a *app) printVersion(v memgov.Version) {
	t := a.table()
	t.row("key", v.Key)
	t.row("memory ref", v.MemoryRef)
	t.row("layer", string(v.Layer))
	t.row("version", fmt.Sprintf("v%d %s (%s)", v.Seq, v.ID, v.State))
	t.row("item", v.ItemID)
	t.row("written", v.CreatedAt.Format(time.RFC3339)+" by "+v.CreatedBy)
	if len(v.Tags) > 0 {
		t.row("tags", strings.Join(v.Tags, ", "))
	}
	if v.ExpiresAt != nil {
		t.row("expires", v.ExpiresAt.Format(time.RFC3339))
	}
	t.row("content", v.Text())
	t.flush()
}

// printNote prints what a reader must know about an entry before acting on it.
func (a *app) printNote(n host.ReadNote) {
	t := a.table()
	t.row("source", fmt.Sprintf("%s (trust %.2f, confidence %.2f)", n.Source, n.Trust, n.Confidence))
	if w := noteWarning(n); w != "" {
		t.row("warning", w)
	}
	t.flush()
}

// printReadNotes prints to stderr what --json leaves out of the entries it
// prints: the retrieval id and each entry's read note, one line each.
func (a *app) printReadNotes(r host.Retrieval) {
	if r.ID != "" {
		fmt.Fprintf(a.stderr, "retrieval %s (memgov feedback %s --used KEY)\n", r.ID, r.ID)
	}
	for i, v := range r.Versions {
		if i >= len(r.Notes) {
			break
		}
		n := r.Notes[i]
		line := fmt.Sprintf("read %s: source %s, trust %.2f, confidence %.2f", clip(v.Key, 48), n.Source, n.Trust, n.Confidence)
		if w := noteWarning(n); w != "" {
			line += "; " + w
		}
		fmt.Fprintln(a.stderr, line)
	}
}

func noteWarning(n host.ReadNote) string {
	var ws []string
	if n.NeedsVerification {
		ws = append(ws, "needs verification (low confidence)")
	}
	if n.Stale != "" {
		ws = append(ws, "stale: "+n.Stale)
	}
	return strings.Join(ws, "; ")
}

func (a *app) listCommand() *cobra.Command {
	var (
		asJSON bool
		as     string
		q      memgov.ReadQuery
	)
	cmd := &cobra.Command{
		Use:   "list REF",
		Short: "List the visible entries of a memoryRef",
		Long: `list prints the ACTIVE, unexpired entries of a memoryRef, ordered by key. With
--json it prints an array of exactly MemoryEntry objects {id, content, tags,
createdAt, expiresAt} ([] for an unknown ref), and on stderr the retrieval id of
this read and each entry's read note (source, trust level, confidence, needs
verification, stale warning). The read is recorded for relevance decay and the
retrieval metrics; memgov feedback RETRIEVAL_ID --used KEY marks what was used.`,
		Example: "  memgov list acme/support-bot\n  memgov list acme/support-bot --tag billing --limit 20 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if q.Limit < 0 {
				return usagef("--limit must be 0 (no limit) or more")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			q.MemoryRef = args[0]
			if reader(as) == "" {
				a.readerNote("")
			}
			r, err := adapter(eng, as).ListRead(cmd.Context(), q.MemoryRef, host.ListOptions{Limit: q.Limit, Tag: q.Tag, AfterKey: q.AfterKey})
			if err != nil {
				return denied(err)
			}
			if asJSON {
				a.printReadNotes(r)
				return a.printJSON(r.Entries())
			}
			if err := a.printSnapshot(memgov.Snapshot{MemoryRef: q.MemoryRef, Versions: r.Versions}, false); err != nil {
				return err
			}
			for i, v := range r.Versions {
				if n := r.Notes[i]; n.NeedsVerification || n.Stale != "" {
					fmt.Fprintf(a.stdout, "warning: %s: %s\n", clip(v.Key, 48), noteWarning(n))
				}
			}
			if r.ID != "" {
				fmt.Fprintf(a.stdout, "retrieval %s (memgov feedback %s --used KEY)\n", r.ID, r.ID)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print MemoryEntry objects as JSON")
	cmd.Flags().StringVar(&q.Tag, "tag", "", "only entries with this tag")
	cmd.Flags().IntVar(&q.Limit, "limit", 0, "at most this many entries (0: all)")
	cmd.Flags().StringVar(&q.AfterKey, "after", "", "start after this key (paging)")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	return cmd
}

func (a *app) printSnapshot(snap memgov.Snapshot, asJSON bool) error {
	if asJSON {
		return a.printJSON(host.Entries(snap.Versions))
	}
	if len(snap.Versions) == 0 {
		fmt.Fprintf(a.stdout, "no visible entries in %s\n", snap.MemoryRef)
		return nil
	}
	t := a.table("KEY", "LAYER", "VER", "WRITTEN", "BY", "CONTENT")
	for _, v := range snap.Versions {
		t.row(clip(v.Key, 32), string(v.Layer), "v"+strconv.Itoa(v.Seq), v.CreatedAt.Format("2006-01-02 15:04"), v.CreatedBy, clip(v.Text(), 60))
	}
	t.flush()
	return nil
}

func (a *app) historyCommand() *cobra.Command {
	var asJSON bool
	var as string
	cmd := &cobra.Command{
		Use:   "history (REF KEY | ITEM_ID)",
		Short: "Show every version of an item",
		Long: `history prints an item's versions, newest first, with their states, authors,
the curator who approved each deferred write (APPROVED BY; approved_by in --json)
and the reason each version exists, and the near texts a version was kept beside
(links in --json: relation NEAR_DUPLICATE, the linked item, version and key, and
the judge rule). Name the item by its memoryRef and key, as
get does, or by its id (item_id in the output of write --json and history --json).`,
		Example: "  memgov history acme/support-bot customer-42/channel\n  memgov history 019a6c1e-7f3b-7c9d-8e21-0c4b5a6d7e8f --json",
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			var (
				item memgov.Item
				vs   []memgov.Version
			)
			id := args[0]
			if len(args) == 2 {
				it, err := eng.Host().ItemByKey(cmd.Context(), memgov.Owner, args[0], args[1])
				if err != nil {
					return err
				}
				id = it.ID
			}
			r := readerOf(as)
			if r.IsOwner() {
				a.readerNote("")
			}
			if item, vs, err = eng.Host().History(cmd.Context(), r, id); err != nil {
				return denied(err)
			}
			approvers, err := approvedBy(cmd.Context(), eng, vs)
			if err != nil {
				return err
			}
			links, err := readLinks(cmd.Context(), eng, as, vs)
			if err != nil {
				return err
			}
			if asJSON {
				type versionJSON struct {
					memgov.Version
					ApprovedBy string `json:"approved_by,omitempty"`
					// Links are the near texts the version was kept beside.
					Links []memgov.RelatedItem `json:"links,omitempty"`
				}
				out := make([]versionJSON, len(vs))
				for i, v := range vs {
					out[i] = versionJSON{v, approvers[v.ID], links[v.ID]}
				}
				return a.printJSON(map[string]any{"item": item, "versions": out})
			}
			pin := ""
			if item.Pinned {
				pin = " · pinned"
			}
			fmt.Fprintf(a.stdout, "%s › %s  %s%s\n\n", item.MemoryRef, item.Key, item.Layer, pin)
			t := a.table("VER", "STATE", "WHEN", "BY", "APPROVED BY", "VERSION ID", "REASON", "CONTENT")
			for _, v := range vs {
				approver := approvers[v.ID]
				if approver == "" {
					approver = "-"
				}
				t.row("v"+strconv.Itoa(v.Seq), string(v.State), stamp(v.CreatedAt), v.CreatedBy, approver, v.ID, clip(v.Reason, 40), clip(v.Text(), 50))
			}
			t.flush()
			for _, v := range vs {
				for _, l := range links[v.ID] {
					fmt.Fprintf(a.stdout, "v%d linked %s %s (%s) [rule %s]\n", v.Seq, l.Relation, l.Key, l.VersionID, l.Rule)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	return cmd
}

func (a *app) atCommand() *cobra.Command {
	var (
		as     string
		asJSON bool
		lsn    int64
		at     string
	)
	cmd := &cobra.Command{
		Use:   "at REF (--lsn N | --time RFC3339)",
		Short: "Read a memoryRef as it was at a past log position or time",
		Long: `at reconstructs the visible entries of a memoryRef as of a log sequence number
or a point in time (seed 12.5.5).`,
		Example: "  memgov at acme/support-bot --lsn 1200\n  memgov at acme/support-bot --time 2026-11-20T14:00:00Z --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := memgov.ReadQuery{MemoryRef: args[0]}
			switch {
			case lsn > 0 && at != "":
				return usagef("give --lsn or --time, not both")
			case lsn > 0:
				q.AtLSN = lsn
			case at != "":
				t, err := time.Parse(time.RFC3339Nano, at)
				if err != nil {
					return usagef("--time must be RFC 3339, like 2026-11-20T14:00:00Z")
				}
				q.AtTime = t
			default:
				return usagef("give --lsn N (N >= 1) or --time RFC3339")
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			r := readerOf(as)
			if r.IsOwner() {
				a.readerNote("")
			}
			scoped, err := eng.Host().Read(cmd.Context(), r, q)
			if err != nil {
				return denied(err)
			}
			snap := scoped.Snapshot
			if asJSON {
				return a.printJSON(map[string]any{"memory_ref": snap.MemoryRef, "lsn": snap.LSN,
					"time": snap.Time.Format(time.RFC3339Nano), "entries": host.Entries(snap.Versions)})
			}
			fmt.Fprintf(a.stdout, "%s as of LSN %d (%s)\n\n", snap.MemoryRef, snap.LSN, snap.Time.Format(time.RFC3339))
			return a.printSnapshot(snap, false)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().Int64Var(&lsn, "lsn", 0, "log sequence number")
	cmd.Flags().StringVar(&at, "time", "", "RFC 3339 time")
	cmd.Flags().StringVar(&as, "as", "", asHelp)
	return cmd
}

// approvedBy maps each version that became ACTIVE through a person's
// approval (an APPROVE log entry at its active_from LSN) to that person.
func approvedBy(ctx context.Context, eng *engine.Engine, vs []memgov.Version) (map[string]string, error) {
	var lsns []int64
	for _, v := range vs {
		if v.ActiveFrom > 0 && v.ActiveFrom != v.CreatedLSN {
			lsns = append(lsns, v.ActiveFrom)
		}
	}
	out := map[string]string{}
	if len(lsns) == 0 {
		return out, nil
	}
	entries, err := eng.Audit().LogEntriesAt(ctx, lsns...)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		if le, ok := entries[v.ActiveFrom]; ok && le.Op == oplog.Approve && v.ActiveFrom != v.CreatedLSN {
			out[v.ID] = le.Actor
		}
	}
	return out, nil
}
