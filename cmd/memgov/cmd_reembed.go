package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) reembedCommand() *cobra.Command {
	var (
		batch  int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "reembed",
		Short: "Embed every durable version with the embedder the policy configures",
		Long: `reembed sends the text of every live durable version that has no vector of the
configured embedder's model (models.embedder in the policy file) to the embedder,
in batches, and stores the vectors under the model's name. Run it after
configuring an embedder or changing its model: vectors of another model are never
compared with the configured one's. The report lists the vectors stored per model.`,
		Example: "  memgov admin reembed --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := a.engine(cmd)
			if err != nil {
				return err
			}
			rep, err := eng.Writes().Reembed(cmd.Context(), batch, func(done int) {
				if !asJSON {
					fmt.Fprintf(a.stderr, "embedded %d\n", done)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(rep)
			}
			fmt.Fprintf(a.stdout, "embedded %d versions with %s\n", rep.Embedded, rep.Model)
			for m, n := range rep.Stored {
				note := ""
				if m != rep.Model {
					note = " (not the configured model)"
				}
				fmt.Fprintf(a.stdout, "  %s: %d vectors%s\n", m, n, note)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&batch, "batch", 32, "texts per embeddings request")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
