// Package demo is memgov's demo dataset and the loader that plays it: a
// scripted story (story.jsonl), the templates of its generated memory
// (templates.json) and the policy it runs under (policy.yaml). `memgov demo`
// and `memgov seed` load a dataset through the engine's public API only:
// agents' writes go through the governed pipeline, people's decisions through
// the review service, on a clock that starts in the past and ends now.
package demo

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/memgov/memgov/engine/policy"
)

// FS holds the embedded dataset.
//
//go:embed story.jsonl live.jsonl templates.json policy.yaml
var FS embed.FS

// PolicyFile is the name of a dataset's optional policy.
const PolicyFile = "policy.yaml"

// Policy returns the policy a dataset carries (its policy.yaml over the
// built-in defaults) and whether it carries one.
func Policy(fsys fs.FS) (policy.Policy, bool, error) {
	b, err := fs.ReadFile(fsys, PolicyFile)
	if errors.Is(err, fs.ErrNotExist) {
		return policy.Default(), false, nil
	}
	if err != nil {
		return policy.Policy{}, false, err
	}
	p, err := policy.Parse(b)
	if err != nil {
		return policy.Policy{}, false, fmt.Errorf("%s: %w", PolicyFile, err)
	}
	return p, true, nil
}
