package gate

import (
	"context"
	"fmt"
	"strings"

	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/similar"
)

// Judge is an optional external contradiction checker (an NLI model or an
// LLM): it scores how strongly b contradicts a, in [0,1].
type Judge interface {
	Contradiction(ctx context.Context, a, b string) (float64, error)
}

// ContradictionInput is what the contradiction gate needs.
type ContradictionInput struct {
	MemoryRef   string
	Layer       memory.Layer
	ContentHash string
	Features    memory.Features
	Confidence  float64 // the writer's confidence
	// OwnItemID is the item the write updates, if any: it does not
	// contradict itself.
	OwnItemID string
	Policy    *policy.Policy
	Judge     Judge // nil: no external judge
	Reader    CandidateReader
}

// ContradictionResult is what the contradiction gate finds.
type ContradictionResult struct {
	Result
	// Candidates are the write's neighbours, most similar first; nil when
	// the gate did not look (non-durable layers).
	Candidates []Scored
	// Contradicts are the items the write contradicts (empty when the
	// resolution keeps both).
	Contradicts []memory.RelatedItem
	// Supersedes is the key of the entry an UPDATE would retire.
	Supersedes string
	// Novel: no neighbour shares the write's topic or subject.
	Novel bool
	// Finding notes a contradiction the resolution let pass.
	Finding string
	// JudgeError is set when the external judge failed; the write then goes
	// to a person (MODEL_UNAVAILABLE).
	JudgeError error
}

// Contradiction finds contradicting items (12.2.4): the same subject and
// predicate with another object, or a negation conflict among semantic
// neighbours above the topic threshold, or an external judge's verdict; and
// resolves them per memory typology (resolveConflict).
type Contradiction struct{}

// Name returns NameContradiction.
func (Contradiction) Name() string { return NameContradiction }

// Evaluate compares a durable write with its neighbours.
func (Contradiction) Evaluate(ctx context.Context, in ContradictionInput) (ContradictionResult, error) {
	if !in.Layer.Durable() {
		return ContradictionResult{Result: accept()}, nil
	}
	cands, err := LoadCandidates(ctx, in.Reader, in.MemoryRef, in.ContentHash, in.Features)
	if err != nil {
		return ContradictionResult{}, err
	}
	out := ContradictionResult{Result: accept(), Candidates: cands, Novel: true}
	feat, topic := in.Features, in.Policy.Contradiction.TopicSimilarity
	writeNegated := negated(feat.Text)
	var found []memory.RelatedItem
	maxConf := 0.0
	for _, c := range cands {
		if c.Cosine >= topic || (feat.Subject != "" && c.Subject == feat.Subject) {
			out.Novel = false
		}
		if in.OwnItemID != "" && c.ItemID == in.OwnItemID {
			continue
		}
		why := ""
		switch {
		case feat.Subject != "" && c.Subject == feat.Subject && c.Predicate == feat.Predicate &&
			c.Object != "" && feat.Object != "" && c.Object != feat.Object:
			why = "same subject and predicate, another object"
		case c.Cosine >= topic && writeNegated != negated(c.Text):
			why = "negation"
		case in.Judge != nil && c.Cosine >= topic && out.JudgeError == nil:
			s, err := in.Judge.Contradiction(ctx, c.Text, feat.Text)
			if err != nil {
				out.JudgeError = err
				continue
			}
			if s >= in.Policy.Contradiction.NLIScore {
				why = fmt.Sprintf("judge %.2f", s)
			}
		}
		if why == "" {
			continue
		}
		found = append(found, memory.RelatedItem{Relation: "CONTRADICTS", ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key,
			Text: c.Text, Similarity: round3(c.Cosine), Confidence: c.Confidence, State: c.State})
		if c.Confidence > maxConf {
			maxConf = c.Confidence
		}
	}
	out.Result = resolve(in, found, maxConf, &out)
	if out.JudgeError != nil && out.Verdict == Accept {
		// A judge that cannot judge routes the write to a person.
		out.Result = verdict(Defer, ReasonModelUnavailable, "the contradiction judge failed: %v", out.JudgeError)
	}
	return out, nil
}

