package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/oplog"
	"github.com/memgov/memgov/review"
)

// readArtifact reads a JSON artifact from a file ("-": stdin).
func (a *app) readArtifact(path string) (json.RawMessage, error) {
	if path == "" {
		return nil, usagef("--file is required (a JSON artifact; - reads stdin)")
	}
	var (
		b   []byte
		err error
	)
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(a.stdin, memgov.MaxRequestBytes+1))
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read --file: %w", err)
	}
	if len(b) > memgov.MaxRequestBytes {
		return nil, usagef("the artifact is larger than %d bytes", memgov.MaxRequestBytes)
	}
	if !json.Valid(b) {
		return nil, usagef("the artifact in %s is not JSON", path)
	}
	return b, nil
}

func proposalErr(err error) error {
	switch {
	case errors.Is(err, memgov.ErrInvalid):
		return &usageError{err}
	case errors.Is(err, memgov.ErrConflict):
		return &exitCodeError{code: exitRejected, err: err}
	}
	return denied(err)
}

func (a *app) proposalCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "proposal",
		Short: "Review learnt artifacts (agent packs, workflow chains, prompt templates, automations)",
		Long: `A proposal is an artifact an agent's host learnt from its runs, kept inert for
review: draft -> revised -> applied | rejected | archived. Only an applied
proposal's artifact is ever installed, byte-identical to the last persisted one.
apply needs a curator of the tenant (the approval gate) or a principal whose
"scopes" attribute holds proposal:activate (direct RBAC); anyone else is refused
(403, exit 5).`,
		Example: `  memgov proposal create --kind prompt-template --file tpl.json --by support-bot --source-run run-7
  memgov proposal list --as support-bot
  memgov proposal apply 019a... --by jane`,
	}
	printOne := func(p memgov.Proposal, asJSON bool) error {
		if asJSON {
			return a.printJSON(p)
		}
		t := a.table()
		t.row("id", p.ID)
		t.row("kind", p.Kind)
		t.row("state", p.State)
		t.row("owner", ownerText(p.Owner))
		t.row("revision", strconv.Itoa(p.Revision))
		t.row("artifact", p.ArtifactHash)
		if p.DuplicateOf != "" {
			t.row("duplicate of", p.DuplicateOf)
		}
		if p.InstalledHash != "" {
			t.row("installed", p.InstalledHash+" ("+p.Gate+" by "+p.DecidedBy+")")
		}
		t.flush()
		return nil
	}

	var (
		in           memgov.ProposalInput
		file, by     string
		createJSON   bool
		reviseJSON   bool
		reviseFile   string
		reviseBy     string
		reviseReason string
		reviseRun    string

		createSecrets, reviseSecrets *secretFlags
	)
	create := &cobra.Command{
		Use:   "create --kind KIND --file ARTIFACT.json --by WHO",
		Short: "Persist a new draft proposal",
		Example: `  memgov proposal create --kind agent-pack --file pack.json --by support-bot \
    --title "Refund follow-up" --rationale "3 runs did this by hand" --source-run run-7 --source-run run-9
  memgov proposal create --kind prompt-template --file tpl.json --by support-bot --run r-7 --secret stripe=sk_live_0123456789`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			art, err := a.readArtifact(file)
			if err != nil {
				return err
			}
			in.Artifact = art
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := createSecrets.register(eng, in.RunID); err != nil {
				return err
			}
			p, err := eng.Host().CreateProposal(cmd.Context(), in, by)
			if err != nil {
				return proposalErr(err)
			}
			return printOne(p, createJSON)
		},
	}
	create.Flags().StringVar(&in.Kind, "kind", "", "agent-pack, workflow-chain-pack, prompt-template or automation (required)")
	create.Flags().StringVar(&file, "file", "", "the artifact, a JSON file (- reads stdin) (required)")
	create.Flags().StringVar(&by, "by", "", "the owner principal (required)")
	create.Flags().StringVar(&in.Title, "title", "", "a short title")
	create.Flags().StringVar(&in.Rationale, "rationale", "", "why (redacted; never on events)")
	create.Flags().StringArrayVar(&in.SourceRunIDs, "source-run", nil, "a run the artifact was learnt from (repeatable)")
	create.Flags().StringVar(&in.Workspace, "workspace", "", "the owner workspace")
	create.Flags().StringVar(&in.Tenant, "tenant", "", "the tenant, when --by governs every tenant")
	create.Flags().StringVar(&in.DuplicateOf, "duplicate-of", "", "mark as a duplicate of this proposal (default: detected)")
	create.Flags().StringVar(&in.RunID, "run", "", "redact the secrets registered for this run")
	create.Flags().BoolVar(&createJSON, "json", false, "print JSON")
	createSecrets = addSecretFlags(create)
	for _, f := range []string{"kind", "file", "by"} {
		create.MarkFlagRequired(f)
	}

	revise := &cobra.Command{
		Use:     "revise ID --file ARTIFACT.json --by WHO",
		Short:   "Persist a revised artifact for a draft or revised proposal",
		Example: `  memgov proposal revise 019a... --file pack-v2.json --by support-bot --rationale "added a step"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			art, err := a.readArtifact(reviseFile)
			if err != nil {
				return err
			}
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if err := reviseSecrets.register(eng, reviseRun); err != nil {
				return err
			}
			p, err := eng.Host().ReviseProposal(cmd.Context(), args[0], memgov.ProposalInput{Artifact: art, Rationale: reviseReason, RunID: reviseRun}, reviseBy)
			if err != nil {
				return proposalErr(err)
			}
			return printOne(p, reviseJSON)
		},
	}
	revise.Flags().StringVar(&reviseFile, "file", "", "the revised artifact (required)")
	revise.Flags().StringVar(&reviseBy, "by", "", "the owner, or a curator (required)")
	revise.Flags().StringVar(&reviseReason, "rationale", "", "why")
	revise.Flags().BoolVar(&reviseJSON, "json", false, "print JSON")
	revise.Flags().StringVar(&reviseRun, "run", "", "redact the secrets registered for this run")
	reviseSecrets = addSecretFlags(revise)
	revise.MarkFlagRequired("file")
	revise.MarkFlagRequired("by")

	var (
		listJSON bool
		listAs   string
		q        memgov.ProposalQuery
	)
	list := &cobra.Command{
		Use:     "list",
		Short:   "List proposals, newest first",
		Example: "  memgov proposal list --state draft --as support-bot --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			if p := reader(listAs); p != "" {
				pr, err := eng.Principal(cmd.Context(), p)
				if err != nil {
					return denied(fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, p))
				}
				q.Tenant = pr.Tenant
			} else {
				a.readerNote("")
			}
			ps, err := eng.Host().ListProposals(cmd.Context(), q)
			if err != nil {
				return err
			}
			if listJSON {
				return a.printJSON(ps)
			}
			t := a.table("ID", "KIND", "STATE", "REV", "OWNER", "TITLE")
			for _, p := range ps {
				t.row(p.ID, p.Kind, p.State, strconv.Itoa(p.Revision), p.Owner.Tenant+"/"+p.Owner.Principal, clip(p.Title, 40))
			}
			t.flush()
			return nil
		},
	}
	list.Flags().BoolVar(&listJSON, "json", false, "print JSON")
	list.Flags().StringVar(&listAs, "as", "", asHelp)
	list.Flags().StringVar(&q.State, "state", "", "only this state")
	list.Flags().StringVar(&q.Kind, "kind", "", "only this kind")

	var (
		showJSON bool
		showAs   string
	)
	show := &cobra.Command{
		Use:     "show ID",
		Short:   "Show a proposal with its revision history",
		Example: "  memgov proposal show 019a... --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			tenant := ""
			if p := reader(showAs); p != "" {
				pr, err := eng.Principal(cmd.Context(), p)
				if err != nil {
					return denied(fmt.Errorf("%w: %q is not a registered principal", memgov.ErrUnauthorized, p))
				}
				tenant = pr.Tenant
			} else {
				a.readerNote("")
			}
			p, revs, err := eng.Host().ShowProposal(cmd.Context(), args[0], tenant)
			if errors.Is(err, memgov.ErrNotFound) {
				return fmt.Errorf("no proposal %s (see `memgov proposal list`)", args[0])
			}
			if err != nil {
				return err
			}
			if showJSON {
				return a.printJSON(map[string]any{"proposal": p, "revisions": revs})
			}
			if err := printOne(p, false); err != nil {
				return err
			}
			fmt.Fprintln(a.stdout)
			t := a.table("REV", "AT", "BY", "ARTIFACT")
			for _, r := range revs {
				t.row(strconv.Itoa(r.Revision), stamp(r.At), r.By, r.ArtifactHash)
			}
			t.flush()
			return nil
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print JSON")
	show.Flags().StringVar(&showAs, "as", "", asHelp)

	var (
		applyBy   string
		applyJSON bool
	)
	apply := &cobra.Command{
		Use:   "apply ID --by WHO",
		Short: "Install a proposal's last persisted artifact (gated)",
		Example: `  memgov proposal apply 019a... --by jane          # approval gate: a curator
  memgov proposal apply 019a... --by deploy-bot    # direct RBAC: holds proposal:activate`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := a.reviewer(cmd, applyBy)
			if err != nil {
				return err
			}
			pv, err := svc.Proposals().Show(cmd.Context(), args[0])
			if err != nil {
				return proposalErr(err)
			}
			res, err := svc.Proposals().Apply(cmd.Context(), pv.Proposal)
			if err != nil {
				if applyJSON && res.Status != 0 {
					_ = a.printJSON(res)
				}
				return proposalErr(err)
			}
			if applyJSON {
				return a.printJSON(res)
			}
			fmt.Fprintf(a.stdout, "applied %s (%s); installed %s\n", res.ProposalID, res.Activation, res.InstalledHash)
			return nil
		},
	}
	apply.Flags().StringVar(&applyBy, "by", "", "the curator, or a principal holding proposal:activate (required)")
	apply.Flags().BoolVar(&applyJSON, "json", false, "print the result (with its HTTP-style status) as JSON")
	apply.MarkFlagRequired("by")

	closer := func(use, short, example string, fn func(p review.ProposalService, ctx context.Context, pr memgov.Proposal, note string) (memgov.Proposal, error)) *cobra.Command {
		var by, note string
		var asJSON bool
		c := &cobra.Command{
			Use:     use + " ID --by WHO",
			Short:   short,
			Example: example,
			Args:    cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				svc, err := a.reviewer(cmd, by)
				if err != nil {
					return err
				}
				pv, err := svc.Proposals().Show(cmd.Context(), args[0])
				if err != nil {
					return proposalErr(err)
				}
				p, err := fn(svc.Proposals(), cmd.Context(), pv.Proposal, note)
				if err != nil {
					return proposalErr(err)
				}
				return printOne(p, asJSON)
			},
		}
		c.Flags().StringVar(&by, "by", "", "who decides (required)")
		reasonFlag(c.Flags(), &note, "why")
		c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
		c.MarkFlagRequired("by")
		return c
	}
	reject := closer("reject", "Refuse a draft or revised proposal (curators)", `  memgov proposal reject 019a... --by jane --reason "too broad"`,
		review.ProposalService.Reject)
	archive := closer("archive", "Retire a draft, revised or rejected proposal", `  memgov proposal archive 019a... --by support-bot`,
		review.ProposalService.Archive)
	cmd.AddCommand(create, list, show, revise, apply, reject, archive)
	return cmd
}

// ownerText writes a proposal's owner as the TUI does: tenant/principal,
// and the workspace when there is one.
func ownerText(o oplog.ProposalOwner) string {
	s := o.Tenant + "/" + o.Principal
	if o.Workspace != "" {
		s += " · workspace " + o.Workspace
	}
	return s
}
