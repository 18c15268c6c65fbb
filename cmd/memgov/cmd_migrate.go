package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/canon"
	"github.com/memgov/memgov/engine/merkle"
	"github.com/memgov/memgov/engine/oplog"
)

// migrateSide is what `memgov admin migrate` shows of one store once the
// copy is done: the figures that prove both hold the same log and serve the
// same memory.
type migrateSide struct {
	Database    string            `json:"database"`
	Store       string            `json:"store"`
	Schema      string            `json:"schema"`
	Entries     int64             `json:"entries"`
	LogHead     string            `json:"log_head"`                // the keyed chain value of the last entry
	AuditRoot   string            `json:"audit_chain_root"`        // RFC 9162 Merkle root of the entry leaves
	HashChained string            `json:"hash_chained_root"`       // the unkeyed hash-chained root
	Snapshots   map[string]string `json:"snapshot_hashes"`         // memoryRef -> snapshot_hash
	Verified    *bool             `json:"verified,omitempty"`      // audit verify of the target
	Served      string            `json:"served_tables,omitempty"` // how its served tables were checked
}

// migrateResult is the JSON of `memgov admin migrate --json`.
type migrateResult struct {
	Copied      int64       `json:"copied"`
	Reindexed   int64       `json:"reindexed"`
	From        migrateSide `json:"from"`
	To          migrateSide `json:"to"`
	Same        bool        `json:"same"`
	Differences []string    `json:"differences"`
	Took        string      `json:"took"`
}

