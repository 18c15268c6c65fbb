package gate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/memgov/memgov"
	"github.com/memgov/memgov/engine/judge"
	"github.com/memgov/memgov/engine/memory"
	"github.com/memgov/memgov/engine/policy"
	"github.com/memgov/memgov/engine/similar"
)

// Judge is an optional external contradiction checker (an NLI model or an
// LLM): it scores how strongly b contradicts a, in [0,1].
type Judge interface {
	Contradiction(ctx context.Context, a, b string) (float64, error)
}

// TopicReader reads a write's same-topic neighbours from the full-text index.
type TopicReader interface {
	TopicCandidates(ctx context.Context, q memgov.TopicQuery) ([]memgov.Candidate, error)
}

// ContradictionInput is what the contradiction gate needs.
type ContradictionInput struct {
	MemoryRef   string
	Layer       memgov.Layer
	ContentHash string
	Features    memory.Features
	// Confidence is the write's confidence on the scale of the stored
	// confidences it is compared with (spec §12.2.4 compares like with like): the
	// adjusted confidence when the evidence gate scored the write.
	Confidence float64
	// OwnItemID is the item the write updates, if any: it does not
	// contradict itself.
	OwnItemID string
	Policy    *policy.Policy
	// Rules is the rule-based judge (relation cardinalities from the
	// policy); nil: the judge package's defaults.
	Rules *judge.Judge
	Judge Judge // nil: no external (model) judge
	// Reader reads the duplicate candidates (content hash, fingerprint,
	// subject, SimHash bands); Topics, when set, the same-topic neighbours
	// (full-text BM25 within the memoryRef and layer, and the same
	// extracted subject), whatever their cosine.
	Reader CandidateReader
	Topics TopicReader
	// ModelNeighbours are versions a configured embedder finds near the
	// write; they are compared as topic neighbours.
	ModelNeighbours []string
}

// ContradictionResult is what the contradiction gate finds.
type ContradictionResult struct {
	Result
	// Candidates are the write's duplicate candidates, most similar first;
	// nil when the gate did not look (non-durable layers).
	Candidates []Scored
	// Topical are the same-topic neighbours the gate compared besides them.
	Topical []Scored
	// Contradicts are the items the write contradicts (empty when the
	// resolution keeps both).
	Contradicts []memgov.RelatedItem
	// Supersedes is the key of the entry an UPDATE would retire.
	Supersedes string
	// Novel: no neighbour shares the write's topic or subject.
	Novel bool
	// Finding notes a contradiction the resolution let pass.
	Finding string
	// JudgeError is set when the external judge failed; the write then goes
	// to a person (MODEL_UNAVAILABLE).
	JudgeError error
	// JudgeTime is the time the gate spent in the rule-based judge
	// (reading and comparing texts), a part of its own.
	JudgeTime time.Duration
}

// Contradiction finds contradicting items (spec §12.2.4) among the write's
// duplicate candidates and its same-topic neighbours: the rule-based judge on
// plain text (another value of a single-valued relation, a negation of an
// active claim, antonyms, conflicting numbers or dates), the same subject and
// predicate with another object for structured content, and an external
// judge's verdict when one is configured; and resolves them per memory
// typology (ResolveConflict).
type Contradiction struct{}

// Name returns NameContradiction.
func (Contradiction) Name() string { return NameContradiction }

// modelComparisons caps the neighbours an external judge is asked about per
// write: the most topical ones.
const modelComparisons = 5

