package gate

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/memory"
)

// ContentPolicyInput is what the content policy gate needs: every text the
// write would store.
type ContentPolicyInput struct {
	Text     string          // content.text
	Content  json.RawMessage // canonical, redacted
	Tags     []string
	Evidence []memory.EvidenceRef
}

// ContentPolicy rejects memory-poisoning content (spec §14.8, §12.11.5).
type ContentPolicy struct{}

// Name returns NameContentPolicy.
func (ContentPolicy) Name() string { return NameContentPolicy }

// Evaluate checks the content's strings, the tags and the evidence excerpts.
// It reads nothing and never fails.
func (ContentPolicy) Evaluate(_ context.Context, in ContentPolicyInput) (Result, error) {
	texts := []string{in.Text}
	var c map[string]any
	_ = json.Unmarshal(in.Content, &c) // canonical content is a JSON object
	texts = append(texts, StringsIn(c)...)
	texts = append(texts, in.Tags...)
	for _, ev := range in.Evidence {
		texts = append(texts, ev.Excerpt)
	}
	seen := map[string]bool{}
	for _, t := range texts {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		v := guard.Check(t)
		if !v.Allowed {
			var parts []string
			for i, f := range v.Findings {
				if i == 3 {
					break
				}
				parts = append(parts, f.Rule+": "+f.Detail)
			}
			return reject(ReasonContentPolicy, "%s", strings.Join(parts, "; ")), nil
		}
	}
	return accept(), nil
}

// StringsIn lists the strings in a decoded JSON value, object keys sorted:
// the text the content policy scans.
func StringsIn(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, StringsIn(x[k])...)
		}
	case []any:
		for _, y := range x {
			out = append(out, StringsIn(y)...)
		}
	}
	return out
}
