package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov/cmd/memgov/demo"
	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/store/sqlite"
)

// reenactDemo plays the demo's time-bound scenes at the present (demo.Reenact).
func (a *app) reenactDemo(ctx context.Context) (demo.LiveReport, error) {
	if _, err := a.open(ctx, false); err != nil {
		return demo.LiveReport{}, err
	}
	key, err := loadKey(a.dbPath, false)
	if err != nil {
		return demo.LiveReport{}, err
	}
	pol, _, err := a.loadPolicy()
	if err != nil {
		return demo.LiveReport{}, err
	}
	o := demo.Options{Open: func(now func() time.Time) (*engine.Engine, error) {
		return engine.New(a.store, key, engine.WithClock(now), engine.WithPolicy(pol)), nil
	}}
	if clock, err := envClock(); err != nil {
		return demo.LiveReport{}, err
	} else if clock != nil {
		o.Now = clock
	}
	// The scenes play first on a scratch copy beside the database: a scene
	// that cannot be played leaves the database as it was. A PostgreSQL
	// database is not copied: the scenes play on it directly.
	if isDatabaseURL(a.dbPath) {
		return demo.Reenact(ctx, demo.FS, o)
	}
	o.Rehearse = func(now func() time.Time) (*engine.Engine, func(), error) {
		dir, err := os.MkdirTemp(filepath.Dir(a.dbPath), ".demo-rehearsal-")
		if err != nil {
			return nil, nil, err
		}
		discard := func() { os.RemoveAll(dir) }
		path := filepath.Join(dir, "demo.db")
		if err := demo.CopyDatabase(a.dbPath, path); err != nil {
			discard()
			return nil, nil, err
		}
		s, err := sqlite.Open(ctx, path, sqlite.Options{Key: key})
		if err != nil {
			discard()
			return nil, nil, err
		}
		return engine.New(s, key, engine.WithClock(now), engine.WithPolicy(pol)), func() { s.Close(); discard() }, nil
	}
	return demo.Reenact(ctx, demo.FS, o)
}

// loadDataset plays a dataset into the database (creating it when needed)
// through the demo loader, on the loader's stepping clock.
func (a *app) loadDataset(ctx context.Context, fsys fs.FS, progress func(done, total int)) (demo.Report, error) {
	// A dataset may carry its policy; it is installed beside the database,
	// where every later memgov command finds it (memgov policy show).
	if b, err := fs.ReadFile(fsys, demo.PolicyFile); err == nil && a.policyPath == "" {
		beside := sideBase(a.dbPath) + ".policy.yaml"
		if _, err := os.Stat(beside); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(beside), 0o700); err != nil {
				return demo.Report{}, err
			}
			if err := os.WriteFile(beside, b, 0o600); err != nil {
				return demo.Report{}, err
			}
			fmt.Fprintf(a.stderr, "installed the dataset's policy at %s\n", beside)
		}
	}
	if _, err := a.open(ctx, true); err != nil {
		return demo.Report{}, err
	}
	key, err := loadKey(a.dbPath, false)
	if err != nil {
		return demo.Report{}, err
	}
	pol, _, err := a.loadPolicy()
	if err != nil {
		return demo.Report{}, err
	}
	o := demo.Options{
		Open: func(now func() time.Time) (*engine.Engine, error) {
			return engine.New(a.store, key, engine.WithClock(now), engine.WithPolicy(pol)), nil
		},
		Progress: progress,
	}
	if progress == nil {
		o.Progress = nil
	}
	if os.Getenv("MEMGOV_SEED_TRACE") != "" {
		o.Trace = func(line int, op string, at time.Time) {
			fmt.Fprintf(a.stderr, "line %d %s: clock %s (%s before now)\n", line, op, at.Format(time.RFC3339), time.Until(at).Round(time.Second)*-1)
		}
	}
	return demo.Load(ctx, fsys, o)
}

