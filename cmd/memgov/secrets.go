package main

import (
	"github.com/spf13/cobra"

	"github.com/memgov/memgov/engine"
)

// secretFlags are --secret and --secrets-file, the one way every command
// that stores input registers the secrets SR-1 redacts from it (write,
// proposal create and revise, distill, consolidate). The secrets belong to
// the run named by the command's --run.
type secretFlags struct {
	pairs []string
	file  string
}

func addSecretFlags(cmd *cobra.Command) *secretFlags {
	s := &secretFlags{}
	cmd.Flags().StringArrayVar(&s.pairs, "secret", nil, "ID=VALUE: a secret to redact from this run's input (repeatable)")
	cmd.Flags().StringVar(&s.file, "secrets-file", "", "a JSON object or ID=VALUE lines of secrets to redact")
	return s
}

// register records the secrets for run in the engine's registry.
func (s *secretFlags) register(eng *engine.Engine, run string) error {
	return registerSecrets(eng.Secrets(), run, s.pairs, s.file)
}
