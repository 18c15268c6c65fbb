package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/memgov/memgov"
)

// indexStaleWarning is what `memgov audit verify` says when stored features
// were computed by another judge version than the running one.
const indexStaleWarning = "index stale: run `memgov admin reindex`"

// indexStaleDetail says how many versions a stale index covers.
func indexStaleDetail(st memgov.IndexStatus) string {
	return fmt.Sprintf("%d of %d indexed versions were computed by another judge version and %d by none; the running judge is %s",
		st.Stale, st.Current+st.Stale+st.Missing, st.Missing, st.Judge)
}

func (a *app) reindexCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reindex",
		Short: "Recompute what the judge derives from stored text (fingerprints, subjects, bands)",
		Long: `reindex recomputes, from the stored content of every version, the values the
built-in judge derives from text and the dedup and contradiction gates look
candidates up by: fingerprints, the subject, predicate and object of a claim,
hashed-vector embeddings and their SimHash bands. These are a cache, stored with
the version of the judge that computed them; ` + "`memgov audit verify`" + ` never
compares them with the log and warns "index stale" when a memgov upgrade
changed the judge. Run reindex then: candidate lookups find older items again.

reindex appends nothing to the log and changes no row the log determines; erased
items stay erased (they have no content to index). It is idempotent: versions
already indexed by the running judge are skipped.`,
		Example: "  memgov admin reindex\n  memgov admin reindex --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.Writes().Reindex(cmd.Context(), func(done int64) {
				if !asJSON {
					fmt.Fprintf(a.stderr, "reindexed %d\n", done)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "reindexed %d versions with judge %s; %d indexed versions are current\n",
				rep.Reindexed, rep.Judge, rep.After.Current)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