// Evaluate compares a durable write with its neighbours.
func (Contradiction) Evaluate(ctx context.Context, in ContradictionInput) (ContradictionResult, error) {
	if !in.Layer.Durable() {
		return ContradictionResult{Result: accept()}, nil
	}
	feat, topic := in.Features, in.Policy.Contradiction.TopicSimilarity
	topicRead := in.Topics != nil && strings.TrimSpace(feat.Text) != ""
	// Where the gate prunes the candidates (nearCandidates), it reads
	// first only what it prunes them by, and the texts of those it keeps.
	rows, light := in.Reader.(CandidateRowReader)
	light = light && topicRead && in.ModelNeighbours == nil
	var (
		cands []Scored
		err   error
	)
	if light {
		// The band candidates serve the semantic near-duplicate tier
		// (cosine >= dedup.semantic): a same-topic neighbour below it is
		// the topic query's to find, by the words the texts share. A
		// SimHash band finds a pair at cosine 0.8 one time in three, so
		// reading every band member for it (about 90 versions a write at
		// 100,000 items, each with its vector) bought little.
		cands, err = loadLight(ctx, in.Reader, in.MemoryRef, in.ContentHash, in.Features, in.Policy.Dedup.Semantic)
	} else {
		cands, err = LoadCandidates(ctx, in.Reader, in.MemoryRef, in.ContentHash, in.Features)
	}
	if err != nil {
		return ContradictionResult{}, err
	}
	seen := map[string]bool{}
	for _, c := range cands {
		seen[c.VersionID] = true
	}
	var topical []Scored
	topicHit := map[string]bool{} // every version the topic query found, candidates included
	read := map[string]memgov.Candidate{}
	if topicRead {
		k := in.Policy.Contradiction.Candidates
		if k <= 0 {
			k = 20
		}
		ts, err := in.Topics.TopicCandidates(ctx, memgov.TopicQuery{MemoryRef: in.MemoryRef, Layer: in.Layer, Text: feat.Text, Subject: feat.Subject, Limit: k,
			VersionIDs: in.ModelNeighbours})
		if err != nil {
			return ContradictionResult{}, fmt.Errorf("read topic candidates: %w", err)
		}
		query := similar.NewQuery(feat.Embedding)
		for _, c := range ts {
			topicHit[c.VersionID] = true
			if light && seen[c.VersionID] && (c.State == memgov.Active || c.State == memgov.Draft) {
				read[c.VersionID] = c // a light candidate the topic query read in full
			}
			if seen[c.VersionID] || (c.State != memgov.Active && c.State != memgov.Draft) {
				continue
			}
			seen[c.VersionID] = true
			s := Scored{Candidate: c}
			if len(c.Embedding) > 0 {
				if cos, err := query.CosineEncoded(c.Embedding); err == nil {
					s.Cosine = cos
				}
			}
			topical = append(topical, s)
		}
	}
	rules := in.Rules
	if rules == nil {
		rules = defaultRules
	}
	near := cands
	if topicRead && in.ModelNeighbours == nil {
		near = nearCandidates(in, cands, topicHit, topic)
	}
	if light {
		// The loop below judges topical candidates only, each of them
		// near: those left out change nothing it finds.
		if near, err = fillCandidates(ctx, rows, near, read); err != nil {
			return ContradictionResult{}, err
		}
		cands = near
	}
	// The judge answers from the stored sketches of the texts it has not
	// read where they prove the answer (judge.Remember); reading them is
	// the judge's time too.
	t0 := time.Now()
	for _, l := range [][]Scored{cands, topical} {
		for _, c := range l {
			rules.Remember(c.Text, c.Sketch)
		}
	}
	out := ContradictionResult{Result: accept(), Candidates: near, Topical: topical, Novel: true, JudgeTime: time.Since(t0)}
	var found []memgov.RelatedItem
	var layers []memgov.Layer
	asked := 0
	var contradicts func(string) judge.Verdict // the write's text read once, on first use
	for i, c := range append(append([]Scored{}, cands...), topical...) {
		isTopical := i >= len(cands) || c.Cosine >= topic || (feat.Subject != "" && c.Subject == feat.Subject)
		if isTopical {
			out.Novel = false
		}
		if in.OwnItemID != "" && c.ItemID == in.OwnItemID {
			continue
		}
		if !isTopical {
			// A band candidate that shares neither the topic nor the
			// subject is a duplicate candidate only: judging every one of
			// them would cost each write hundreds of comparisons.
			continue
		}
		why := ""
		t0 := time.Now()
		if contradicts == nil {
			contradicts = rules.ContradictionWith(feat.Text)
		}
		v := contradicts(c.Text)
		out.JudgeTime += time.Since(t0)
		if v.Contradicts {
			// The rule's name, then the claims or words that fired it.
			why = v.Explanation
			if !strings.HasPrefix(why, v.Rule+":") {
				why = v.Rule + ": " + why
			}
		} else if feat.Object != "" && c.Object != "" && feat.Subject != "" && c.Subject == feat.Subject &&
			c.Predicate == feat.Predicate && c.Object != feat.Object {
			why = fmt.Sprintf("%s: %s %s %q, not %q", RuleStructuredObject, feat.Subject, feat.Predicate, feat.Object, c.Object)
		} else if in.Judge != nil && out.JudgeError == nil && asked < modelComparisons {
			asked++
			s, err := in.Judge.Contradiction(ctx, c.Text, feat.Text)
			if err != nil {
				out.JudgeError = err
				continue
			}
			if s >= in.Policy.Contradiction.NLIScore {
				why = fmt.Sprintf("%s: judge %.2f", RuleModelJudge, s)
			}
		}
		if why == "" {
			continue
		}
		found = append(found, memgov.RelatedItem{Relation: "CONTRADICTS", ItemID: c.ItemID, VersionID: c.VersionID, Key: c.Key,
			Text: c.Text, Similarity: round3(c.Cosine), Confidence: c.Confidence, State: c.State})
		layers = append(layers, c.Layer)
		if out.Finding == "" {
			out.Finding = why
		}
	}
	out.Result = resolve(in, found, layers, &out)
	if out.JudgeError != nil && out.Verdict == Accept {
		// A judge that cannot judge routes the write to a person.
		out.Result = verdict(Defer, ReasonModelUnavailable, "the contradiction judge failed: %v", out.JudgeError)
	}
	return out, nil
}