// resolve turns the contradictions found into a verdict (ResolveConflict).
func resolve(in ContradictionInput, found []memory.RelatedItem, maxConf float64, out *ContradictionResult) Result {
	if len(found) == 0 {
		return accept()
	}
	res := ResolveConflict(in.Layer, in.Confidence, maxConf, found)
	switch {
	case res.Keep:
		out.Finding = res.Why
		return accept()
	case res.Action == ResolveUpdate:
		out.Contradicts, out.Supersedes = found, res.Supersedes
		return Result{Verdict: Defer, Reason: ReasonContradiction, Related: found, Detail: res.Why}
	}
	out.Contradicts = found
	r := reject(ReasonContradiction, "%s", res.Why)
	r.Related = found
	return r
}

var negations = []string{" not ", " no ", " never ", "n't ", " none ", " cannot ", " without "}

func negated(s string) bool {
	t := " " + similar.Normalize(s) + " "
	for _, n := range negations {
		if strings.Contains(t, n) {
			return true
		}
	}
	return false
}

// Conflict resolution per memory typology (seed 003 section 10, Mem0's
// ADD / UPDATE / DELETE / NOOP decisions with Zep's temporal validity;
// 12.9.4 human-mediated resolution for durable facts).
type Resolution string

// Resolutions.
const (
	ResolveAdd    Resolution = "ADD"    // nothing conflicts: the write is a new entry
	ResolveUpdate Resolution = "UPDATE" // the write supersedes what it contradicts, once a person agrees
	ResolveDelete Resolution = "DELETE" // the contradicted entry is removed (never chosen automatically: seed 003 "no hard DELETE")
	ResolveNoop   Resolution = "NOOP"   // memory keeps what it has
)

// ConflictResolution is what ResolveConflict decides about a contradicting write.
type ConflictResolution struct {
	Action Resolution
	// Keep: the write proceeds (episodic NOOP keeps both); otherwise a
	// NOOP refuses the write and memory keeps the existing entry.
	Keep bool
	// Supersedes is the key of the entry an UPDATE retires: on approval it
	// gets a SUPERSEDE entry (invalid_at = then) and the write becomes ACTIVE
	// (valid_at = then). Both stay for audit.
	Supersedes string
	Why        string
}

// ResolveConflict is the one place the contradiction path decides per typology:
//
//   - EPISODIC: NOOP, both kept — episodes are events, not claims; a
//     contradiction is itself an observation.
//   - SEMANTIC: UPDATE with temporal validity when the write is more confident
//     than what it contradicts (highest-confidence-wins, 12.9.4), through
//     review; otherwise NOOP: the established fact stands and the write is
//     refused.
//   - PROCEDURAL: UPDATE with supersession — the latest procedure wins, through
//     review; the prior version is SUPERSEDED, never overwritten or deleted.
//
// maxConf is the highest confidence among found.
func ResolveConflict(layer memory.Layer, writeConf, maxConf float64, found []memory.RelatedItem) ConflictResolution {
	if len(found) == 0 {
		return ConflictResolution{Action: ResolveAdd, Keep: true}
	}
	first := found[0].Key
	switch layer {
	case memory.Episodic:
		return ConflictResolution{Action: ResolveNoop, Keep: true,
			Why: fmt.Sprintf("contradicts the episode %s; episodes accumulate, both are kept", first)}
	case memory.Procedural:
		return ConflictResolution{Action: ResolveUpdate, Supersedes: first,
			Why: fmt.Sprintf("a new procedure for %s; proposed to supersede it (the latest procedure wins)", first)}
	}
	if writeConf > maxConf {
		return ConflictResolution{Action: ResolveUpdate, Supersedes: first,
			Why: fmt.Sprintf("contradicts %s; proposed to supersede it (confidence %.2f > %.2f)", first, writeConf, maxConf)}
	}
	return ConflictResolution{Action: ResolveNoop,
		Why: fmt.Sprintf("contradicts %s (confidence %.2f is not above %.2f); the established fact stands", first, writeConf, maxConf)}
}
