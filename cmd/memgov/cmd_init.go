package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
)

func (a *app) initCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a memgov database and its log key",
		Long: `init creates the database (or migrates an existing one) and, unless MEMGOV_KEY is
set, a random log key in DB.key beside it (mode 0600). The key chains the log and
signs checkpoints: back it up with the database. With --db postgres://... it
creates memgov's schema in that PostgreSQL database, and the key (unless
MEMGOV_KEY is set) in memgov's data directory, pg-HOST-PORT-DBNAME.key.`,
		Example: "  memgov init\n  memgov --db ./team.db init\n  memgov --db postgres://memgov@db.internal/memgov init",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := a.open(cmd.Context(), true); err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(map[string]any{"database": displayDB(a.dbPath), "schema": a.store.Info().Version})
			}
			fmt.Fprintf(a.stdout, "database ready at %s (schema %s)\n", displayDB(a.dbPath), a.store.Info().Version)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON {database, schema}")
	return cmd
}

func (a *app) principalCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "principal",
		Short: "Register and list agents and people",
		Example: `  memgov principal add --id support-bot --role executor --tenant acme
  memgov principal add --id jane --role curator --tenant '*'
  memgov principal list`,
	}
	var p memgov.Principal
	var role string
	var attrs, sshKeys []string
	var addJSON bool
	add := &cobra.Command{
		Use:   "add",
		Short: "Register an agent or a person",
		Long: `add registers a principal with one role (executor, verifier, orchestrator, curator,
operator) in one tenant. People who govern every tenant use --tenant '*'.

--ssh-key FILE authorises the public keys of FILE (authorized_keys format) for the
principal: memgov serve --ssh lets them into the review console as this principal.
Adding keys to a principal already registered with the same role and tenant keeps
the registration and adds the keys.`,
		Example: `  memgov principal add --id billing-agent --role executor --tenant acme
  memgov principal add --id jane --role curator --tenant '*' --ssh-key ~/.ssh/id_ed25519.pub`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := memgov.ParseRole(role)
			if err != nil {
				return &usageError{err}
			}
			p.Role = r
			for _, kv := range attrs {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usagef("--attr must be KEY=VALUE, like scopes=proposal:activate")
				}
				if p.Attributes == nil {
					p.Attributes = map[string]string{}
				}
				p.Attributes[k] = v
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			out, err := eng.AddPrincipal(cmd.Context(), p, "")
			if err != nil {
				return err
			}
			if !addJSON {
				fmt.Fprintf(a.stdout, "registered %s: %s of tenant %s\n", out.ID, out.Role, out.Tenant)
			}
			fingerprints := []string{}
			for _, file := range sshKeys {
				b, err := os.ReadFile(file)
				if err != nil {
					return err
				}
				keys, err := eng.AddSSHKeys(cmd.Context(), out.ID, b, osUserName())
				if err != nil {
					return fmt.Errorf("--ssh-key %s: %w", file, err)
				}
				for _, k := range keys {
					fingerprints = append(fingerprints, k.Fingerprint)
					if !addJSON {
						fmt.Fprintf(a.stdout, "authorised SSH key %s for %s\n", k.Fingerprint, out.ID)
					}
				}
			}
			if addJSON {
				return a.printJSON(map[string]any{"principal": out, "ssh_keys": fingerprints})
			}
			return nil
		},
	}
	add.Flags().BoolVar(&addJSON, "json", false, "print JSON {principal, ssh_keys}")
	add.Flags().StringVar(&p.ID, "id", "", "principal id (required)")
	add.Flags().StringVar(&role, "role", "", "executor, verifier, orchestrator, curator or operator (required)")
	add.Flags().StringVar(&p.Tenant, "tenant", "", "tenant id, or '*' for every tenant (required)")
	add.Flags().StringArrayVar(&attrs, "attr", nil, "an attribute KEY=VALUE (repeatable), e.g. scopes=proposal:activate")
	add.Flags().StringArrayVar(&sshKeys, "ssh-key", nil, "authorise the SSH public keys of this file for the review console (repeatable)")
	for _, f := range []string{"id", "role", "tenant"} {
		add.MarkFlagRequired(f)
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "List registered principals",
		Example: "  memgov principal list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			ps, err := eng.Principals(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				if ps == nil {
					ps = []memgov.Principal{}
				}
				return a.printJSON(ps)
			}
			t := a.table("ID", "ROLE", "TENANT", "SINCE")
			for _, p := range ps {
				t.row(p.ID, string(p.Role), p.Tenant, stamp(p.CreatedAt))
			}
			t.flush()
			return nil
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	var rby, rreason string
	var rJSON bool
	reinstate := &cobra.Command{
		Use:     "reinstate ID --by WHO",
		Short:   "Lift an agent's suspension after a write burst",
		Example: `  memgov principal reinstate support-bot --by jane --reason "retry loop fixed"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := eng.Writes().Reinstate(cmd.Context(), args[0], rby, rreason); err != nil {
				return err
			}
			if rJSON {
				return a.printJSON(map[string]any{"principal": args[0], "reinstated": true})
			}
			fmt.Fprintf(a.stdout, "reinstated %s\n", args[0])
			return nil
		},
	}
	reinstate.Flags().BoolVar(&rJSON, "json", false, "print JSON {principal, reinstated}")
	reinstate.Flags().StringVar(&rby, "by", "", "the curator or operator (required)")
	reinstate.Flags().StringVar(&rreason, "reason", "", "why")
	reinstate.MarkFlagRequired("by")
	cmd.AddCommand(add, list, reinstate)
	return cmd
}
