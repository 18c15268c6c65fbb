package gate

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
)

// DedupInput is what the dedup gate needs.
type DedupInput struct {
	MemoryRef   string
	Layer       memory.Layer
	ContentHash string
	Features    memory.Features
	// OwnItemID is the item the write updates, if any: it is not its own
	// near-duplicate.
	OwnItemID string
	Policy    *policy.Policy
	// Candidates are the write's neighbours when an earlier gate (the
	// contradiction gate) has read them; nil: Evaluate reads them.
	Candidates []Scored
	Reader     CandidateReader
}

// DedupResult is what the dedup gate finds.
type DedupResult struct {
	Result
	// Target is the version a MERGE folds the write into.
	Target *memory.Candidate
}

// Dedup is the three-tier deduplication of spec §12.3: exact content hash,
// structural fingerprint, semantic similarity, within the write's layer.
type Dedup struct{}

// Name returns NameDedup.
func (Dedup) Name() string { return NameDedup }

// Evaluate rejects duplicates, merges a write that extends an active
// near-duplicate, and defers one that conflicts with it.
func (Dedup) Evaluate(ctx context.Context, in DedupInput) (DedupResult, error) {
	if !in.Layer.Durable() {
		return DedupResult{Result: accept()}, nil
	}
	cands := in.Candidates
	if cands == nil {
		var err error
		if cands, err = LoadCandidates(ctx, in.Reader, in.MemoryRef, in.ContentHash, in.Features); err != nil {
			return DedupResult{}, err
		}
	}
	own := func(c Scored) bool { return in.OwnItemID != "" && c.ItemID == in.OwnItemID }
	// Dedup compares within the write's layer (spec §12.3.3: the hash set of layer l).
	var same []Scored
	for _, c := range cands {
		if c.Layer == in.Layer {
			same = append(same, c)
		}
	}
	// Tier 1: exact content hash.
	for _, c := range same {
		if c.ContentHash == in.ContentHash {
			r := reject(ReasonExactDuplicate, "identical to %s", c.Key)
			r.Related = []memory.RelatedItem{related(c, "DUPLICATES")}
			return DedupResult{Result: r}, nil
		}
	}
	// Tier 2: structural fingerprint.
	for _, c := range same {
		if !own(c) && string(c.Fingerprint) == string(in.Features.Fingerprint[:]) {
			return decide(in.Features.Text, c, ReasonStructuralDup, ReasonStructuralConflict), nil
		}
	}
	// Tier 3: semantic similarity.
	for _, c := range same {
		if !own(c) && in.Policy.NearDuplicate(c.Cosine) {
			return decide(in.Features.Text, c, ReasonSemanticDuplicate, ReasonSemanticConflict), nil
		}
	}
	return DedupResult{Result: accept()}, nil
}

func related(c Scored, relation string) memory.RelatedItem {
	return memory.RelatedItem{Relation: relation, ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key, Text: c.Text,
		Similarity: round3(c.Cosine), Confidence: c.Confidence, State: c.State}
}

// decide judges a near-duplicate by what the write adds to it. A write that
// differs from it in a number, date, name, negation or role is never
// rejected as its duplicate: it goes to a person, who keeps both or merges
// them with history.
func decide(text string, c Scored, dupReason, conflictReason string) DedupResult {
	if d, ok := judge.Differs(c.Text, text); ok {
		return DedupResult{Result: Result{Verdict: Defer, Reason: conflictReason, Related: []memory.RelatedItem{related(c, "NEAR_DUPLICATE")},
			Detail: fmt.Sprintf("near-duplicate of %s (similarity %.3f) that differs: %s", c.Key, c.Cosine, d.Explanation)}}
	}
	switch delta(text, c.Text) {
	case deltaEmpty:
		r := reject(dupReason, "adds nothing to %s (similarity %.3f)", c.Key, c.Cosine)
		r.Related = []memory.RelatedItem{related(c, "DUPLICATES")}
		return DedupResult{Result: r}
	case deltaSuperset:
		if c.State == memory.Active {
			target := c.Candidate
			return DedupResult{Target: &target, Result: Result{Verdict: Merge, Reason: dupReason,
				Related: []memory.RelatedItem{related(c, "MERGES_INTO")},
				Detail:  fmt.Sprintf("extends %s (similarity %.3f)", c.Key, c.Cosine)}}
		}
	}
	return DedupResult{Result: Result{Verdict: Defer, Reason: conflictReason, Related: []memory.RelatedItem{related(c, "NEAR_DUPLICATE")},
		Detail: fmt.Sprintf("near-duplicate of %s (similarity %.3f) with conflicting details", c.Key, c.Cosine)}}
}

type deltaKind int

const (
	deltaEmpty deltaKind = iota
	deltaSuperset
	deltaConflict
)

// delta compares the information in two texts by their word sets
// (compute_information_delta of spec §12.3.3).
func delta(newText, oldText string) deltaKind {
	nw, ow := wordSet(newText), wordSet(oldText)
	missing, extra := 0, 0
	for w := range ow {
		if !nw[w] {
			missing++
		}
	}
	for w := range nw {
		if !ow[w] {
			extra++
		}
	}
	switch {
	case missing == 0 && extra == 0:
		return deltaEmpty
	case missing == 0:
		return deltaSuperset
	}
	return deltaConflict
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.FieldsFunc(judge.Normalize(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 || r == '$' || r == '.' || r == ',')
	}) {
		f = strings.Trim(f, ".,")
		if f != "" && f != "a" && f != "an" && f != "the" {
			out[f] = true
		}
	}
	return out
}