// nearCandidates is what the gate hands the dedup gate of the candidates it
// read: those of the write's content hash, fingerprint or subject, those
// whose vector is at the topic similarity or nearer, and those the topic
// query also found. A band candidate far by its vector that shares no
// rare word with the write is a chance collision of the SimHash bands (one
// in 65,536 a band for unrelated texts, tens of them a write in a store of
// 100,000): the contradiction loop below never judges it (it is not
// topical), and reading its words for the dedup gate's lexical tier cost
// each write more than every other comparison together. A text that shares
// the write's words is among its topic neighbours, which the lexical tier
// reads. With a model's neighbours the gate keeps every candidate: the
// model's similarities, not the vectors', then say which are near.
func nearCandidates(in ContradictionInput, cands []Scored, found map[string]bool, topic float64) []Scored {
	feat := in.Features
	out := make([]Scored, 0, len(cands))
	for _, c := range cands {
		if c.Cosine >= topic || c.ContentHash == in.ContentHash || string(c.Fingerprint) == string(feat.Fingerprint[:]) ||
			feat.Subject != "" && c.Subject == feat.Subject || found[c.VersionID] {
			out = append(out, c)
		}
	}
	return out
}

// Contradiction rules the gate applies itself, besides the judge's
// (judge.ContradictionRules).
const (
	// RuleStructuredObject: structured content with the same subject and
	// predicate as a stored item and another object.
	RuleStructuredObject = "structured-object"
	// RuleModelJudge: the configured external judge scored the pair at or
	// above the policy's contradiction.nli_score.
	RuleModelJudge = "model-judge"
)

// defaultRules is the rule-based judge with the default cardinalities.
var defaultRules = judge.New(nil)

