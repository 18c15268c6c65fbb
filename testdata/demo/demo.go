// Package demo embeds memgov's demo dataset: a scripted story (story.jsonl)
// and the templates of its generated memory (templates.json). `memgov demo`
// and `memgov seed` load it through the governed pipeline.
package demo

import "embed"

// FS holds the dataset files.
//
//go:embed *.jsonl *.json *.yaml
var FS embed.FS