func (a *app) seedCommand() *cobra.Command {
	var asJSON bool
	return &cobra.Command{
		Use:   "seed DIR",
		Short: "Load a dataset (story.jsonl and templates.json) through the governed pipeline",
		Long: `seed loads a dataset into the database (creating it if needed). DIR holds
story.jsonl, one step per line (principal, write, generate, decide, rollback, pin,
expire, baseline, verify, proposal, read, revalidate, advance, clock), and templates.json for
generated memory. Every write goes through the real pipeline on a clock that starts
in the past and ends now. Use "-" for the embedded demo dataset.`,
		Example: "  memgov --db /tmp/demo.db seed -\n  memgov --db team.db seed ./my-dataset",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var fsys fs.FS = demo.FS
			if args[0] != "-" {
				if st, err := os.Stat(args[0]); err != nil || !st.IsDir() {
					return usagef("%s is not a dataset directory", args[0])
				}
				fsys = os.DirFS(args[0])
			}
			bar := newSeedProgress(a.stderr, "seeding")
			rep, err := a.loadDataset(cmd.Context(), fsys, bar.update)
			bar.finish()
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "loaded %d steps, %d writes in %s: %s\n", rep.Steps, rep.Writes, rep.Took, countsOf(rep.Outcomes))
			return nil
		},
	}
}

func defaultDemoPath() string {
	return filepath.Join(filepath.Dir(defaultDBPath()), "demo.db")
}

func (a *app) demoCommand() *cobra.Command {
	var noTUI bool
	cmd := &cobra.Command{
		Use:   "demo [--db PATH] [--no-tui]",
		Short: "Open memgov on a seeded demo database",
		Long: `demo creates (or reuses) a demo database, seeds it through the real governed
pipeline with the embedded dataset (3 tenants, 8 agents, a few thousand memories,
a review queue, drifted agents, long histories) and opens the TUI as demo-curator.
Without --db it uses demo.db in memgov's data directory and says where.

Opening an existing demo database re-enacts the story's time-bound scenes at the
present, through the same pipeline: a sweep of the queue, SYNC_BLOCK arrivals with
fresh deadlines, a fresh drift of the deny-on-drift billing agent, an escalation,
a quarantined writer. They act as the demo's own principal, memgov-demo, and bring
what they need with them, so they play whatever was done in the demo before. A
scene whose state is still live is left alone. The scenes are rehearsed on a copy
of the database first: if one cannot be played, nothing is changed.`,
		Example: "  memgov demo\n  memgov demo --db /tmp/demo.db --no-tui",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("db") && os.Getenv("MEMGOV_DB") == "" {
				a.dbPath = defaultDemoPath()
			}
			fresh := false
			if _, err := os.Stat(a.dbPath); errors.Is(err, fs.ErrNotExist) {
				fresh = true
			}
			if isDatabaseURL(a.dbPath) {
				// A server's database is fresh while its log is empty.
				s, _, err := openDB(cmd.Context(), a.dbPath, true)
				if err != nil {
					return err
				}
				n, err := logSize(cmd.Context(), s)
				s.Close()
				if err != nil {
					return err
				}
				fresh = n == 0
			}
			if fresh {
				fmt.Fprintf(a.stderr, "seeding a demo database at %s (once; later runs reuse it)\n", displayDB(a.dbPath))
				bar := newSeedProgress(a.stderr, "seeding")
				rep, err := a.loadDataset(cmd.Context(), demo.FS, bar.update)
				bar.finish()
				if err != nil {
					return fmt.Errorf("seeding the demo: %w (remove %s and retry)", err, displayDB(a.dbPath))
				}
				fmt.Fprintf(a.stderr, "seeded %d writes in %s: %s\n", rep.Writes, rep.Took, countsOf(rep.Outcomes))
			} else {
				fmt.Fprintf(a.stderr, "reusing the demo database at %s (delete it for a fresh one)\n", displayDB(a.dbPath))
			}
			live, err := a.reenactDemo(cmd.Context())
			if err != nil {
				return fmt.Errorf("re-enacting the demo's live scenes: %w (remove %s for a fresh demo)", err, displayDB(a.dbPath))
			}
			for _, s := range live.Played {
				fmt.Fprintf(a.stderr, "  now: %s\n", s)
			}
			if noTUI {
				fmt.Fprintf(a.stdout, "demo database: %s\nreopen it with: memgov --db %s tui --as demo-curator\n", displayDB(a.dbPath), displayDB(a.dbPath))
				return nil
			}
			return a.runTUI(cmd, "demo-curator")
		},
	}
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "seed and print where the database is, without opening the TUI")
	return cmd
}