// resolve turns the contradictions found into a verdict (ResolveConflict).
// spec §12.2.4 weighs like with like: the confidences of items of the write's own
// layer. A durable fact or procedure that contradicts an item of another
// layer is neither refused nor allowed to supersede it by that comparison: a
// person decides.
func resolve(in ContradictionInput, found []memgov.RelatedItem, layers []memgov.Layer, out *ContradictionResult) Result {
	if len(found) == 0 {
		return accept()
	}
	var same []memgov.RelatedItem
	maxConf, cross := 0.0, ""
	for i, f := range found {
		if layers[i] != in.Layer {
			if cross == "" {
				cross = fmt.Sprintf("%s (%s)", f.Key, layers[i])
			}
			continue
		}
		same = append(same, f)
		maxConf = max(maxConf, f.Confidence)
	}
	if cross != "" && in.Layer != memgov.Episodic {
		out.Contradicts = found
		why := fmt.Sprintf("contradicts %s, an item of another layer; a person decides", cross)
		if out.Finding != "" {
			why += " (" + out.Finding + ")"
		}
		return Result{Verdict: Defer, Reason: ReasonContradiction, Related: found, Detail: why}
	}
	if len(same) == 0 {
		same = found
	}
	res := ResolveConflict(in.Layer, in.Confidence, maxConf, same)
	why := res.Why
	if out.Finding != "" {
		why += " (" + out.Finding + ")"
	}
	switch {
	case res.Keep:
		out.Finding = why
		return accept()
	case res.Action == ResolveUpdate:
		out.Contradicts, out.Supersedes = found, res.Supersedes
		return Result{Verdict: Defer, Reason: ReasonContradiction, Related: found, Detail: why}
	case res.Action == ResolveAdd:
		out.Contradicts = found
		return Result{Verdict: Defer, Reason: ReasonContradiction, Related: found, Detail: why}
	}
	out.Contradicts = found
	r := reject(ReasonContradiction, "%s", why)
	r.Related = found
	return r
}

// Conflict resolution per memory typology (spec §13.10, Mem0's
// ADD / UPDATE / DELETE / NOOP decisions with Zep's temporal validity;
// spec §12.9.4 human-mediated resolution for durable facts).
type Resolution string

// Resolutions.
const (
	ResolveAdd    Resolution = "ADD"    // nothing conflicts: the write is a new entry
	ResolveUpdate Resolution = "UPDATE" // the write supersedes what it contradicts, once a person agrees
	ResolveDelete Resolution = "DELETE" // the contradicted entry is removed (never chosen automatically: spec §13.16, "no hard DELETE")
	ResolveNoop   Resolution = "NOOP"   // memory keeps what it has
)

// ConflictResolution is what ResolveConflict decides about a contradicting write.
type ConflictResolution struct {
	Action Resolution
	// Keep: the write proceeds; otherwise an ADD or UPDATE goes to a
	// person and a NOOP refuses the write, memory keeping the existing
	// entry.
	Keep bool
	// Supersedes is the key of the entry an UPDATE retires: on approval it
	// gets a SUPERSEDE entry (invalid_at = then) and the write becomes ACTIVE
	// (valid_at = then). Both stay for audit.
	Supersedes string
	Why        string
}

// ResolveConflict is the one place the contradiction path decides per typology:
//
//   - EPISODIC: ADD through review — episodes accumulate and approval keeps
//     both, but a contradicting episode never commits silently beside the
//     one it contradicts: a person sees the conflict first.
//   - SEMANTIC: UPDATE with temporal validity when the write is more confident
//     than what it contradicts (highest-confidence-wins, spec §12.9.4), through
//     review; otherwise NOOP: the established fact stands and the write is
//     refused.
//   - PROCEDURAL: UPDATE with supersession — the latest procedure wins, through
//     review; the prior version is SUPERSEDED, never overwritten or deleted.
//
// maxConf is the highest confidence among found.
func ResolveConflict(layer memgov.Layer, writeConf, maxConf float64, found []memgov.RelatedItem) ConflictResolution {
	if len(found) == 0 {
		return ConflictResolution{Action: ResolveAdd, Keep: true}
	}
	first := found[0].Key
	switch layer {
	case memgov.Episodic:
		return ConflictResolution{Action: ResolveAdd,
			Why: fmt.Sprintf("contradicts the episode %s; episodes accumulate, so approval keeps both, once a person has seen the conflict", first)}
	case memgov.Procedural:
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
