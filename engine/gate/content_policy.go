package gate

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/guard"
	"github.com/memgov/memgov/engine/oplog"
)

// ContentPolicyInput is what the content policy gate needs: every text the
// write would store.
type ContentPolicyInput struct {
	Text     string          // content.text
	Content  json.RawMessage // canonical, redacted
	Tags     []string
	Evidence []oplog.EvidenceRef
	// Layer is the target layer: an order to act on the world is held for
	// a person in the layers that should state facts (HoldsOrders).
	Layer memgov.Layer
}

// HoldsOrders reports whether a text that orders an action on the world
// (guard.RuleOrder) is held for a person when written to layer: in
// SEMANTIC, EPISODIC and SESSION memory, which should state facts. In
// PROCEDURAL memory imperatives are the norm, and WORKING memory is the
// agent's own scratch space.
func HoldsOrders(layer memgov.Layer) bool {
	return layer == memgov.Semantic || layer == memgov.Episodic || layer == memgov.Session
}

// HoldsStakes reports whether a text that states a high-stakes change
// as a fact (guard.RuleStakes: a new payee, a safeguard retired,
// authority given to another party) is held for a person when written to
// layer: in every layer agents act on, PROCEDURAL included, where a
// retired safeguard is as dangerous as in a fact. WORKING memory is the
// agent's own scratch space.
func HoldsStakes(layer memgov.Layer) bool {
	return HoldsOrders(layer) || layer == memgov.Procedural
}

// ContentPolicy rejects memory-poisoning content (spec §14.8, §12.11.5).
type ContentPolicy struct{}

// Name returns NameContentPolicy.
func (ContentPolicy) Name() string { return NameContentPolicy }

// Evaluate checks the content's strings, the tags and the evidence excerpts.
// A text the guard refuses rejects the write (CONTENT_POLICY) in every
// layer. Otherwise an order to act on the world in the text or the content
// (not in an evidence excerpt, which quotes a source) defers the write to
// a person with INSTRUCTION_IN_MEMORY where HoldsOrders; the detail names
// the rule and the words that fired it. It reads nothing and never fails.
func (ContentPolicy) Evaluate(_ context.Context, in ContentPolicyInput) (Result, error) {
	texts := []string{in.Text}
	var c map[string]any
	_ = json.Unmarshal(in.Content, &c) // canonical content is a JSON object
	texts = append(texts, StringsIn(c)...)
	// The texts the write itself states: orders among them are held.
	stated := len(texts)
	texts = append(texts, in.Tags...)
	for _, ev := range in.Evidence {
		texts = append(texts, ev.Excerpt)
	}
	hold, holdStakes := HoldsOrders(in.Layer), HoldsStakes(in.Layer)
	var orders []string
	seen := map[string]bool{}
	// learnedOnly: every order held is the learned model's reading, not
	// an order the rules found; stakes: one of them is a high-stakes
	// change stated as a fact.
	learnedOnly, stakes, quotedOnly := true, false, true
	// released: orders the rules found that the learned model read as a
	// record the user keeps (guard.Verdict.Released); the write passes,
	// and the accept's detail names them.
	var released []string
	for i, t := range texts {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		v := guard.Check(t)
		if i < stated {
			for _, f := range v.Released {
				if len(released) < 3 && hold {
					released = append(released, f.Rule+": "+f.Detail)
				}
			}
			for _, f := range v.Orders {
				if len(orders) == 3 {
					break
				}
				if f.Rule == guard.RuleStakes && !holdStakes || f.Rule != guard.RuleStakes && !hold {
					continue
				}
				orders = append(orders, f.Rule+": "+f.Detail)
				learnedOnly = learnedOnly && f.Rule == guard.RuleLearned
				stakes = stakes || f.Rule == guard.RuleStakes
				quotedOnly = quotedOnly && strings.HasPrefix(f.Detail, guard.QuotedInstruction)
			}
		}
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
	if stakes {
		return verdict(Defer, ReasonInstructionInMemory, "the text states a change to where money or codes go, to who may act for the user or to a safeguard, "+
			"which agents would act on: %s (a person confirms it through a channel they already trust before it is kept)", strings.Join(orders, "; ")), nil
	}
	if len(orders) > 0 && quotedOnly {
		return verdict(Defer, ReasonInstructionInMemory, "the text quotes, in its own words, an instruction to the AI that reads %s memory: %s "+
			"(a person decides; to keep the fact without the instruction, say what the source asked instead of quoting it)", in.Layer, strings.Join(orders, "; ")), nil
	}
	if len(orders) > 0 && learnedOnly {
		return verdict(Defer, ReasonInstructionInMemory, "the rules let the text pass, but it reads as an instruction planted for the agent that reads %s memory: %s "+
			"(a person decides)", in.Layer, strings.Join(orders, "; ")), nil
	}
	if len(orders) > 0 {
		return verdict(Defer, ReasonInstructionInMemory, "%s memory should state facts; the text orders an action: %s "+
			"(a person decides; write a procedure to PROCEDURAL memory, or state what happened as a fact)",
			in.Layer, strings.Join(orders, "; ")), nil
	}
	if len(released) > 0 {
		return verdict(Accept, "", "passed as a record the user keeps: %s", strings.Join(released, "; ")), nil
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