func (a *app) migrateCommand() *cobra.Command {
	var from, to, atFlag string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "migrate --from PATH_OR_URL --to PATH_OR_URL",
		Short: "Copy a database to another store by replaying its log (SQLite and PostgreSQL)",
		Long: `migrate copies a memgov database into an empty one, SQLite file or PostgreSQL
URL (postgres://...), either way. It does not copy tables: it reads the source's
log in LSN order and appends every entry to the target, which applies it as it
applies a new write, so the target's tables are a replay of the log. Each entry
must get the same LSN, leaf and keyed chain value as in the source; the target
is chained with the source's log key, which migrate writes beside the target
(DB.key, or for a URL in memgov's data directory) unless MEMGOV_KEY is set.

The source's log must verify (memgov audit verify) and the target must be
empty: a target that holds a log is refused, and nothing is written to it. The
copy is one transaction: if it fails the target stays empty. migrate then
recomputes the judge's index on the target (memgov admin reindex), runs
audit verify on it, and prints both sides' log size, log head, audit root,
hash-chained root and the snapshot hash of every memoryRef (its memory map as
it stands now, or at --at), and exits 1 when any of them differ.

Not copied, because they are not in the log: write outcomes and read
telemetry (metrics, access counts), model vectors (run memgov admin reembed
on the target when a model is configured), webhook dead letters and caches.
A log with erased payloads is copied without them: what each erasure left
for replay (the content-free skeleton of every erased payload, which its
ERASE entry binds by hash, and the memory op log's kept leaves) is copied
first and replayed in their place, so the erased text never reaches the
target and the roots and snapshot hashes still match. A log with an erased
payload that no skeleton stands for is refused. The policy file beside the source is copied
beside the target when the target has none.`,
		Example: `  memgov admin migrate --from ~/.local/share/memgov/demo.db --to postgres://memgov@localhost/memgov
  memgov admin migrate --from postgres://memgov@db.internal/memgov --to ./copy.db --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if from == "" || to == "" {
				return usagef("migrate needs --from and --to (a SQLite file or a postgres:// URL each; see `memgov admin migrate --help`)")
			}
			if sameDatabase(from, to) {
				return usagef("--from and --to name the same database %s", displayDB(from))
			}
			at := time.Now()
			if atFlag != "" {
				t, err := time.Parse(time.RFC3339Nano, atFlag)
				if err != nil {
					return usagef("--at %q is not an RFC 3339 time (e.g. 2026-01-31T12:00:00Z)", atFlag)
				}
				at = t
			}
			res, err := a.migrate(cmd.Context(), from, to, at)
			if err != nil {
				return err
			}
			if asJSON {
				if err := a.printJSON(res); err != nil {
					return err
				}
			} else {
				a.printMigrate(res)
			}
			if !res.Same {
				return &exitCodeError{code: exitError, err: fmt.Errorf("the copy differs from the source (%s): keep using %s and report this", strings.Join(res.Differences, "; "), displayDB(from))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the database to copy: a SQLite file or a postgres:// URL")
	cmd.Flags().StringVar(&to, "to", "", "the empty database to copy into: a SQLite file or a postgres:// URL")
	cmd.Flags().StringVar(&atFlag, "at", "", "hash the memory maps as they stand at this RFC 3339 time (default: now), to compare with another run")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// sameDatabase reports whether two --db values name one database.
func sameDatabase(a, b string) bool {
	if isDatabaseURL(a) || isDatabaseURL(b) {
		return a == b
	}
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}

func (a *app) migrate(ctx context.Context, from, to string, at time.Time) (migrateResult, error) {
	start := time.Now()
	var res migrateResult
	pol, _, err := a.loadPolicyFor(from)
	if err != nil {
		return res, err
	}
	src, key, err := openDB(ctx, from, false)
	if err != nil {
		return res, fmt.Errorf("the source: %w", err)
	}
	defer src.Close()
	srcEng := engine.New(src, key, engine.WithPolicy(pol))
	// A log that does not verify is not copied: the target would prove it.
	rep, err := srcEng.Audit().Verify(ctx)
	if err != nil {
		return res, fmt.Errorf("verifying the source: %w", err)
	}
	if !rep.OK {
		return res, fmt.Errorf("%w: the source does not verify at LSN %d (%s); run `memgov --db %s audit verify` and repair it before migrating", memgov.ErrTampered, rep.BadLSN, rep.Problem, displayDB(from))
	}
	residue, err := erasureResidue(ctx, src)
	if err != nil {
		return res, fmt.Errorf("the source: %w", err)
	}

	dst, err := openTarget(ctx, to, key)
	if err != nil {
		return res, err
	}
	defer dst.Close()

	n, err := copyLog(ctx, src, dst, residue)
	if err != nil {
		return res, fmt.Errorf("copying the log: %w; nothing was committed to %s", err, displayDB(to))
	}
	res.Copied = n
	copyPolicy(from, to, a)

	dstEng := engine.New(dst, key, engine.WithPolicy(pol))
	ri, err := dstEng.Writes().Reindex(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("the log is copied to %s, but reindexing it failed: %w (run `memgov --db %s admin reindex`)", displayDB(to), err, displayDB(to))
	}
	res.Reindexed = ri.Reindexed
	if res.From, err = describeSide(ctx, from, src, srcEng, at); err != nil {
		return res, fmt.Errorf("the source: %w", err)
	}
	if res.To, err = describeSide(ctx, to, dst, dstEng, at); err != nil {
		return res, fmt.Errorf("the target: %w", err)
	}
	vr, err := dstEng.Audit().Verify(ctx)
	if err != nil {
		return res, fmt.Errorf("verifying the target: %w", err)
	}
	ok := vr.OK
	res.To.Verified, res.To.Served = &ok, vr.Served
	res.Differences = compareSides(res.From, res.To)
	if !vr.OK {
		res.Differences = append(res.Differences, fmt.Sprintf("the target does not verify at LSN %d: %s", vr.BadLSN, vr.Problem))
	}
	res.Same = len(res.Differences) == 0
	res.Took = time.Since(start).Round(time.Millisecond).String()
	return res, nil
}

// openTarget opens the database a migration copies into, chained with key,
// and refuses it unless its log is empty. The key is written beside it
// (unless MEMGOV_KEY is set) once it is known to be empty.
func openTarget(ctx context.Context, to string, key []byte) (memgov.Store, error) {
	kp := keyPath(to)
	envKey := os.Getenv("MEMGOV_KEY") != ""
	if !envKey {
		b, err := os.ReadFile(kp)
		switch {
		case err == nil:
			if !bytes.Equal(bytes.TrimSpace(b), key) {
				return nil, fmt.Errorf("the target %s already has a log key in %s that is not the source's: a copy must be chained with the source's key (remove that key file if the target is new, or choose another target)", displayDB(to), kp)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("the target's key file: %w", err)
		}
	}
	s, err := openStore(ctx, to, storeOptions{Key: key, Create: true})
	if err != nil {
		return nil, fmt.Errorf("the target: %w", err)
	}
	n, err := logSize(ctx, s)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("the target: %w", err)
	}
	if n > 0 {
		s.Close()
		next := "name a new SQLite file"
		if isDatabaseURL(to) {
			next = "name an empty PostgreSQL database (createdb NAME)"
		}
		return nil, fmt.Errorf("%w: the target %s is not empty (its log holds %d entries); migrate copies into an empty database only: %s, or remove that database first", memgov.ErrConflict, displayDB(to), n, next)
	}
	if !envKey {
		if err := os.MkdirAll(filepath.Dir(kp), 0o700); err != nil {
			s.Close()
			return nil, fmt.Errorf("the target's key file: %w", err)
		}
		if err := os.WriteFile(kp, append(append([]byte{}, key...), '\n'), 0o600); err != nil {
			s.Close()
			return nil, fmt.Errorf("the target's key file: %w", err)
		}
	}
	return s, nil
}

// erasureResidue reads what the source's erasures left beside its log for
// its replay, and refuses a log with an erased payload that no skeleton
// stands for: such a log cannot be replayed anywhere, so it cannot be copied
// by replaying it.
func erasureResidue(ctx context.Context, src memgov.Store) (memgov.ErasureResidue, error) {
	var res memgov.ErasureResidue
	err := src.View(ctx, func(r memgov.ReadTx) error {
		var err error
		if res, err = r.ErasureResidue(ctx); err != nil {
			return err
		}
		skel := make(map[int64]bool, len(res.Skeletons))
		for _, k := range res.Skeletons {
			skel[k.LSN] = true
		}
		var missing []int64
		size, err := r.LogSize(ctx)
		if err != nil {
			return err
		}
		if err := r.LogRange(ctx, 1, size, func(e *oplog.Entry) error {
			if e.Payload == nil && !skel[e.LSN] {
				missing = append(missing, e.LSN)
			}
			return nil
		}); err != nil {
			return err
		}
		if len(missing) > 0 {
			return fmt.Errorf("%d erased payloads (the first at LSN %d) have no skeleton to replay in their place, so a replay of this log cannot rebuild its tables: migrate cannot copy it (copy a SQLite file as a file, and run `memgov audit verify --replay` on the source)", len(missing), missing[0])
		}
		return nil
	})
	return res, err
}

// copyLog appends every entry of src's log to dst in one transaction of dst
// and checks that each gets the LSN, time, leaf and chain value it has in
// src. The residue of src's erasures is restored first, so that an entry
// whose payload was erased is appended without it and replayed from its
// skeleton: the erased text never reaches dst. It returns the number of
// entries copied.
func copyLog(ctx context.Context, src, dst memgov.Store, residue memgov.ErasureResidue) (int64, error) {
	var copied int64
	err := dst.Update(ctx, func(tx memgov.Tx) error {
		if err := tx.RestoreErasureResidue(ctx, residue); err != nil {
			return fmt.Errorf("restoring what the source's erasures left: %w", err)
		}
		return src.View(ctx, func(r memgov.ReadTx) error {
			size, err := r.LogSize(ctx)
			if err != nil {
				return err
			}
			return r.LogRange(ctx, 1, size, func(e *oplog.Entry) error {
				c := &oplog.Entry{Time: e.Time, Op: e.Op, MemoryRef: e.MemoryRef, ItemID: e.ItemID, VersionID: e.VersionID,
					PrevVersionID: e.PrevVersionID, Actor: e.Actor, Payload: e.Payload, PayloadHash: e.PayloadHash}
				if err := tx.Append(ctx, c); err != nil {
					return fmt.Errorf("entry %d (%s): %w", e.LSN, e.Op, err)
				}
				switch {
				case c.LSN != e.LSN:
					return fmt.Errorf("entry %d became entry %d in the target", e.LSN, c.LSN)
				case !c.Time.Equal(e.Time):
					return fmt.Errorf("entry %d: time %s became %s in the target", e.LSN, e.Time.Format(time.RFC3339Nano), c.Time.Format(time.RFC3339Nano))
				case c.Leaf != e.Leaf:
					return fmt.Errorf("entry %d: its leaf differs in the target", e.LSN)
				case c.Chain != e.Chain:
					return fmt.Errorf("entry %d: its chain value differs in the target (not the source's log key?)", e.LSN)
				}
				copied++
				return nil
			})
		})
	})
	return copied, err
}

// copyPolicy copies the policy file beside from to beside to, when there is
// one and to has none.
func copyPolicy(from, to string, a *app) {
	if a.policyPath != "" {
		return
	}
	b, err := os.ReadFile(sideBase(from) + ".policy.yaml")
	if err != nil {
		return
	}
	dst := sideBase(to) + ".policy.yaml"
	if _, err := os.Stat(dst); err == nil {
		fmt.Fprintf(a.stderr, "the target already has a policy at %s: left as it is\n", dst)
		return
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err == nil && os.WriteFile(dst, b, 0o600) == nil {
		fmt.Fprintf(a.stderr, "copied the source's policy to %s\n", dst)
	}
}

// describeSide reads the figures migrate compares from one store.
func describeSide(ctx context.Context, db string, s memgov.Store, eng *engine.Engine, at time.Time) (migrateSide, error) {
	info := s.Info()
	side := migrateSide{Database: displayDB(db), Store: info.Type, Schema: info.Version, Snapshots: map[string]string{}}
	root, err := eng.Audit().AuditRoot(ctx)
	if err != nil {
		return side, err
	}
	side.Entries, side.AuditRoot, side.HashChained = root.TreeSize, root.Root, root.HashChained
	if err := s.View(ctx, func(tx memgov.ReadTx) error {
		if root.TreeSize == 0 {
			return nil
		}
		return tx.LogRange(ctx, root.TreeSize, root.TreeSize, func(e *oplog.Entry) error {
			side.LogHead = "hmac-sha256:" + merkle.Hash(e.Chain).String()
			return nil
		})
	}); err != nil {
		return side, err
	}
	refs, err := eng.Host().Refs(ctx, memgov.Owner)
	if err != nil {
		return side, err
	}
	for _, r := range refs {
		sh, err := eng.Baselines().SnapshotHashAt(ctx, r.MemoryRef, at, canon.SHA256)
		if err != nil {
			return side, fmt.Errorf("snapshot hash of %s: %w", r.MemoryRef, err)
		}
		side.Snapshots[r.MemoryRef] = sh.Hash
	}
	return side, nil
}

// compareSides lists what differs between the source and the target.
func compareSides(f, t migrateSide) []string {
	diffs := []string{}
	for _, c := range []struct{ name, a, b string }{
		{"entries", fmt.Sprint(f.Entries), fmt.Sprint(t.Entries)},
		{"log head", f.LogHead, t.LogHead},
		{"audit root", f.AuditRoot, t.AuditRoot},
		{"hash-chained root", f.HashChained, t.HashChained},
	} {
		if c.a != c.b {
			diffs = append(diffs, fmt.Sprintf("%s %s != %s", c.name, c.a, c.b))
		}
	}
	for _, ref := range refsOf(f, t) {
		if f.Snapshots[ref] != t.Snapshots[ref] {
			diffs = append(diffs, fmt.Sprintf("snapshot hash of %s %q != %q", ref, f.Snapshots[ref], t.Snapshots[ref]))
		}
	}
	return diffs
}

// refsOf is every memoryRef of either side, sorted.
func refsOf(f, t migrateSide) []string {
	seen := map[string]bool{}
	var refs []string
	for _, m := range []map[string]string{f.Snapshots, t.Snapshots} {
		for r := range m {
			if !seen[r] {
				seen[r] = true
				refs = append(refs, r)
			}
		}
	}
	sort.Strings(refs)
	return refs
}

func (a *app) printMigrate(res migrateResult) {
	fmt.Fprintf(a.stdout, "copied %d log entries from %s (%s) to %s (%s) in %s; reindexed %d versions\n\n",
		res.Copied, res.From.Database, res.From.Store, res.To.Database, res.To.Store, res.Took, res.Reindexed)
	t := a.table("", "FROM", "TO", "")
	mark := func(x, y string) string {
		if x == y {
			return "same"
		}
		return "DIFFERENT"
	}
	t.row("entries", fmt.Sprint(res.From.Entries), fmt.Sprint(res.To.Entries), mark(fmt.Sprint(res.From.Entries), fmt.Sprint(res.To.Entries)))
	t.row("log head", res.From.LogHead, res.To.LogHead, mark(res.From.LogHead, res.To.LogHead))
	t.row("audit root", res.From.AuditRoot, res.To.AuditRoot, mark(res.From.AuditRoot, res.To.AuditRoot))
	t.row("hash-chained root", res.From.HashChained, res.To.HashChained, mark(res.From.HashChained, res.To.HashChained))
	for _, ref := range refsOf(res.From, res.To) {
		x, y := res.From.Snapshots[ref], res.To.Snapshots[ref]
		t.row("snapshot "+ref, x, y, mark(x, y))
	}
	t.flush()
	if res.To.Verified != nil && *res.To.Verified {
		fmt.Fprintln(a.stdout, "\nthe target verifies (memgov audit verify)")
	}
	if res.Same {
		fmt.Fprintf(a.stdout, "the same log, roots and memory on both sides: %s is ready\n", res.To.Database)
	}
}
