package main

import (
	"os"

	"github.com/memgov/memgov/engine"
	"github.com/memgov/memgov/engine/model"
	"github.com/memgov/memgov/engine/policy"
)

// modelOptions wires the model-backed judges the policy configures into the
// engine: none when it configures none.
func modelOptions(p policy.Policy) []engine.Option {
	var opts []engine.Option
	if j := model.JudgeFromPolicy(p, os.Getenv); j != nil {
		opts = append(opts, engine.WithJudge(j))
	}
	if em := model.EmbedderFromPolicy(p, os.Getenv); em != nil {
		opts = append(opts, engine.WithEmbedder(em))
	}
	return opts
}
